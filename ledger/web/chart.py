"""The running scores as a line chart: inline SVG drawn on the server, no script needed.

Colours come from classes in static/style.css (series-0 … series-7), so the strict
Content-Security-Policy (no inline style) holds and the dark theme recolours the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
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

# The y of each score as written, per frame (lowest and highest score): see _Frame.ys.
_Y_TEXTS: PageCache[dict[int, str]] = PageCache(size=256)


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
    frame = _Frame.around(history)
    parts = _axes(frame, label, tick)
    # Each hand's x and each score's y written once for all the lines: a scoreboard draws up
    # to 120 hands for each player, and writing the numbers is most of the drawing.
    xs = {number: f"{frame.x(number):.1f}" for number, _ in history}
    xs[0] = f"{frame.x(0):.1f}"
    ys = frame.ys({v for _, scores in history for v in scores.values()} | {0})
    for n, player in enumerate(players):
        parts += _line(player, f"series series-{n % SERIES_CLASSES}", history, xs, ys)
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
    def around(cls, history: Sequence[tuple[int, Mapping[str, int]]]) -> _Frame:
        values = [v for _, scores in history for v in scores.values()] + [0]
        low, high = min(values), max(values)
        if low == high:
            low, high = low - 1, high + 1
        return cls(low, high, history[-1][0])

    def x(self, i: int) -> float:
        return PAD_LEFT + (WIDTH - PAD_LEFT - PAD_RIGHT) * i / self.hands

    def y(self, v: int) -> float:
        return PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) * (self.high - v) / (self.high - self.low)

    def ys(self, values: Iterable[int]) -> Mapping[int, str]:
        """``y`` of each value, written as the chart writes it.

        Kept per frame in this process: a night's lowest and highest scores change now and
        then, so the next hand's chart finds most of its scores written already.
        """
        known = _Y_TEXTS.get((self.low, self.high))
        if known is None:
            known = {}
            _Y_TEXTS.put((self.low, self.high), known)
        missing = [v for v in values if v not in known]
        if missing:
            high, span = self.high, self.high - self.low
            inner = HEIGHT - PAD_TOP - PAD_BOTTOM
            known.update({v: f"{PAD_TOP + inner * (high - v) / span:.1f}" for v in missing})
        return known


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
    player: str,
    cls: str,
    history: Sequence[tuple[int, Mapping[str, int]]],
    xs: Mapping[int, str],
    ys: Mapping[int, str],
) -> list[str]:
    """One player's line and a dot at its end; nothing for a player in no hand drawn."""
    first = next((i for i, (_, scores) in enumerate(history) if player in scores), None)
    if first is None:
        return []
    # A newcomer's line starts at 0 at the hand drawn before the one they first played.
    start = f"{xs[history[first - 1][0] if first else 0]},{ys[0]}"
    points = [
        f"{xs[number]},{ys[score]}"
        for number, scores in history[first:]
        if (score := scores.get(player)) is not None
    ]
    x_end, y_end = points[-1].split(",")
    return [
        f'<polyline class="{cls}" points="{start} {" ".join(points)}"><title>'
        f"{escape(player)}</title></polyline>",
        f'<circle class="{cls}" cx="{x_end}" cy="{y_end}" r="3"/>',
    ]


def series_class(index: int) -> str:
    """The legend's class for the player at ``index``, matching the chart's line."""
    return f"series-{index % SERIES_CLASSES}"
