"""How a night is named for people: its game and its number ("Spot #2", "Hearts #1").

A night gets its number when it starts, among the group's nights of the same game, and keeps
it for life (the number is stored with the night: ledger/models.py). A game the table names
itself (Any game's ``name`` option: "Hearts", "Whist") counts per name: Hearts and Whist are
two games, each with its own #1. Everything that names a night for people (the pages, the
messages, the bank QR's remittance, the workbooks, the CSV files, the file names) calls
``night_name``; the id stays the night's address.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.rules.base import tidy_name

# The longest series key: a game's key (20), a colon and a name of 40 characters casefolded
# (which can make it three times as long).
SERIES_LENGTH = 150


def own_name(options: Mapping[str, Any]) -> str:
    """The name the table gave its game ("Hearts"), tidied; "" when it gave none."""
    name = options.get("name")
    return tidy_name(name) if isinstance(name, str) else ""


def series(game: str, options: Mapping[str, Any]) -> str:
    """Which nights are numbered together: the game's key (``spot``), or for a game named by
    the table its key and the name, whatever its case (``tally:hearts``)."""
    name = own_name(options)
    return f"{game}:{name.casefold()}" if name else game


def game_key(game: str, options: Mapping[str, Any]) -> str:
    """The game as the stats and the workbooks count it (shared/API.md, fourth edition): the
    game's key, or ``tally:Hearts`` for a game named by the table."""
    name = own_name(options)
    return f"{game}:{name}" if name else game


def night_name(game_name: str, own: str, number: int) -> str:
    """A night for people: the table's name for its game (``own_name``), else the game's
    name, and the night's number: "Spot #2", "Hearts #1"."""
    return f"{own or game_name} #{number}"
