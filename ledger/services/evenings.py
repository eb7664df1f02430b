"""Club evenings (RULES.md §19): several tables of one game at once, rounds drawn, one list.

- ``create_evening``: the evening, its game's options and its money (a repeated request id
  answers the evening it made); it counts toward the group's size (services/room.py).
- ``check_in``, ``check_out``: the players, until the first draw (a new name joins the group).
- ``draw_next_round``: the next round's tables drawn (ledger/rules/draw.py) and each table's
  night started at once, in one write; two draws at the same moment draw one round.
- ``evening_view``, ``group_evenings``: the evening now, its list built from each table's
  night as its read model shows it (services/night.py, services/league.py).
- ``close_evening``: the list kept as it closed, its balances settled as a season's;
  ``tick_evening``: a transfer of that settle-up ticked as paid, or the tick taken back, kept
  with the list as a season's are (services/seasons.py ``ticked``).
"""

from __future__ import annotations

import random
import secrets
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from ledger.extensions import db
from ledger.models import Evening, EveningPlayer, EveningTable, GameSession, Player, utcnow
from ledger.rules.draw import draw_round, game_tables, pairs
from ledger.rules.errors import RuleError
from ledger.rules.evening import (
    EveningList,
    TableResult,
    evening_list,
    list_from_dict,
    list_to_dict,
)
from ledger.rules.evening_options import evening_fields, money_of
from ledger.rules.league import Rules, league_points, night_places
from ledger.rules.registry import GAMES, get_game
from ledger.services.errors import Conflict, NotFound
from ledger.services.evening_seats import load_evening
from ledger.services.groups import check_player_name, name_key, players_for
from ledger.services.league import night_result
from ledger.services.loading import read_session
from ledger.services.night import NightView, night_of
from ledger.services.room import EVENING_HANDS, check_room
from ledger.services.seasons import settle_balances, ticked
from ledger.services.sessions import start_night
from ledger.services.unit_of_work import write
from ledger.services.views.evenings import (
    AddedEvening,
    EveningView,
    NightAtEvening,
    PlayerEvening,
    PlayerEvenings,
    RoundView,
    TableView,
)
from ledger.services.views.groups import GroupRef
from ledger.services.views.money import TransferView

# The draw's seeds are kept in a column of 32 bits on every database.
SEED_BITS = 31


def _closed() -> Conflict:
    return Conflict("The evening is closed.")


def create_evening(
    group: GroupRef, body: Mapping[str, Any], request_id: str | None = None
) -> AddedEvening:
    """A new evening from the API's fields (RuleError naming the field)."""
    fields = evening_fields(body, GAMES)

    def work() -> AddedEvening:
        if request_id is not None:
            found = db.session.scalar(
                select(Evening).where(
                    Evening.group_id == group.id, Evening.request_id == request_id
                )
            )
            if found is not None:
                return AddedEvening(_view(group, found), created=False)
        check_room(group.id, adding=EVENING_HANDS)
        row = Evening(
            group_id=group.id,
            request_id=request_id,
            name=fields.name,
            game=fields.game,
            options=dict(fields.options),
            money=fields.money(),
            rounds=fields.rounds,
            status="open",
            created_at=utcnow(),
        )
        db.session.add(row)
        db.session.flush()
        return AddedEvening(_view(group, row), created=True)

    return write(work)


def check_in(group: GroupRef, evening_id: int, name: Any) -> tuple[EveningView, int]:
    """The player checked in (a new name joins the group); checking in twice is once.
    Answers the evening and the player's id (the phone that checked in becomes theirs)."""

    def work() -> tuple[EveningView, int]:
        row = load_evening(group, evening_id, lock=True)  # another group's: not found, first
        player_name = check_player_name(name, field="player")
        _check_before_draw(row)
        player = players_for(group.id, [player_name])[name_key(player_name)]
        known = db.session.scalar(
            select(EveningPlayer).where(
                EveningPlayer.evening_id == row.id, EveningPlayer.player_id == player.id
            )
        )
        if known is None:
            check_room(group.id)
            db.session.add(
                EveningPlayer(evening_id=row.id, player_id=player.id, checked_in_at=utcnow())
            )
            db.session.flush()
        return _view(group, row), player.id

    return write(work)


def check_out(group: GroupRef, evening_id: int, name: str) -> EveningView:
    """The player checked out again, until the draw (NotFound if not checked in)."""

    def work() -> EveningView:
        row = load_evening(group, evening_id, lock=True)
        _check_before_draw(row)
        found = db.session.scalar(
            select(EveningPlayer)
            .join(Player, Player.id == EveningPlayer.player_id)
            .where(EveningPlayer.evening_id == row.id, Player.name_key == name_key(name))
        )
        if found is None:
            raise NotFound("{player} is not checked in to this evening.", player=name[:40])
        db.session.delete(found)
        db.session.flush()
        return _view(group, row)

    return write(work)


def _check_before_draw(row: Evening) -> None:
    if row.status != "open":
        raise _closed()
    drawn = db.session.scalar(select(EveningTable.id).where(EveningTable.evening_id == row.id))
    if drawn is not None:
        raise Conflict(
            "The tables are drawn: players check in and out before the first draw.",
            field="player",
        )


def draw_next_round(group: GroupRef, evening_id: int, seed: int | None = None) -> RoundView:
    """The next round drawn and each table's night started, all in one write.

    The evening is locked for the write, and its tables are unique per (round, table): two
    draws at the same moment (or a draw beside the last table finishing) end as one round
    drawn, the other refused as the state it then finds says."""
    chosen = secrets.randbits(SEED_BITS) if seed is None else seed

    def work() -> RoundView:
        row = load_evening(group, evening_id, lock=True)
        if row.status != "open":
            raise _closed()
        drawn = _rounds(group, row)
        if len(drawn) >= row.rounds:
            raise Conflict(
                "All {rounds} rounds of the evening are drawn.", field="round", rounds=row.rounds
            )
        if drawn and not drawn[-1].finished:
            raise Conflict(
                "Round {next} is drawn when every table of round {last} has finished.",
                field="round",
                next=len(drawn) + 1,
                last=len(drawn),
            )
        players = _checked_in(row)
        game = get_game(row.game)
        try:
            sizes = game_tables(game, len(players))
        except RuleError as e:
            raise Conflict(e.phrase, field="players") from None
        met: Counter[frozenset[str]] = Counter()
        for done in drawn:
            met += pairs(t.players for t in done.tables)
        tables = draw_round(players, sizes, met, random.Random(chosen))
        number = len(drawn) + 1
        for i, seats in enumerate(tables, start=1):
            # No request id: a retry is safe by the evening's lock and its tables' rows, and
            # the ids a client sends (their own retries) never reach a table's night.
            night = start_night(group, row.game, seats, seats[0], row.options)
            db.session.add(
                EveningTable(
                    evening_id=row.id,
                    round=number,
                    number=i,
                    session_id=night.session.id,
                    seed=chosen,
                )
            )
        db.session.flush()
        return _rounds(group, row)[-1]

    return write(work)


def close_evening(group: GroupRef, evening_id: int, settle: Any = None) -> EveningView:
    """The evening closed: its list kept as it stands, its balances settled now or put on
    the group's tab. Every table's night is finished first (its points are final then)."""
    choice = "now" if settle is None else settle
    if choice not in ("now", "tab"):
        raise RuleError('Settle an evening "now" or put it on the "tab".', field="settle")

    def work() -> EveningView:
        row = load_evening(group, evening_id, lock=True)
        if row.status != "open":
            raise _closed()
        drawn = _rounds(group, row)
        if drawn and not drawn[-1].finished:
            raise Conflict(
                "The evening closes when every table of round {last} has finished.",
                field="settle",
                last=len(drawn),
            )
        found = _list(group, row, drawn)
        row.closed = list_to_dict(found)
        row.status = "closed"
        row.closed_at = utcnow()
        row.on_tab = choice == "tab" and bool(found.balances())
        db.session.flush()
        return _view(group, row)

    return write(work)


def tick_evening(
    group: GroupRef, evening_id: int, source: Any, target: Any, paid: bool = True
) -> TransferView:
    """A transfer of a closed evening's settle-up ticked as paid, or its tick taken back: kept
    with the list as it closed, as a season's ticks are, so every phone's page shows it; the
    evening is locked, so two phones ticking at once take turns (twice is once)."""

    def work() -> TransferView:
        row = load_evening(group, evening_id, lock=True)
        row.closed, transfer = ticked(
            _view(group, row).settlement, row.closed, row.name, source, target, paid
        )
        db.session.flush()
        return transfer

    return write(work)


def evening_view(group: GroupRef, evening_id: int) -> EveningView:
    return _view(group, load_evening(group, evening_id))


def evening_list_now(group: GroupRef, row: Evening) -> EveningList:
    """The group's evening's list as its tables' nights give it now, closed or not (a
    restore holds a closed evening's kept list to it: ledger/services/backups.py)."""
    return _list(group, row, _rounds(group, row))


def group_evenings(group: GroupRef) -> list[EveningView]:
    """The group's evenings, newest first."""
    rows = db.session.scalars(
        select(Evening).where(Evening.group_id == group.id).order_by(Evening.id.desc())
    ).all()
    return [_view(group, row) for row in rows]


def evening_of_session(group: GroupRef, session_id: int) -> NightAtEvening | None:
    """The evening, round and table whose night ``session_id`` is, if it is one (its pages
    say so: "Skat #12, table 2")."""
    found = db.session.execute(
        select(Evening.id, Evening.name, EveningTable.round, EveningTable.number)
        .join(Evening, Evening.id == EveningTable.evening_id)
        .where(EveningTable.session_id == session_id, Evening.group_id == group.id)
    ).first()
    return None if found is None else NightAtEvening(found[0], found[1], found[2], found[3])


def evening_stamp(group: GroupRef, evening_id: int) -> str:
    """What the evening's pages poll: one query, changing with every check-in, draw, hand,
    correction and finish at any of its tables, with its close and every tick of its
    settle-up (the list kept at the close is read only then: an open evening's is empty)."""
    tables = (
        select(func.coalesce(func.sum(GameSession.version), 0))
        .join(EveningTable, EveningTable.session_id == GameSession.id)
        .where(EveningTable.evening_id == Evening.id)
        .scalar_subquery()
    )
    checked = (
        select(func.count(EveningPlayer.id))
        .where(EveningPlayer.evening_id == Evening.id)
        .scalar_subquery()
    )
    found = db.session.execute(
        select(Evening.status, tables, checked, Evening.closed).where(
            Evening.id == evening_id, Evening.group_id == group.id
        )
    ).first()
    if found is None:
        raise NotFound("There is no evening {id}.", id=evening_id)
    ticks = sorted(f"{t['from']}>{t['to']}" for t in (found[3] or {}).get("paid", ()))
    return f"{found[0]}-{found[1]}-{found[2]}-{zlib.crc32(chr(0).join(ticks).encode())}"


def group_players(group: GroupRef) -> list[tuple[int, str]]:
    """The group's players by name, for a phone to tap its own at check-in."""
    rows = db.session.execute(
        select(Player.id, Player.name).where(Player.group_id == group.id).order_by(Player.name_key)
    ).all()
    return [(row[0], row[1]) for row in rows]


def player_evenings(group: GroupRef, name: str) -> PlayerEvenings:
    """The club evenings a player played (checked in, a round drawn) and won (first on the
    list of a closed evening; shared first counts), newest first, for their page."""
    drawn = select(EveningTable.id).where(EveningTable.evening_id == Evening.id).exists()
    rows = db.session.scalars(
        select(Evening)
        .join(EveningPlayer, EveningPlayer.evening_id == Evening.id)
        .join(Player, Player.id == EveningPlayer.player_id)
        .where(Evening.group_id == group.id, Player.name_key == name_key(name), drawn)
        .order_by(Evening.id.desc())
    ).all()
    lines = []
    for row in rows:
        kept = list_from_dict(row.closed) if row.closed is not None else None
        line = (
            next((x for x in kept.lines if name_key(x.player) == name_key(name)), None)
            if kept
            else None
        )
        lines.append(
            PlayerEvening(
                row.id,
                row.name,
                row.game,
                line.rank if line else None,
                len(kept.lines) if kept else 0,
            )
        )
    return PlayerEvenings(tuple(lines))


def player_table(view: EveningView, player_id: int) -> tuple[str, TableView | None] | None:
    """A checked-in player's name and their table in the round now (None before the draw),
    or None if the player is not checked in to the evening."""
    name = db.session.scalar(
        select(Player.name)
        .join(EveningPlayer, EveningPlayer.player_id == Player.id)
        .where(EveningPlayer.evening_id == view.id, Player.id == player_id)
    )
    if name is None:
        return None
    now = view.round_now
    return name, (now.table_of(name) if now is not None else None)


# --- Reading ---------------------------------------------------------------------------------


def _view(group: GroupRef, row: Evening) -> EveningView:
    drawn = _rounds(group, row)
    found = list_from_dict(row.closed) if row.closed is not None else _list(group, row, drawn)
    game = GAMES.get(row.game)
    currency = str(row.money.get("currency", "EUR"))
    unit = Decimal(str(row.money.get("unit_value", "0.01")))
    settlement = None
    if row.closed is not None:
        title = f"{row.name}"
        settlement = settle_balances(
            group, found.balances(), unit, currency, title, row.on_tab, row.closed
        )
    return EveningView(
        id=row.id,
        name=row.name,
        game=row.game,
        game_name=game.name if game is not None else row.game,
        status=row.status,
        options=dict(row.options),
        money=dict(row.money),
        rounds=row.rounds,
        players=tuple(_checked_in(row)),
        drawn=drawn,
        standings=found,
        currency=currency,
        unit_value=unit,
        created_at=row.created_at,
        closed_at=row.closed_at,
        on_tab=row.on_tab,
        settlement=settlement,
    )


def _checked_in(row: Evening) -> list[str]:
    """The players checked in, in the order they came."""
    return list(
        db.session.scalars(
            select(Player.name)
            .join(EveningPlayer, EveningPlayer.player_id == Player.id)
            .where(EveningPlayer.evening_id == row.id)
            .order_by(EveningPlayer.checked_in_at, EveningPlayer.id)
        )
    )


def _rounds(group: GroupRef, row: Evening) -> tuple[RoundView, ...]:
    """Each round drawn with its tables, each table as its night's read model shows it."""
    tables = db.session.scalars(
        select(EveningTable)
        .where(EveningTable.evening_id == row.id)
        .order_by(EveningTable.round, EveningTable.number)
    ).all()
    by_round: dict[int, list[TableView]] = {}
    for table in tables:
        night = night_of(group, read_session(group, table.session_id))
        by_round.setdefault(table.round, []).append(_table(table, night))
    return tuple(RoundView(r, tuple(ts)) for r, ts in sorted(by_round.items()))


def _table(table: EveningTable, night: NightView) -> TableView:
    view = night.session
    seated = tuple(p.name for p in view.players if p.active)
    places = night_places(night_result(night, seated))
    first = tuple(p for p in seated if places.get(p) == 1)
    deals = view.parts.get("deals")
    return TableView(
        table=table.number,
        session=view.id,
        number=view.number,
        players=seated,
        hands_played=view.hands_played,
        hands=int(deals) if isinstance(deals, int) else None,
        leaders=first if view.hands_played and len(first) < len(seated) else (),
        status=view.status,
    )


def _list(group: GroupRef, row: Evening, drawn: Sequence[RoundView]) -> EveningList:
    """The evening's list from each table's night as it stands (RULES.md §19)."""
    game = get_game(row.game)
    rules = Rules(scoring=str(row.money.get("scoring") or game.evening_scoring))
    results = []
    for done in drawn:
        for table in done.tables:
            night = night_of(group, read_session(group, table.session))
            parts = night.session.parts
            points = league_points(night_result(night, table.players), rules)
            results.append(
                TableResult(
                    done.round,
                    points,
                    won=_counts(parts.get("won_games")),
                    lost=_counts(parts.get("lost_games")),
                )
            )
    return evening_list(_checked_in(row), results, row.rounds, money_of(row.money))


def _counts(value: Any) -> dict[str, int]:
    """A night's games won or lost per player, where its game counts them (Skat)."""
    if not isinstance(value, Mapping):
        return {}
    return {str(p): int(n) for p, n in value.items()}
