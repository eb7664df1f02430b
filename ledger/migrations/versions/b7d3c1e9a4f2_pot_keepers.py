"""Pot keepers: who keeps a session's carried-on pot, and who brought the pot it opened with.

Revision ID: b7d3c1e9a4f2
Revises: b7d41e9a2c63
Create Date: 2026-11-23 08:00:00.000000

Issue 14 (RULES.md §2 "The pot keeper"): a night finished with ``carry`` may name the player
who takes the pot home; the session that opens with it records who brought it, whose balance
there starts at minus the pot. Sessions finished before have no keeper (NULL): their pots
belong to nobody, as they always did.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7d3c1e9a4f2"
down_revision = "b7d41e9a2c63"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pot_keeper_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("carried_in_keeper_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_sessions_pot_keeper_id_players"), "players", ["pot_keeper_id"], ["id"]
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_sessions_carried_in_keeper_id_players"),
            "players",
            ["carried_in_keeper_id"],
            ["id"],
        )


def downgrade():
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_sessions_carried_in_keeper_id_players"), type_="foreignkey"
        )
        batch_op.drop_constraint(
            batch_op.f("fk_sessions_pot_keeper_id_players"), type_="foreignkey"
        )
        batch_op.drop_column("carried_in_keeper_id")
        batch_op.drop_column("pot_keeper_id")
