"""A cell's value: text made safe for a spreadsheet, times, numbers and money as cells hold them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from decimal import MAX_PREC, Context, Decimal, InvalidOperation
from typing import Any

from ledger.rules.money import CURRENCY_SYMBOLS, minor_units

XLSX_MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


CSV_MIMETYPE = "text/csv"  # Flask adds "; charset=utf-8"


POT = "(pot)"  # the pot, where a payment's "from" or "to" is not a player


REFUND_NOTE = "pot given back at the end of the night"


DATE_FORMAT = "yyyy-mm-dd hh:mm"


MAX_WIDTH = 40


Row = list[Any]


Movement = Mapping[str, Any]


_EXACT = Context(prec=MAX_PREC)


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


def _joined(names: Iterable[Any]) -> str:
    return ", ".join(str(n) for n in names)


def exact_amount(units: int, unit_value: Decimal) -> Decimal:
    """``units`` worth ``unit_value`` each, exactly: the context's precision is the largest
    there is, so the product of two decimals is never rounded."""
    return _EXACT.multiply(Decimal(units), unit_value)


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
