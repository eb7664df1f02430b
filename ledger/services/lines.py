"""A player's lines night by night, as their page's charts draw them: the running money in
each currency (in its cents), the running points in each points column, and the rating at
each game (in tenths). The arithmetic is here; the page only labels and draws them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from ledger.rules.money import minor_units
from ledger.services.league import RatingLine
from ledger.services.stats import PlayerHistory

Points = tuple[tuple[int, dict[str, int]], ...]


@dataclass(frozen=True)
class PlayerLine:
    """One line: ``kind`` money (``key`` the currency), points (the points column) or rating
    (the game, ``name`` Any game's name); values in 1/``scale`` (cents, tenths)."""

    kind: str
    key: str
    points: Points
    scale: int = 1
    name: str | None = None


def player_lines(history: PlayerHistory, ratings: Sequence[RatingLine] = ()) -> list[PlayerLine]:
    """Every line of the player's page, money first, then points, then ratings."""
    found = []
    for currency in history.totals.money:
        scale = 10 ** minor_units(currency)
        total, running = Decimal(0), list[tuple[int, dict[str, int]]]()
        for n in (n for n in history.nights if n.currency == currency and n.money is not None):
            total += n.money or 0
            running.append((len(running) + 1, {history.name: int(total * scale)}))
        found.append(PlayerLine("money", currency, tuple(running), scale))
    for key in history.totals.points:
        score, points = 0, list[tuple[int, dict[str, int]]]()
        for n in (n for n in history.nights if n.points_key == key):
            score += n.score
            points.append((len(points) + 1, {history.name: score}))
        found.append(PlayerLine("points", key, tuple(points)))
    for line in ratings:
        drawn = tuple(
            (i, {history.name: int(r.scaleb(1))}) for i, (_, r) in enumerate(line.points, 1)
        )
        found.append(PlayerLine("rating", line.game, drawn, 10, line.game_name))
    return [line for line in found if line.points]
