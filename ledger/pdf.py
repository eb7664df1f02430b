"""The A4 sheet every paper is drawn on (fpdf2): the app's font, a title, a footer, and tables
whose words fit their columns: a word too wide for its column is set smaller, never split
("Totaal", not "Totaa" over "l"), and a grid too wide for the page carries on below.

The font is DejaVu Sans Condensed, shipped in ledger/fonts, so every name and "€" prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace
from fpdf.table import Row

FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVu"
MARGIN = 12  # mm
GREY = (200, 200, 200)
LINE = 5.5  # mm: a line of text
# The smallest type a word is set in to fit its column, in points: still readable on paper.
SMALLEST = 4.5


class Sheet(FPDF):
    """An A4 page with the app's font, a title and a footer naming the app and the page."""

    def __init__(self, title: str, subtitle: str = "", *, wide: bool = False) -> None:
        """``wide``: the page turned (landscape), for a table of many columns."""
        super().__init__(orientation="landscape" if wide else "portrait", unit="mm", format="A4")
        self.add_font(FONT, "", str(FONTS / "DejaVuSansCondensed.ttf"))
        self.add_font(FONT, "B", str(FONTS / "DejaVuSansCondensed-Bold.ttf"))
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=MARGIN + 6)
        self.set_title(title)
        self.set_creator("Pub Ledger")
        self.set_draw_color(*GREY)
        self.add_page()
        self.set_font(FONT, "B", 18)
        self.multi_cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
        if subtitle:
            self.set_font(FONT, "", 10)
            self.multi_cell(0, 5, subtitle, new_x="LMARGIN", new_y="NEXT")
        self.ln(3)

    def footer(self) -> None:
        self.set_y(-MARGIN - 2)
        self.set_font(FONT, "", 8)
        self.cell(0, 4, f"Pub Ledger · {self.page_no()}/{{nb}}", align="R")

    def heading(self, text: str) -> None:
        self.ln(2)
        self.set_font(FONT, "B", 13)
        self.cell(0, 8, text, new_x="LMARGIN", new_y="NEXT")
        self.set_font(FONT, "", 10)

    def line_of(self, text: str, size: int = 10) -> None:
        self.set_font(FONT, "", size)
        self.multi_cell(0, LINE, text, new_x="LMARGIN", new_y="NEXT")

    def height_of(self, text: str, size: int = 10) -> float:
        """How high ``line_of`` draws ``text``, in mm (a long one takes lines more)."""
        self.set_font(FONT, "", size)
        height = self.multi_cell(0, LINE, text, dry_run=True, output="HEIGHT")
        assert isinstance(height, float | int)  # what output="HEIGHT" answers
        return float(height)

    def keep_together(self, height: float) -> None:
        """A new page unless ``height`` mm more fit on this one: what follows (a transfer and
        its QR code) is never split by a page break."""
        if self.will_page_break(height):
            self.add_page()

    def grid(
        self,
        head: Sequence[str],
        rows: Iterable[Sequence[str]],
        *,
        first: float = 1.0,
        weights: Sequence[float] | None = None,
        size: float = 10,
        height: float = 6.5,
        left: int = 1,
        boxes: bool = False,
        span: int = 1,
        fixed: int = 1,
    ) -> None:
        """A table across the page with a bold heading row repeated on every page: the first
        ``left`` columns (names) to the left, numbers to the right; ``first`` widens the first
        column against the others (or ``weights`` gives every column's share); ``boxes`` draws
        every cell's box (a sheet to write on); ``span``: each heading after the first
        ``fixed`` ones covers that many columns (a player's on a blank sheet)."""
        self.set_font(FONT, "", size)
        count = fixed + (len(head) - fixed) * span
        shares = weights or (first, *([1.0] * (count - 1)))
        widths = [self.epw * w / sum(shares) for w in shares]
        align = (*(["LEFT"] * left), *(["RIGHT"] * (count - left)))
        with self.table(
            col_widths=widths,
            text_align=align,
            line_height=height,
            headings_style=FontFace(emphasis="BOLD"),
            borders_layout="ALL" if boxes else "HORIZONTAL_LINES",
        ) as table:
            heading = table.row()
            for text, width in zip(head[:fixed], widths, strict=False):
                self.fitted(heading, text, width, size, "B")
            for i, text in enumerate(head[fixed:]):
                covered = sum(widths[fixed + i * span : fixed + (i + 1) * span])
                where = "CENTER" if span > 1 else None
                self.fitted(heading, text, covered, size, "B", align=where, colspan=span)
            for cells in rows:
                row = table.row()
                for text, width in zip(cells, widths, strict=False):
                    self.fitted(row, text, width, size)

    def carried_grid(
        self,
        head: str,
        names: Sequence[str],
        columns: Sequence[tuple[str, Sequence[str]]],
        *,
        size: float = 9,
    ) -> None:
        """A grid of a column per thing (a season's nights) and a row per name, as a person
        lays out one too wide for the paper: as many columns as fit the page's width in one
        table, the rest carried on in further tables below (onto further pages), each with
        the names column again; each column as wide as its widest text, so nothing wraps."""
        self.set_font(FONT, "", size)
        room = self.epw
        # The names column: its widest name, but never more than a third of the page (a
        # longer name wraps between its words, or is set smaller).
        first = min(max(self.text_width([head, *names], "B"), 30.0), room / 3)
        widths = [self.text_width([h, *cells], "B") for h, cells in columns]
        start = 0
        while start < len(columns):
            end, used = start, first
            while end < len(columns) and (end == start or used + widths[end] <= room):
                used += widths[end]
                end += 1
            if start:
                self.ln(3)
            shown = columns[start:end]
            with self.table(
                col_widths=(first, *widths[start:end]),
                width=min(used, room),
                align="LEFT",
                text_align=("LEFT", *(["RIGHT"] * len(shown))),
                line_height=size * 0.55,
                headings_style=FontFace(emphasis="BOLD"),
                borders_layout="HORIZONTAL_LINES",
            ) as table:
                heading = table.row()
                self.fitted(heading, head, first, size, "B")
                for (text, _cells), width in zip(shown, widths[start:end], strict=True):
                    self.fitted(heading, text, width, size, "B")
                for i, name in enumerate(names):
                    row = table.row()
                    self.fitted(row, name, first, size)
                    for (_text, cells), width in zip(shown, widths[start:end], strict=True):
                        self.fitted(row, cells[i], width, size)
            start = end

    def fitted(
        self, row: Row, text: str, width: float, size: float, style: str = "", **more: object
    ) -> None:
        """A cell of ``width`` mm holding ``text`` at ``size``, or smaller where its widest
        word would not fit at that size (a table breaks lines between words only)."""
        room = width - 2 * self.c_margin - 0.2
        widest = self.text_width(text.split() or [""], style, size) - 2 * self.c_margin - 0.5
        fits = size if widest <= room else max(SMALLEST, size * room / widest)
        face = FontFace(size_pt=fits) if fits < size else None
        row.cell(text, style=face, **more)  # type: ignore[arg-type]

    def text_width(self, texts: Iterable[str], style: str = "", size: float | None = None) -> float:
        """The width in mm of a cell holding the widest of ``texts`` (bold where ``style``
        says "B", as a heading is) at ``size`` points (the current size if None), its
        margins included."""
        current = self.font_size_pt
        self.set_font(FONT, style, size or current)
        widest = max((self.get_string_width(t) for t in texts), default=0.0)
        self.set_font(FONT, "", current)
        return widest + 2 * self.c_margin + 0.5

    def done(self) -> bytes:
        return bytes(self.output())
