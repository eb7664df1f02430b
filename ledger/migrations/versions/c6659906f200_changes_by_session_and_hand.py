"""An index on changes by session and hand number, for a hand's history in a long session.

Revision ID: c6659906f200
Revises: ed822dd6b942
Create Date: 2026-11-22 00:23:23.468930

A hand's page reads the changes of that one hand; with only the session's index it read
every change of the session (thousands in a long night). The new index leads with the
session, so it also serves reading a session's whole history, and the old one goes.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "c6659906f200"
down_revision = "ed822dd6b942"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("changes", schema=None) as batch_op:
        batch_op.create_index(
            "ix_changes_session_id_hand_number", ["session_id", "hand_number"], unique=False
        )
        batch_op.drop_index(batch_op.f("ix_changes_session_id"))


def downgrade():
    with op.batch_alter_table("changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_changes_session_id"), ["session_id"], unique=False)
        batch_op.drop_index("ix_changes_session_id_hand_number")
