"""What every service shares: the write loop, loading a group's session, rows into views."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import Row, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from ledger.extensions import db
from ledger.models import Change, GameSession, Hand, utcnow
from ledger.rules import base
from ledger.rules.base import Game, HandEntry, HandOutcome, ResultEntry, State
from ledger.rules.errors import RuleError
from ledger.rules.money import amount
from ledger.rules.registry import get_game
from ledger.services.errors import Conflict, NotFound
from ledger.services.views import (
    GroupRef,
    HandView,
    MovementView,
    ProgressView,
    ResultView,
    SeatView,
    SessionView,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

# A write that lost a race (a stale version, a unique key taken a moment ago, SQLite busy) is
# tried again from the start: it reads what the winner wrote and answers accordingly.
ATTEMPTS = 10


def write(work: Callable[[], T]) -> T:
    """Run ``work`` in a transaction and commit; on a lost race, roll back and run it again.

    ``work`` reads, checks, changes rows and returns its answer; anything it raises rolls
    everything back, so a refused request changes nothing.
    """
    for attempt in range(1, ATTEMPTS + 1):
        try:
            result = work()
            db.session.commit()
            return result
        except (StaleDataError, IntegrityError) as e:
            db.session.rollback()
            log.info("write attempt %d lost a race: %s", attempt, type(e).__name__)
            if attempt == ATTEMPTS and isinstance(e, IntegrityError):
                raise
        except OperationalError as e:
            db.session.rollback()
            if not _is_contention(e) or attempt == ATTEMPTS:
                raise
        except BaseException:
            db.session.rollback()
            raise
    raise Conflict("Someone else changed this at the same moment. Please try again.")


def _is_contention(e: OperationalError) -> bool:
    text = str(e.orig).lower()
    return any(s in text for s in ("locked", "busy", "deadlock", "could not serialize"))


# --- Loading ---------------------------------------------------------------------------------


def load_session(group: GroupRef, session_id: int, *, lock: bool = False) -> GameSession:
    """The group's session ``session_id``; another group's answers exactly like a missing one.

    With ``lock`` the session is locked for the rest of the transaction before it is read, so
    phones writing at the same moment take turns instead of racing: SELECT … FOR UPDATE on
    PostgreSQL (a writer that waited reads the row as the one before it left it); on SQLite,
    which has no row locks, a no-op UPDATE first takes the database's write lock, so the read
    after it is never a stale snapshot. The version guard on the UPDATE that follows stays as
    the backstop.
    """
    wanted = select(GameSession).where(
        GameSession.id == session_id, GameSession.group_id == group.id
    )
    if lock and db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(
            update(GameSession)
            .where(GameSession.id == session_id, GameSession.group_id == group.id)
            .values(version=GameSession.version)
            .execution_options(synchronize_session=False)
        )
    elif lock:
        wanted = wanted.with_for_update()  # the row lock and the read in one round trip
    row = db.session.scalar(wanted)
    if row is None:
        raise NotFound("There is no session {id}.", id=session_id)
    return row


def session_game(row: GameSession) -> Game:
    return get_game(row.game)


def record(
    row: GameSession,
    kind: str,
    *,
    before: Any,
    after: Any,
    hand_number: int | None = None,
) -> None:
    """One line of the session's history, with the version the change made."""
    db.session.add(
        Change(
            session_id=row.id,
            hand_number=hand_number,
            kind=kind,
            at=utcnow(),
            version=row.version,
            before=before,
            after=after,
        )
    )


# --- Seat changes between hands --------------------------------------------------------------


def apply_seating(
    game: Game, state: State, ops: Iterable[Mapping[str, Any]], options: Mapping[str, Any]
) -> State:
    """Replay the joins and leaves recorded between two hands onto ``state``."""
    for op in ops:
        if "join" in op:
            state = base.join(game, state, op["join"], op["after"], options)
        else:
            state = base.leave(game, state, op["leave"], options)
    return state


# --- Engine values into JSON for the database, and back ---------------------------------------


def entry_to_dict(entry: HandEntry) -> dict[str, Any]:
    """A hand entry as typed, for the database: only what was given."""
    results = []
    for r in entry.results:
        item: dict[str, Any] = {"player": r.player}
        if r.cards is not None:
            item["cards"] = r.cards
        if r.spots is not None:
            item["spots"] = r.spots
        if r.melds is not None:
            item["melds"] = list(r.melds)
        if r.sitting_out:
            item["sitting_out"] = True
        results.append(item)
    return {"results": results, "out": entry.out, "rummy": entry.rummy}


def entry_from_dict(data: Mapping[str, Any]) -> HandEntry:
    return HandEntry(
        results=tuple(
            ResultEntry(
                player=r["player"],
                cards=r.get("cards"),
                spots=r.get("spots"),
                melds=tuple(r["melds"]) if r.get("melds") is not None else None,
                sitting_out=bool(r.get("sitting_out", False)),
            )
            for r in data.get("results", ())
        ),
        out=data.get("out"),
        rummy=bool(data.get("rummy", False)),
    )


def outcome_to_dict(outcome: HandOutcome) -> dict[str, Any]:
    """What the engine made of a hand, without the state (kept in its own column)."""
    return {
        "number": outcome.number,
        "dealer": outcome.dealer,
        "leader": outcome.leader,
        "results": [
            {
                "player": r.player,
                "cards": [c.code for c in r.cards],
                "spots": r.spots,
                "points": r.points,
                "sitting_out": r.sitting_out,
                "melds": [[c.code for c in m] for m in r.melds],
            }
            for r in outcome.results
        ],
        "out": outcome.out,
        "winners": list(outcome.winners),
        "movements": [
            {"from": m.source, "to": m.target, "units": m.units} for m in outcome.movements
        ],
        "pot_before": outcome.pot_before,
        "pot_after": outcome.pot_after,
    }


def hand_view(hand: Hand | Row[Any]) -> HandView:
    """A hand's view, from its row or from a result row with the same columns."""
    o = hand.outcome
    return HandView(
        number=hand.number,
        dealer=o["dealer"],
        leader=o["leader"],
        results=tuple(
            ResultView(
                player=r["player"],
                cards=tuple(r["cards"]),
                spots=r["spots"],
                points=r["points"],
                sitting_out=r["sitting_out"],
                melds=tuple(tuple(m) for m in r.get("melds", ())),
            )
            for r in o["results"]
        ),
        out=o["out"],
        winners=tuple(o["winners"]),
        movements=tuple(MovementView(m["from"], m["to"], m["units"]) for m in o["movements"]),
        pot_before=o["pot_before"],
        pot_after=o["pot_after"],
        scores_after=dict(hand.state_after["scores"]),
        entry=hand.entry,
        request_id=hand.request_id,
        revision=hand.revision,
        created_at=hand.created_at,
        updated_at=hand.updated_at,
    )


def next_leader(game: Game, state: State) -> str | None:
    """Who plays first in the next hand (the game decides: the dealer's left, or the dealer)."""
    return game.next_leader(state)


def ordered_players(state: State) -> list[str]:
    """The seated players clockwise, then those who left (in the order they first sat)."""
    return list(state.seats) + [p for p in state.scores if p not in state.seats]


def build_session_view(group: GroupRef, row: GameSession) -> SessionView:
    """A session row as its view, from the row alone: no hand is read, nothing re-scored."""
    game = session_game(row)
    state = State.from_dict(row.state)
    names = ordered_players(state)
    seats = tuple(
        SeatView(name=p, seat=state.seats.index(p) + 1 if p in state.seats else None,
                 active=p in state.seats)
        for p in names
    )  # fmt: skip
    scores = {p: state.scores.get(p, 0) for p in names}
    options = row.options
    money = game.money
    unit_value = Decimal(options["unit_value"]) if money else None
    currency = options.get("currency") if money else None
    progress = None
    if game.progress is not None and row.status == "open":
        p = game.progress(state, options)
        if p is not None:
            progress = ProgressView(p.round, p.hand, p.hands_in_round, p.rounds, p.contract)
    return SessionView(
        id=row.id,
        group=group.slug,
        game=row.game,
        game_name=game.name,
        money=money,
        status=row.status,
        version=row.version,
        options=options,
        players=seats,
        hands_played=row.hands_played,
        dealer=state.dealer if state.seats else None,
        leader=next_leader(game, state),
        pot=state.pot if money else None,
        carried_in=state.carried_in if money else None,
        scores=scores,
        amounts=(
            {p: amount(u, unit_value, currency) for p, u in scores.items()}
            if unit_value is not None and currency is not None
            else None
        ),
        winners=tuple(state.winners) if row.status == "finished" else (),
        progress=progress,
        currency=currency,
        unit_value=unit_value,
        leftover_pot=row.leftover_pot,
        started_at=row.started_at,
        finished_at=row.finished_at,
        closed=row.finish is not None,
    )


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
