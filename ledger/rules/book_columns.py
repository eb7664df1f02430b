"""The columns a game adds to the workbooks' Hands sheets: each one's heading and how its cell
is read from a hand as the API answers it (``Game.workbook_columns``; ledger/export/ draws them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Answer = Mapping[str, Any]


@dataclass(frozen=True)
class HandColumn:
    """A column of a game's own on a Hands sheet. ``heading`` is in English, as the workbooks
    are. A player's column (``per_player``) stands under each player, headed "Ann bid", and
    ``cell(hand, result)`` reads that player's result of the hand; a hand's column stands once,
    before the players, and ``cell(hand, {})`` reads the hand. A cell is a number, a text or
    None (nothing to say)."""

    heading: str
    cell: Callable[[Answer, Answer], Any]
    per_player: bool = True


def result_field(heading: str, key: str) -> HandColumn:
    """A player's column holding a field of their result as the API answers it."""
    return HandColumn(heading, lambda _hand, result: result.get(key))


def hand_field(heading: str, key: str) -> HandColumn:
    """A hand's column holding a field of the hand as the API answers it."""
    return HandColumn(heading, lambda hand, _result: hand.get(key), per_player=False)


def yes_no(value: Any) -> str | None:
    """A flag as the workbooks write one ("yes", "no"; nothing where it is not known)."""
    return None if value is None else ("yes" if value else "no")
