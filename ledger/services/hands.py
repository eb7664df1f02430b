"""Hands: entering one, reading them, correcting one (every later hand follows), undoing the last.

- Reading: ``list_hands``, ``iter_hands`` (streamed), ``get_hand``, ``recent_hands``,
  ``score_history`` (a chart's points), ``scoreboard`` (what the scoreboard page shows).
- Writing: ``add_hand``, ``correct_hand``, ``undo_hand``; ``hand_history`` tells what happened
  to a hand; ``preview_hand`` what a hand typed so far comes to, before it is saved. A
  request id sent again answers what its first send made (request_ids.py).

Each hand keeps the state after it, so adding a hand reads one row and plays one hand, and a
correction re-plays only from the corrected hand on.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Row, Table, Text, Update, bindparam, cast, select, update

from ledger.extensions import db
from ledger.models import Change, GameSession, Hand, utcnow
from ledger.rules.base import Entry, State
from ledger.rules.codecs import outcome_to_dict
from ledger.rules.errors import RuleError
from ledger.rules.gameparts import Preview, Typed
from ledger.services import charts
from ledger.services.actors import change_views
from ledger.services.building import build_session_view, hand_view, night_named
from ledger.services.charts import CHART_POINTS
from ledger.services.errors import Conflict, NotFound
from ledger.services.loading import (
    apply_seating,
    check_version,
    load_session,
    read_session,
    session_game,
)
from ledger.services.night import ScoreboardView, night_of
from ledger.services.unit_of_work import record, write
from ledger.services.views.groups import GroupRef
from ledger.services.views.hands import AddedHand, HandView
from ledger.services.views.sessions import ChangeView, SessionView

# What a hand's view is made of. A read takes these columns rather than Hand objects: it has
# no use for the identity map and change tracking that each object costs.
_VIEWED = (
    Hand.number,
    Hand.entry,
    Hand.outcome,
    Hand.state_after,
    Hand.request_id,
    Hand.revision,
    Hand.created_at,
    Hand.updated_at,
)
_HANDS = typing.cast(Table, Hand.__table__)
_VIEWED_COLUMNS = tuple(_HANDS.c[c.key] for c in _VIEWED)
# Rows fetched at a time when the hands are streamed.
_BATCH = 200


def list_hands(group: GroupRef, session_id: int) -> list[HandView]:
    """Every hand of the session, oldest first: two queries however many hands."""
    return list(iter_hands(group, session_id))


def iter_hands(
    group: GroupRef, session_id: int, after: int = 0, limit: int | None = None
) -> Iterator[HandView]:
    """The session's hands numbered above ``after``, oldest first, at most ``limit`` of them
    (None: all), read a batch at a time as they are taken.

    A caller that turns each hand into what it needs as it comes (an export writing rows)
    never holds every row and view of a long night at once, which also spares the garbage
    collector from going over them again and again. The session is checked at once (NotFound
    now, not at the first hand); the hands are read in the same transaction, on demand. A
    page of a long night is read through the (session, number) index: hand 4,900's page costs
    what hand 1's does.
    """
    row = load_session(group, session_id)
    wanted = select(*_VIEWED).where(Hand.session_id == row.id)
    if after > 0:
        wanted = wanted.where(Hand.number > after)
    if limit is not None:
        wanted = wanted.limit(limit)
    rows = db.session.execute(wanted.order_by(Hand.number).execution_options(yield_per=_BATCH))
    return (hand_view(r) for r in rows)


def hands_of_sessions(
    session_ids: Sequence[int], after: tuple[int, int], limit: int
) -> list[Row[Any]]:
    """At most ``limit`` hands of the sessions ``session_ids`` (the caller's, read for its
    group), by session id and number, from the one after hand ``after`` (a session id and a
    hand number): one query, as a page of nights' hands are read a chunk at a time. Each row
    has the session's id besides what ``hand_view`` takes."""
    session, number = after
    later = (Hand.session_id > session) | ((Hand.session_id == session) & (Hand.number > number))
    return list(
        db.session.execute(
            select(Hand.session_id, *_VIEWED)
            .where(Hand.session_id.in_(list(session_ids)), later)
            .order_by(Hand.session_id, Hand.number)
            .limit(limit)
        ).all()
    )


def get_hand(group: GroupRef, session_id: int, number: int) -> HandView:
    """Hand ``number`` of the session, or NotFound: two queries, however many hands."""
    row = load_session(group, session_id)
    hand = _hand_at(row, number)
    if hand is None:
        raise NotFound("{night} has no hand {number}.", night=night_named(row), number=number)
    return hand


def recent_hands(group: GroupRef, session_id: int, count: int) -> list[HandView]:
    """The last ``count`` hands, oldest first: what a scoreboard lists, read in two queries
    whether the night has had ten hands or two thousand."""
    row = load_session(group, session_id)
    return _last_hands(row, count)


def score_history(
    group: GroupRef, session_id: int, points: int = CHART_POINTS
) -> list[tuple[int, dict[str, int]]]:
    """``(hand number, every player's running score after it)`` for a chart of the session.

    Every hand while there are at most ``points``; after that at most ``points`` hands spread
    over the night, the last hand always among them (services/charts.py), so the chart costs
    the same to draw after hand 2,000 as after hand 100. Two queries: the session's row and
    its chart's.
    """
    return _history(load_session(group, session_id), points)


def scoreboard(
    group: GroupRef,
    session_id: int,
    recent: int,
    saved: int | None = None,
    points: int = CHART_POINTS,
) -> ScoreboardView:
    """What the scoreboard page shows, the session's row read once: the session, its last
    ``recent`` hands, hand ``saved`` (the one just entered, when asked; None if it is gone)
    and the chart's running scores. Bounded reads: the same cost at hand 2,000 as at 20."""
    row = read_session(group, session_id)
    hands = _last_hands(row, recent)
    just_saved = next((h for h in hands if h.number == saved), None)
    if saved and just_saved is None:
        just_saved = _hand_at(row, saved)
    night = night_of(group, row)
    return ScoreboardView(
        night=night,
        recent=tuple(hands),
        saved=just_saved,
        history=tuple((n, night.running(scores)) for n, scores in _history(row, points)),
    )


def add_hand(
    group: GroupRef,
    session_id: int,
    entry: Entry,
    request_id: str | None = None,
    version: int | None = None,
) -> AddedHand:
    """Enter the next hand. A ``request_id`` already used in this session answers that hand
    again (``created`` False) instead of entering a second one; if that hand has since been
    undone, Conflict says so and nothing is entered."""

    def work() -> AddedHand:
        row = load_session(group, session_id, lock=True)
        if request_id is not None:
            earlier = db.session.scalar(
                select(Hand).where(Hand.session_id == row.id, Hand.request_id == request_id)
            )
            if earlier is not None:
                return AddedHand(hand_view(earlier), created=False)
            _check_not_undone(row, request_id)
        check_version(row, version)
        if row.status != "open":
            raise Conflict("The game is over: no more hands can be added.")
        game = session_game(row)
        outcome = game.play(State.from_dict(row.state), entry, row.options)
        now = utcnow()
        hand = Hand(
            session_id=row.id,
            number=outcome.number,
            request_id=request_id,
            entry=game.entry_to_dict(entry),
            seating=row.seating,
            outcome=outcome_to_dict(outcome),
            state_after=outcome.state.to_dict(),
            revision=1,
            created_at=now,
            updated_at=now,
        )
        row.state = outcome.state.to_dict()
        row.seating = []
        row.hands_played = outcome.number
        row.version += 1
        if outcome.state.finished:
            row.status, row.finished_at = "finished", now
        db.session.add(hand)
        charts.added(row, hand.number, charts.running(outcome.state))
        record(
            row,
            "hand.created",
            hand_number=hand.number,
            before=None,
            after={"entry": hand.entry, "request_id": request_id},
        )
        db.session.flush()
        return AddedHand(hand_view(hand), created=True)

    return write(work)


def preview_hand(
    group: GroupRef, session_id: int, typed: Typed, number: int | None = None
) -> Preview | None:
    """What the game shows of a hand typed so far, before it is saved (``Game.preview``):
    as the next hand, or as hand ``number`` corrected; None for a game that shows nothing.
    A RuleError for one it cannot work out yet; nothing is written."""
    row = read_session(group, session_id)
    state = row.state
    if number is not None and 1 <= number <= row.hands_played:
        earlier = select(Hand.state_after).where(
            Hand.session_id == row.id, Hand.number == number - 1
        )
        state = db.session.scalar(earlier) if number > 1 else row.start_state
    return session_game(row).preview(State.from_dict(state), typed, row.options)


def correct_hand(
    group: GroupRef,
    session_id: int,
    number: int,
    entry: Entry,
    version: int | None = None,
    request_id: str | None = None,
) -> HandView:
    """Replace hand ``number``'s entry and re-score it and every later hand.

    If a later hand no longer fits (a player out of cards, a game now over), nothing is
    stored and the RuleError names that hand. The old entry and outcome go to the history.

    A ``request_id`` this hand's last correction was saved with, sent again with the same
    entry, answers the hand as it stands (a double tap, a retry) instead of Conflict for the
    version that correction moved on.

    The replay of the later hands is worked out before the write lock is taken (correcting
    hand 1 of a 5,000-hand night re-plays 5,000 hands, which takes a while): the transaction
    then only checks that the session is still at the version the replay started from, and
    writes the rows the correction changed. If another change came in between, the replay
    is made again under the lock from what that change left.
    """
    ahead = _planned_correction(group, session_id, number, entry)

    def work() -> HandView:
        row = load_session(group, session_id, lock=True)
        if request_id is not None and version is not None and version != row.version:
            resent = _resent_correction(row, number, entry, request_id)
            if resent is not None:
                return resent
        check_version(row, version)
        plan = ahead if ahead is not None and ahead.version == row.version else None
        if plan is None:
            plan = _Replay.of(row, number, entry)
        if plan.corrected is None:
            raise NotFound("{night} has no hand {number}.", night=night_named(row), number=number)
        _check_editable(row)
        if plan.error is not None:
            raise plan.error
        if row.on_tab and plan.state is not None and not plan.state.finished:
            raise Conflict(
                "{night} is on the tab, and this correction would open it again: take it off "
                "the tab first.",
                night=night_named(row),
            )
        return _store_correction(row, plan, request_id)

    return write(work)


@dataclass
class _Replay:
    """A correction worked out: the corrected hand as it was, the rows it changes (by id) and
    the session's state after it, or the RuleError that refuses it; for one version."""

    version: int
    corrected: Row[Any] | None  # None: the session has no such hand
    entry: dict[str, Any]
    recomputed: list[int]  # the numbers of the later hands, re-played
    changed: list[dict[str, Any]]  # {"id", "outcome", "state_after"} of each row that changes
    # The later hands among them, their JSON already written out (``_later_update``'s shape):
    # turning thousands of states into text is most of the work of writing them.
    later: list[dict[str, Any]] = field(default_factory=list)
    scores: dict[int, dict[str, int]] = field(default_factory=dict)  # theirs after, by number
    state: State | None = None
    error: RuleError | None = None

    @classmethod
    def of(cls, row: GameSession, number: int, entry: Entry) -> _Replay:
        hands = db.session.execute(
            select(Hand.id, Hand.seating, *_VIEWED)
            .where(Hand.session_id == row.id, Hand.number >= number - 1)
            .order_by(Hand.number)
        ).all()
        previous = next((h for h in hands if h.number == number - 1), None)
        later = [h for h in hands if h.number >= number]
        stored = session_game(row).entry_to_dict(entry)
        plan = cls(row.version, None, stored, [h.number for h in later[1:]], [])
        if not later or later[0].number != number:
            return plan
        plan.corrected = later[0]
        start = State.from_dict(previous.state_after if previous else row.start_state)
        try:
            plan.state = _replay_from(row, start, later, entry, plan.changed, plan.scores)
        except RuleError as e:
            plan.error = e
        plan.later = [
            {"hid": c["id"], "o": json.dumps(c["outcome"]), "s": json.dumps(c["state_after"])}
            for c in plan.changed[1:]
        ]
        return plan


def _later_update() -> Update:
    """UPDATE of a later hand's outcome and state by id, from JSON written out beforehand (as
    the JSON type writes it). PostgreSQL is told it is JSON; SQLite keeps JSON as text."""
    table = _HANDS
    outcome: Any = bindparam("o", type_=Text)
    state: Any = bindparam("s", type_=Text)
    if db.session.get_bind().dialect.name != "sqlite":
        outcome, state = cast(outcome, JSON), cast(state, JSON)
    return (
        update(table)
        .where(table.c.id == bindparam("hid"))
        .values(outcome=outcome, state_after=state)
    )


def _planned_correction(
    group: GroupRef, session_id: int, number: int, entry: Entry
) -> _Replay | None:
    """The correction worked out from the session as it is now, before any lock; None when
    there is nothing to work out (the write says why: no such session, say)."""
    try:
        row = load_session(group, session_id)
    except NotFound:
        return None
    try:
        return _Replay.of(row, number, entry)
    finally:
        # Nothing read here is written: the write starts afresh, from the locked row.
        db.session.rollback()


def _store_correction(row: GameSession, plan: _Replay, request_id: str | None) -> HandView:
    """Write what ``plan`` worked out for ``row`` (locked, at the plan's version): only the
    hands whose outcome or state changed, in one statement per shape of row."""
    corrected, state = plan.corrected, plan.state
    assert corrected is not None and state is not None
    now = utcnow()
    first = plan.changed[0]
    fixed = {**first, "entry": plan.entry, "revision": corrected.revision + 1, "updated_at": now}
    db.session.execute(update(Hand), [fixed])
    if plan.later:
        db.session.execute(_later_update(), plan.later)
    charts.corrected(row, plan.scores)
    row.state = state.to_dict()
    if state.finished:
        row.status, row.finished_at = "finished", row.finished_at or now
    else:
        row.status, row.finished_at = "open", None
    row.version += 1
    before = {
        "entry": corrected.entry,
        "outcome": corrected.outcome,
        "scores_after": corrected.state_after["scores"],
        "revision": corrected.revision,
    }
    after: dict[str, Any] = {"entry": plan.entry, "recomputed": plan.recomputed}
    if request_id is not None:
        after["request_id"] = request_id
    record(row, "hand.corrected", hand_number=corrected.number, before=before, after=after)
    db.session.flush()
    return hand_view(
        Hand(
            number=corrected.number,
            entry=plan.entry,
            outcome=first["outcome"],
            state_after=first["state_after"],
            request_id=corrected.request_id,
            revision=corrected.revision + 1,
            created_at=corrected.created_at,
            updated_at=now,
        )
    )


def undo_hand(
    group: GroupRef, session_id: int, number: int, version: int | None = None
) -> SessionView:
    """Take back the last hand; the seat changes made before it stay made."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)
        check_version(row, version)
        if not 1 <= number <= row.hands_played:
            raise NotFound("{night} has no hand {number}.", night=night_named(row), number=number)
        if number != row.hands_played:
            raise Conflict(
                "Only the last hand can be undone, and that is hand {last}. "
                "To change hand {number}, correct it instead.",
                last=row.hands_played,
                number=number,
            )
        _check_editable(row)
        if row.on_tab:
            raise Conflict(
                "{night} is on the tab: take it off the tab before undoing its last hand.",
                night=night_named(row),
            )
        hands = db.session.scalars(
            select(Hand).where(Hand.session_id == row.id, Hand.number.in_((number - 1, number)))
        ).all()
        last = next(h for h in hands if h.number == number)
        previous = next((h for h in hands if h.number == number - 1), None)
        game = session_game(row)
        # The buy-ins made after the hand undone go with it (API.md "Additions", third edition).
        ops = [*last.seating, *(op for op in row.seating if "buy_in" not in op)]
        state = State.from_dict(previous.state_after if previous else row.start_state)
        state = apply_seating(game, state, ops, row.options)
        row.state = state.to_dict()
        row.seating = ops
        row.hands_played = number - 1
        row.status, row.finished_at = "open", None
        row.version += 1
        charts.undone(row, number, charts.running(previous.state_after) if previous else None)
        record(
            row,
            "hand.deleted",
            hand_number=number,
            before={
                "entry": last.entry,
                "outcome": last.outcome,
                "scores_after": last.state_after["scores"],
                "request_id": last.request_id,
                "revision": last.revision,
            },
            after=None,
        )
        db.session.delete(last)
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def hand_history(group: GroupRef, session_id: int, number: int) -> list[ChangeView]:
    """What happened to hand ``number``: entered, each correction (the entry before), undone."""
    row = load_session(group, session_id)
    changes = db.session.scalars(
        select(Change)
        .where(
            Change.session_id == row.id, Change.hand_number == number, Change.kind.like("hand.%")
        )
        .order_by(Change.id)
    ).all()
    return change_views(changes)


def rule_error_for_hand(number: int, e: RuleError) -> RuleError:
    """A later hand that a correction leaves impossible: the whole correction is refused."""
    where = f"hands[{number}]" + (f".{e.field}" if e.field else "")
    return RuleError(
        "This correction would make hand {number} impossible: {reason}",
        field=where,
        players=e.players,
        number=number,
        reason=e.phrase,
    )


def _hand_at(row: GameSession | Row[Any], number: int) -> HandView | None:
    found = db.session.execute(
        select(*_VIEWED).where(Hand.session_id == row.id, Hand.number == number)
    ).first()
    return hand_view(found) if found is not None else None


def _last_hands(row: GameSession | Row[Any], count: int) -> list[HandView]:
    if count <= 0:
        return []
    # The table's columns on the connection: a plain Core read, without the ORM's layer.
    hands = db.session.connection().execute(
        select(*_VIEWED_COLUMNS)
        .where(
            _HANDS.c.session_id == row.id,
            # Between the row's read and this one another phone may have saved a hand: the
            # page shows the session as the row says, never a hand past it.
            _HANDS.c.number > row.hands_played - count,
            _HANDS.c.number <= row.hands_played,
        )
        .order_by(_HANDS.c.number)
    )
    return [hand_view(h) for h in hands]


def _history(row: GameSession | Row[Any], points: int) -> list[tuple[int, dict[str, int]]]:
    return charts.sample(row, points)


def _check_editable(row: GameSession) -> None:
    if row.finish is not None:
        raise Conflict("This session is finished: its hands can no longer be changed.")


def _check_not_undone(row: GameSession, request_id: str) -> None:
    """A retry of a request whose hand was saved and then undone saves nothing new.

    The undone hand's row is gone, but its ``hand.deleted`` change keeps the request_id: a
    phone resending a tap from before the undo must not bring the hand back as a new one.
    """
    undone = db.session.scalar(
        select(Change.hand_number)
        .where(
            Change.session_id == row.id,
            Change.kind == "hand.deleted",
            Change.before["request_id"].as_string() == request_id,
        )
        .order_by(Change.id.desc())
        .limit(1)
    )
    if undone is not None:
        raise Conflict(
            "This hand was already saved as hand {number} and then undone; nothing new was saved.",
            field="request_id",
            number=undone,
        )


def _resent_correction(
    row: GameSession, number: int, entry: Entry, request_id: str
) -> HandView | None:
    """Hand ``number`` as it stands, if its last correction was this very request: the same
    request_id and the entry it still holds. None for anything else."""
    last = db.session.scalar(
        select(Change)
        .where(
            Change.session_id == row.id,
            Change.hand_number == number,
            Change.kind == "hand.corrected",
        )
        .order_by(Change.id.desc())
        .limit(1)
    )
    if last is None or (last.after or {}).get("request_id") != request_id:
        return None
    hand = _hand_at(row, number)
    return (
        hand if hand is not None and hand.entry == session_game(row).entry_to_dict(entry) else None
    )


def _replay_from(
    row: GameSession,
    state: State,
    later: Sequence[Row[Any]],
    entry: Entry,
    changed: list[dict[str, Any]],
    scores: dict[int, dict[str, int]],
) -> State:
    """Play the corrected hand (the first of ``later``) with ``entry`` and every hand after it
    as entered, each after the seat changes made before it, then the seat changes since the
    last hand: the state the session is in now. A hand that no longer fits is refused.

    ``changed`` gets the new outcome and state of the corrected hand, then of each later hand
    whose outcome or state is not what is stored, and ``scores`` their running scores by
    number: a correction that leaves the later scores alone rewrites one row, not thousands."""
    game = session_game(row)
    for h in later:
        first = h is later[0]
        try:
            state = apply_seating(game, state, h.seating, row.options)
            outcome = game.play(
                state, entry if first else game.entry_from_dict(h.entry), row.options
            )
        except RuleError as e:
            if first:
                raise
            raise rule_error_for_hand(h.number, e) from None
        state = outcome.state
        new = {"id": h.id, "outcome": outcome_to_dict(outcome), "state_after": state.to_dict()}
        if first or new["outcome"] != h.outcome or new["state_after"] != h.state_after:
            changed.append(new)
            scores[h.number] = charts.running(state)
    try:
        return apply_seating(game, state, row.seating, row.options)
    except RuleError as e:
        raise RuleError(
            "This correction clashes with a player joining or leaving since the last "
            "hand: {reason}",
            field="seating",
            reason=e.phrase,
        ) from None
