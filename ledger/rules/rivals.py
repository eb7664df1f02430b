"""Rivals (RULES.md §14): for a player, each opponent's record against them over the nights
both played, and their nemesis and favourite opponent."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# A nemesis or a favourite opponent needs at least this many nights together.
AT_LEAST = 3


@dataclass(frozen=True)
class Rival:
    """``opponent`` against the player: nights both played, the player placed ``above`` them,
    ``below`` them, or ``tied``."""

    opponent: str
    nights: int = 0
    above: int = 0
    below: int = 0
    tied: int = 0


@dataclass(frozen=True)
class Rivals:
    player: str
    rivals: tuple[Rival, ...]  # most nights together first, then by name
    nemesis: str | None  # placed above the player most often
    favourite: str | None  # the player placed above most often


def rivals(player: str, nights: Sequence[Mapping[str, int]]) -> Rivals:
    """The player's rivals over these nights, each night's places by player (1 the best)."""
    found: dict[str, list[int]] = {}  # opponent: [nights, above, below, tied]
    for places in nights:
        if player not in places:
            continue
        mine = places[player]
        for other, theirs in places.items():
            if other == player:
                continue
            counts = found.setdefault(other, [0, 0, 0, 0])
            counts[0] += 1
            counts[1 if mine < theirs else 2 if mine > theirs else 3] += 1
    listed = sorted(
        (Rival(o, *c) for o, c in found.items()),
        key=lambda r: (-r.nights, r.opponent.casefold(), r.opponent),
    )
    return Rivals(
        player,
        tuple(listed),
        _most(listed, lambda r: r.below),
        _most(listed, lambda r: r.above),
    )


def _most(listed: Sequence[Rival], measure: Callable[[Rival], int]) -> str | None:
    """The opponent with the highest ``measure`` (at least once, at least AT_LEAST nights
    together); equal: the most nights together, then by name."""
    eligible = [r for r in listed if r.nights >= AT_LEAST and measure(r) > 0]
    if not eligible:
        return None
    best = min(eligible, key=lambda r: (-measure(r), -r.nights, r.opponent.casefold()))
    return best.opponent
