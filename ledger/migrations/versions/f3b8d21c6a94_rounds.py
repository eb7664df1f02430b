"""Rounds of drinks and food in the night's settle-up (RULES.md §6c).

Revision ID: f3b8d21c6a94
Revises: a4c7e2f9b1d3
Create Date: 2026-12-03 10:00:00.000000

Issue 39: a night keeps its rounds (``rounds``: who paid how many cents of the night's
currency, for whom with what shares, by player id; a request id so a resend records one),
and a payment at the table may be given in the currency (``payments.cents``). The new column
is added in place (no copy of ``payments``, whose ids stay never reused); ``rounds`` gets
AUTOINCREMENT on SQLite, as every table whose ids are addresses.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f3b8d21c6a94"
down_revision = "a4c7e2f9b1d3"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("what", sa.String(length=60), nullable=True),
        sa.Column("cents", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("shares", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_rounds_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"], ["players.id"], name=op.f("fk_rounds_payer_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint(
            "session_id", "request_id", name=op.f("uq_rounds_session_id_request_id")
        ),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_rounds_session_id"), "rounds", ["session_id"], unique=False)
    # ADD COLUMN in place on both databases: SQLite keeps the table (and its AUTOINCREMENT).
    op.add_column("payments", sa.Column("cents", sa.Integer(), nullable=True))


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        # DROP COLUMN in place (SQLite 3.35+), so the table keeps its AUTOINCREMENT.
        op.execute("ALTER TABLE payments DROP COLUMN cents")
    else:
        op.drop_column("payments", "cents")
    op.drop_index(op.f("ix_rounds_session_id"), table_name="rounds")
    op.drop_table("rounds")
