"""A write-only worksheet with its styles and widths, and a workbook made and saved."""

from __future__ import annotations

import io
import re
from collections.abc import Generator, Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import IO, Any

from openpyxl import LXML, Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.compat import safe_string
from openpyxl.styles import Font
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.xml.functions import fromstring

from ledger.export.cells import DATE_FORMAT, MAX_WIDTH, Row, _value, safe_text


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
        self._rows: _RowWriter | None = None

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
        if not OWN_ROWS:
            self.ws.append(list(row))
        else:
            if self._rows is None:
                self._rows = _RowWriter(self.ws)
            self._rows.write(row)
        self.rows += 1

    def filter(self) -> None:
        """A filter over the table from its header row to the last row written."""
        if self.header_at and self.columns:
            last = get_column_letter(self.columns)
            self.ws.auto_filter.ref = f"A{self.header_at}:{last}{max(self.rows, self.header_at)}"


class _RowWriter:
    """Writes a write-only sheet's rows into its sheetData as openpyxl's own ``append`` does,
    cell for cell the same XML, but many rows at once: each row's XML is written out as text
    and a run of rows read back as elements in one go (in C, with lxml), where openpyxl makes
    a cell object per value, binds its type, and writes each cell on its own: most of a long
    history's workbook's time (bench/RESULTS.md, issue 46.5). A row holding anything but
    text, numbers, booleans and the sheet's own styled cells (a formula, an error code, a
    character a sheet cannot hold, another type) is written by openpyxl itself, as it
    would have been.

    It stands in for openpyxl's row generator (``WriteOnlyWorksheet._write_rows``, which
    ``close`` ends when the workbook is saved), in the sheet's XML stream."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.workbook = ws.parent
        self.number = 0
        self.letters: list[str] = []
        self.pending: list[tuple[int, Sequence[Any], str]] = []
        ws._get_writer()
        ws._rows = self._rows()
        next(ws._rows)

    def write(self, values: Sequence[Any]) -> None:
        self.ws._rows.send(values)

    def _rows(self) -> Generator[None, Sequence[Any], None]:
        xf = self.ws._writer.xf.send(True)
        with xf.element("sheetData"):
            try:
                while True:
                    values = yield
                    self.number += 1
                    row = self._row(values)
                    if row is None:
                        self._flush(xf)
                        self._as_openpyxl(xf, self.number, values)
                    else:
                        self.pending.append((self.number, values, row))
                        if len(self.pending) >= ROWS_AT_ONCE:
                            self._flush(xf)
            except GeneratorExit:
                self._flush(xf)
        self.ws._writer.xf.send(None)

    def _flush(self, xf: Any) -> None:
        pending, self.pending = self.pending, []
        if not pending:
            return
        try:
            rows = fromstring("<rows>" + "".join(row for _n, _v, row in pending) + "</rows>")
        except Exception:  # text XML cannot hold: openpyxl says so, as it would have
            for number, values, _row in pending:
                self._as_openpyxl(xf, number, values)
            return
        for row in rows:
            xf.write(row)

    def _as_openpyxl(self, xf: Any, number: int, values: Sequence[Any]) -> None:
        """A row as openpyxl's own generator writes it."""
        cells = self.ws._values_to_row(values, number)
        self.ws._writer.write_row(xf, cells, number)

    def _row(self, values: Sequence[Any]) -> str | None:
        """The row's XML, or None where openpyxl must write it."""
        number = str(self.number)
        parts = [f'<row r="{number}">']
        letters = self.letters
        while len(letters) < len(values):
            letters.append(get_column_letter(len(letters) + 1))
        for i, value in enumerate(values):
            if value is None:
                continue
            if type(value) is Cell:
                if value._comment is not None or value.hyperlink is not None:
                    return None
                style = self.workbook._cell_styles.add(value._style) if value.has_style else 0
                kind, value = value.data_type, value._value
                if value is None and not style:
                    continue
            else:
                kind, style = _PLAIN.get(type(value), ""), 0
            place = (
                f'r="{letters[i]}{number}" s="{style}"' if style else f'r="{letters[i]}{number}"'
            )
            cell = _cell(place, kind, value, self.workbook)
            if cell is None:
                return None
            parts.append(cell)
        parts.append("</row>")
        return "".join(parts)


# Rows written as text before they are read back as elements together.
ROWS_AT_ONCE = 200
# Rows are written by ``_RowWriter`` where lxml reads them back; without lxml openpyxl's own
# writing is the quicker (bench/RESULTS.md, issue 46.5).
OWN_ROWS = LXML


# The types a plain value is written as (openpyxl's Cell._bind_value): others by openpyxl.
_PLAIN: dict[type, str] = {str: "s", int: "n", float: "n", Decimal: "n", bool: "b"}


_ESCAPED = re.compile(r"[&<>\r]")


_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord("\r"): "&#13;"}


def _cell(place: str, kind: str, value: Any, wb: Any) -> str | None:
    """The XML of a cell of ``kind`` (openpyxl's data type) at ``place`` (its attributes)
    as openpyxl writes it; None where openpyxl must write it (a formula, an error, a time
    zone, a character a sheet cannot hold)."""
    if kind == "s":
        if not isinstance(value, str):
            return None
        value = value[:32767]
        if (len(value) > 1 and value[0] == "=") or value in ERROR_CODES:
            return None
        if ILLEGAL_CHARACTERS_RE.search(value) is not None:
            return None
        if value == "":
            return f'<c {place} t="inlineStr"/>'
        stripped = value.strip()
        # openpyxl keeps the spaces of text with spaces around it; without lxml, only where
        # there is more than spaces (openpyxl.xml.functions.whitespace).
        space = ' xml:space="preserve"' if value != stripped and (LXML or stripped) else ""
        if _ESCAPED.search(value) is not None:
            value = value.translate(_ESCAPES)
        return f'<c {place} t="inlineStr"><is><t{space}>{value}</t></is></c>'
    if kind == "d":
        if wb.iso_dates or getattr(value, "tzinfo", None) is not None:
            return None
        kind, value = "n", to_excel(value, wb.epoch)
    elif kind not in ("n", "b"):
        return None
    if value is None or value == "":  # a styled empty cell
        return f'<c {place} t="{kind}"/>'
    return f'<c {place} t="{kind}"><v>{safe_string(value)}</v></c>'


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
