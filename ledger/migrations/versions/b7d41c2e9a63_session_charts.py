"""The scoreboard chart's points kept per session, and the history's lines by kind (issue 17).

Revision ID: b7d41c2e9a63
Revises: 4aa8297fb16d
Create Date: 2026-11-23 08:20:00.000000

The chart's sample was read from the hands on every scoreboard build, the one read that grew
with the night. Each session now keeps its chart's points in a row of its own, updated with
every hand written. Sessions that exist get no row here: they are charted from their hands
as before until their next hand writes it.

A hand entered with a request id looks for an undone hand of that id among the session's
``hand.deleted`` lines: the index by session and kind finds those without reading every line
of a long night's history.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7d41c2e9a63"
down_revision = "4aa8297fb16d"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "session_charts",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("last", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_session_charts_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_session_charts")),
    )
    with op.batch_alter_table("changes", schema=None) as batch_op:
        batch_op.create_index("ix_changes_session_id_kind", ["session_id", "kind"], unique=False)


def downgrade():
    with op.batch_alter_table("changes", schema=None) as batch_op:
        batch_op.drop_index("ix_changes_session_id_kind")
    op.drop_table("session_charts")
