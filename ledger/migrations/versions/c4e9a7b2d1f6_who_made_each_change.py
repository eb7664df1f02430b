"""Who made each change: the player named for it and the player whose phone it was made on.

Revision ID: c4e9a7b2d1f6
Revises: d8e2b6a4c9f1
Create Date: 2026-11-29 07:00:00.000000

RULES.md §20 ("this phone is Ann's"): every line of a session's history names who did it
("Ann entered hand 3", "Bob corrected hand 3 on Cas's phone"). Both are players of the
session's group, kept by id so a rename keeps them; a player no longer in the group leaves
NULL. Changes made before this revision name nobody (NULL): "a phone".
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c4e9a7b2d1f6"
down_revision = "d8e2b6a4c9f1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("changes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("by_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("phone_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_changes_by_id_players"),
            "players",
            ["by_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_changes_phone_id_players"),
            "players",
            ["phone_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("changes", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_changes_phone_id_players"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("fk_changes_by_id_players"), type_="foreignkey")
        batch_op.drop_column("phone_id")
        batch_op.drop_column("by_id")
