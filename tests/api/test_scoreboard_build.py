"""A scoreboard build reads the session's row once for everything the page shows: its view,
the last hands, the hand just saved and the chart."""

from __future__ import annotations

import pytest

from ledger import services
from ledger.extensions import db
from ledger.services import hands
from ledger.services.loading import load_session
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2
from tests.api.test_hands import count_queries


@pytest.fixture
def night(table, app):
    sid = table.session()["id"]
    for i in range(7):
        table.hand(sid, SEED_HAND_2 if i % 3 == 2 else SEED_HAND_1)
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
    return sid, group


def test_the_scoreboard_reads_what_the_separate_reads_give(night, app):
    sid, group = night
    with app.app_context():
        board = services.scoreboard(group, sid, 3, saved=2, points=4)

        assert board.session == services.session_view(group, sid)
        assert list(board.recent) == services.recent_hands(group, sid, 3)
        assert [h.number for h in board.recent] == [5, 6, 7]
        assert board.saved == services.get_hand(group, sid, 2)
        assert list(board.history) == services.score_history(group, sid, points=4)
        assert board.history[-1][0] == 7


def test_the_scoreboard_reads_the_session_once_however_long_the_night(night, table, app):
    sid, group = night
    with app.app_context():
        separate = count_queries(
            app,
            lambda: (
                services.session_view(group, sid),
                services.recent_hands(group, sid, 3),
                services.score_history(group, sid),
            ),
        )
        together = count_queries(app, lambda: services.scoreboard(group, sid, 3))
    # The session's row, read once instead of three times; and the night's settle-up
    # (services/night.py), which reads the payments made at the table: one query more.
    assert together == separate - 2 + 1
    for _ in range(5):
        table.hand(sid, SEED_HAND_1)
    with app.app_context():
        assert count_queries(app, lambda: services.scoreboard(group, sid, 3)) == together


def test_a_hand_just_saved_that_is_gone_is_none_and_a_stranger_sees_nothing(night, other, app):
    sid, group = night
    with app.app_context():
        assert services.scoreboard(group, sid, 3, saved=99).saved is None
        stranger = services.authenticate(other.slug, other.passphrase)
        with pytest.raises(services.NotFound):
            services.scoreboard(stranger, sid, 3)


def test_a_hand_saved_between_the_sessions_read_and_the_hands_read_is_not_drawn(night, app):
    """The page draws the session as its row says: hands and chart stop at its hand count,
    so a hand another phone saves meanwhile never shows beside the older scores."""
    sid, group = night
    with app.app_context():
        row = load_session(group, sid)
        row.hands_played = 5  # as read just before hands 6 and 7 were saved
        assert [h.number for h in hands._last_hands(row, 3)] == [3, 4, 5]
        assert [n for n, _ in hands._history(row, 120)] == [1, 2, 3, 4, 5]
        db.session.rollback()
