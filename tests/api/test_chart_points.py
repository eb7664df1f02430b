"""The scoreboard chart's points kept per session: always what the hands say, through hands
entered, corrected and undone, and the same as a session charted from its hands alone."""

from __future__ import annotations

import pytest
from sqlalchemy import delete

from ledger import services
from ledger.extensions import db
from ledger.models import SessionChart
from ledger.services import charts
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2
from tests.api.test_hands import count_queries


def check(app, table, sid: int) -> list[tuple[int, dict[str, int]]]:
    """The chart's points, after checking them against the hands and the chart made anew."""
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        every = {h.number: dict(h.scores_after) for h in services.list_hands(group, sid)}
        kept = services.score_history(group, sid)
        db.session.execute(delete(SessionChart).where(SessionChart.session_id == sid))
        anew = services.score_history(group, sid)
        db.session.rollback()
    assert kept == anew
    assert len(kept) <= charts.CHART_POINTS
    assert [n for n, _ in kept] == sorted({n for n, _ in kept})
    assert all(scores == every[n] for n, scores in kept)
    if every:
        assert kept[-1][0] == max(every)
    return kept


@pytest.fixture(autouse=True)
def few_points(monkeypatch):
    """Eight points a chart: a night of 40 hands doubles its grid's step twice."""
    monkeypatch.setattr(charts, "CHART_POINTS", 8)


def test_the_kept_points_follow_every_hand_entered_corrected_and_undone(table, app):
    sid = table.session()["id"]
    assert check(app, table, sid) == []
    for i in range(40):
        table.hand(sid, SEED_HAND_2 if i % 5 == 4 else SEED_HAND_1)
        if i in (0, 6, 7, 8, 15, 16, 17, 31, 32, 33, 39):
            check(app, table, sid)
    assert [n for n, _ in check(app, table, sid)] == [8, 16, 24, 32, 40]
    table.ok("PUT", f"/sessions/{sid}/hands/3", SEED_HAND_2)  # every later score moves
    check(app, table, sid)
    for number in (40, 39, 38):
        table.call("DELETE", f"/sessions/{sid}/hands/{number}")
        assert check(app, table, sid)[-1][0] == number - 1
    table.hand(sid, SEED_HAND_1)
    check(app, table, sid)


def test_a_session_without_kept_points_is_charted_from_its_hands_and_keeps_them_next(table, app):
    sid = table.session()["id"]
    for _ in range(20):
        table.hand(sid, SEED_HAND_1)
    with app.app_context():
        db.session.execute(delete(SessionChart).where(SessionChart.session_id == sid))
        db.session.commit()
    drawn = check(app, table, sid)
    table.hand(sid, SEED_HAND_2)
    with app.app_context():
        assert db.session.get(SessionChart, sid) is not None
    assert check(app, table, sid)[:-1] == drawn[: len(check(app, table, sid)) - 1]


def test_the_chart_is_one_row_read_however_long_the_night(table, app):
    short, long = table.session()["id"], table.session()["id"]
    table.hand(short, SEED_HAND_1)
    for _ in range(30):
        table.hand(long, SEED_HAND_1)
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        few = count_queries(app, lambda: services.score_history(group, short))
        many = count_queries(app, lambda: services.score_history(group, long))
    assert few == many == 2  # the session's row and its chart's


def test_kalukis_chart_draws_penalty_points_not_money(table, app):
    """Issue 37: Kaluki's chart drew each player's money (the antes, the buy-ins, the pot);
    its scoreboard is in penalty points (RULES.md §10), and so is its chart: through hands
    entered, corrected and undone, kept or made again from the hands."""
    from tests.api.test_new_games import kaluki_hand, kaluki_to_hand_6

    sid = kaluki_to_hand_6(table)
    table.ok("PUT", f"/sessions/{sid}/hands/1", kaluki_hand("Ann", Bob=50, Cas=30, Dee=40))
    table.ok("DELETE", f"/sessions/{sid}/hands/6", status=204)
    totals = table.ok("GET", f"/sessions/{sid}")["totals"]
    assert totals == {"Ann": 62, "Bob": 131, "Cas": 98, "Dee": 120}  # Bob 10 fewer
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        kept = services.score_history(group, sid)
        db.session.execute(delete(SessionChart).where(SessionChart.session_id == sid))
        anew = services.score_history(group, sid)
        db.session.rollback()
    assert kept == anew
    assert kept[-1] == (5, totals)
    assert kept[0] == (1, {"Ann": 0, "Bob": 50, "Cas": 30, "Dee": 40})
