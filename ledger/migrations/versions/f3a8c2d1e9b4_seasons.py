"""Seasons: a league across nights (RULES.md §13).

Revision ID: f3a8c2d1e9b4
Revises: e5c1a9d3b7f2
Create Date: 2026-12-01 10:00:00.000000

Issue 40: a group's season of one game over a period of dates, its options, and once closed
the table and settle-up it closed with. Ids are never reused (AUTOINCREMENT on SQLite).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f3a8c2d1e9b4"
down_revision = "e5c1a9d3b7f2"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("game_name", sa.String(length=40), nullable=True),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("closed", sa.JSON(), nullable=True),
        sa.Column("on_tab", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_seasons_group_id_groups"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("group_id", "request_id", name=op.f("uq_seasons_group_id_request_id")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seasons_group_id"), ["group_id"], unique=False)


def downgrade():
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seasons_group_id"))
    op.drop_table("seasons")
