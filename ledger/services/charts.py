"""The scoreboard chart's points, kept per session (models.SessionChart) as hands are written.

A chart on a phone is a few hundred pixels wide, so it shows at most ``CHART_POINTS`` hands:
every hand of a short night, then the hands on a grid of a power-of-two step, and always the
last. A grid point never moves once drawn (the step only doubles, dropping every other
point), so a new hand changes the kept row by one point instead of the chart being sampled
again from thousands of hands: a scoreboard reads one row for its chart, at hand 2,000 as at
hand 20. The hand services call ``added``, ``undone`` and ``corrected`` in the transaction
that writes the hands, under the session's lock, so the row always matches them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Row, delete, select

from ledger.extensions import db
from ledger.models import GameSession, Hand, SessionChart
from ledger.rules.base import State

# A chart on a phone is a few hundred pixels wide: more points than this show nothing more.
CHART_POINTS = 120

Point = tuple[int, dict[str, int]]


def running(state: State | Mapping[str, Any]) -> dict[str, int]:
    """What the chart draws of a state (an engine's, or one stored as JSON): a game's points
    where it keeps them apart from its money (Kaluki's penalty points, RULES.md §10), else
    its scores."""
    if isinstance(state, State):
        return dict(state.totals or state.scores)
    return dict(state.get("totals") or state["scores"])


def sample(row: GameSession | Row[Any], points: int = CHART_POINTS) -> list[Point]:
    """``(hand number, every player's running scores after it)`` for the session's chart, in
    hand order, ending at its last hand; at most ``points`` of them, spread over the night.

    One read of the kept row; a session without one (restored from a backup, or older than
    the row) is sampled from its hands, on the same grid.
    """
    played = row.hands_played
    if played <= 0 or points <= 0:
        return []
    table = SessionChart.__table__
    # A plain Core read: the chart is only drawn here, never changed.
    chart = (
        db.session.connection()
        .execute(select(table.c.points, table.c.last).where(table.c.session_id == row.id))
        .first()
    )
    if chart is None:
        found = _from_hands(row, _step_for(played), played)
    else:
        found = [(int(n), dict(s)) for n, s in _with_last(chart) if n <= played]
    return _thinned(found, points)


def added(row: GameSession, number: int, scores: Mapping[str, int]) -> None:
    """Hand ``number`` was just saved, with these running scores after it."""
    chart = _kept(row, number - 1)
    kept = list(chart.points)
    step = chart.step
    if number % step == 0:
        kept.append([number, dict(scores)])
    while len(kept) >= CHART_POINTS:  # with the last hand, at most CHART_POINTS
        step *= 2
        kept = [p for p in kept if p[0] % step == 0]
    chart.step, chart.points, chart.last = step, kept, [number, dict(scores)]


def undone(row: GameSession, number: int, before: Mapping[str, int] | None) -> None:
    """Hand ``number`` (the last) was taken back; ``before`` the scores after the hand before
    it (None: it was the first)."""
    chart = _kept(row, number)
    chart.points = [p for p in chart.points if p[0] < number]
    chart.last = [number - 1, dict(before)] if before is not None and number > 1 else None


def corrected(row: GameSession, scores: Mapping[int, Mapping[str, int]]) -> None:
    """A correction changed the running scores of the hands in ``scores`` (by number)."""
    chart = _kept(row, row.hands_played)
    chart.points = [[n, dict(scores.get(n, s))] for n, s in chart.points]
    if chart.last is not None and chart.last[0] in scores:
        chart.last = [chart.last[0], dict(scores[chart.last[0]])]


def forgotten(session_ids: Sequence[int]) -> None:
    """The sessions' hands were rewritten (a player renamed): their charts are drawn from the
    hands again, and kept anew from their next hand."""
    db.session.execute(delete(SessionChart).where(SessionChart.session_id.in_(session_ids)))


def _kept(row: GameSession, played: int) -> SessionChart:
    """The session's kept chart as it stands with ``played`` hands saved, made from its hands
    if it has none yet (a restored session, one from before charts were kept)."""
    chart = db.session.get(SessionChart, row.id)
    if chart is None:
        step = _step_for(played)
        found = _from_hands(row, step, played) if played > 0 else []
        on_grid = [[n, s] for n, s in found if n % step == 0]
        last = [found[-1][0], found[-1][1]] if found else None
        chart = SessionChart(session_id=row.id, step=step, points=on_grid, last=last)
        db.session.add(chart)
    return chart


def _step_for(played: int) -> int:
    step = 1
    while played // step >= CHART_POINTS:
        step *= 2
    return step


def _from_hands(row: GameSession | Row[Any], step: int, played: int) -> list[Point]:
    """The grid's points and the last hand's, read from the hands themselves."""
    wanted = select(Hand.number, Hand.state_after["totals"], Hand.state_after["scores"]).where(
        Hand.session_id == row.id, Hand.number <= played
    )
    if step > 1:
        numbers = [*range(step, played + 1, step), played]
        wanted = wanted.where(Hand.number.in_(numbers))
    found = db.session.execute(wanted.order_by(Hand.number)).all()
    return [
        (number, running({"totals": totals, "scores": scores})) for number, totals, scores in found
    ]


def _with_last(chart: Any) -> list[list[Any]]:
    """The grid's points and the last hand's, of a kept chart (its object or its row)."""
    points = list(chart.points)
    if chart.last is not None and (not points or points[-1][0] != chart.last[0]):
        points.append(chart.last)
    return points


def _thinned(found: list[Point], points: int) -> list[Point]:
    """At most ``points`` of ``found``, evenly spread, the last always among them."""
    if len(found) <= points:
        return found
    keep = sorted({round(len(found) * k / points) - 1 for k in range(1, points + 1)})
    return [found[i] for i in keep]
