"""Ratings (RULES.md §14): each player's skill at one game from the nights' places, by the
OpenSkill Plackett–Luce model with its defaults (μ 25, σ 25/3), one update per night in the
order the nights started, equal places as ties. A rating is shown as μ − 3σ to one decimal.

The model is the ``openskill`` package's (MIT licence), not a rating written by hand: this
module only feeds it the nights and reads its answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from openskill.models import PlackettLuce, PlackettLuceRating


@dataclass(frozen=True)
class RatedNight:
    """A finished night as the ratings read it: each player's place (1 the best, shared)."""

    session: int
    started_at: datetime
    places: Mapping[str, int]


@dataclass(frozen=True)
class Rating:
    """A player's rating now: μ and σ as the model keeps them, and the nights it counted."""

    player: str
    mu: float
    sigma: float
    nights: int

    @property
    def shown(self) -> Decimal:
        return shown(self.mu, self.sigma)


@dataclass(frozen=True)
class Ratings:
    """Every player's rating, best first (by the rating shown, then by name), and each
    player's rating shown after every night they played, in order."""

    ratings: tuple[Rating, ...]
    history: Mapping[str, tuple[tuple[int, Decimal], ...]]  # (session, rating shown)


def shown(mu: float, sigma: float) -> Decimal:
    """μ − 3σ to one decimal (half up), read from the floats' shortest exact text."""
    return Decimal(repr(mu - 3 * sigma)).quantize(Decimal("0.1"), ROUND_HALF_UP)


def rate(nights: Sequence[RatedNight]) -> Ratings:
    """The ratings after these nights (in the order they started; a night with fewer than
    two players is skipped)."""
    model = PlackettLuce()
    now: dict[str, PlackettLuceRating] = {}
    counted: dict[str, int] = {}
    history: dict[str, list[tuple[int, Decimal]]] = {}
    for night in sorted(nights, key=lambda n: (n.started_at, n.session)):
        players = sorted(night.places)
        if len(players) < 2:
            continue
        teams = [[now.get(p) or model.rating(name=p)] for p in players]
        after = model.rate(teams, ranks=[float(night.places[p]) for p in players])
        for player, (rating,) in zip(players, after, strict=True):
            now[player] = rating
            counted[player] = counted.get(player, 0) + 1
            history.setdefault(player, []).append((night.session, shown(rating.mu, rating.sigma)))
    ratings = [Rating(p, r.mu, r.sigma, counted[p]) for p, r in now.items()]
    ratings.sort(key=lambda r: (-r.shown, -r.mu, r.player.casefold(), r.player))
    return Ratings(tuple(ratings), {p: tuple(h) for p, h in history.items()})
