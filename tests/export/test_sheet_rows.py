"""A sheet's rows written a run at a time are the rows openpyxl itself writes.

The workbooks' sheets write their rows' XML themselves (ledger/export/sheets.py, issue 46.5:
openpyxl's cell by cell writing was most of a long history's workbook's time). Each cell must
be what openpyxl's own ``append`` makes of it: the same value, type, style and spaces; and
what it would refuse or treat apart (a formula, an error code, a character a sheet cannot
hold) must be left to openpyxl, as before.
"""

from __future__ import annotations

import io
import zipfile
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from xml.etree.ElementTree import canonicalize

import openpyxl
import pytest
from openpyxl.utils.exceptions import IllegalCharacterError

from ledger.export import sheets
from ledger.export.sheets import _new_workbook, _save, _Sheet

LONG = "x" * 40_000  # longer than a cell holds: cut at 32,767 characters

ROWS: list[list[Any]] = [
    ["plain", "with spaces ", "  ", "", "tab\there", "new\nline", "cr\r\nlf", "Seán 🥔"],
    ["a < b & c > d", "'=SUM(A1)", "=", "#", "#N/A", "=SUM(A1:A2)", LONG],
    [0, -7, 2**70, 1.5, float("nan"), Decimal("0.10"), Decimal("-12345678901234567.891")],
    [True, False, None, None, "after the gaps", None],
    [],
    [date(2026, 11, 29), datetime(2026, 11, 29, 21, 5, 7), Decimal("3.40"), 12],
    ["\ufffe cannot be written", "ok"],
]


def _written(rows: list[list[Any]]) -> tuple[bytes, bytes]:
    """The sheet's XML and the workbook's bytes: a bold header, then each row put through
    ``_Sheet.row`` (text made safe, dates and money styled), then each row as it is."""
    wb = _new_workbook()
    sheet = _Sheet(wb, "Sheet", [10] * 8)
    sheet.header(["Name", "Amount", " spaced "])
    sheet.formats = {2: '"€"#,##0.00', 3: "#,##0"}
    for row in rows:
        sheet.row(row)
    for row in rows:
        sheet._append(row)  # the values as they are, not made safe: openpyxl's own types
    data = _save(wb, None)
    return _saved_sheet(data), data


def _cells(data: bytes) -> list[list[tuple[Any, str, Any, str | None]]]:
    ws = openpyxl.load_workbook(io.BytesIO(data)).worksheets[0]
    return [
        [(c.value, c.number_format, c.font.b, c.data_type) for c in row] for row in ws.iter_rows()
    ]


def _rows_without(bad: str) -> list[list[Any]]:
    return [[v for v in row if not (isinstance(v, str) and bad in v)] for row in ROWS]


def test_each_row_is_written_as_openpyxl_writes_it(monkeypatch):
    monkeypatch.setattr(sheets, "ROWS_AT_ONCE", 3)  # runs of rows end mid-sheet
    rows = _rows_without("\ufffe")
    monkeypatch.setattr(sheets, "OWN_ROWS", True)
    mine, mine_book = _written(rows)
    monkeypatch.setattr(sheets, "OWN_ROWS", False)
    theirs, their_book = _written(rows)
    assert canonicalize(mine) == canonicalize(theirs)
    cells = _cells(mine_book)
    assert cells == _cells(their_book)
    # What the cells hold, as a person opening the file sees them.
    assert cells[0][0] == ("Name", "General", True, "s")
    assert [c[0] for c in cells[1][:3]] == ["plain", "with spaces ", "  "]
    assert cells[1][6][0].startswith("'cr") and cells[1][7][0] == "Seán 🥔"  # made safe
    assert cells[2][0][0] == "a < b & c > d" and cells[2][1][0] == "'=SUM(A1)"
    assert len(cells[9][6][0]) == 32_767
    assert (cells[9][4][3], cells[9][5][3]) == ("e", "f")  # openpyxl's own, as before
    assert cells[3][2][0] == float("%.16g" % 2**70) and cells[3][5][1:] == ("General", False, "n")
    assert cells[6][:2] == [
        (datetime(2026, 11, 29), "yyyy-mm-dd hh:mm", False, "d"),
        (datetime(2026, 11, 29, 21, 5, 7), "yyyy-mm-dd hh:mm", False, "d"),
    ]
    assert cells[6][2][1:] == ('"€"#,##0.00', False, "n") and cells[6][3][1] == "#,##0"


@pytest.mark.parametrize("text", ["a control character \x01 in it", "\ufffe cannot be written"])
def test_what_a_sheet_cannot_hold_is_refused_as_openpyxl_refuses_it(monkeypatch, text):
    """A control character is refused (openpyxl's IllegalCharacterError); U+FFFE, which XML
    cannot hold, is refused with lxml and written without it, as openpyxl does."""

    def outcome(own: bool) -> Any:
        monkeypatch.setattr(sheets, "OWN_ROWS", own)
        wb = _new_workbook()
        sheet = _Sheet(wb, "Sheet", [10])
        try:
            sheet._append(["fine", text])
            return _saved_sheet(_save(wb, None))
        except (IllegalCharacterError, ValueError) as refused:
            return type(refused)

    openpyxl_own = outcome(False)
    assert outcome(True) == openpyxl_own
    if "\x01" in text:
        assert openpyxl_own is IllegalCharacterError


def _saved_sheet(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read("xl/worksheets/sheet1.xml")
