"""The tab and bank accounts (RULES.md §6a, §6b).

Revision ID: e5c1a9d3b7f2
Revises: d2a7f0c4e1b5
Create Date: 2026-11-26 12:10:00.000000

Issue 31: a money night may be finished onto the group's tab (``sessions.on_tab``), the tab
is paid by ``tab_payments`` (per group and currency, in cents), and a player may keep a bank
account with the group (``bank_accounts``). Nights that exist are not on the tab.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5c1a9d3b7f2"
down_revision = "d2a7f0c4e1b5"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("on_tab", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "tab_payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=10), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("cents", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_tab_payments_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["payee_id"], ["players.id"], name=op.f("fk_tab_payments_payee_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"], ["players.id"], name=op.f("fk_tab_payments_payer_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tab_payments")),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("tab_payments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tab_payments_group_id"), ["group_id"], unique=False)
    op.create_table(
        "bank_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("iban", sa.String(length=34), nullable=False),
        sa.Column("name", sa.String(length=70), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_bank_accounts_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bank_accounts")),
        sa.UniqueConstraint("player_id", name=op.f("uq_bank_accounts_player_id")),
    )


def downgrade():
    op.drop_table("bank_accounts")
    with op.batch_alter_table("tab_payments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tab_payments_group_id"))
    op.drop_table("tab_payments")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("on_tab")
