"""Workbooks and CSV files of a session or a group's history, built from the JSON API's answers.

Everything here takes the dicts the API answers (shared/API.md: session, hands, settlement,
group), never rows or engine values, so a download always shows what the API shows; what
the export service reads (ledger/services/exports.py) is laid out through session_data(). The
workbooks use openpyxl's write-only mode: rows stream to temporary files, so a long history
does not have to fit in memory as cell objects.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime
from decimal import MAX_PREC, Context, Decimal, InvalidOperation
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.chart import LineChart, Reference
from openpyxl.styles import Font
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter

from ledger.rules.labels import CHOICE_LABELS, OPTION_LABELS
from ledger.rules.money import CURRENCY_SYMBOLS, amount, minor_units
from ledger.rules.registry import GAMES
from ledger.services.stats import (
    HandTally,
    Night,
    PlayerHistory,
    SessionFacts,
    StatsView,
    Totals,
    add_up,
    board,
    facts_from_json,
    night_facts,
)

if TYPE_CHECKING:
    from ledger.services.exports import GroupExport, SessionExport, StreamedSession
    from ledger.services.results import TabView

XLSX_MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV_MIMETYPE = "text/csv"  # Flask adds "; charset=utf-8"

POT = "(pot)"  # the pot, where a payment's "from" or "to" is not a player
REFUND_NOTE = "pot given back at the end of the night"
DATE_FORMAT = "yyyy-mm-dd hh:mm"
STARTED, FINISHED = "Started (UTC)", "Finished (UTC)"  # the times are UTC: see _when
MAX_WIDTH = 40

Row = list[Any]
Movement = Mapping[str, Any]

_EXACT = Context(prec=MAX_PREC)


# --- Text a player typed must stay text ------------------------------------------------------

# A spreadsheet reads a cell that starts with = + - @ (or a tab or carriage return before one
# of them) as a formula, and openpyxl itself turns "=…" into a formula cell and "#N/A" into an
# error cell. Names and other typed text are written with a leading apostrophe when they could
# be read that way (OWASP's advice for CSV injection). The apostrophe is chosen over an
# invisible zero-width space because it is visible: "'=HYPERLINK(…)" looks odd but is plainly
# text in every program, survives copy and paste and a round trip through CSV, and two names
# that look the same never differ by a hidden character. The cell stays a plain string.
_FORMULA_START = tuple("=+-@\t\r\n") + tuple("＝＋－＠")  # fullwidth forms too
_ERROR_CODES = frozenset(("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"))
# Control characters a workbook cannot hold (openpyxl refuses them): shown as U+FFFD.
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Text with none of these (a control character, a formula's first character after spaces, an
# error code's "#") needs none of the checks below: most cells are names and cards, and a
# long session's workbook has a hundred thousand of them.
_MAYBE_UNSAFE = re.compile(r"[\x00-\x1f]|^[ \u00a0]*[=+\-@＝＋－＠]|^#")


def safe_text(text: str) -> str:
    """``text`` as it can be written to a cell or a CSV field without being run as a formula."""
    if _MAYBE_UNSAFE.search(text) is None:
        return text
    text = _ILLEGAL.sub("\ufffd", text)
    stripped = text.lstrip(" \u00a0")
    if (
        stripped.startswith(_FORMULA_START)
        or text.upper() in _ERROR_CODES
        or any(c in text for c in "\t\r\n")
    ):
        return "'" + text
    return text


def _value(value: Any) -> Any:
    """A cell's value: numbers and dates as they are, any text made safe."""
    if isinstance(value, str):
        return safe_text(value)
    return value


# --- Reading the API's answers ----------------------------------------------------------------


class SessionData(NamedTuple):
    """One session of a group's history: the session, its hands and its settlement (or None)."""

    session: Mapping[str, Any]
    hands: Sequence[Mapping[str, Any]]
    settlement: Mapping[str, Any] | None = None


def session_data(export: SessionExport) -> SessionData:
    """The export service's session as the tables are laid out from: the API's JSON shapes,
    with the refunds and the winners as the service worked them out."""
    shown = export.night.to_json() if export.night is not None else export.session.to_json()
    session = {
        **shown,
        "closing": [m.to_json() for m in export.refunds],
        "winners": list(export.winners),
        "group_name": export.group_name,
        # Its number among its game's sessions in the group, and its pot's source's: the
        # pages' names for them ("Spot #2"); the API answers the ids.
        "number": export.session.number,
        "carried_from_number": export.session.carried_from_number,
    }
    settlement = export.settlement.to_json() if export.settlement is not None else None
    return SessionData(session, [h.to_json() for h in export.hands], settlement)


def _game_name(session: Mapping[str, Any]) -> str:
    """The game's name as people say it: the session's ``game_name``, or the registry's."""
    if session.get("game_name"):
        return str(session["game_name"])
    key = str(session.get("game", ""))
    game = GAMES.get(key)
    return game.name if game is not None else key


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


def _when(value: Any) -> datetime | date | None:
    """An API timestamp as a spreadsheet date, in UTC (the headers say so).

    A workbook's dates have no time zone, and the people opening it may be anywhere: the
    time is written in UTC, as the app keeps it, a time with an offset turned into UTC first.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime | date):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            return None
    if isinstance(moment, datetime) and moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def _number(value: Any) -> Any:
    """An option's value: a number where it is one ("0.01" → 0.01), otherwise as given."""
    if isinstance(value, bool) or not isinstance(value, str):
        return value
    if re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
        try:
            return Decimal(value.strip())
        except InvalidOperation:
            return value
    return value


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


def _balances(
    session: Mapping[str, Any], settlement: Mapping[str, Any] | None
) -> dict[str, Decimal]:
    """What each player won or lost on the night: the settlement's balances, or the scores,
    without the pot kept at its end or brought back at its start (RULES.md §2)."""
    currency, unit_value = _currency(session, settlement), _unit_value(session)
    brought = {session.get("carried_in_keeper"): int(session.get("carried_in") or 0)}
    if settlement and settlement.get("balances"):
        units = {
            str(b["player"]): int(b["units"]) - int(b.get("pot_kept") or 0)
            for b in settlement["balances"]
        }
    else:
        units = {str(p): int(u) for p, u in (session.get("scores") or {}).items()}
    return {p: amount(u + brought.get(p, 0), unit_value, currency) for p, u in units.items()}


def _joined(names: Iterable[Any]) -> str:
    return ", ".join(str(n) for n in names)


# --- The tables, shared by the workbooks and the CSV files ------------------------------------


def hands_table(
    session: Mapping[str, Any], hands: Sequence[Mapping[str, Any]]
) -> tuple[Row, Iterator[Row]]:
    """The header and rows of the Hands sheet (and hands.csv)."""
    money = is_money(session)
    names = seated_names(session, hands)
    extra = _hand_extras(hands, money)
    header: Row = ["Hand", "Dealer", "Out", "Winners"]
    if "ending" in extra:
        header.append("Ending")
    for name in names:
        header += [f"{name} cards", f"{name} {'spots' if money else 'points'}"]
        header += [f"{name} {what}" for what in extra if what != "ending"]
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
            for name in names:
                result = by_player.get(name)
                row += _player_cells(result, money)
                row += [(result or {}).get(extra[w]) for w in extra if w != "ending"]
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
        if not is_money(session):
            return
        for hand in hands:
            for m in hand_movements(hand):
                yield row(hand.get("number"), m)
        for m in closing_movements(session):
            yield row(None, m, REFUND_NOTE)

    return header, rows()


def exact_amount(units: int, unit_value: Decimal) -> Decimal:
    """``units`` worth ``unit_value`` each, exactly: the context's precision is the largest
    there is, so the product of two decimals is never rounded."""
    return _EXACT.multiply(Decimal(units), unit_value)


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


# --- Writing sheets ----------------------------------------------------------------------------


def money_format(currency: str) -> str:
    """The number format of an amount: '"€"#,##0.00', '"¥"#,##0', '"CHF "#,##0.00'.

    One section only: a negative amount is shown with a minus in front ("-€1.20"), as the
    app writes it.
    """
    code = currency.strip().upper()
    places = minor_units(code) if code else 2
    number = "#,##0" + ("." + "0" * places if places else "")
    symbol = CURRENCY_SYMBOLS.get(code) or (f"{code} " if code else "")
    symbol = symbol.replace('"', "")
    return f'"{symbol}"{number}' if symbol else number


class _Sheet:
    """A write-only sheet with a bold header row, widths and frozen panes set before the first
    row (write-only sheets write those first), and a filter over the table at the end."""

    def __init__(
        self,
        wb: Workbook,
        title: str,
        widths: Sequence[float],
        *,
        freeze: str | None = "A2",
        formats: Mapping[int, str] | None = None,
    ) -> None:
        self.ws = ws = wb.create_sheet(title)
        for i, width in enumerate(widths, start=1):
            ws.column_dimensions[get_column_letter(i)].width = min(MAX_WIDTH, max(6.0, width))
        if freeze:
            ws.freeze_panes = freeze
        self.formats = dict(formats or {})
        self.rows = 0
        self.header_at = 0
        self.columns = 0
        # One style per number format (and one bold), made once and copied into each cell:
        # setting a cell's number_format looks the format up in the workbook every time.
        self._styles: dict[str, StyleArray] = {}
        self._bold: StyleArray | None = None

    def _style(self, number_format: str) -> StyleArray:
        style = self._styles.get(number_format)
        if style is None:
            cell = WriteOnlyCell(self.ws)
            cell.number_format = number_format
            style = self._styles[number_format] = cell._style
        return style

    def header(self, cells: Sequence[Any]) -> None:
        if self._bold is None:
            cell = WriteOnlyCell(self.ws)
            cell.font = Font(bold=True)
            self._bold = cell._style
        bold = self._bold
        self._append([_styled(self.ws, _value(value), bold) for value in cells])
        self.header_at = self.rows
        self.columns = len(cells)

    def row(self, values: Sequence[Any]) -> None:
        formats = self.formats
        out: list[Any] = []
        for i, value in enumerate(values):
            kind = type(value)
            if kind is str:
                out.append(safe_text(value))
            elif value is None or kind is bool:
                out.append(value)
            elif isinstance(value, datetime | date):
                out.append(_styled(self.ws, value, self._style(DATE_FORMAT)))
            elif isinstance(value, int | Decimal) and (fmt := formats.get(i)) is not None:
                out.append(_styled(self.ws, value, self._style(fmt)))
            else:
                out.append(_value(value))
        self._append(out)

    def blank(self) -> None:
        self._append([])

    def _append(self, row: Sequence[Any]) -> None:
        self.ws.append(list(row))
        self.rows += 1

    def filter(self) -> None:
        """A filter over the table from its header row to the last row written."""
        if self.header_at and self.columns:
            last = get_column_letter(self.columns)
            self.ws.auto_filter.ref = f"A{self.header_at}:{last}{max(self.rows, self.header_at)}"


def _styled(ws: Any, value: Any, style: StyleArray) -> Cell:
    """A write-only cell with a copy of ``style`` (as WriteOnlyCell makes, at A1: the sheet
    gives it its place when the row is written)."""
    return Cell(ws, row=1, column=1, value=value, style_array=style)


def _width(*texts: Any) -> float:
    return max((len(str(t)) for t in texts if t is not None), default=4) + 2


def _new_workbook() -> Workbook:
    wb = Workbook(write_only=True)
    wb.properties.creator = "Pub Ledger"
    return wb


def _save(wb: Workbook, stream: IO[bytes] | None) -> bytes:
    if stream is not None:
        wb.save(stream)
        return b""
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _write_table(sheet: _Sheet, header: Row, rows: Iterable[Row]) -> None:
    sheet.header(header)
    for row in rows:
        sheet.row(row)
    sheet.filter()


# --- The session's workbook -------------------------------------------------------------------


def session_workbook(
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None = None,
    *,
    group: Mapping[str, Any] | None = None,
    stream: IO[bytes] | None = None,
) -> bytes:
    """The session's workbook (API.md "Workbooks"): Summary, Hands, Payments, Settlement, then
    Scores with a chart of every player's running score.

    Takes the API's answers for the session, its hands (oldest first) and its settlement
    (None in a points game). ``group`` (the group's answer) supplies the start date when the
    session's answer has none. Writes to ``stream`` if given, else returns the file's bytes.
    """
    hands = list(hands)
    money = is_money(session)
    currency = _currency(session, settlement)
    cash = money_format(currency)
    names = seated_names(session, hands)
    name_width = _width("Player", *names)
    wb = _new_workbook()

    _summary(wb, session, hands, settlement, group, names, money, currency, cash)

    header, rows = hands_table(session, hands)
    widths = [6, name_width, name_width, name_width + 4]
    widths += [14, 8] * len(names) + ([11, 10] if money else [])
    _write_table(_Sheet(wb, "Hands", widths, freeze="B2"), header, rows)

    header, rows = payments_table(session, hands, settlement)
    widths = [6, name_width, name_width, 8, 14, _width(REFUND_NOTE)]
    sheet = _Sheet(wb, "Payments", widths, formats={4: cash})
    _write_table(sheet, header, rows)

    header, rows = settlement_table(settlement)
    widths = [name_width, name_width, 14, 8, 8, len(DATE_FORMAT) + 2]
    sheet = _Sheet(wb, "Settlement", widths, formats={2: cash})
    _write_table(sheet, header, rows)

    _scores(wb, hands, names, money)
    return _save(wb, stream)


def _option_label(option: str) -> str:
    """An option's name as the new-session page labels it (the workbook is in English)."""
    return str(OPTION_LABELS.get(option) or option.replace("_", " ").capitalize())


def _option_cell(session: Mapping[str, Any], option: str, value: Any) -> Any:
    """An option as the Summary writes it, in the words of the new-session page's choices.
    ``leftover_pot`` is what happened to the pot once the session is finished (finishing may
    choose otherwise than the option); before that it is the option, marked as not decided
    yet."""
    if option == "leftover_pot":
        if session.get("status") != "finished":
            return f"{_choice(option, value)} (not decided yet)"
        if session.get("leftover_pot"):
            return _choice(option, session["leftover_pot"])
    label = CHOICE_LABELS.get((option, str(value)))
    return str(label) if label else _number(value)


def _choice(option: str, value: Any) -> str:
    return str(CHOICE_LABELS.get((option, str(value))) or value)


def _numbers(group: Mapping[str, Any] | None) -> dict[Any, int]:
    """Each session's number among the group's sessions of its game, as the pages name it
    ("Spot #2"), from the group's listing: the workbooks' and the group CSV's Session
    column (the id stays the session's address). Empty without the listing."""
    listed = (group or {}).get("sessions") or []
    return {s["id"]: int(s["number"]) for s in listed if "id" in s and "number" in s}


def _pot_info(session: Mapping[str, Any], numbers: Mapping[Any, int]) -> tuple[Row, Row]:
    """The pot, beside the options: the one the session opened with and who brought it, the
    one it left and who keeps it, and in words how the balances and the pot add up (RULES.md
    §2), so the players' scores need no other explanation."""
    if session.get("pot") is None:
        return [], []
    game = _game_name(session)
    carried_in = int(session.get("carried_in") or 0)
    pot = int(session.get("pot") or 0)
    brought = session.get("carried_in_keeper")
    kept = session.get("pot_keeper")
    total = sum(int(u) for u in (session.get("scores") or {}).values())
    words = [f"The scores add up to {total} and the pot holds {pot}."]
    if carried_in:
        source = session.get("carried_from")
        number = session.get("carried_from_number") or numbers.get(source, source)
        origin = f" from {game} #{number}" if source else ""
        if brought:
            words.append(
                f"{brought} brought the pot of {carried_in}{origin}, so {brought}'s score "
                f"started at -{carried_in}: scores and pot add up to zero."
            )
        else:
            words.append(
                f"The pot of {carried_in}{origin} belonged to nobody: scores and pot add up to it."
            )
    if session.get("status") == "finished" and pot:
        if kept:
            words.append(f"{kept} keeps the pot for the next {game} night and is paid it.")
        else:
            words.append(f"The pot goes to the next {game} session and belongs to nobody yet.")
    header: Row = ["Pot carried in", "Brought by", "Pot at the end", "Kept by", "Pot"]
    return header, [carried_in, brought, pot, kept, " ".join(words)]


def _summary(
    wb: Workbook,
    session: Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None,
    group: Mapping[str, Any] | None,
    names: Sequence[str],
    money: bool,
    currency: str,
    cash: str,
) -> None:
    """Summary: the session in one row under its header, then the players' table."""
    info_header, info, widths = _summary_info(session, hands, group)
    players_header: Row = [
        "Player",
        "Hands played",
        "Hands won",
        f"Final score ({'units' if money else 'points'})",
    ]
    # A points game played for a stake has money once it has ended (RULES.md §7).
    priced = money or session.get("payout") is not None
    if priced:
        players_header.append(f"Amount ({currency})" if currency else "Amount")
    game_header, game_cells = _game_columns(session)
    players_header += game_header
    widths = [max(_width(*names, "Player"), 12), *widths]
    sheet = _Sheet(wb, "Summary", widths, freeze="A5", formats={4: cash})
    sheet.header(info_header)
    sheet.row(info)
    sheet.blank()
    sheet.header(players_header)

    played, won = _hands_played_and_won(hands)
    scores = session.get("scores") or {}
    balances = _balances(session, settlement) if priced else {}
    for name in names:
        row: Row = [name, played[name], won[name], scores.get(name, 0)]
        if priced:
            row.append(balances.get(name, Decimal(0)))
        sheet.row(row + game_cells(name))
    sheet.filter()


def _game_columns(session: Mapping[str, Any]) -> tuple[Row, Callable[[str], Row]]:
    """The Summary's columns of a game of RULES.md §8–§12, from what the session answers:
    Gin Rummy's end (hand points, game bonus, boxes), Kaluki's points, who is eliminated and
    the buy-ins; none for the other games."""
    bonuses = session.get("bonuses") or {}
    totals = session.get("totals")
    header: Row = []
    if bonuses:
        header += ["Hand points", "Game bonus", "Boxes won", "Box points"]
    if totals is not None:
        header += ["Points", "Eliminated", "Buy-ins"]
    out = set(session.get("eliminated") or ())
    buy_ins = session.get("buy_ins") or {}

    def cells(name: str) -> Row:
        row: Row = []
        if bonuses:
            b = bonuses.get(name) or {}
            row += [b.get("hands"), b.get("game"), b.get("hands_won"), b.get("boxes")]
        if totals is not None:
            row += [totals.get(name, 0), "yes" if name in out else "no", buy_ins.get(name, 0)]
        return row

    return header, cells


def _summary_info(
    session: Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    group: Mapping[str, Any] | None,
) -> tuple[Row, Row, list[float]]:
    """The Summary's first rows: the session, its options and its pot; and the widths of
    its columns after the first."""
    options = dict(session.get("options") or {})
    started = session.get("started_at")
    if started is None and group is not None:
        listed = [s for s in group.get("sessions") or [] if s.get("id") == session.get("id")]
        started = listed[0].get("started_at") if listed else None
    info_header: Row = ["Game", "Session", "Group", STARTED, FINISHED, "Status", "Hands"]
    info_header += [_option_label(k) for k in options]
    numbers = _numbers(group)
    info: Row = [
        _game_name(session),
        session.get("number") or numbers.get(session.get("id"), session.get("id")),
        # The group's name as the pages show it; the slug only where no name is known.
        session.get("group_name") or (group or {}).get("name") or session.get("group"),
        _when(started),
        _when(session.get("finished_at")),
        session.get("status"),
        session.get("hands_played", len(hands)),
    ]
    settings = {k: _option_cell(session, k, v) for k, v in options.items()}
    info += list(settings.values())
    pot_header, pot_info = _pot_info(session, numbers)
    info_header += pot_header
    info += pot_info
    widths: list[float] = [14, 16, 18, 16, 10, 8]
    widths += [_width(_option_label(k), v) for k, v in settings.items()]
    widths += [_width(h, v) for h, v in zip(pot_header, pot_info, strict=True)][:-1]
    widths += [60] if pot_info else []
    return info_header, info, widths


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
        after = hand.get("scores_after") or {}
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


# --- The group's workbook ---------------------------------------------------------------------


# The Players sheet and a sheet per player add the sessions up with the stats service's own
# arithmetic (ledger/services/stats.py: night_facts, add_up), fed the sessions as they stream
# by: the same numbers as the group page, a player's page and the stats API.


def _points_header(key: str) -> str:
    """A points column's heading: "Points (Rummy)", "Points (Rummy, penalty)"."""
    game, _sep, scoring = key.partition(":")
    name = GAMES[game].name if game in GAMES else game
    return f"Points ({name}, {scoring})" if scoring else f"Points ({name})"


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


def _player_sheet(
    wb: Workbook, title: str, history: PlayerHistory, numbers: Mapping[Any, int]
) -> None:
    """A player's nights (as the player's page lists them), then their totals."""
    sheet = _Sheet(wb, title, [9, 12, 17, 9, 9, 12, 9, 6, 7, 7, 9], freeze="A2")
    sheet.formats = {}
    sheet.header(
        ["Session", "Game", STARTED, "Status", "Score", "Money", "Currency", "Won", "Place"]
        + ["Hands", "Hands won"]
    )
    for n in history.nights:
        sheet.row(
            [numbers.get(n.session, n.session)]
            + [GAMES[n.game].name if n.game in GAMES else n.game, n.started_at]
            + [n.status, n.score, n.money, n.currency, "yes" if n.won else None]
            + [n.place, n.hands, n.hands_won]
        )
    sheet.filter()
    t = history.totals
    sheet.blank()
    sheet.row(["Sessions", t.sessions])
    sheet.row(["Hands played", t.hands])
    sheet.row(["Hands won", t.hands_won])
    for game, won in t.games_won.items():
        sheet.row([f"Games won ({GAMES[game].name if game in GAMES else game})", won])
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
) -> bytes:
    """The group's whole history (API.md "Workbooks"): Sessions, Players and Hands, then a
    sheet per player (their nights and totals, as their page shows them), then the Tab
    (RULES.md §6a) when the group keeps one.

    ``group`` is the group's answer; ``sessions`` yields, oldest first, each session's answer
    with its hands and settlement. It is read once, so it may be a generator that loads one
    session at a time, and a session's hands are read once too, each written as it comes: a
    night of any length may stream in. Only the players' totals are kept.
    """
    player_names = [str(p["name"]) for p in group.get("players") or []]
    listed = {s.get("id"): s for s in group.get("sessions") or []}
    numbers = _numbers(group)
    name_width = _width("Player", *player_names)
    wb = _new_workbook()

    sessions_sheet = _Sheet(wb, "Sessions", [9, 12, 17, 17, 30, name_width + 4, 9, 7], freeze="B2")
    sessions_sheet.header(
        ["Session", "Game", STARTED, FINISHED, "Players", "Winners", "Status", "Hands"]
    )
    # Players is the second sheet but is written last, once the totals are known. It has a
    # net money column per currency, unknown until then: its widths are set generously now.
    players_sheet = _Sheet(wb, "Players", [max(12.0, name_width)] + [14] * 10)
    widths = [9, 12, 6, name_width, name_width, name_width + 4]
    widths += [14, 10] * len(player_names) + [11, 10, 30]
    hands_sheet = _Sheet(wb, "Hands", widths, freeze="D2")
    hands_sheet.header(group_hands_header(player_names))

    facts: list[SessionFacts] = []
    for item in sessions:
        session, hands, _settlement = SessionData(*item)
        started = session.get("started_at") or listed.get(session.get("id"), {}).get("started_at")
        sheets = (sessions_sheet, hands_sheet)
        facts.append(_group_session(sheets, session, hands, started, player_names))

    sessions_sheet.filter()
    hands_sheet.filter()
    nights = [night for f in facts for night in night_facts(f)]
    _players_sheet(players_sheet, board(nights), player_names)
    _player_sheets(wb, nights, player_names, numbers)
    if tabs:
        _tab_sheet(wb, tabs, name_width)
    return _save(wb, stream)


def _tab_sheet(wb: Workbook, tabs: Sequence[TabView], name_width: float) -> None:
    """The tab, per currency: each night with each player's part, each payment, then what is
    still outstanding per player. Amounts in the currency (never an account: RULES.md §6b)."""
    names = sorted({b.player for t in tabs for b in t.balances}, key=str.casefold)
    widths = [9, 12, 17, 9, 12, name_width, name_width, 12] + [name_width] * len(names)
    sheet = _Sheet(wb, "Tab", widths, freeze="C2")
    sheet.header(
        ["Currency", "Line", "Date (UTC)", "Session", "Game", "From", "To", "Amount", *names]
    )
    for t in tabs:
        for n in t.nights:
            parts = [n.parts.get(p) for p in names]
            sheet.row([t.currency, "night", n.at, n.session, n.game_name, None, None, None, *parts])
        for p in t.payments:
            sheet.row([t.currency, "payment", p.at, None, None, p.source, p.target, p.amount])
        left = {b.player: b.outstanding_amount for b in t.balances}
        sheet.row([t.currency, "outstanding", None, None, None, None, None, None]
                  + [left.get(p) for p in names])  # fmt: skip
    sheet.filter()


def _group_session(
    sheets: tuple[_Sheet, _Sheet],
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]],
    started: Any,
    player_names: Sequence[str],
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
        hands_sheet.row(_group_hand_row(session, hand, player_names))
        _add_hand_names(names, hand)
        tally.add(hand)
        count += 1
    sessions_sheet.row(
        [
            session.get("id"),  # the address; API.md: one row per session, by id
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


def _player_sheets(
    wb: Workbook,
    nights: Sequence[tuple[str, Night]],
    names: Sequence[str],
    numbers: Mapping[Any, int],
) -> None:
    """A sheet per player, the group's players first, then any other who played."""
    taken = {title.casefold() for title in wb.sheetnames}
    known = [*names, *(n for n, _night in nights if n not in names)]
    for name in dict.fromkeys(known):
        mine = tuple(night for n, night in nights if n == name)
        history = PlayerHistory(name, mine, add_up(name, mine))
        _player_sheet(wb, _sheet_title(name, taken), history, numbers)


def group_hands_header(player_names: Sequence[str]) -> Row:
    """The group's Hands sheet (and the group's CSV): a column pair per player of the group."""
    header: Row = ["Session", "Game", "Hand", "Dealer", "Out", "Winners"]
    for name in player_names:
        header += [f"{name} cards", f"{name} spots or points"]
    return [*header, "Pot before", "Pot after", "Other players"]


def _group_hand_row(
    session: Mapping[str, Any], hand: Mapping[str, Any], player_names: Sequence[str]
) -> Row:
    """A hand on the group's Hands sheet: a player the group's answer did not list (there
    should be none) is written in "Other players" rather than lost."""
    money = is_money(session)
    by_player = {r.get("player"): r for r in hand.get("results") or []}
    row: Row = [
        session.get("id"),  # API.md: every hand of every session, with the session's id
        _game_name(session),
        hand.get("number"),
        hand.get("dealer"),
        hand.get("out"),
        _joined(hand.get("winners") or []),
    ]
    for name in player_names:
        row += _player_cells(by_player.pop(name, None), money)
    others = "; ".join(
        f"{name}: {cards_text(r)} ({_score_of(r, money)})" for name, r in by_player.items()
    )
    return [*row, hand.get("pot_before"), hand.get("pot_after"), others or None]


# --- CSV ---------------------------------------------------------------------------------------


def _csv(header: Row, rows: Iterable[Row]) -> str:
    """CSV text with a byte-order mark, so Excel reads the names and € as UTF-8."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([_csv_value(v) for v in header])
    for row in rows:
        writer.writerow([_csv_value(v) for v in row])
    return out.getvalue()


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return _value(value)


def hands_csv(session: Mapping[str, Any], hands: Iterable[Mapping[str, Any]]) -> str:
    """hands.csv: the Hands sheet's columns, one row per hand."""
    return _csv(*hands_table(session, list(hands)))


def payments_csv(
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None = None,
) -> str:
    """payments.csv: the Payments sheet's columns, one row per movement of money."""
    return _csv(*payments_table(session, list(hands), settlement))


def group_hands_csv(
    group: Mapping[str, Any], sessions: Iterable[SessionData | tuple[Any, ...]]
) -> str:
    """The group's whole history as CSV (`ledger export GROUP FILE.csv`): the rows of the
    group workbook's Hands sheet, every hand of every session, oldest first."""
    player_names = [str(p["name"]) for p in group.get("players") or []]

    def rows() -> Iterator[Row]:
        for item in sessions:
            session, hands, _settlement = SessionData(*item)
            for hand in hands:
                yield _group_hand_row(session, hand, player_names)

    return _csv(group_hands_header(player_names), rows())


# --- From the export service ------------------------------------------------------------------


def export_workbook(data: SessionData) -> bytes:
    """A session's workbook from what session_data() made of the export service's answer."""
    return session_workbook(data.session, data.hands, data.settlement)


def group_export_workbook(export: GroupExport) -> bytes:
    """The group's workbook: its listing first, then each session as the service streams it."""
    return group_workbook(export.group.to_json(), _each_streamed(export.streamed), tabs=export.tabs)


def _each_streamed(
    sessions: Iterator[StreamedSession],
) -> Iterator[tuple[dict[str, Any], Iterator[dict[str, Any]]]]:
    """Each session as the tables are laid out from (session_data()'s shapes), its hands
    turned into the API's answers one at a time, as the Hands sheet takes them: a long
    night's hands are never all held, as views or as dicts."""
    for streamed in sessions:
        view = streamed.session
        session = {
            **view.to_json(),
            "winners": list(view.winners),
            "group_name": streamed.group_name,
        }
        yield session, (hand.to_json() for hand in streamed.hands)


def group_export_csv(export: GroupExport) -> str:
    """Every hand of the group as CSV: the workbook's Hands sheet, session after session."""
    return group_hands_csv(export.group.to_json(), (session_data(s) for s in export.sessions))
