"""Rivals (RULES.md §14): for a player, each opponent's record against them over the nights
both played, and their nemesis and favourite opponent."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
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


@dataclass(frozen=True)
class Meeting:
    """One night as rivals read it: each player's place (1 the best), and who played on one
    side (a team game's partners); a player on no side listed played alone."""

    places: Mapping[str, int]
    sides: Sequence[Collection[str]] = ()

    def partners(self, one: str, other: str) -> bool:
        """Whether the two played on one side this night: partners, never rivals (§14)."""
        return any(one in side and other in side for side in self.sides)


def rivals(player: str, nights: Sequence[Meeting]) -> Rivals:
    """The player's rivals over these nights: only players on another side than the player's
    that night count (RULES.md §14), a team-mate is neither above, below nor tied."""
    found: dict[str, list[int]] = {}  # opponent: [nights, above, below, tied]
    for night in nights:
        places = night.places
        if player not in places:
            continue
        mine = places[player]
        for other, theirs in places.items():
            if other == player or night.partners(player, other):
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
