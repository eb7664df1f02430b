"""An open season's table (RULES.md §13), built once per change of what it counts.

An open season's table is worked out from its nights, never stored as totals (a corrected
night changes it at once). Working it out on every request cost every page that shows a
season a read of all its nights (issue 46: 7 s of a core for a group page with 61 seasons),
so a table is kept per process, as a night's read model is (ledger/services/night.py), under
everything it is made of: the season's own fields (game, period, options) and each night it
counts by its id, start and version (a hand, a correction, a reopened night or a renamed
player is a new version; a night finished, deleted or moved out of the period changes the
list). A read asks one query for the nights of all the seasons it shows (``open_tables``);
only the seasons whose key moved are built again, together, their nights' results read once
(services/league.py ``finished_results``, itself kept per night's version).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal

from flask import current_app
from sqlalchemy import select

from ledger.extensions import db
from ledger.lru import Kept
from ledger.models import GameSession, Season
from ledger.rules.league import SeasonTable, night_places, standings
from ledger.rules.registry import GAMES
from ledger.rules.season_options import SeasonFields
from ledger.services.league import finished, finished_results, named_game
from ledger.services.stats import Period
from ledger.services.views.groups import GroupRef

# The groups whose open seasons' tables are kept per process (each group's all together).
KEPT_GROUPS = 32

# A night as a season's key holds it: its start, its id and its version.
Counted = tuple[datetime, int, int]


def open_tables(group: GroupRef, rows: Sequence[Season]) -> dict[int, SeasonTable]:
    """The tables of the open seasons ``rows`` by id, as their nights stand now: kept ones
    where nothing they count has changed, the others built (all in one read of their nights)."""
    if not rows:
        return {}
    counted = _counted(group, rows)
    keys: dict[int, Hashable] = {row.id: (_own(row), counted[row.id]) for row in rows}
    kept = dict(_kept().get(group.id) or {})
    stale = [row for row in rows if row.id not in kept or kept[row.id][0] != keys[row.id]]
    if stale:
        built = _built(group, stale, counted)
        for row in stale:
            kept[row.id] = (keys[row.id], built[row.id])
        _kept().put(group.id, kept)
    return {row.id: kept[row.id][1] for row in rows}


def built_table(group: GroupRef, row: Season) -> SeasonTable:
    """The season's table built now from its nights (the close keeps it as it stands)."""
    return _built(group, [row], _counted(group, [row]))[row.id]


def fields_of(row: Season) -> SeasonFields:
    """The season's fields as it was given them (its options with their defaults)."""
    o = row.options
    return SeasonFields(
        name=row.name,
        game=row.game,
        game_name=row.game_name,
        first_day=row.first_day,
        last_day=row.last_day,
        scoring=str(o.get("scoring", "places")),
        best_of=o.get("best_of"),
        min_nights=int(o.get("min_nights", 0)),
        entry_fee=int(o.get("entry_fee", 0)),
        unit_value=Decimal(str(o.get("unit_value", "0.01"))),
        currency=str(o.get("currency", "EUR")),
        prizes=tuple(int(p) for p in o.get("prizes", (60, 30, 10))),
        booby=int(o.get("booby", 0)),
    )


def _built(
    group: GroupRef, rows: Sequence[Season], counted: Mapping[int, tuple[Counted, ...]]
) -> dict[int, SeasonTable]:
    """The tables of ``rows`` from the results of the nights each counts (``counted``), the
    nights of all of them read once (from the first day of the earliest to the last day of
    the latest). A night finished since ``counted`` was read waits for the next read: its
    version is not in this table's key, so that read builds the table again."""
    facts = finished(group, _spanned(rows))
    results = {f.id: (f, r) for f, r in finished_results(group, facts)}
    placed = {i: night_places(r) for i, (_f, r) in results.items()}  # once for every season
    tables = {}
    for row in rows:
        mine = [results[i] for _at, i, _version in counted[row.id] if i in results]
        game = GAMES.get(row.game)
        latest = mine[-1][0].options if mine else {}
        lower = game is not None and game.penalty_points({**game.defaults(), **latest})
        rules = fields_of(row).rules(lower_better=lower)
        tables[row.id] = standings([r for _, r in mine], rules, placed)
    return tables


def _own(row: Season) -> Hashable:
    """What the table takes from the season itself: its game, period and options."""
    return (row.game, row.game_name, row.first_day, row.last_day, _frozen(row.options))


def _frozen(value: object) -> Hashable:
    """A JSON value as something hashable (options are dicts and lists)."""
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _counted(group: GroupRef, rows: Sequence[Season]) -> dict[int, tuple[Counted, ...]]:
    """Each season's nights as its key holds them (start, id, version), in the order they
    started: one query over the finished nights of the seasons' games in their periods."""
    by_game = _nights_by_game(group, rows)
    starts = {game: [n[0] for n in nights] for game, nights in by_game.items()}
    counted = {}
    for season in rows:
        game = (season.game, (season.game_name or "").casefold())
        nights, times = by_game.get(game, []), starts.get(game, [])
        period = Period.of_dates(season.first_day, season.last_day)
        first = bisect_left(times, period.start) if period.start is not None else 0
        last = bisect_left(times, period.end) if period.end is not None else len(times)
        counted[season.id] = tuple(nights[first:last])
    return counted


def _nights_by_game(
    group: GroupRef, rows: Sequence[Season]
) -> dict[tuple[str, str], list[Counted]]:
    """The finished nights of the seasons' games within their periods, by game and Any
    game's name (without its case), each game's in the order they started."""
    span = _spanned(rows)
    table = GameSession.__table__
    where = [
        table.c.group_id == group.id,
        table.c.status == "finished",
        table.c.game.in_(sorted({row.game for row in rows})),
    ]
    if span.start is not None:
        where.append(table.c.started_at >= span.start)
    if span.end is not None:
        where.append(table.c.started_at < span.end)
    found = db.session.connection().execute(
        select(
            table.c.id, table.c.game, table.c.options, table.c.started_at, table.c.version
        ).where(*where)
    )
    by_game: dict[tuple[str, str], list[Counted]] = {}
    for night in found:
        named = (named_game(night.game, night.options or {}) or "").casefold()
        by_game.setdefault((night.game, named), []).append(
            (night.started_at, night.id, night.version)
        )
    for nights in by_game.values():
        nights.sort()
    return by_game


def _spanned(rows: Sequence[Season]) -> Period:
    """The period from the earliest season's first day to the latest one's last day."""
    first: date = min(row.first_day for row in rows)
    last: date = max(row.last_day for row in rows)
    return Period.of_dates(first, last)


def _kept() -> Kept[dict[int, tuple[Hashable, SeasonTable]]]:
    """This app's kept tables, each group's by season (each app its own, as its database is
    its own), the group read least lately dropped first (ledger/lru.py)."""
    found: Kept[dict[int, tuple[Hashable, SeasonTable]]] = current_app.extensions.setdefault(
        "ledger_seasons", Kept[dict[int, tuple[Hashable, SeasonTable]]](KEPT_GROUPS)
    )
    return found
