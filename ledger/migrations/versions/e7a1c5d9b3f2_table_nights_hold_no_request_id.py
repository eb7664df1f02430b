"""A club evening's table nights hold no request id: a client's request can never reach one.

Revision ID: e7a1c5d9b3f2
Revises: c4e9a7b2d1f6
Create Date: 2026-11-29 10:30:00.000000

The draw started each table's night with a request id of its own making
("evening-<id>-round-<n>-table-<t>"), and found a table's night by it, so a session a client
had started through the API with that id was taken as the table, and a client sending the id
of a table drawn already was answered with that table's night. The draw now finds its tables
by their rows (evening_tables) alone, and the ids the draw gave before are taken off its
nights, so those ids are a client's to use like any other.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "e7a1c5d9b3f2"
down_revision = "c4e9a7b2d1f6"
branch_labels = None
depends_on = None


def upgrade():
    op.execute(
        "UPDATE sessions SET request_id = NULL WHERE id IN (SELECT session_id FROM evening_tables)"
    )


def downgrade():
    # Nothing to give back: the draw before this revision looked a table's night up by its id
    # only while drawing that very round, so nights drawn already need none.
    pass
