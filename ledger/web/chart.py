"""The running scores as a line chart: inline SVG drawn on the server, no script needed.

Colours come from classes in static/style.css (series-0 … series-7), so the strict
Content-Security-Policy (no inline style) holds and the dark theme recolours the chart.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ledger.web.pagecache import PageCache

WIDTH = 360
HEIGHT = 200
PAD_LEFT = 36
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 22
SERIES_CLASSES = 8

# Inside the axes, where the lines are drawn.
INNER_WIDTH = WIDTH - PAD_LEFT - PAD_RIGHT
INNER_HEIGHT = HEIGHT - PAD_TOP - PAD_BOTTOM

# Each player's line up to the hand before the last drawn, written once per process: the lines
# are drawn in the scores' own numbers (a hand's number across, minus its score up), which
# the frame's viewBox stretches to fit, so after a new hand a line gains one point and the
# points before it (every hand of a short night, the spread hands of a long one) stay as
# they were. Kept under what they show, so a correction that changes a score is drawn anew.
_LINES: PageCache[str] = PageCache(size=1024)


def score_chart(
    players: Sequence[str],
    history: Sequence[tuple[int, Mapping[str, int]]],
    *,
    label: str,
    tick: Callable[[int], str] = str,
) -> Markup:
    """One line per player through 0 and their score after each hand; ``label`` names the chart.

    ``history`` is ``(hand number, scores after it)``, oldest first: every hand of a short
    night, or hands spread evenly over a long one (services.score_history), so the chart
    costs the same to draw at hand 2,000 as at hand 100. A player who joined later starts
    where they joined; one missing from a hand's scores keeps their last point. Returns an
    empty Markup when there is nothing to draw. ``tick`` writes the values on the axis
    (a player's page draws money in cents and writes "€4.40").
    """
    if not history or not players:
        return Markup("")
    numbers = tuple(number for number, _ in history)
    columns = [[scores.get(player) for _, scores in history] for player in players]
    frame = _Frame.around(columns, numbers[-1])
    parts = _axes(frame, label, tick)
    # The lines' own frame: hands 0 to the last across, scores from the highest down to the
    # lowest; the page's stylesheet keeps their strokes as wide as they would be unstretched.
    parts.append(
        f'<svg class="lines" x="{PAD_LEFT}" y="{PAD_TOP}" width="{INNER_WIDTH}" '
        f'height="{INNER_HEIGHT}" viewBox="0 {-frame.high} {frame.hands} '
        f'{frame.high - frame.low}" preserveAspectRatio="none">'
    )
    dots = []
    for n, (player, column) in enumerate(zip(players, columns, strict=True)):
        cls = f"series series-{n % SERIES_CLASSES}"
        drawn = _line(player, cls, column, numbers)
        if drawn is not None:
            line, (x_end, y_end) = drawn
            parts.append(line)
            dots.append(
                f'<circle class="{cls}" cx="{frame.x(x_end):.1f}" cy="{frame.y(y_end):.1f}" r="3"/>'
            )
    parts.append("</svg>")
    parts += dots
    parts.append("</svg>")
    return Markup("".join(p for p in parts if p))


@dataclass(frozen=True)
class _Frame:
    """Where a score after a hand is drawn: hands from 0 to ``hands`` across, scores from
    ``low`` to ``high`` (0 always among them) up."""

    low: int
    high: int
    hands: int

    @classmethod
    def around(cls, columns: Sequence[Sequence[int | None]], hands: int) -> _Frame:
        """The frame of the players' scores, ``columns`` (None: not in that hand), drawn up to
        hand ``hands``."""
        low = high = 0
        for column in columns:
            values = [v for v in column if v is not None] if None in column else column
            if values:
                low = min(low, min(typing.cast("Sequence[int]", values)))
                high = max(high, max(typing.cast("Sequence[int]", values)))
        if low == high:
            low, high = low - 1, high + 1
        return cls(low, high, hands)

    def x(self, i: int) -> float:
        return PAD_LEFT + INNER_WIDTH * i / self.hands

    def y(self, v: int) -> float:
        return PAD_TOP + INNER_HEIGHT * (self.high - v) / (self.high - self.low)


def _axes(frame: _Frame, label: str, tick: Callable[[int], str] = str) -> list[str]:
    """The chart's opening, its title, the zero line and the ticks: high, low, 0, last hand."""
    x, y, low, high, hands = frame.x, frame.y, frame.low, frame.high, frame.hands
    return [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" preserveAspectRatio="xMidYMid meet">',
        f"<title>{escape(label)}</title>",
        f'<line class="axis zero" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" '
        f'y1="{y(0):.1f}" y2="{y(0):.1f}"/>',
        f'<text class="tick" x="{PAD_LEFT - 4}" y="{y(high) + 4:.1f}" text-anchor="end">'
        f"{escape(tick(high))}</text>",
        f'<text class="tick" x="{PAD_LEFT - 4}" y="{y(low) + 4:.1f}" text-anchor="end">'
        f"{escape(tick(low))}</text>",
        f'<text class="tick" x="{PAD_LEFT - 4}" y="{y(0) + 4:.1f}" text-anchor="end">'
        f"{escape(tick(0))}</text>"
        if low < 0 < high
        else "",
        f'<text class="tick" x="{x(hands):.1f}" y="{HEIGHT - 6}" text-anchor="end">{hands}</text>',
    ]


def _line(
    player: str, cls: str, scores: list[int | None], numbers: tuple[int, ...]
) -> tuple[str, tuple[int, int]] | None:
    """One player's line in the scores' own numbers (their score after each hand drawn, None
    where they had none), and the hand and score it ends at; None for a player in no hand."""
    first = next((i for i, score in enumerate(scores) if score is not None), None)
    if first is None:
        return None
    # A newcomer's line starts at 0 at the hand drawn before the one they first played.
    start = numbers[first - 1] if first else 0
    before = (player, start, numbers[first:-1], tuple(scores[first:-1]))
    points = _LINES.get(before)
    if points is None:
        points = " ".join(
            f"{number},{-score}"
            for number, score in zip(before[2], before[3], strict=True)
            if score is not None
        )
        _LINES.put(before, points)
    last = scores[-1]
    tail = f"{numbers[-1]},{-last}" if last is not None else ""
    # The dot at the line's end: its last hand drawn, the last of the chart or one before.
    end = len(scores) - 1
    while scores[end] is None:
        end -= 1
    x_end, y_end = numbers[end], typing.cast(int, scores[end])
    drawn = " ".join(p for p in (f"{start},0", points, tail) if p)
    line = f'<polyline class="{cls}" points="{drawn}"><title>{escape(player)}</title></polyline>'
    return line, (x_end, y_end)


def series_class(index: int) -> str:
    """The legend's class for the player at ``index``, matching the chart's line."""
    return f"series-{index % SERIES_CLASSES}"
