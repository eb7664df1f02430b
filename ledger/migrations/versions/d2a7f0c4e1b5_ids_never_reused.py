"""Ids never reused: groups, sessions and payments on SQLite get AUTOINCREMENT.

Revision ID: d2a7f0c4e1b5
Revises: b7d3c1e9a4f2
Create Date: 2026-11-26 11:00:00.000000

SQLite gives a new row the highest id plus one, so a session started by mistake, deleted
and started again took the deleted one's id, and its address (and a page kept for it) opened
the new night. With AUTOINCREMENT an id is used once. PostgreSQL's sequences never hand out
an id twice: nothing changes there. The tables are copied (batch mode), rows and ids kept;
SQLite's counter starts from the highest id copied.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "d2a7f0c4e1b5"
down_revision = "b7d3c1e9a4f2"
branch_labels = None
depends_on = None

TABLES = ("groups", "sessions", "payments")


def _recreate(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        with op.batch_alter_table(
            table, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ):
            pass


def upgrade():
    _recreate(True)


def downgrade():
    _recreate(False)
