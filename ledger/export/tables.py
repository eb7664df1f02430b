"""A session's tables, as the API answers it: its hands, its payments and its settlement,
row by row, for the workbooks and the CSV files alike.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from openpyxl import Workbook
from openpyxl.chart import LineChart, Reference
from openpyxl.utils import get_column_letter

from ledger.export.cells import POT, REFUND_NOTE, Movement, Row, _joined, _when, exact_amount
from ledger.export.rounds import round_movements
from ledger.export.sheets import _Sheet, _width
from ledger.rules.book_columns import HandColumn
from ledger.rules.nights import night_name, own_name
from ledger.rules.registry import GAMES

if TYPE_CHECKING:
    from ledger.services.exports import SessionExport


STARTED, FINISHED = "Started (UTC)", "Finished (UTC)"  # the times are UTC: see _when


class SessionData(NamedTuple):
    """One session of a group's history: the session, its hands and its settlement (or None)."""

    session: Mapping[str, Any]
    hands: Sequence[Mapping[str, Any]]
    settlement: Mapping[str, Any] | None = None


def session_data(export: SessionExport) -> SessionData:
    """The export service's session as the tables are laid out from: the API's JSON shapes,
    with the refunds and the winners as the service worked them out."""
    night = export.night
    session = {
        **night.to_json(),
        "closing": [m.to_json() for m in export.refunds],
        "winners": list(export.winners),
        "group_name": export.group_name,
        # Its number among its game's sessions in the group, and its pot's source's: the
        # pages' names for them ("Spot #2"); the API answers the ids.
        "number": export.session.number,
        "carried_from_number": export.session.carried_from_number,
    }
    settlement = export.settlement.to_json() if export.settlement is not None else None
    hands = [
        # Each hand's running figures as the scoreboard shows them (services/night.py).
        {**h.to_json(), "running": night.running(h.scores_after)}
        for h in export.hands
    ]
    return SessionData(session, hands, settlement)


def _engine_name(session: Mapping[str, Any]) -> str:
    """The game's own name: the session's ``game_name``, or the registry's."""
    if session.get("game_name"):
        return str(session["game_name"])
    key = str(session.get("game", ""))
    game = GAMES.get(key)
    return game.name if game is not None else key


def _game_name(session: Mapping[str, Any]) -> str:
    """The game's name as people say it: the table's own name for it (an Any game's
    "Hearts": two Any games of two names are two games), else the game's."""
    return own_name(session.get("options") or {}) or _engine_name(session)


def night_title(session: Mapping[str, Any]) -> str:
    """The night as the pages name it, game and number: "Spot #2" (ledger/rules/nights.py,
    shared/API.md's Workbooks, fourth edition). The id stays in a column of its own."""
    options = session.get("options") or {}
    return night_name(_engine_name(session), own_name(options), int(session.get("number") or 0))


def night_figures(session: Mapping[str, Any]) -> dict[str, tuple[int, Decimal | None]]:
    """Each player's figure of the night as every page shows it, and its amount where the
    night has money: the read model's standings (ledger/services/night.py), what a money
    night won or lost (without the pot brought back or kept: RULES.md §2), a points game's
    score (and its payout, for a stake). Never worked out again from the scores: a session
    given without its standings is refused."""
    standings = session.get("standings")
    if standings is None:
        raise ValueError('A night\'s figures are its standings (API.md "Session"): none given.')
    money = is_money(session)
    return {
        str(s["player"]): (
            int(s["winnings"] if money and s["winnings"] is not None else s["score"]),
            Decimal(s["winnings_amount"]) if s.get("winnings_amount") is not None else None,
        )
        for s in standings
    }


def is_money(session: Mapping[str, Any]) -> bool:
    game = GAMES.get(session.get("game", ""))
    if game is not None:
        return game.money
    return "currency" in (session.get("options") or {})


def _currency(session: Mapping[str, Any], settlement: Mapping[str, Any] | None) -> str:
    if settlement and settlement.get("currency"):
        return str(settlement["currency"])
    if not is_money(session) and not session.get("currency"):
        return ""  # a points game not played for money (RULES.md §7) has no currency
    return str((session.get("options") or {}).get("currency") or "")


def _unit_value(session: Mapping[str, Any]) -> Decimal:
    return Decimal(str((session.get("options") or {}).get("unit_value", "1")))


def seated_names(session: Mapping[str, Any], hands: Iterable[Mapping[str, Any]] = ()) -> list[str]:
    """Every player of the session: seated ones in seat order, then those who left, then any
    name found only in the hands."""
    players = list(session.get("players") or [])
    players.sort(key=lambda p: (not p.get("active", True), p.get("seat") or 0))
    names = [str(p["name"]) for p in players]
    for name in session.get("scores") or {}:
        if name not in names:
            names.append(str(name))
    for hand in hands:
        _add_hand_names(names, hand)
    return names


def _add_hand_names(names: list[str], hand: Mapping[str, Any]) -> None:
    """Any player of ``hand`` not in ``names`` yet, added at the end."""
    for result in hand.get("results") or []:
        if result.get("player") not in names:
            names.append(str(result["player"]))


def cards_text(result: Mapping[str, Any]) -> str:
    """A result's cards as one line: "J 10", melds "3♠ 3♥ 3♦ | 7♣ 8♣ 9♣", or "sitting out"."""
    if result.get("sitting_out"):
        return "sitting out"
    cards = result.get("cards")
    if isinstance(cards, str):
        return cards
    if cards:
        return " ".join(str(c) for c in cards)
    melds = result.get("melds")
    if melds:
        return " | ".join(m if isinstance(m, str) else " ".join(str(c) for c in m) for m in melds)
    return ""


def _score_of(result: Mapping[str, Any], money: bool) -> int | None:
    if result.get("sitting_out"):
        return None
    return result.get("spots") if money else result.get("points")


def _player_cells(result: Mapping[str, Any] | None, money: bool) -> Row:
    """A player's two cells in a hand's row: the cards, and the spots or the points."""
    if result is None:
        return [None, None]
    return [cards_text(result) or None, _score_of(result, money)]


def hand_movements(hand: Mapping[str, Any]) -> list[Movement]:
    """Every movement of money in a hand, antes and the pot included: ``{from, to, units}``,
    ``None`` for the pot, as the API's hand answers them (every stored hand has them: the
    engine's outcome holds them from the first version of the schema on)."""
    return [
        {"from": m.get("from"), "to": m.get("to"), "units": int(m["units"])}
        for m in hand["movements"]
    ]


def closing_movements(session: Mapping[str, Any]) -> list[Movement]:
    """Money paid back from the pot when a money session was finished with ``refund``, as
    the export service gives it (``closing``)."""
    return [
        {"from": m.get("from"), "to": m.get("to"), "units": int(m["units"])}
        for m in session.get("closing") or []
    ]


def session_winners(session: Mapping[str, Any]) -> list[str]:
    """Who won, as the export service worked it out (the game's winners, or in a finished
    money session whoever is up the most)."""
    return [str(w) for w in session.get("winners") or []]


def book_columns(games: Iterable[str]) -> tuple[list[HandColumn], list[HandColumn]]:
    """The games' own columns on a Hands sheet (``Game.workbook_columns``), a hand's ones and
    a player's ones apart, each heading once in the order the games give them."""
    columns: dict[tuple[str, bool], HandColumn] = {}
    for key in dict.fromkeys(games):
        game = GAMES.get(key)
        for column in game.workbook_columns() if game is not None else ():
            columns.setdefault((column.heading, column.per_player), column)
    listed = list(columns.values())
    return [c for c in listed if not c.per_player], [c for c in listed if c.per_player]


def hands_table(
    session: Mapping[str, Any], hands: Sequence[Mapping[str, Any]]
) -> tuple[Row, Iterator[Row]]:
    """The header and rows of the Hands sheet (and hands.csv): each hand, the game's own
    columns (``Game.workbook_columns``: Boerenbridge's bids and tricks) among them."""
    money = is_money(session)
    names = seated_names(session, hands)
    extra = _hand_extras(hands, money)
    of_hand, of_player = book_columns([str(session.get("game", ""))])
    header: Row = ["Hand", "Dealer", "Out", "Winners"]
    if "ending" in extra:
        header.append("Ending")
    header += [c.heading for c in of_hand]
    for name in names:
        header += [f"{name} cards", f"{name} {'spots' if money else 'points'}"]
        header += [f"{name} {what}" for what in extra if what != "ending"]
        header += [f"{name} {c.heading}" for c in of_player]
    if money:
        header += ["Pot before", "Pot after"]

    def rows() -> Iterator[Row]:
        for hand in hands:
            by_player = {r.get("player"): r for r in hand.get("results") or []}
            row: Row = [
                hand.get("number"),
                hand.get("dealer"),
                hand.get("out"),
                _joined(hand.get("winners") or []),
            ]
            if "ending" in extra:
                row.append(hand.get("ending"))
            row += [c.cell(hand, {}) for c in of_hand]
            for name in names:
                result = by_player.get(name)
                row += _player_cells(result, money)
                row += [(result or {}).get(extra[w]) for w in extra if w != "ending"]
                row += [None if result is None else c.cell(hand, result) for c in of_player]
            if money:
                row += [hand.get("pot_before"), hand.get("pot_after")]
            yield row

    return header, rows()


def _hand_extras(hands: Sequence[Mapping[str, Any]], money: bool) -> dict[str, str]:
    """The columns a game of RULES.md §8–§12 adds to the Hands sheet, by heading, each with
    the field it reads: Gin Rummy's ending, Rummy 500's melded and in-hand points, the
    penalty points of a money game that counts them too (Kaluki)."""
    results = [r for h in hands for r in h.get("results") or []]
    extra: dict[str, str] = {}
    if any(h.get("ending") for h in hands):
        extra["ending"] = "ending"
    if any(r.get("melded") is not None for r in results):
        extra |= {"melded": "melded", "in hand": "in_hand"}
    if money and any(r.get("points") is not None for r in results):
        extra["points"] = "points"
    return extra


def payments_table(
    session: Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None = None,
) -> tuple[Row, Iterator[Row]]:
    """The header and rows of the Payments sheet (and payments.csv): every movement of money,
    antes into the pot, pot wins and refunds out of it.

    A row's amount is exactly its units times the unit's value, not rounded to the coin: at
    €0.005 a unit an ante of 5 is €0.025, and rows each rounded would not add up to the
    balances (the number format rounds only what is shown). A refund at the end of the night
    belongs to no hand: its Hand cell is empty, so the column holds only numbers, and its
    Note says what it is.
    """
    currency, unit_value = _currency(session, settlement), _unit_value(session)
    header: Row = [
        "Hand",
        "From",
        "To",
        "Units",
        f"Amount ({currency})" if currency else "Amount",
        "Note",
    ]
    # A night has a handful of different payments (the ante, a few spot counts) and thousands
    # of rows: each amount is worked out once.
    amounts: dict[int, Decimal] = {}

    def row(number: int | None, m: Movement, note: str | None = None) -> Row:
        units = int(m["units"])
        money = amounts.get(units)
        if money is None:
            money = amounts[units] = exact_amount(units, unit_value)
        return [
            number,
            POT if m.get("from") is None else m["from"],
            POT if m.get("to") is None else m["to"],
            units,
            money,
            note,
        ]

    def rows() -> Iterator[Row]:
        if is_money(session):
            for hand in hands:
                for m in hand_movements(hand):
                    yield row(hand.get("number"), m)
            for m in closing_movements(session):
                yield row(None, m, REFUND_NOTE)
        # RULES.md §6c: each part of a round is money its person owes the payer.
        for source, target, money, note in round_movements(session):
            yield [None, source, target, None, money, note]

    return header, rows()


SETTLE_STATUS = ("to pay", "paid")


def settlement_table(settlement: Mapping[str, Any] | None) -> tuple[Row, Iterator[Row]]:
    """What is still to pay (the transfers, as the settle-up shows them), then what was paid at
    the table and when (the payments, oldest first)."""
    currency = (settlement or {}).get("currency") or ""
    header: Row = [
        "From",
        "To",
        f"Amount ({currency})" if currency else "Amount",
        "Units",
        "Status",
        "Paid (UTC)",
    ]
    transfers = (settlement or {}).get("transfers") or []
    payments = (settlement or {}).get("payments") or []

    def row(t: Mapping[str, Any], status: str, at: Any) -> Row:
        return [
            POT if t.get("from") is None else t["from"],
            POT if t.get("to") is None else t["to"],
            Decimal(str(t["amount"])),
            t.get("units"),
            status,
            _when(at),
        ]

    to_pay, paid = SETTLE_STATUS
    rows = (
        *(row(t, to_pay, None) for t in transfers),
        *(row(p, paid, p.get("at")) for p in payments),
    )
    return header, iter(rows)


def _hands_played_and_won(
    hands: Iterable[Mapping[str, Any]],
) -> tuple[dict[str, int], dict[str, int]]:
    """How many hands each player was dealt in, and how many they won or shared."""
    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for hand in hands:
        for result in hand.get("results") or []:
            if not result.get("sitting_out"):
                played[result["player"]] += 1
        for winner in hand.get("winners") or []:
            won[winner] += 1
    return played, won


def _scores(
    wb: Workbook, hands: Sequence[Mapping[str, Any]], names: Sequence[str], money: bool
) -> None:
    """Scores: each player's running score after every hand, and a line chart of it."""
    widths = [6] + [max(8.0, _width(n)) for n in names]
    sheet = _Sheet(wb, "Scores", widths, freeze="B2")
    sheet.header(["Hand", *names])
    seen: set[str] = set()
    for hand in hands:
        # The running figures as the pages show them (a money night's without the pot
        # brought back: ledger/services/night.py), else as the API's hand answers them.
        after = hand.get("running") or hand.get("scores_after") or {}
        seen |= set(after)
        sheet.row([hand.get("number"), *(after.get(n) for n in names)])
    sheet.filter()
    if not hands or not names:
        return
    chart = LineChart()
    chart.title = "Running score"
    chart.y_axis.title = "Units" if money else "Points"
    chart.x_axis.title = "Hand"
    # openpyxl 3.1 hides both axes unless told otherwise.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.height, chart.width = 10, 20
    last = len(hands) + 1
    data = Reference(sheet.ws, min_col=2, max_col=len(names) + 1, min_row=1, max_row=last)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(sheet.ws, min_col=1, min_row=2, max_row=last))
    sheet.ws.add_chart(chart, f"{get_column_letter(len(names) + 3)}2")


def group_games(group: Mapping[str, Any]) -> list[str]:
    """The games of the group's nights (its answer's listing), each once, oldest first."""
    return list(dict.fromkeys(str(s.get("game", "")) for s in group.get("sessions") or []))


class GroupHands:
    """The group's Hands sheet (and the group's CSV): a column pair per player of the group,
    and the own columns of the group's ``games`` (``Game.workbook_columns``), each filled
    where it is the hand's game's and left empty for another game's hands."""

    def __init__(self, player_names: Sequence[str], games: Iterable[str] = ()) -> None:
        self.names = list(player_names)
        self.of_hand, self.of_player = book_columns(games)
        # Per game: the columns of the sheet that are that game's (None where not), worked
        # out once for a history of thousands of hands.
        self._mine: dict[str, tuple[list[HandColumn | None], list[HandColumn | None]]] = {}

    def header(self) -> Row:
        header: Row = ["Session", "Id", "Game", "Hand", "Dealer", "Out", "Winners"]
        header += [c.heading for c in self.of_hand]
        for name in self.names:
            header += [f"{name} cards", f"{name} spots or points"]
            header += [f"{name} {c.heading}" for c in self.of_player]
        return [*header, "Pot before", "Pot after", "Other players"]

    def _columns_of(self, key: str) -> tuple[list[HandColumn | None], list[HandColumn | None]]:
        found = self._mine.get(key)
        if found is None:
            game = GAMES.get(key)
            own = {(c.heading, c.per_player) for c in (game.workbook_columns() if game else ())}
            found = self._mine[key] = (
                [c if (c.heading, False) in own else None for c in self.of_hand],
                [c if (c.heading, True) in own else None for c in self.of_player],
            )
        return found

    def row(self, session: Mapping[str, Any], hand: Mapping[str, Any]) -> Row:
        """A hand on the sheet: a player the group's answer did not list (there should be
        none) is written in "Other players" rather than lost."""
        money = is_money(session)
        of_hand, of_player = self._columns_of(str(session.get("game", "")))
        by_player = {r.get("player"): r for r in hand.get("results") or []}
        row: Row = [
            # API.md (fourth edition): the night as the pages name it, and its id beside it.
            night_title(session),
            session.get("id"),
            _game_name(session),
            hand.get("number"),
            hand.get("dealer"),
            hand.get("out"),
            _joined(hand.get("winners") or []),
        ]
        row += [None if c is None else c.cell(hand, {}) for c in of_hand]
        for name in self.names:
            result = by_player.pop(name, None)
            row += _player_cells(result, money)
            row += [
                None if c is None or result is None else c.cell(hand, result) for c in of_player
            ]
        others = "; ".join(
            f"{name}: {cards_text(r)} ({_score_of(r, money)})" for name, r in by_player.items()
        )
        return [*row, hand.get("pot_before"), hand.get("pot_after"), others or None]


def group_hands_header(player_names: Sequence[str], games: Iterable[str] = ()) -> Row:
    """The group's Hands sheet's header (GroupHands)."""
    return GroupHands(player_names, games).header()


def _group_hand_row(
    session: Mapping[str, Any], hand: Mapping[str, Any], player_names: Sequence[str]
) -> Row:
    """A hand on the group's Hands sheet without any game's own columns (GroupHands)."""
    return GroupHands(player_names).row(session, hand)
