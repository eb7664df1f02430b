"""Seasons (RULES.md §13): a group's league of one game over a period of dates.

- ``create_season``, ``update_season``, ``delete_season``: the season and its options.
- ``season_view``, ``group_seasons``: a season with its table, worked out from the nights
  while it is open (never stored as totals: a corrected night changes it at once), kept per
  process until what it counts changes (ledger/services/season_tables.py).
- ``close_season``: the table is kept as it closed (no later night changes it) and settled:
  the fewest transfers with their bank QR codes, or onto the group's tab.
- ``tick_season``: a transfer of a closed season's settle-up ticked as paid, or the tick
  taken back (kept with the season as it closed: every phone sees it).
- ``seasons_under_way``, ``player_seasons``: the group page's line and a player's places.

A night's result is read from the night's read model (ledger/services/league.py
``night_result``, ledger/services/night.py): the same figures its scoreboard shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import Season, utcnow
from ledger.rules.epc import remittance
from ledger.rules.errors import RuleError
from ledger.rules.league import SeasonTable, nights_left, table_from_dict, table_to_dict
from ledger.rules.money import amount, settle_amounts
from ledger.rules.registry import GAMES
from ledger.rules.season_options import SeasonFields, season_fields
from ledger.services import league
from ledger.services.accounts import with_epc
from ledger.services.errors import Conflict, NotFound
from ledger.services.groups import name_key
from ledger.services.loading import group_row
from ledger.services.room import SEASON_HANDS, check_room
from ledger.services.season_tables import built_table, fields_of, open_tables
from ledger.services.season_views import (
    AddedSeason,
    PlayerLeague,
    PlayerSeason,
    SeasonSettlement,
    SeasonView,
)
from ledger.services.tab import season_paid
from ledger.services.unit_of_work import write
from ledger.services.views.groups import GroupRef
from ledger.services.views.money import BalanceView, TransferView


def _closed() -> Conflict:
    return Conflict("The season is closed: its standings no longer change.")


def create_season(
    group: GroupRef, body: Mapping[str, Any], request_id: str | None = None
) -> AddedSeason:
    """A new season from the API's fields (RuleError naming the field); a repeated
    ``request_id`` answers the season it made; GroupFull once the group has no room for it
    (a season counts as ``room.SEASON_HANDS`` hands)."""
    fields = season_fields(body, GAMES)

    def work() -> AddedSeason:
        if request_id is not None:
            found = db.session.scalar(
                select(Season).where(Season.group_id == group.id, Season.request_id == request_id)
            )
            if found is not None:
                return AddedSeason(_view(group, found), created=False)
        check_room(group.id, adding=SEASON_HANDS)  # a season counts toward the group's size
        row = Season(
            group_id=group.id,
            request_id=request_id,
            name=fields.name,
            game=fields.game,
            game_name=fields.game_name,
            first_day=fields.first_day,
            last_day=fields.last_day,
            options=fields.options(),
            status="open",
            created_at=utcnow(),
        )
        db.session.add(row)
        db.session.flush()
        return AddedSeason(_view(group, row), created=True)

    return write(work)


def update_season(group: GroupRef, season_id: int, body: Mapping[str, Any]) -> SeasonView:
    """The season's name, dates or options changed, while it is open (Conflict after)."""

    def work() -> SeasonView:
        row = _load(group, season_id, lock=True)
        if row.status != "open":
            raise _closed()
        fields = season_fields(body, GAMES, fields_of(row))
        row.name, row.first_day, row.last_day = fields.name, fields.first_day, fields.last_day
        row.options = fields.options()
        db.session.flush()
        return _view(group, row)

    return write(work)


def close_season(group: GroupRef, season_id: int, settle: Any = None) -> SeasonView:
    """Close the season: its table is kept as it stands now (nights finished later no longer
    count) and its balances are paid at once or, with ``settle`` "tab", put on the tab."""
    choice = "now" if settle is None else settle
    if choice not in ("now", "tab"):
        raise RuleError('Settle a season "now" or put it on the "tab".', field="settle")

    def work() -> SeasonView:
        row = _load(group, season_id, lock=True)
        if row.status != "open":
            raise _closed()
        table = built_table(group, row)
        row.closed = table_to_dict(table)
        row.status = "closed"
        row.closed_at = utcnow()
        row.on_tab = choice == "tab" and bool(table.balances())
        db.session.flush()
        return _view(group, row)

    return write(work)


def tick_season(
    group: GroupRef, season_id: int, source: Any, target: Any, paid: bool = True
) -> TransferView:
    """A transfer of a closed season's settle-up ticked as paid, or its tick taken back: kept
    with the season as it closed (its transfers never change after), so every phone's page
    shows it. A tick made twice (a double tap, two phones) is one tick."""

    def work() -> TransferView:
        row = _load(group, season_id, lock=True)
        row.closed, transfer = ticked(
            _view(group, row).settlement, row.closed, row.name, source, target, paid
        )
        db.session.flush()
        return transfer

    return write(work)


def ticked(
    settlement: SeasonSettlement | None,
    kept: Mapping[str, Any] | None,
    title: str,
    source: Any,
    target: Any,
    paid: bool,
) -> tuple[dict[str, Any], TransferView]:
    """What a closed settle-up keeps (``kept``, the table or list kept as it closed) once the
    transfer from ``source`` to ``target`` is ticked as paid (``paid``) or its tick taken
    back, and that transfer. The ticks are kept beside the table under "paid", as
    ``settle_balances`` reads them: a closed season's, and a closed club evening's. The caller
    holds its row locked, so two phones ticking at once take turns; ticking twice is once.
    ``title`` names the season or evening in a refusal."""
    if settlement is None or settlement.on_tab:
        raise Conflict("{season} has no payments of its own to tick.", season=title)
    transfer = next(
        (t for t in settlement.transfers if (t.source, t.target) == (source, target)), None
    )
    if transfer is None:
        raise RuleError(
            "{season}'s settle-up has no payment from {payer} to {payee}.",
            field="from",
            season=title,
            payer=str(source),
            payee=str(target),
        )
    before = kept or {}
    ticks = [t for t in before.get("paid", ()) if (t["from"], t["to"]) != (source, target)]
    if paid:
        at = utcnow().isoformat()
        ticks.append({"from": source, "to": target, "amount": str(transfer.amount), "at": at})
    return {**before, "paid": ticks}, transfer


def delete_season(group: GroupRef, season_id: int) -> None:
    """Remove the season: refused once a payment is recorded against it (a season on the tab
    whose tab was paid since)."""

    def work() -> None:
        row = _load(group, season_id, lock=True)
        if (row.closed or {}).get("paid"):
            raise Conflict(
                "Payments are ticked in {season}'s settle-up: the season stays.", season=row.name
            )
        if row.on_tab and season_paid(group, row):
            raise Conflict(
                "The tab has been paid since {season} went on it: the season stays.",
                season=row.name,
            )
        db.session.delete(row)
        db.session.flush()

    write(work)


def season_view(group: GroupRef, season_id: int) -> SeasonView:
    return _view(group, _load(group, season_id))


def group_seasons(group: GroupRef) -> list[SeasonView]:
    """The group's seasons, the latest first (by their last day)."""
    rows = db.session.scalars(
        select(Season)
        .where(Season.group_id == group.id)
        .order_by(Season.last_day.desc(), Season.id.desc())
    ).all()
    return _views(group, rows)


def seasons_under_way(group: GroupRef) -> list[SeasonView]:
    """The open seasons whose period holds today (the group page's line)."""
    today = utcnow().date()
    rows = db.session.scalars(
        select(Season).where(
            Season.group_id == group.id,
            Season.status == "open",
            Season.first_day <= today,
            Season.last_day >= today,
        )
    ).all()
    return _views(group, rows)


def player_seasons(group: GroupRef, name: str) -> list[PlayerSeason]:
    """Each season the player has a night in, with their line in it."""
    found = []
    for season in group_seasons(group):
        line = next(
            (s for s in season.table.standings if name_key(s.player) == name_key(name)), None
        )
        if line is not None:
            found.append(PlayerSeason(season, line))
    return found


def player_league(group: GroupRef, name: str) -> PlayerLeague:
    """A player's page's league: their place in each season, their rating over time at each
    game, and their rivals (RULES.md §13, §14)."""
    return PlayerLeague(
        tuple(player_seasons(group, name)),
        tuple(league.player_ratings(group, name)),
        league.player_rivals(group, name),
    )


# --- Reading a season -----------------------------------------------------------------------


def _views(group: GroupRef, rows: Sequence[Season]) -> list[SeasonView]:
    """The seasons ``rows`` with their tables, the open ones' read together (each built
    once per change of what it counts: ledger/services/season_tables.py)."""
    tables = open_tables(group, [row for row in rows if row.closed is None])
    return [_view(group, row, tables.get(row.id)) for row in rows]


def _view(group: GroupRef, row: Season, table: SeasonTable | None = None) -> SeasonView:
    fields = fields_of(row)
    closed = row.closed is not None
    if row.closed is not None:
        table = table_from_dict(row.closed)
    elif table is None:
        table = open_tables(group, [row])[row.id]
    today = utcnow().date()
    game = GAMES.get(row.game)
    return SeasonView(
        id=row.id,
        name=row.name,
        game=row.game,
        game_name=row.game_name,
        title=row.game_name or (game.name if game is not None else row.game),
        first_day=row.first_day,
        last_day=row.last_day,
        options=dict(row.options),
        status=row.status,
        table=table,
        currency=fields.currency,
        unit_value=fields.unit_value,
        closed_at=row.closed_at,
        on_tab=row.on_tab,
        settlement=_settlement(group, row, fields, table) if closed else None,
        nights_left=None
        if closed
        else nights_left(row.first_day, row.last_day, today, len(table.nights)),
        under_way=not closed and row.first_day <= today <= row.last_day,
        days_left=(row.last_day - today).days
        if not closed and row.first_day <= today <= row.last_day
        else None,
    )


def _settlement(
    group: GroupRef, row: Season, fields: SeasonFields, table: SeasonTable
) -> SeasonSettlement:
    """The closed season's balances and the fewest transfers, with their QR codes."""
    unit, currency = fields.unit_value, fields.currency
    return settle_balances(
        group, table.balances(), unit, currency, row.name, row.on_tab, row.closed
    )


def settle_balances(
    group: GroupRef,
    balances: Mapping[str, int],
    unit: Decimal,
    currency: str,
    title: str,
    on_tab: bool,
    closed: Mapping[str, Any] | None,
) -> SeasonSettlement:
    """Balances in units settled by the fewest transfers, with their bank QR codes (``title``
    names them in the remittance), none of their own on the tab; ``closed``'s "paid" are the
    transfers ticked as paid. A closed season's, and a closed club evening's (RULES.md §19)."""
    settled: dict[str, Decimal] = {}
    transfers: tuple[TransferView, ...] = ()
    if balances:
        settled, pairs = settle_amounts(dict(balances), unit, currency)
        transfers = tuple(TransferView(t.source, t.target, t.units, money) for t, money in pairs)
    views = tuple(
        BalanceView(p, u, amount(u, unit, currency), settled.get(p), winnings=u)
        for p, u in sorted(balances.items(), key=lambda pu: (-pu[1], pu[0]))
    )
    if on_tab:
        transfers = ()
    else:
        transfers = with_epc(group, transfers, currency, remittance(group.name, title))
    paid = frozenset((t["from"], t["to"]) for t in (closed or {}).get("paid", ()))
    return SeasonSettlement(currency, unit, views, transfers, on_tab, paid)


def _load(group: GroupRef, season_id: int, *, lock: bool = False) -> Season:
    """The group's season ``season_id``; another group's answers exactly like a missing one.
    With ``lock`` it is locked for the rest of the transaction, as a session is."""
    row: Season | None = group_row(Season, group, season_id, lock=lock)
    if row is None:
        raise NotFound("There is no season {id}.", id=season_id)
    return row
