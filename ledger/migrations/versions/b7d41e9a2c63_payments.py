"""Payments made at the table to settle up (RULES.md §2 "Paying up").

Revision ID: b7d41e9a2c63
Revises: b7d41c2e9a63
Create Date: 2026-11-23 07:55:00.000000

Issue 14: a "paid" tick on the settle-up page is a payment recorded in the session, shared by
every phone, instead of a mark kept on one phone. Sessions that exist have no payments.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7d41e9a2c63"
down_revision = "b7d41c2e9a63"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("units", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["payee_id"], ["players.id"], name=op.f("fk_payments_payee_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"], ["players.id"], name=op.f("fk_payments_payer_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_payments_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payments")),
    )
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_payments_session_id"), ["session_id"], unique=False)


def downgrade():
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payments_session_id"))

    op.drop_table("payments")
