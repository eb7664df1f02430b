"""Loading a session for a service: its row (locked for a write), its game, the check that a
write is based on its current version, and the seat changes recorded between two hands
replayed onto a state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Row, select, update

from ledger.extensions import db
from ledger.models import GameSession
from ledger.rules import game as game_rules
from ledger.rules.base import BuyIn, State
from ledger.rules.errors import RuleError
from ledger.rules.game import Game
from ledger.rules.registry import get_game
from ledger.services.errors import Conflict, NotFound
from ledger.services.views.groups import GroupRef


def group_row(model: Any, group: GroupRef, row_id: int, *, lock: bool = False) -> Any:
    """The group's row ``row_id`` of ``model`` (a session, a season, an evening: each has
    ``id`` and ``group_id``), or None; another group's is never found.

    With ``lock`` the row is locked for the rest of the transaction before it is read, so
    phones writing at the same moment take turns instead of racing: SELECT … FOR UPDATE on
    PostgreSQL (a writer that waited reads the row as the one before it left it); on SQLite,
    which has no row locks, a no-op UPDATE first takes the database's write lock, so the read
    after it is never a stale snapshot.
    """
    mine = (model.id == row_id, model.group_id == group.id)
    wanted = select(model).where(*mine)
    if lock and db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(
            update(model)
            .where(*mine)
            .values(group_id=model.group_id)
            .execution_options(synchronize_session=False)
        )
    elif lock:
        wanted = wanted.with_for_update()  # the row lock and the read in one round trip
    return db.session.scalar(wanted)


def load_session(group: GroupRef, session_id: int, *, lock: bool = False) -> GameSession:
    """The group's session ``session_id``; another group's answers exactly like a missing one.

    With ``lock`` it is locked for the rest of the transaction (``group_row``); the version
    guard on the UPDATE that follows stays as the backstop.
    """
    row: GameSession | None = group_row(GameSession, group, session_id, lock=lock)
    if row is None:
        raise NotFound("There is no session {id}.", id=session_id)
    return row


def read_session(group: GroupRef, session_id: int) -> Row[Any]:
    """The group's session ``session_id`` for a read: its columns as a plain row, by the name
    of each (``row.state``), or NotFound as ``load_session`` says.

    A page or an answer that only reads has no use for the ORM's object, its identity map and
    its change tracking, which cost several times the query itself on a scoreboard build.
    """
    table = GameSession.__table__
    row = (
        db.session.connection()
        .execute(select(table).where(table.c.id == session_id, table.c.group_id == group.id))
        .first()
    )
    if row is None:
        raise NotFound("There is no session {id}.", id=session_id)
    return row


def read_sessions(group: GroupRef, after: int, last: int, limit: int) -> list[Row[Any]]:
    """The group's first ``limit`` sessions numbered above ``after`` up to ``last`` (ids), by
    id, each as ``read_session`` reads one: one query, a page of a long history's nights."""
    table = GameSession.__table__
    wanted = (table.c.group_id == group.id, table.c.id > after, table.c.id <= last)
    found = db.session.connection().execute(
        select(table).where(*wanted).order_by(table.c.id).limit(limit)
    )
    return list(found.all())


def session_game(row: GameSession | Row[Any]) -> Game:
    return get_game(row.game)


def table_state(row: GameSession | Row[Any]) -> State:
    """The session's state as the table sees it: the one kept, except that a game which pays
    in as it starts but keeps that with its first hand shows it paid before hand 1 (Kaluki's
    antes in the pot from the start, RULES.md §10), and a night of a run of games shows the
    next game's board once one is won (Cribbage, §17): ``Game.opened``. Every view of a night
    and its settle-up read it, so the scoreboard, the settle-up, the API and the workbook
    show the same pot and balances."""
    state = State.from_dict(row.state)
    if row.status != "open":
        return state
    return session_game(row).opened(state, row.options)


def game_of(group: GroupRef, session_id: int) -> Game:
    """The game the group's session ``session_id`` plays (what reads its hands' entries), or
    NotFound as ``load_session`` says."""
    table = GameSession.__table__
    key = db.session.scalar(
        select(table.c.game).where(table.c.id == session_id, table.c.group_id == group.id)
    )
    if key is None:
        raise NotFound("There is no session {id}.", id=session_id)
    return get_game(key)


def apply_seating(
    game: Game, state: State, ops: Iterable[Mapping[str, Any]], options: Mapping[str, Any]
) -> State:
    """Replay the joins, leaves, buy-ins and the game's own calls recorded between two hands
    onto ``state``."""
    for op in ops:
        if "call" in op:
            state = game.call(op["call"], state, op.get("body") or {}, options)
        elif "join" in op:
            state = game_rules.join(game, state, op["join"], op["after"], options)
        elif "buy_in" in op:
            state = _replay_buy_in(game, state, op["buy_in"], options)
        else:
            state = game_rules.leave(game, state, op["leave"], options)
    return state


def _replay_buy_in(game: Game, state: State, kept: Any, options: Mapping[str, Any]) -> State:
    """A kept buy-in made again (services/buy_ins.py), or a RuleError where it does not fit:
    a game without buy-ins, a record the app did not write, a buy-in the state refuses."""
    try:
        record = BuyIn.from_dict(kept)
    except (KeyError, TypeError, ValueError, AttributeError):
        record = None
    if not game.buys_in or record is None:
        raise RuleError("A buy-in kept in this session is not one the app can replay.")
    return game.replay_buy_in(state, record, options).state


def check_version(row: GameSession, version: int | None) -> None:
    """A write based on another version of the session than the one stored is refused."""
    if version is not None and version != row.version:
        raise Conflict(
            "The session has changed since you loaded it (version {version}, now "
            "{now}). Reload it and try again.",
            field="version",
            version=version,
            now=row.version,
        )
