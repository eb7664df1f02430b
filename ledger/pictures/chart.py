"""The running scores as a line chart: inline SVG drawn on the server, no script needed.

Colours come from classes in static/style.css (series-0 … series-7), so the strict
Content-Security-Policy (no inline style) holds and the dark theme recolours the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ledger.rules.game import Game

WIDTH = 360
HEIGHT = 200
PAD_LEFT = 36
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 22
SERIES_CLASSES = 8


def score_chart(
    players: Sequence[str],
    history: Sequence[tuple[int, Mapping[str, int]]],
    *,
    label: str,
    tick: Callable[[int], str] = str,
    game: Game | None = None,
) -> Markup:
    """One line per side through 0 and its score after each hand; ``label`` names the chart.

    The sides are the game's (``Game.sides``): each player alone, or a team game's teams,
    whose players share one score and so one line ("Ann & Cas"); without a game, each player.

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
    sides = game.sides(players) if game is not None else tuple((p,) for p in players)
    for n, side in enumerate(sides):
        parts += _line(frame, side, f"series series-{n % SERIES_CLASSES}", history)
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
    frame: _Frame,
    side: Sequence[str],
    cls: str,
    history: Sequence[tuple[int, Mapping[str, int]]],
) -> list[str]:
    """One side's line (its first player's score: a team shares one) and a dot at its end;
    nothing for a side in no hand drawn."""
    player = side[0]
    points = []
    last: int | None = None
    before = 0  # the hand drawn before this one: where a newcomer's line starts at 0
    for number, scores in history:
        if player in scores:
            if last is None:
                points.append((frame.x(before), frame.y(0)))
            last = scores[player]
            points.append((frame.x(number), frame.y(last)))
        before = number
    if not points:
        return []
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    px, py = points[-1]
    return [
        f'<polyline class="{cls}" points="{path}"><title>{escape(" & ".join(side))}</title>'
        "</polyline>",
        f'<circle class="{cls}" cx="{px:.1f}" cy="{py:.1f}" r="3"/>',
    ]


def series_class(index: int) -> str:
    """The legend's class for the side at ``index``, matching the chart's line."""
    return f"series-{index % SERIES_CLASSES}"


def side_class(sides: Sequence[Sequence[str]], player: str) -> str:
    """The class of the side ``player`` scores with (a dot beside their name)."""
    return series_class(next((i for i, side in enumerate(sides) if player in side), 0))
