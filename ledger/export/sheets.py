"""A write-only worksheet with its styles and widths, and a workbook made and saved."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter

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
