"""Club evenings: several tables at once (RULES.md §19).

Revision ID: d8e2b6a4c9f1
Revises: c2e7f41a9d05
Create Date: 2026-11-29 07:10:00.000000

Issue 50: an evening of one game, the players checked in, and each round's tables with the
night each plays. A round's tables are unique per (evening, round, table): two draws of the
same round at once end as one. Ids are never reused (AUTOINCREMENT on SQLite).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d8e2b6a4c9f1"
down_revision = "c2e7f41a9d05"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "evenings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("money", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("closed", sa.JSON(), nullable=True),
        sa.Column("on_tab", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_evenings_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evenings")),
        sa.UniqueConstraint("group_id", "request_id", name=op.f("uq_evenings_group_id_request_id")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("evenings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_evenings_group_id"), ["group_id"], unique=False)
    op.create_table(
        "evening_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("checked_in_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"],
            ["evenings.id"],
            name=op.f("fk_evening_players_evening_id_evenings"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_evening_players_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evening_players")),
        sa.UniqueConstraint(
            "evening_id", "player_id", name=op.f("uq_evening_players_evening_id_player_id")
        ),
    )
    with op.batch_alter_table("evening_players", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_evening_players_evening_id"), ["evening_id"], unique=False
        )
    op.create_table(
        "evening_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"],
            ["evenings.id"],
            name=op.f("fk_evening_tables_evening_id_evenings"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_evening_tables_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evening_tables")),
        sa.UniqueConstraint(
            "evening_id", "round", "number", name=op.f("uq_evening_tables_evening_id_round_number")
        ),
    )
    with op.batch_alter_table("evening_tables", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_evening_tables_evening_id"), ["evening_id"], unique=False
        )


def downgrade():
    op.drop_table("evening_tables")
    op.drop_table("evening_players")
    with op.batch_alter_table("evenings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_evenings_group_id"))
    op.drop_table("evenings")
