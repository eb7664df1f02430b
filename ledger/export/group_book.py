"""A group's workbook: its players, each player's sheet, the sessions' hands streamed, the
tab."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import IO, TYPE_CHECKING, Any

from openpyxl import Workbook

from ledger.export.cells import _joined, _when, money_format
from ledger.export.rounds import group_rounds_header, group_rounds_rows, rounds_of
from ledger.export.sheets import _new_workbook, _save, _Sheet, _width
from ledger.export.tables import (
    FINISHED,
    STARTED,
    GroupHands,
    SessionData,
    _add_hand_names,
    _game_name,
    group_games,
    night_title,
    seated_names,
    session_winners,
)
from ledger.rules.nights import night_name
from ledger.rules.registry import GAMES
from ledger.services.stats import (
    HandTally,
    Night,
    RunningTotals,
    SessionFacts,
    StatsView,
    Totals,
    facts_from_json,
    named_by_table,
    night_facts,
    ranked_board,
)

if TYPE_CHECKING:
    from ledger.services.exports import GroupBook, StreamedSession
    from ledger.services.season_views import SeasonView
    from ledger.services.views.evenings import EveningView
    from ledger.services.views.tab import TabView


def _engine_game(key: str) -> str:
    """A game's own name by its key ("Any game")."""
    return GAMES[key].name if key in GAMES else key


def _games_label(key: str) -> str:
    """A game as the stats count it (ledger/rules/nights.py game_key): its name, or the
    table's name for an Any game ("tally:Hearts" is "Hearts": Hearts and Whist are two)."""
    game, _sep, name = key.partition(":")
    return name if name and named_by_table(game) else _engine_game(game)


def _points_header(key: str) -> str:
    """A points column's heading: "Points (Rummy)", "Points (Rummy, penalty)", and an Any
    game by its name: "Points (Hearts)"."""
    game, _sep, scoring = key.partition(":")
    if scoring and not named_by_table(game):
        return f"Points ({_engine_game(game)}, {scoring})"
    return f"Points ({_games_label(key)})"


def _players_sheet(sheet: _Sheet, board: StatsView, names: Sequence[str]) -> None:
    """One row per player: sessions, hands, wins, money per currency, points per game."""
    currencies, keys = board.currencies, board.points_keys
    sheet.formats = {5 + i: money_format(c) for i, c in enumerate(currencies)}
    sheet.header(
        ["Player", "Sessions", "Hands played", "Hands won", "Games won"]
        + [f"Net money ({c})" if c else "Net money" for c in currencies]
        + [_points_header(k) for k in keys]
    )
    rows = {t.name: t for t in board.players}
    for name in [*names, *(n for n in rows if n not in names)]:
        t = rows.get(name) or Totals(name)
        sheet.row(
            [name, t.sessions, t.hands, t.hands_won, t.all_games_won]
            + [t.money.get(c, Decimal(0)) for c in currencies]
            + [t.points.get(k) if k in t.points else None for k in keys]
        )
    sheet.filter()


def _sheet_title(name: str, taken: set[str]) -> str:
    """A sheet's title for a player: at most 31 characters, none of ``[]:*?/\\``, and not
    one already taken (whatever the case: "Hands" the player is not the Hands sheet)."""
    base = re.sub(r"[\[\]:*?/\\]", "_", name).strip("'")[:31] or "Player"
    title, n = base, 1
    while title.casefold() in taken:
        n += 1
        suffix = f" ({n})"
        title = base[: 31 - len(suffix)] + suffix
    taken.add(title.casefold())
    return title


class _PlayerSheets:
    """A sheet per player (their nights, as the player's page lists them, then their totals),
    written a night at a time as the nights stream by, their totals added up as they go
    (``RunningTotals``): no night is kept. The group's players' sheets first, then any other
    who played, in the order they first played; each titled once all are known, as if made
    in that order after the sheets before them."""

    def __init__(self, wb: Workbook, names: Sequence[str]) -> None:
        self.wb = wb
        self.names = names
        self.sheets: dict[str, _Sheet] = {}
        self.running: dict[str, RunningTotals] = {}

    def add(self, facts: SessionFacts) -> None:
        """A session's night of each of its players, on their sheets and in their totals."""
        for name, night in night_facts(facts):
            _player_row(self.sheets.get(name) or self._sheet(name), night)
            running = self.running.get(name)
            if running is None:
                running = self.running[name] = RunningTotals(name)
            running.add(night)

    def board(self) -> StatsView:
        """Every player's totals, as the stats rank them (``board``)."""
        return ranked_board(r.totals() for r in self.running.values())

    def finish(self) -> None:
        """Each player's totals under their nights; the sheets titled and put in order,
        after the sheets made before them (Sessions, Players, Hands, Rounds)."""
        mine = {id(sheet.ws) for sheet in self.sheets.values()}
        before = [ws for ws in self.wb._sheets if id(ws) not in mine]
        taken = {ws.title.casefold() for ws in before}
        ordered = []
        for name in dict.fromkeys([*self.names, *self.running]):
            sheet = self.sheets.get(name) or self._sheet(name)
            running = self.running.get(name) or RunningTotals(name)
            _player_totals(sheet, running.totals())
            sheet.ws.title = _sheet_title(name, taken)
            ordered.append(sheet.ws)
        self.wb._sheets = [*before, *ordered]

    def _sheet(self, name: str) -> _Sheet:
        # Titled in ``finish``; until then by a title no player's can be (a sheet's title
        # never starts with an apostrophe: ``_sheet_title``).
        sheet = self.sheets[name] = _player_sheet(self.wb, f"'{len(self.sheets)}")
        return sheet


def _player_sheet(wb: Workbook, title: str) -> _Sheet:
    """A player's sheet, its header written: their nights come a row each."""
    sheet = _Sheet(wb, title, [12, 7, 12, 17, 9, 9, 12, 9, 6, 7, 7, 9], freeze="A2")
    sheet.formats = {}
    sheet.header(
        ["Session", "Id", "Game", STARTED, "Status", "Score", "Money", "Currency", "Won"]
        + ["Place", "Hands", "Hands won"]
    )
    return sheet


def _player_row(sheet: _Sheet, n: Night) -> None:
    """A player's night on their sheet."""
    game = _engine_game(n.game)
    sheet.row(
        # The night as the pages name it ("Hearts #1"), its id beside it (API.md).
        [night_name(game, n.own_name, n.number), n.session]
        + [n.own_name or game, n.started_at]
        + [n.status, n.score, n.money, n.currency, "yes" if n.won else None]
        + [n.place, n.hands, n.hands_won]
    )


def _player_totals(sheet: _Sheet, t: Totals) -> None:
    """A player's totals under their nights."""
    sheet.filter()
    sheet.blank()
    sheet.row(["Sessions", t.sessions])
    sheet.row(["Hands played", t.hands])
    sheet.row(["Hands won", t.hands_won])
    for game, won in t.games_won.items():
        sheet.row([f"Games won ({_games_label(game)})", won])
    for key, points in t.points.items():
        sheet.row([_points_header(key), points])
    for currency, value in t.money.items():
        sheet.formats = {1: money_format(currency)}
        sheet.row([f"Net money ({currency})", value])


def group_workbook(
    group: Mapping[str, Any],
    sessions: Iterable[SessionData | tuple[Any, ...]],
    *,
    stream: IO[bytes] | None = None,
    tabs: Sequence[TabView] = (),
    seasons: Sequence[SeasonView] = (),
    evenings: Sequence[EveningView] = (),
    games: Sequence[str] | None = None,
) -> bytes:
    """The group's whole history (API.md "Workbooks"): Sessions, Players and Hands, then a
    sheet per player (their nights and totals, as their page shows them), then the Tab
    (RULES.md §6a) when the group keeps one.

    ``group`` is the group's answer (its listing of sessions may be left out when ``games``,
    the games of its nights oldest first, are given); ``sessions`` yields, oldest first, each
    session's answer with its hands and settlement. It is read once, so it may be a
    generator that loads one session at a time, and a session's hands are read once too,
    each written as it comes: a night of any length may stream in. Each night's row on its
    players' sheets is written as it comes too; only the players' running totals are kept.
    """
    player_names = [str(p["name"]) for p in group.get("players") or []]
    listed = {s.get("id"): s for s in group.get("sessions") or []}
    name_width = _width("Player", *player_names)
    wb = _new_workbook()

    sessions_sheet = _Sheet(
        wb, "Sessions", [12, 7, 12, 17, 17, 30, name_width + 4, 9, 7], freeze="B2"
    )
    sessions_sheet.header(
        ["Session", "Id", "Game", STARTED, FINISHED, "Players", "Winners", "Status", "Hands"]
    )
    # Players is the second sheet but is written last, once the totals are known. It has a
    # net money column per currency, unknown until then: its widths are set generously now.
    players_sheet = _Sheet(wb, "Players", [max(12.0, name_width)] + [14] * 10)
    games = group_games(group) if games is None else games
    hands_sheet, layout = _hands_sheet(wb, games, player_names, name_width)

    players = _PlayerSheets(wb, player_names)
    rounds_sheet: _Sheet | None = None  # RULES.md §6c: made with the first night's rounds
    for item in sessions:
        session, hands, _settlement = SessionData(*item)
        started = session.get("started_at") or listed.get(session.get("id"), {}).get("started_at")
        sheets = (sessions_sheet, hands_sheet)
        players.add(_group_session(sheets, session, hands, started, layout))
        if rounds_of(session):
            rounds_sheet = rounds_sheet or _rounds_sheet(wb, player_names, name_width)
            for row in group_rounds_rows(session, night_title(session), player_names):
                rounds_sheet.row(row)

    sessions_sheet.filter()
    hands_sheet.filter()
    if rounds_sheet is not None:
        rounds_sheet.filter()
    _players_sheet(players_sheet, players.board(), player_names)
    players.finish()
    _kept_beside(wb, tabs, seasons, evenings, name_width)
    return _save(wb, stream)


def _kept_beside(
    wb: Workbook,
    tabs: Sequence[TabView],
    seasons: Sequence[SeasonView],
    evenings: Sequence[EveningView],
    name_width: float,
) -> None:
    """The sheets of what the group keeps beside its nights, where it has any: the Tab,
    Seasons and Evenings."""
    if tabs:
        _tab_sheet(wb, tabs, name_width)
    if seasons:
        _seasons_sheet(wb, seasons, name_width)
    if evenings:
        _evenings_sheet(wb, evenings, name_width)


def _hands_sheet(
    wb: Workbook, games: Sequence[str], player_names: Sequence[str], name_width: float
) -> tuple[_Sheet, GroupHands]:
    """The Hands sheet, its header written, with the own columns (Game.workbook_columns) of
    every game of the group's nights."""
    layout = GroupHands(player_names, games)
    widths = [12, 7, 12, 6, name_width, name_width, name_width + 4]
    widths += [_width(c.heading) for c in layout.of_hand]
    widths += ([14, 10] + [_width(c.heading) for c in layout.of_player]) * len(player_names)
    sheet = _Sheet(wb, "Hands", [*widths, 11, 10, 30], freeze="D2")
    sheet.header(layout.header())
    return sheet, layout


def _rounds_sheet(wb: Workbook, names: Sequence[str], name_width: float) -> _Sheet:
    """The group's Rounds sheet (RULES.md §6c): every round of every night, each player's
    part in a column of their own, amounts in each night's currency (named beside them)."""
    widths = [14, 8, 7, 17, 20, name_width, 12, 9] + [name_width] * len(names)
    sheet = _Sheet(wb, "Rounds", widths, freeze="C2")
    sheet.header(group_rounds_header(names))
    return sheet


def _seasons_sheet(wb: Workbook, seasons: Sequence[SeasonView], name_width: float) -> None:
    """Each season's standings (RULES.md §13), a row per player: rank (empty below the line),
    points, nights played and counted, best night, average, and the prize (with the booby
    prize) the pot pays, or would pay while open, in the season's currency."""
    widths = [20, 12, 11, 11, 8, 6, name_width, 8, 8, 8, 8, 8, 12]
    sheet = _Sheet(wb, "Seasons", widths, freeze="C2")
    sheet.header(
        ["Season", "Game", "From", "To", "Status", "Rank", "Player", "Points", "Nights",
         "Counted", "Best", "Average", "Prize"]
    )  # fmt: skip
    for season in seasons:
        won = {p.player: season.money(p.units) for p in season.table.prizes}
        sheet.formats = {12: money_format(season.currency)}
        for s in season.table.standings:
            sheet.row(
                [season.name, season.title, season.first_day, season.last_day, season.status,
                 s.rank, s.player, s.total, s.nights, s.counted, s.best, s.average,
                 won.get(s.player)]
            )  # fmt: skip
    sheet.filter()


def _evenings_sheet(wb: Workbook, evenings: Sequence[EveningView], name_width: float) -> None:
    """Each club evening's list (RULES.md §19), a row per player: rank, each round's points,
    the total, games won and lost, and the money: fees paid, prize won and the balance, in
    the evening's currency (what the pot would pay now, while it is open)."""
    rounds = max(e.rounds for e in evenings)
    widths = [20, 12, 11, 8, 6, name_width] + [7] * rounds + [8, 6, 6, 10, 10, 10]
    sheet = _Sheet(wb, "Evenings", widths, freeze="C2")
    sheet.header(
        ["Evening", "Game", "Date", "Status", "Rank", "Player"]
        + [f"Round {r + 1}" for r in range(rounds)]
        + ["Total", "Won", "Lost", "Fees", "Prize", "Balance"]
    )
    first_money = 6 + rounds + 3
    for evening in evenings:
        money = money_format(evening.currency)
        sheet.formats = {first_money: money, first_money + 1: money, first_money + 2: money}
        found = evening.standings
        balances = found.balances()
        for s in found.lines:
            points = list(s.rounds) + [None] * (rounds - len(s.rounds))
            fee, prize = found.fees.get(s.player, 0), evening.prize_of(s.player)
            sheet.row(
                [evening.name, evening.game_name, evening.created_at.date(), evening.status,
                 s.rank, s.player, *points, s.total, s.won_games, s.lost_games,
                 evening.amount(fee), evening.amount(prize),
                 evening.amount(balances[s.player]) if s.player in balances else None]
            )  # fmt: skip
    sheet.filter()


def _tab_sheet(wb: Workbook, tabs: Sequence[TabView], name_width: float) -> None:
    """The tab, per currency: each night with each player's part, each payment, then what is
    still outstanding per player. Amounts in the currency (never an account: RULES.md §6b)."""
    names = sorted({b.player for t in tabs for b in t.balances}, key=str.casefold)
    widths = [9, 12, 17, 12, 7, 12, name_width, name_width, 12] + [name_width] * len(names)
    sheet = _Sheet(wb, "Tab", widths, freeze="C2")
    sheet.header(
        ["Currency", "Line", "Date (UTC)", "Session", "Id", "Game", "From", "To", "Amount"] + names
    )
    for t in tabs:
        for n in t.nights:
            parts = [n.parts.get(p) for p in names]
            if n.season is None:  # a night, by its name and its id
                night, sid, game = n.title, n.session, n.own_name or n.game_name
            else:  # a season closed onto the tab: its name
                night, sid, game = None, None, n.game_name
            sheet.row([t.currency, "night", n.at, night, sid, game, None, None, None]
                      + parts)  # fmt: skip
        for p in t.payments:
            sheet.row([t.currency, "payment", p.at, None, None, None, p.source, p.target]
                      + [p.amount])  # fmt: skip
        left = {b.player: b.outstanding_amount for b in t.balances}
        sheet.row([t.currency, "outstanding", None, None, None, None, None, None, None]
                  + [left.get(p) for p in names])  # fmt: skip
    sheet.filter()


def _group_session(
    sheets: tuple[_Sheet, _Sheet],
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]],
    started: Any,
    layout: GroupHands,
) -> SessionFacts:
    """A session on the group's Sessions and Hands sheets; its facts for the totals.

    Each hand is written to Hands as it is taken and let go; what the session's row and its
    facts need of the hands (who played, how many hands, who was dealt in and won) is counted
    on the way, and the row is written after them (each sheet streams to a file of its own).
    """
    sessions_sheet, hands_sheet = sheets
    names = seated_names(session)
    tally = HandTally()
    count = 0
    for hand in hands:
        hands_sheet.row(layout.row(session, hand))
        _add_hand_names(names, hand)
        tally.add(hand)
        count += 1
    sessions_sheet.row(
        [
            # API.md (fourth edition): the night as the pages name it, its id beside it.
            night_title(session),
            session.get("id"),
            _game_name(session),
            _when(started),
            _when(session.get("finished_at")),
            _joined(names),
            _joined(session_winners(session)),
            session.get("status"),
            session.get("hands_played", count),
        ]
    )
    return facts_from_json(session, tally, started)


def group_export_workbook(book: GroupBook, *, stream: IO[bytes] | None = None) -> bytes:
    """The group's workbook: its players and games first, then each night as the service
    streams it. Writes to ``stream`` if given, else returns the file's bytes."""
    group = {"slug": book.slug, "name": book.name, "players": [p.to_json() for p in book.players]}
    return group_workbook(
        group,
        _each_streamed(book.nights),
        tabs=book.tabs,
        seasons=book.seasons,
        evenings=book.evenings,
        stream=stream,
        games=book.games,
    )


def _each_streamed(
    sessions: Iterator[StreamedSession],
) -> Iterator[tuple[dict[str, Any], Iterator[dict[str, Any]]]]:
    """Each session as the tables are laid out from (session_data()'s shapes), its hands
    turned into the API's answers one at a time, as the Hands sheet takes them: a long
    night's hands are never all held, as views or as dicts."""
    for streamed in sessions:
        view = streamed.session
        session = {
            # What the workbook shows of the night's read model: what each won, as every
            # page shows it.
            **streamed.night.to_json(),
            "winners": list(view.winners),
            "group_name": streamed.group_name,
        }
        yield session, (hand.to_json() for hand in streamed.hands)
