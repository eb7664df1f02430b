"""A scoreboard build reads the session's row for its view and does not read it again for the
chart: one query less on every new hand, a round trip less on PostgreSQL."""

from __future__ import annotations

import pytest

from ledger import services
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


def test_the_chart_of_a_session_just_read_is_the_same_in_one_query_less(night, app):
    sid, group = night
    with app.app_context():
        view = services.session_view(group, sid)
        alone = services.score_history(group, sid, points=4)
        given = services.score_history(group, sid, points=4, session=view)
        assert given == alone and given[-1][0] == 7
        assert (
            count_queries(app, lambda: services.score_history(group, sid, points=4, session=view))
            == count_queries(app, lambda: services.score_history(group, sid, points=4)) - 1
        )


def test_a_view_of_another_session_or_group_charts_nothing(night, table, other, app):
    sid, group = night
    second = table.session()["id"]
    with app.app_context():
        view = services.session_view(group, sid)
        stranger = services.authenticate(other.slug, other.passphrase)
        with pytest.raises(services.NotFound):
            services.score_history(stranger, sid, session=view)
        with pytest.raises(services.NotFound):
            services.score_history(group, second, session=view)
