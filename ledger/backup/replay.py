"""Every session of a backup played again through the engine from its start, and what it
stores compared with the replay: hands, states, the end, the seats, the pots carried on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

from ledger.backup.shapes import _shape
from ledger.backup.values import _bad, _is_int, _refused, _unlike_replay
from ledger.rules import entries, payout
from ledger.rules.base import State
from ledger.rules.codecs import ENTRY, SEATING_OP, outcome_to_dict
from ledger.rules.errors import RuleError
from ledger.rules.game import Game
from ledger.rules.keeper import brought_by
from ledger.rules.registry import GAMES, get_game
from ledger.services.backups import BackupError
from ledger.services.loading import apply_seating


def _same(made: Any, stored: Any) -> bool:
    """Whether ``stored`` (from the file) is ``made`` (by the engine) as JSON values of the
    same types: 1 is not true, and "5" is not 5. The engine's tuples are the file's lists."""
    if isinstance(made, (list, tuple)):
        return (
            type(stored) is list
            and len(made) == len(stored)
            and all(_same(x, y) for x, y in zip(made, stored, strict=True))
        )
    if type(made) is not type(stored):
        return False
    if isinstance(made, dict):
        return made.keys() == stored.keys() and all(_same(made[k], stored[k]) for k in made)
    return bool(made == stored)


def _as_json(value: Any) -> Any:
    """An engine value as the database gives it back (tuples as lists)."""
    return json.loads(json.dumps(value))


def _replay(
    s: dict[str, Any],
    hands: Sequence[Mapping[str, Any]],
    players: set[str],
    keeper: str | None = None,
) -> Game:
    """Start the session as create_session does and play every hand again; refuse the session
    unless each stored result is the replay's. Answers the session's game. ``keeper`` is the
    player who brought the pot the session opened with (RULES.md §2), if anyone did."""
    sid = s["id"]
    game_key = s["game"]
    if game_key not in GAMES and not (isinstance(game_key, str) and game_key.isprintable()):
        raise _bad("sessions.game", game_key)  # said escaped, as the file has it: one line
    try:
        game = get_game(s["game"])
        options = s["options"]
        if not isinstance(options, dict):
            raise _bad("sessions.options", options)
        chosen = game.check_options(options)
        # A points game's money options came later (RULES.md §7): a session started before
        # them keeps its options without them, which are the defaults (not for money).
        made = {
            k: v for k, v in _as_json(chosen).items() if k in options or k not in payout.OPTIONS
        }
        if not _same(made, options):
            raise BackupError(
                "Session {id} of the backup is refused: its options are not kept as starting a "
                "session keeps them.",
                id=sid,
            )
        start = _start_state(s, game, options, players, keeper)
        state = start
        for hand in hands:
            if state.finished:
                raise _unlike_replay("status", sid)
            state = apply_seating(game, state, _seating(hand["seating"], "hands.seating"), options)
            entry = _game_entry(game, hand["entry"], "hands.entry")
            outcome = game.play(state, entry, options)
            if not _same(outcome_to_dict(outcome), hand["outcome"]):
                raise _unlike_replay("outcome", sid, hand["number"])
            if not _same(outcome.state.to_dict(), hand["state_after"]):
                raise _unlike_replay("state_after", sid, hand["number"])
            state = outcome.state
        state = apply_seating(game, state, _seating(s["seating"], "sessions.seating"), options)
        _check_end(s, game, state, options)
    except RuleError as e:
        raise _refused(sid, e) from None
    except entries.ShapeError:  # a game's call kept with a body it does not take
        raise BackupError(
            "Session {id} of the backup cannot be read back: a call kept between its hands is "
            "not one the app makes.",
            id=sid,
        ) from None
    return game


def _start_state(
    s: Mapping[str, Any],
    game: Game,
    options: Mapping[str, Any],
    players: set[str],
    keeper: str | None = None,
) -> State:
    """The session's start, made again by the engine from its own seats, dealer and carried
    pot (``new_state`` checks the seats' count and that the dealer is seated), with the pot's
    keeper owing it (``brought_by`` checks the keeper is seated and there is a pot)."""
    start = s["start_state"]
    where = "sessions.start_state"
    if not isinstance(start, dict):
        raise _bad(where, start)
    seats = start.get("seats")
    if not isinstance(seats, list) or not all(isinstance(p, str) and p in players for p in seats):
        raise _bad(f"{where}.seats", seats)
    dealer = start.get("dealer")
    if not isinstance(dealer, str):
        raise _bad(f"{where}.dealer", dealer)
    carried = start.get("carried_in", 0)
    antes = start.get("pot_antes", {})
    if not _is_int(carried) or carried < 0:
        raise _bad(f"{where}.carried_in", carried)
    if not isinstance(antes, dict):
        raise _bad(f"{where}.pot_antes", antes)
    made = game.new_state(seats, dealer, options, carried, carried_antes=antes)
    if keeper is not None:
        made = brought_by(made, keeper)
    if not _same(_as_json(made.to_dict()), start):
        raise _unlike_replay("start_state", s["id"])
    return made


def _check_end(s: Mapping[str, Any], game: Game, state: State, options: Mapping[str, Any]) -> None:
    """The session's state, count, status, end and pot carried on, as its hands and its end
    at the table (finish_session) make them."""
    sid = s["id"]
    carried = 0
    if s["finish"] is not None:
        if game.money:
            choice = s["leftover_pot"]
            if choice not in ("carry", "refund"):
                raise _bad("sessions.leftover_pot", choice)
            ended = game.finish(state, options, choice)
            state = ended.state
            finish: dict[str, Any] = {
                "leftover_pot": choice,
                "movements": [
                    {"from": m.source, "to": m.target, "units": m.units} for m in ended.movements
                ],
            }
            carried = state.pot
        else:
            if s["leftover_pot"] is not None:
                raise _unlike_replay("leftover_pot", sid)
            state = replace(state, finished=True, winners=game.standing_winners(state, options))
            finish = {"leftover_pot": None, "movements": []}
        if not _same(_as_json(finish), s["finish"]):
            raise _unlike_replay("finish", sid)
        status = "finished"
    else:
        status = "finished" if state.finished else "open"
        # An open night may hold the table's plan for its pot (services/plans.py).
        planned = status == "open" and s["leftover_pot"] in game.pot_choices() and game.money
        if s["leftover_pot"] is not None and not planned:
            raise _unlike_replay("leftover_pot", sid)
    if not _same(_as_json(state.to_dict()), s["state"]):
        raise _unlike_replay("state", sid)
    if s["hands_played"] != state.hands_played:
        raise _unlike_replay("hands_played", sid)
    if s["status"] != status:
        raise _unlike_replay("status", sid)
    if (s["finished_at"] is None) != (status == "open"):
        raise _unlike_replay("finished_at", sid)
    if s["carried_pot"] != carried:
        raise _unlike_replay("carried_pot", sid)


def _seating(ops: Any, where: str) -> list[dict[str, Any]]:
    """Joins and leaves between hands: ``{"join": name, "after": name}`` or ``{"leave": name}``."""
    if not isinstance(ops, list):
        raise _bad(where, ops)
    for op in ops:
        _shape(op, SEATING_OP, where)
    return ops


def _game_entry(game: Game, entry: Any, where: str) -> Any:
    """A hand's entry as its game declares it (ledger/rules/entries.py), or a BackupError."""
    data = _entry(entry, where)
    try:
        entries.check_stored(game.entry_type, data, game.result_type)
    except entries.ShapeError as e:
        raise _bad(f"{where}.{e.field}", data) from None
    return game.entry_from_dict(data)


def _entry(entry: Any, where: str) -> dict[str, Any]:
    _shape(entry, ENTRY, where)
    return dict(entry)


def _check_seats(
    s: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], players: Mapping[int, str]
) -> None:
    """The session's players rows mirror its state: everyone who played in it, each seated
    where the state seats them, and active while seated."""
    state = s["state"]
    seats = state["seats"]
    names = [players[r["player_id"]] for r in rows]
    if sorted(names) != sorted(state["scores"]):
        raise _unlike_replay("players", s["id"])
    for r, name in zip(rows, names, strict=True):
        seated = name in seats
        if r["active"] != seated or r["seat"] != (seats.index(name) + 1 if seated else None):
            raise _unlike_replay("players", s["id"])


def _money(options: Mapping[str, Any]) -> tuple[Any, Decimal | None]:
    unit_value = options.get("unit_value")
    try:
        return options.get("currency"), Decimal(unit_value) if unit_value is not None else None
    except (InvalidOperation, TypeError):
        return options.get("currency"), None


def _check_pots(sessions: Sequence[Mapping[str, Any]]) -> None:
    """A pot carried on is taken up by one later session of the same game and money, which
    opened with exactly that pot and its antes; a session opens with no other pot."""
    by_id = {s["id"]: s for s in sessions}
    fed: dict[int, Mapping[str, Any]] = {}
    for source in sessions:
        into = source["carried_into_id"]
        if into is None:
            continue
        sid = source["id"]
        if into == sid:
            raise BackupError(
                "The backup does not add up: session {id} carries its pot into itself.", id=sid
            )
        target = by_id[into]
        if into < sid:
            raise BackupError(
                "The backup does not add up: session {id} carries its pot into session {into}, "
                "which started before it.",
                id=sid,
                into=into,
            )
        if target["game"] != source["game"] or _money(target["options"]) != _money(
            source["options"]
        ):
            raise BackupError(
                "The backup does not add up: session {id} carries its pot into session {into}, "
                "a session of another game or played for other money.",
                id=sid,
                into=into,
            )
        start = target["start_state"]
        _check_brought(source, target)
        if (
            source["carried_pot"] <= 0
            or start["carried_in"] != source["carried_pot"]
            or not _same(start["pot_antes"], source["state"]["pot_antes"])
        ):
            raise BackupError(
                "The backup does not add up: session {into} did not open with the pot of "
                "{pot} units that session {id} carried into it.",
                id=sid,
                into=into,
                pot=source["carried_pot"],
            )
        fed[into] = source
    for s in sessions:
        _check_keeper(s)
        if s["carried_in_keeper_id"] is not None and s["id"] not in fed:
            raise BackupError(
                "The backup does not add up: session {id} names who brought its pot, but no "
                "session of the backup carried a pot into it.",
                id=s["id"],
            )
        if s["start_state"]["carried_in"] and s["id"] not in fed:
            raise BackupError(
                "The backup does not add up: session {id} opened with a pot that no session "
                "of the backup carried into it.",
                id=s["id"],
            )


def _check_brought(source: Mapping[str, Any], target: Mapping[str, Any]) -> None:
    """The session a kept pot opens was brought it by that pot's keeper (RULES.md §2)."""
    if target["carried_in_keeper_id"] != source["pot_keeper_id"]:
        raise BackupError(
            "The backup does not add up: session {into} opened with the pot of session "
            "{id}, but not with that pot's keeper.",
            id=source["id"],
            into=target["id"],
        )


def _check_keeper(s: Mapping[str, Any]) -> None:
    """A pot keeper keeps a pot carried on: a session finished with ``carry`` and a pot, or an
    open one whose plan is to carry its pot (services/plans.py)."""
    kept = s["carried_pot"] > 0 or s["status"] == "open"
    if s["pot_keeper_id"] is not None and (s["leftover_pot"] != "carry" or not kept):
        raise BackupError(
            "The backup does not add up: session {id} names a keeper for a pot it did not "
            "carry on.",
            id=s["id"],
        )
