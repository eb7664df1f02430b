"""What a game declares beside its methods (ledger/rules/game.py imports them from here): one
of its options with its bounds, where a game of a fixed length stands, and a hand typed so far
with what it comes to before it is saved."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.rules.errors import Phrase


@dataclass(frozen=True)
class Option:
    """One game option: its default and what it may be (RULES.md marks these *option*)."""

    default: Any
    choices: tuple[Any, ...] | None = None  # allowed values, or None for a range/free value
    minimum: int | None = None  # for whole-number options
    maximum: int | None = None
    help: str = ""
    # For free-form values (a currency, a unit value): returns the clean value or raises RuleError.
    parse: Callable[[Any], Any] | None = None
    # What the pages and workbooks call a game's own option and its choices (by value as
    # text), where ledger/rules/labels.py has no words for them (the options games share).
    label: str = ""
    choice_labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    """Where a game with a fixed length stands, for "Round 2 · hand 3 of 4"."""

    round: int
    hand: int  # the hand within the round, 1-based, of the next hand to be entered
    hands_in_round: int
    rounds: int
    contract: str | None = None  # Spin Rummy: the round's contract in words


@dataclass(frozen=True)
class Typed:
    """A hand as typed so far on a page, before it is saved: its boxes by the names the page
    gives them (cards in ``language``'s letters), and the entry they read as (None where the
    form did not read: its mistakes are shown instead)."""

    boxes: Mapping[str, str]
    language: str = "en"
    entry: Any = None


@dataclass(frozen=True)
class Preview:
    """What a hand typed so far comes to before it is saved (``Game.preview``): sentences about
    the whole hand (Skat's value, verdict and reason), and by box its points and their words
    (Cribbage's shows counted in parts). Empty: nothing to show yet."""

    said: tuple[Phrase, ...] = ()
    boxes: Mapping[str, tuple[int, Phrase]] = field(default_factory=dict)
