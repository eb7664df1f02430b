"""A group's nights version (issue 45): it rises with every change to any of the group's
nights, so a kept scoreboard that shows another night's news (a pot waiting from it) is
kept under it as well as under its own night's version.

Revision ID: c2e7f41a9d05
Revises: f3b8a2d6c4e1
Create Date: 2026-11-29 06:20:00.000000

Added in place (no table rebuilt on SQLite, so the groups' ids stay never reused); the
groups there are start at 0, as every page kept before the upgrade is gone with its process.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c2e7f41a9d05"
down_revision = "f3b8a2d6c4e1"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "groups",
        sa.Column("nights_version", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade():
    with op.batch_alter_table("groups", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("nights_version")
