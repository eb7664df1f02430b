"""Access grants (browser sign-ins, API tokens), wrong guesses per address, invite epochs.

Revision ID: 4aa8297fb16d
Revises: 5a1e0c3d9b27
Create Date: 2026-11-23 04:43:07.491473

Issue 11: a sign-in can be revoked on the server, API clients get tokens, one client address
is limited in its wrong guesses, and "sign out every phone" voids the invite links made so
far. Groups that exist get invite epoch 0. Browsers signed in before keep a cookie that
names no grant, so they are asked for the passphrase (or an invite link) once more.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "4aa8297fb16d"
down_revision = "5a1e0c3d9b27"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "address_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_address_failures")),
        sa.UniqueConstraint("key", name=op.f("uq_address_failures_key")),
    )
    op.create_table(
        "access_grants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("auth_epoch", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_access_grants_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_access_grants")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_access_grants_token_hash")),
    )
    with op.batch_alter_table("access_grants", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_access_grants_group_id"), ["group_id"], unique=False)

    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("invite_epoch", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade():
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.drop_column("invite_epoch")

    with op.batch_alter_table("access_grants", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_access_grants_group_id"))

    op.drop_table("access_grants")
    op.drop_table("address_failures")
