"""A request_id on sessions, so "Start the session" sent twice starts one session.

Revision ID: 5a1e0c3d9b27
Revises: c6659906f200
Create Date: 2026-11-22 12:50:00.000000

Like a hand's, it is unique within its scope (the group); sessions started before have none,
and NULLs never clash.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5a1e0c3d9b27"
down_revision = "c6659906f200"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("request_id", sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(
            batch_op.f("uq_sessions_group_id_request_id"), ["group_id", "request_id"]
        )


def downgrade():
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_sessions_group_id_request_id"), type_="unique")
        batch_op.drop_column("request_id")
