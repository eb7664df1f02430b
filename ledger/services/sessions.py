"""Sessions: starting one, reading it, players joining and leaving, the end.

- ``create_session`` (a request id sent again answers the session it started),
  ``session_view``, ``join_session``, ``leave_session``, ``finish_session`` and
  ``session_history`` (every change, oldest first). Who pays whom at the end is the
  settlement's own (ledger/services/settlement.py), a pot carried between nights the pot's
  (ledger/services/pot.py).
- ``delete_session`` (one started by mistake, before its first hand), ``remembered_table``
  (the seats and the deal the group's last session left) and ``only_open_session``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import delete, func, select

from ledger.extensions import db
from ledger.models import Change, EveningTable, GameSession, Hand, Player, SessionPlayer, utcnow
from ledger.rules import base, nights
from ledger.rules import game as game_rules
from ledger.rules.base import State
from ledger.rules.errors import RuleError
from ledger.rules.payout import check_stake_seats
from ledger.rules.registry import get_game
from ledger.services.actors import change_views
from ledger.services.building import (
    build_session_view,
    has_rounds,
    night_named,
    player_name,
)
from ledger.services.building import session_numbers as numbers_in
from ledger.services.errors import Conflict, NotFound
from ledger.services.evening_seats import check_one_table
from ledger.services.groups import (
    check_new_name,
    check_player_name,
    find_players,
    name_key,
    players_for,
)
from ledger.services.keepers import (
    checked_keeper,
    keep_pot,
    keeper_names,
    put_on_tab,
    tab_keeper,
)
from ledger.services.loading import (
    check_version,
    load_session,
    read_session,
    session_game,
)
from ledger.services.night import build_night, proposed_keeper
from ledger.services.plans import check_unpaid, checked_choice, pot_plan
from ledger.services.pot import carry_pot, pot_to_take_up, return_pot
from ledger.services.unit_of_work import record, write
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import AddedSession, ChangeView, SessionView


def create_session(
    group: GroupRef,
    game: str,
    players: Sequence[str],
    dealer: str | None,
    options: Mapping[str, Any] | None = None,
    *,
    request_id: str | None = None,
) -> AddedSession:
    """Start a session: players by name in clockwise seat order (new names join the group).

    A ``request_id`` the group has used already answers the session it started (``created``
    False) instead of starting a second one: a double tap on "Start" or a retry over a bad
    connection. Two at the same moment: the unique key makes the second one start over and
    find the first.

    A money game opens with the pot carried from the group's last session of that game that
    was finished with ``carry`` and whose pot no later session has taken up yet, provided it
    was played for the same money (currency and unit value): units of €0.01 carried into a
    session at £0.50 a unit would change what the pot is worth. A session with other money
    settings opens with an empty pot and the pot waits for one that matches.
    """
    return write(lambda: start_night(group, game, players, dealer, options, request_id))


def start_night(
    group: GroupRef,
    game: str,
    players: Sequence[str],
    dealer: str | None,
    options: Mapping[str, Any] | None = None,
    request_id: str | None = None,
) -> AddedSession:
    """``create_session``'s work inside the caller's transaction: a club evening starts each
    table's night with its round's draw, all or nothing (ledger/services/evenings.py)."""
    rules = get_game(game)
    chosen = rules.check_options(options or {})
    names = [check_player_name(p, field=f"players[{i}]") for i, p in enumerate(players)]
    check_stake_seats(names, chosen)
    if not dealer or not isinstance(dealer, str) or not dealer.strip():
        raise RuleError("Say who deals the first hand.", field="dealer")

    def work() -> AddedSession:
        earlier = _started_by(group, request_id)
        if earlier is not None:
            return AddedSession(build_session_view(group, earlier), created=False)
        known, seats = _seats(group, names)
        options = _named_as_before(group, rules.key, chosen)
        first = next((p for p in seats if name_key(p) == name_key(dealer.strip())), dealer)
        here = {p.id for p in known.values()}
        source = pot_to_take_up(group, rules.key, options, here) if rules.money else None
        carried = source.carried_pot if source is not None else 0
        # The antes in the pot travel with it, so a refund on a later night gives them back
        # to the players who paid them (RULES.md §2), not to whoever antes tonight.
        antes = State.from_dict(source.state).pot_antes if source is not None else None
        # new_state checks the seats and the dealer.
        state = rules.new_state(seats, first, options, carried, carried_antes=antes)
        keeper_id = None
        if source is not None:
            # The keeper brings the pot back: their balance here starts at minus it.
            state, keeper_id = keep_pot(state, source.pot_keeper_id)
        row = _open_session(group, rules.key, options, state, request_id)
        row.carried_in_keeper_id = keeper_id
        if source is not None:
            carry_pot(source, into=row)
        _record_start(row, state, source, keeper_id)
        db.session.flush()
        return AddedSession(build_session_view(group, row), created=True)

    return work()


def session_numbers(group: GroupRef) -> dict[int, int]:
    """Every session's number among the group's sessions of its game ("Spot #2"), by id."""
    return numbers_in(group.id)


def session_view(group: GroupRef, session_id: int) -> SessionView:
    """The session now, from its own row: one query however many hands it has."""
    return build_session_view(group, read_session(group, session_id))


def join_session(group: GroupRef, session_id: int, name: str, after: str) -> SessionView:
    """A player sits down between hands, clockwise of ``after``; a new name joins the group."""
    name = check_player_name(name)
    if not isinstance(after, str) or not after.strip():
        raise RuleError("Say who the new player sits after.", field="after")

    def work() -> SessionView:
        # RULES.md §19: a table of a club evening seats nobody who sits at another table of
        # its round. Checked first, as it locks the evening before the night is locked.
        check_one_table(group, session_id, name)
        row = load_session(group, session_id, lock=True)
        if row.status != "open":
            raise Conflict("The game is over: nobody can join it.")
        game = session_game(row)
        state = State.from_dict(row.state)
        if name_key(name) not in find_players(group.id, [name]):
            check_new_name(name)
        player = players_for(group.id, [name])[name_key(name)]
        seated_after = base.canonical(state, after) or after.strip()
        seating_before = _seating(state)
        state = game_rules.join(game, state, player.name, seated_after, row.options)
        if not db.session.scalar(
            select(SessionPlayer.id).where(
                SessionPlayer.session_id == row.id, SessionPlayer.player_id == player.id
            )
        ):
            db.session.add(SessionPlayer(session_id=row.id, player_id=player.id, active=True))
            db.session.flush()
        row.state = state.to_dict()
        row.seating = [*row.seating, {"join": player.name, "after": seated_after}]
        row.version += 1
        _sync_seats(row, state)
        record(
            row,
            "player.joined",
            hand_number=row.hands_played,
            before=seating_before,
            after={"player": player.name, "after": seated_after},
        )
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def leave_session(group: GroupRef, session_id: int, name: str) -> SessionView:
    """A player leaves between hands; their balance stays in the session."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)
        state = State.from_dict(row.state)
        who = next((p for p in state.scores if name_key(p) == name_key(name.strip())), None)
        if who is None:
            raise NotFound("{player} is not a player in this session.", player=name)
        if row.status != "open":
            raise Conflict("The game is over: nobody can leave it.")
        if who not in state.seats:
            raise Conflict("{player} has already left this session.", player=who)
        game = session_game(row)
        seating_before = _seating(state)
        state = game_rules.leave(game, state, who, row.options)
        row.state = state.to_dict()
        row.seating = [*row.seating, {"leave": who}]
        row.version += 1
        _sync_seats(row, state)
        record(
            row,
            "player.left",
            hand_number=row.hands_played,
            before=seating_before,
            after={"player": who},
        )
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def finish_session(
    group: GroupRef,
    session_id: int,
    leftover_pot: str | None = None,
    version: int | None = None,
    pot_keeper: str | None = None,
    settle: Any = None,
) -> SessionView:
    """End the session. In a money game the pot left is carried on or refunded (the session's
    ``leftover_pot`` option when none is given); a points game simply ends where it stands.

    ``pot_keeper`` names the player who takes a carried pot home (RULES.md §2): the settle-up
    pays it to them, and the session it opens has them bring it back (an empty pot: nobody).
    With ``version`` (the one the player's page showed), a session changed since answers
    Conflict: the payments the player saw are no longer those the night would end with.
    ``settle``: ``now`` or ``tab`` (RULES.md §6a, keepers.tab_keeper)."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)
        if row.status != "open":
            return _finished_already(group, row, settle)
        check_version(row, version)
        game = session_game(row)
        choice = checked_choice(game, leftover_pot)
        state = State.from_dict(row.state)
        keeper = _plan_keeper(row, game, choice, pot_keeper)
        keeper, on_tab = tab_keeper(
            row, game, choice, keeper, settle, lambda: proposed_keeper(build_night(group, row))
        )
        if game.money:
            state, finish = _money_finish(row, game, state, choice, keeper)
        else:
            checked_keeper(row, game, state, None, pot_keeper)
            # The players end a points game where it stands; the mark keeps it from being
            # reopened by a correction or an undo.
            state = replace(state, finished=True, winners=game.standing_winners(state, row.options))
            finish = {"leftover_pot": None, "movements": []}
        before = row.state
        row.state = state.to_dict()
        row.status = "finished"
        row.finished_at = utcnow()
        row.leftover_pot = finish["leftover_pot"]
        row.finish = finish
        row.carried_pot = state.pot if game.money else 0
        row.version += 1
        kept = {"pot_keeper": keeper_names(row)[0]} if row.pot_keeper_id is not None else {}
        kept |= put_on_tab(row, on_tab)
        record(row, "session.finished", before={"state": before}, after={**finish, **kept})
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def _plan_keeper(
    row: GameSession, game: game_rules.Game, choice: str | None, keeper: str | None
) -> str | None:
    """The keeper a finish names, else the table's plan's when the finish keeps its choice."""
    plan = pot_plan(row, game)
    if keeper is None and (choice or plan.choice) == plan.choice:
        return plan.keeper
    return keeper


def _money_finish(
    row: GameSession, game: game_rules.Game, state: State, choice: str | None, keeper: str | None
) -> tuple[State, dict[str, Any]]:
    """A money night's end: the pot carried on (to its keeper) or refunded, as asked or else
    as the table's plan says (services/plans.py); the state after it and the finish stored.
    A plan other than the one the payments ticked were made under is refused."""
    plan = pot_plan(row, game)
    asked = choice or plan.choice or row.options.get("leftover_pot") or "carry"
    if keeper is None and asked == plan.choice:
        keeper = plan.keeper  # the plan's keeper, unless the finish names another
    ended = game.finish(state, row.options, asked)
    player = checked_keeper(row, game, state, asked, keeper)
    check_unpaid(row, asked, player.id if player is not None else None)
    row.pot_keeper_id = player.id if player is not None and ended.state.pot else None
    movements = [{"from": m.source, "to": m.target, "units": m.units} for m in ended.movements]
    return ended.state, {"leftover_pot": asked, "movements": movements}


def _finished_already(group: GroupRef, row: GameSession, settle: Any) -> SessionView:
    """A finish of a finished session: only a points game for money that ended by itself
    may still go on the tab (its hands stay correctable, and the tab follows them)."""
    if settle != "tab" or row.finish is not None or row.on_tab:
        raise Conflict("This session is already finished.")
    game = session_game(row)
    tab_keeper(row, game, None, None, settle, lambda: None)
    row.version += 1
    record(row, "tab.added", before=None, after=put_on_tab(row, True))
    db.session.flush()
    return build_session_view(group, row)


def session_history(group: GroupRef, session_id: int) -> list[ChangeView]:
    """Every change to the session, oldest first, with what was there before."""
    row = load_session(group, session_id)
    changes = db.session.scalars(
        select(Change).where(Change.session_id == row.id).order_by(Change.id)
    ).all()
    return change_views(changes)


def delete_session(group: GroupRef, session_id: int) -> None:
    """Remove a session started by mistake: only one with no hands (Conflict otherwise).

    Its history goes with it (a session's history is its own). A pot it opened with waits
    again for the next session of its game: the session that carried it on records that the
    pot came back. A finished session whose end moved money, or whose own pot a later session
    took up, stays: removing it would undo payments the table has seen.
    """

    def work() -> None:
        row = load_session(group, session_id, lock=True)
        if row.hands_played:
            raise Conflict(
                "{night} has hands: only a session with no hands can be deleted.",
                night=night_named(row),
            )
        if row.carried_into_id is not None or (row.finish or {}).get("movements"):
            raise Conflict(
                "{night} has passed its pot on: it can no longer be deleted.",
                night=night_named(row),
            )
        table = select(EveningTable.id).where(EveningTable.session_id == row.id)
        if db.session.scalar(table) is not None:  # RULES.md §19: a round keeps its tables
            raise Conflict(
                "{night} is a table of a club evening: it stays with the evening's round.",
                night=night_named(row),
            )
        if has_rounds(row.id):  # RULES.md §6c: money paid at the table never goes unseen
            raise Conflict(
                "{night} has drinks or food: take them back before deleting it.",
                night=night_named(row),
            )
        source = db.session.scalar(select(GameSession).where(GameSession.carried_into_id == row.id))
        if source is not None:
            return_pot(source, row)
        # The rows that belong to the session only; the database's cascades are the backstop.
        for model in (Change, Hand, SessionPlayer):
            db.session.execute(delete(model).where(model.session_id == row.id))
        db.session.delete(row)
        db.session.flush()

    write(work)


def remembered_table(group: GroupRef) -> tuple[list[str], str | None]:
    """The seats of the group's last session, clockwise, and who deals next there (the deal
    passed on from where it ended; None if that player has left): a new session starts there."""
    last = db.session.scalar(
        select(GameSession)
        .where(GameSession.group_id == group.id)
        .order_by(GameSession.started_at.desc(), GameSession.id.desc())
        .limit(1)
    )
    if last is None:
        return [], None
    state = State.from_dict(last.state)
    seats = list(state.seats)
    return seats, state.dealer if state.dealer in seats else None


def only_open_session(group: GroupRef) -> int | None:
    """The id of the group's open session when exactly one is open (the game being played)."""
    ids = db.session.scalars(
        select(GameSession.id)
        .where(GameSession.group_id == group.id, GameSession.status == "open")
        .limit(2)
    ).all()
    return ids[0] if len(ids) == 1 else None


def _started_by(group: GroupRef, request_id: str | None) -> GameSession | None:
    """The session the group's request ``request_id`` started already, if any."""
    if request_id is None:
        return None
    return db.session.scalar(
        select(GameSession).where(
            GameSession.group_id == group.id, GameSession.request_id == request_id
        )
    )


def _open_session(
    group: GroupRef, game: str, options: dict[str, Any], state: State, request_id: str | None
) -> GameSession:
    """The new session's row, and its players seated in the engine's order."""
    rows = players_for(group.id, list(state.seats))
    series = nights.series(game, options)
    row = GameSession(
        group_id=group.id,
        request_id=request_id,
        game=game,
        series=series,
        number=_next_number(group, series),
        status="open",
        options=options,
        start_state=state.to_dict(),
        state=state.to_dict(),
        seating=[],
        version=1,
        hands_played=0,
        started_at=utcnow(),
        carried_pot=0,
    )
    db.session.add(row)
    db.session.flush()
    for seat, p in enumerate(state.seats, start=1):
        db.session.add(
            SessionPlayer(session_id=row.id, player_id=rows[name_key(p)].id, seat=seat, active=True)
        )
    return row


def _seats(group: GroupRef, names: Sequence[str]) -> tuple[dict[str, Player], list[str]]:
    """The group's players of these names, and the seats by name, each spelled as the group
    knows it; a name the group does not know yet is checked as a new player's."""
    known = find_players(group.id, names)
    for i, n in enumerate(names):
        if name_key(n) not in known:
            check_new_name(n, field=f"players[{i}]")
    return known, [known[name_key(n)].name if name_key(n) in known else n for n in names]


def _named_as_before(group: GroupRef, game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options of a night of a game the table names itself (Any game), its name spelled
    as the group's first night of that name had it, whatever the case typed now ("hearts"
    is the group's "Hearts"): one game, one name on every page and in every count."""
    name = nights.own_name(options)
    if not name:
        return options
    first = db.session.scalar(
        select(GameSession.options)
        .where(
            GameSession.group_id == group.id,
            GameSession.series == nights.series(game, options),
        )
        .order_by(GameSession.number)
        .limit(1)
    )
    spelled = nights.own_name(first or {})
    return {**options, nights.NAME_OPTION: spelled} if spelled else options


def _next_number(group: GroupRef, series: str) -> int:
    """The number a night of ``series`` starting now gets: one more than the group's highest
    (ledger/rules/nights.py). Numbers are kept for life: a night deleted before its first
    hand leaves its number to the next night only when no later one took a number after it.
    Two nights started at once: the unique key makes the second start over and count again."""
    highest = db.session.scalar(
        select(func.max(GameSession.number)).where(
            GameSession.group_id == group.id, GameSession.series == series
        )
    )
    return int(highest or 0) + 1


def _record_start(
    row: GameSession, state: State, source: GameSession | None, keeper_id: int | None = None
) -> None:
    """The session's first line of history: who sat down, the pot it took up and who
    brought that pot."""
    brought = {"carried_in_keeper": player_name(keeper_id)} if keeper_id is not None else {}
    record(
        row,
        "session.created",
        before=None,
        after={
            **brought,
            "game": row.game,
            "players": list(state.seats),
            "dealer": state.dealer,
            "options": row.options,
            "carried_in": source.carried_pot if source is not None else 0,
            "carried_from": source.id if source is not None else None,
        },
    )


def _seating(state: State) -> dict[str, Any]:
    """Who sat where and who was to deal: what a join or a leave changes, for the history."""
    return {"seats": list(state.seats), "dealer": state.dealer}


def _sync_seats(row: GameSession, state: State) -> None:
    """Mirror the engine's seats in session_players (one query for the rows, then updates)."""
    rows = db.session.execute(
        select(SessionPlayer, Player.name)
        .join(Player, Player.id == SessionPlayer.player_id)
        .where(SessionPlayer.session_id == row.id)
    ).all()
    by_name = {name: sp for sp, name in rows}
    for name, sp in by_name.items():
        seated = name in state.seats
        sp.active = seated
        sp.seat = state.seats.index(name) + 1 if seated else None
