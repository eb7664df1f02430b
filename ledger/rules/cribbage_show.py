"""Counting a Cribbage show (RULES.md §17): four cards and the starter, part by part, and the
count as a table says it ("15-2, 15-4, a pair is 6, nobs is 7")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ledger.rules.cards import RANKS, Card
from ledger.rules.errors import Phrase
from ledger.rules.texts import N_

# --- Counting a show ------------------------------------------------------------------------

_ORDER = {rank: i + 1 for i, rank in enumerate(RANKS)}  # ace low: A 1 … K 13


def _value(card: Card) -> int:
    return min(_ORDER[card.rank or "A"], 10)


@dataclass(frozen=True)
class Part:
    """One scoring part of a show: what it is, the cards that make it, and its points."""

    what: str  # fifteen, pair, run, flush, nobs, his_heels
    cards: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "cards": [c.code for c in self.cards], "points": self.points}


def count(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> tuple[Part, ...]:
    """The show of ``hand`` (four cards) with the ``starter``, part by part (RULES.md §17):
    each fifteen, each pair, each way of making the longest runs, the flush, nobs."""
    five = (*hand, starter)
    parts = [
        Part("fifteen", c, 2)
        for n in range(2, 6)
        for c in combinations(five, n)
        if sum(map(_value, c)) == 15
    ]
    parts += [Part("pair", c, 2) for c in combinations(five, 2) if c[0].rank == c[1].rank]
    for length in (5, 4, 3):
        runs = [c for c in combinations(five, length) if _is_run(c)]
        if runs:
            parts += [Part("run", tuple(sorted(c, key=_rank)), length) for c in runs]
            break
    parts += _flush(hand, starter, crib)
    parts += [Part("nobs", (c,), 1) for c in hand if c.rank == "J" and c.suit == starter.suit]
    return tuple(parts)


def _rank(card: Card) -> int:
    return _ORDER[card.rank or "A"]


def _is_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(map(_rank, cards))
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def _flush(hand: Sequence[Card], starter: Card, crib: bool) -> list[Part]:
    """A hand's four of a suit 4, with the starter 5; a crib's only all five (5)."""
    if len({c.suit for c in hand}) != 1:
        return []
    if hand[0].suit == starter.suit:
        return [Part("flush", (*hand, starter), 5)]
    return [] if crib else [Part("flush", tuple(hand), 4)]


def total(parts: Sequence[Part]) -> int:
    return sum(p.points for p in parts)


# How a table says a count: "15-2, 15-4, a pair is 6, nobs is 7", the running total each time.
_RUN_WORDS = {
    1: N_("a run of {length} is {total}"),
    2: N_("a double run of {length} is {total}"),
    3: N_("a triple run of {length} is {total}"),
    4: N_("a double double run of {length} is {total}"),
}
_PAIR_WORDS = {
    1: N_("a pair is {total}"),
    2: N_("two pairs is {total}"),
    3: N_("three of a kind is {total}"),
    4: N_("three of a kind and a pair is {total}"),
    6: N_("four of a kind is {total}"),
}


def spoken(parts: Sequence[Part]) -> Phrase:
    """The count as a table says it, each step with the running total: "15-2, 15-4, a pair
    is 6, nobs is 7"; a hand of nothing is "nineteen" at the table, here "nothing"."""
    steps: list[Phrase] = []
    running = 0
    kinds = [p.what for p in parts]
    for part in parts:
        if part.what == "fifteen":
            running += part.points
            steps.append(Phrase("15-{total}", total=running))
    if "pair" in kinds:
        running += 2 * kinds.count("pair")
        steps.append(Phrase(_PAIR_WORDS[kinds.count("pair")], total=running))
    runs = [p for p in parts if p.what == "run"]
    if runs:
        running += sum(p.points for p in runs)
        steps.append(Phrase(_RUN_WORDS[len(runs)], length=runs[0].points, total=running))
    for part in parts:
        if part.what in ("flush", "nobs", "his_heels"):
            running += part.points
            steps.append(Phrase(_OTHER_WORDS[part.what], total=running))
    return joined(steps) if steps else Phrase("nothing")


_OTHER_WORDS = {
    "flush": N_("a flush is {total}"),
    "nobs": N_("nobs is {total}"),
    "his_heels": N_("his heels is {total}"),
}


def joined(steps: Sequence[Phrase]) -> Phrase:
    """Phrases one after the other, comma between (each translated on its own)."""
    said = steps[-1]
    for step in reversed(steps[:-1]):
        said = Phrase("{first}, {rest}", first=step, rest=said)
    return said
