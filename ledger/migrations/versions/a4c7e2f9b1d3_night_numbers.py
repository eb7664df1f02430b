"""A night's number, stored: ``sessions.series`` and ``sessions.number``.

Revision ID: a4c7e2f9b1d3
Revises: f3b8e1c2a7d9
Create Date: 2026-11-28 10:30:00.000000

Issue 36: a night is named by its game and its number per game in its group ("Spot #2";
Any game counts per name: "Hearts #1", "Whist #1"), given when it starts and kept for life.
The nights there are get theirs in the order they were started (then by id), per group and
series (ledger/rules/nights.py, copied here as it is today: a migration never changes with
the code). One number per series and group: two nights started at once cannot share one.

SQLite copies the table to make the columns NOT NULL: AUTOINCREMENT is passed again so the
copy keeps it (revision f3b8e1c2a7d9).
"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a4c7e2f9b1d3"
down_revision = "f3b8e1c2a7d9"
branch_labels = None
depends_on = None

SERIES_LENGTH = 150

sessions = sa.table(
    "sessions",
    sa.column("id", sa.Integer),
    sa.column("group_id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("options", sa.JSON),
    sa.column("started_at", sa.DateTime),
    sa.column("series", sa.String),
    sa.column("number", sa.Integer),
)


def series(game, options):
    """ledger/rules/nights.py's series as of this revision."""
    name = (options or {}).get("name")
    name = " ".join(name.split()) if isinstance(name, str) else ""
    return f"{game}:{name.casefold()}" if name else game


def upgrade():
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("series", sa.String(length=SERIES_LENGTH), nullable=True))
        batch_op.add_column(sa.Column("number", sa.Integer(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(sessions.c.id, sessions.c.group_id, sessions.c.game, sessions.c.options).order_by(
            sessions.c.started_at, sessions.c.id
        )
    ).all()
    counted: defaultdict[tuple[int, str], int] = defaultdict(int)
    for row in rows:
        key = series(row.game, row.options)
        counted[(row.group_id, key)] += 1
        bind.execute(
            sessions.update()
            .where(sessions.c.id == row.id)
            .values(series=key, number=counted[(row.group_id, key)])
        )
    with op.batch_alter_table(
        "sessions", schema=None, table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.alter_column(
            "series", existing_type=sa.String(length=SERIES_LENGTH), nullable=False
        )
        batch_op.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch_op.create_unique_constraint(
            batch_op.f("uq_sessions_group_id_series_number"), ["group_id", "series", "number"]
        )


def downgrade():
    with op.batch_alter_table(
        "sessions", schema=None, table_kwargs={"sqlite_autoincrement": True}
    ) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_sessions_group_id_series_number"), type_="unique")
        batch_op.drop_column("number")
        batch_op.drop_column("series")
