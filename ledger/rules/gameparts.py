"""What a game declares beside its methods (ledger/rules/game.py imports both from here): one
of its options with its bounds, and where a game of a fixed length stands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


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
