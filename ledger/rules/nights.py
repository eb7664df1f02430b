"""How a night is named for people: its game and its number ("Spot #2", "Hearts #1").

A night gets its number when it starts, among the group's nights of the same game, and keeps
it for life (the number is stored with the night: ledger/models.py). A game the table names
itself (Any game's ``name`` option: "Hearts", "Whist") counts per name: Hearts and Whist are
two games, each with its own #1. Everything that names a night for people (the pages, the
messages, the bank QR's remittance, the workbooks, the CSV files, the file names) calls
``night_name``; the id stays the night's address.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger.rules.base import tidy_name
from ledger.rules.errors import Phrase, as_written

Translate = Callable[[str], str]

# The longest series key: a game's key (20), a colon and a name of 40 characters casefolded
# (which can make it three times as long).
SERIES_LENGTH = 150


# The option a game the table names itself keeps its name in (Any game's: RULES.md §12).
NAME_OPTION = "name"


def own_name(options: Mapping[str, Any]) -> str:
    """The name the table gave its game ("Hearts"), tidied; "" when it gave none."""
    name = options.get(NAME_OPTION)
    return tidy_name(name) if isinstance(name, str) else ""


def series(game: str, options: Mapping[str, Any]) -> str:
    """Which nights are numbered together: the game's key (``spot``), or for a game named by
    the table its key and the name, whatever its case (``tally:hearts``)."""
    name = own_name(options)
    return f"{game}:{name.casefold()}" if name else game


def game_key(game: str, options: Mapping[str, Any]) -> str:
    """The game as the stats and the workbooks count it (shared/API.md, fourth edition): the
    game's key, or ``tally:Hearts`` for a game named by the table. Hearts and Whist are two
    games, never added together."""
    name = own_name(options)
    return f"{game}:{name}" if name else game


# How a night is named: the game and the number ("Spot #2"). The same in every language; the
# game's name is translated where the night is named on a page (``night_phrase``).
NIGHT = "{game} #{number}"


def night_phrase(game_name: str, own: str, number: int) -> Phrase:
    """A night for people, as a phrase for a message: the table's name for its game
    (``own_name``) as it is, else the game's name (translated on a page), and the number."""
    return Phrase(NIGHT, game=own or Phrase(game_name), number=number)


def night_name(game_name: str, own: str, number: int, translate: Translate = as_written) -> str:
    """A night for people: "Spot #2", "Hearts #1" (in English unless ``translate`` is a
    page's gettext). Everything that names a night calls this."""
    return night_phrase(game_name, own, number).render(translate)
