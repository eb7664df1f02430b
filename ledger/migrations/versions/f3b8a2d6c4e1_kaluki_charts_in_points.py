"""Kaluki's scoreboard chart in penalty points (issue 37), not in money: the charts kept for
Kaluki sessions are dropped, and each is made again from its hands when next drawn
(services/charts.py does so for any session without one).

Revision ID: f3b8a2d6c4e1
Revises: f3b8d21c6a94
Create Date: 2026-11-27 09:00:00.000000
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "f3b8a2d6c4e1"
down_revision = "f3b8d21c6a94"
branch_labels = None
depends_on = None


def upgrade():
    op.execute(
        "DELETE FROM session_charts WHERE session_id IN "
        "(SELECT id FROM sessions WHERE game = 'kaluki')"
    )


def downgrade():
    # The charts are made again from the hands, in whatever the code of the time draws.
    op.execute(
        "DELETE FROM session_charts WHERE session_id IN "
        "(SELECT id FROM sessions WHERE game = 'kaluki')"
    )
