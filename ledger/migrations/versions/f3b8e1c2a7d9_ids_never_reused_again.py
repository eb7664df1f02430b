"""Ids never reused, again: AUTOINCREMENT back on every SQLite table that had it.

Revision ID: f3b8e1c2a7d9
Revises: f3a8c2d1e9b4
Create Date: 2026-11-28 10:00:00.000000

Revision d2a7f0c4e1b5 gave groups, sessions and payments AUTOINCREMENT (an id is used once,
so a deleted night's address and kept page never open a new one); revision e5c1a9d3b7f2
copied ``sessions`` to add a column and the copy lost it, so on a database upgraded through
it a night deleted and started again took the deleted one's id. Every table whose model
keeps ``sqlite_autoincrement`` and lacks it in the database is copied again with it (rows,
ids and links kept; SQLite's counter starts from the highest id copied). PostgreSQL's
sequences never hand out an id twice: nothing changes there.

Going down leaves AUTOINCREMENT in place: no revision needs an id used twice.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "f3b8e1c2a7d9"
down_revision = "f3a8c2d1e9b4"
branch_labels = None
depends_on = None

# Every table whose model says sqlite_autoincrement at this revision.
TABLES = ("groups", "sessions", "payments", "tab_payments", "seasons")


def has_autoincrement(table: str) -> bool:
    sql = (
        op.get_bind()
        .exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        )
        .scalar()
    )
    return sql is not None and "AUTOINCREMENT" in sql.upper()


def upgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        if has_autoincrement(table):
            continue
        with op.batch_alter_table(
            table, recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ):
            pass


def downgrade():
    pass
