"""The reads a scoreboard makes: one hand, the last few hands, the running scores for a chart.

Each answers what the full list of hands answers for the hands it returns, and reads the
same few rows however long the night has been.
"""

from __future__ import annotations

import pytest

from ledger import services
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2
from tests.api.test_hands import count_queries


@pytest.fixture
def night(table, app):
    """A session of 13 hands, and its group as the services take it."""
    sid = table.session()["id"]
    for i in range(13):
        table.hand(sid, SEED_HAND_2 if i % 3 == 2 else SEED_HAND_1)
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
    return sid, group


def as_json(hands):
    return [h.to_json() for h in hands]


def test_one_hand_is_the_hand_the_list_shows(night, app):
    sid, group = night
    with app.app_context():
        every = as_json(services.list_hands(group, sid))
        assert services.get_hand(group, sid, 5).to_json() == every[4]
        with pytest.raises(services.NotFound):
            services.get_hand(group, sid, 14)


def test_the_last_hands_come_oldest_first_and_never_more_than_were_played(night, app):
    sid, group = night
    with app.app_context():
        every = as_json(services.list_hands(group, sid))
        assert as_json(services.recent_hands(group, sid, 8)) == every[-8:]
        assert as_json(services.recent_hands(group, sid, 50)) == every
        assert services.recent_hands(group, sid, 0) == []


def test_the_chart_has_every_hand_of_a_short_night(night, app):
    sid, group = night
    with app.app_context():
        every = services.list_hands(group, sid)
        history = services.score_history(group, sid)
    assert history == [(h.number, dict(h.scores_after)) for h in every]


def test_a_long_nights_chart_spreads_its_points_and_ends_at_the_last_hand(night, app):
    sid, group = night
    with app.app_context():
        scores = {h.number: dict(h.scores_after) for h in services.list_hands(group, sid)}
        history = services.score_history(group, sid, points=4)
    numbers = [n for n, _ in history]
    assert len(numbers) == 4 and numbers == sorted(numbers) and numbers[-1] == 13
    assert all(after == scores[n] for n, after in history)


def test_a_session_without_hands_has_nothing_to_chart_or_list(table, app):
    sid = table.session()["id"]
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        assert services.score_history(group, sid) == []
        assert services.recent_hands(group, sid, 8) == []


def test_another_groups_session_is_not_found(night, other, app):
    sid, _group = night
    with app.app_context():
        stranger = services.authenticate(other.slug, other.passphrase)
        for read in (
            lambda: services.get_hand(stranger, sid, 1),
            lambda: services.recent_hands(stranger, sid, 8),
            lambda: services.score_history(stranger, sid),
        ):
            with pytest.raises(services.NotFound):
                read()


def test_the_scoreboards_reads_cost_the_same_queries_however_many_hands(night, table, app):
    long, group = night
    short = table.session()["id"]
    table.hand(short, SEED_HAND_1)
    with app.app_context():
        for read in (
            lambda s: services.get_hand(group, s, 1),
            lambda s: services.recent_hands(group, s, 8),
            lambda s: services.score_history(group, s, points=4),
            lambda s: services.hand_history(group, s, 1),
        ):
            assert count_queries(app, lambda r=read: r(short)) == count_queries(
                app, lambda r=read: r(long)
            )
