"""Every game the app knows, looked up by key: a new game is one new module and one line here.

Each game's description (``Game``) says all a page needs of it, its table's facts included
(``Game.table``, ledger/rules/table.py): pages read those, never a game's key.

``GAMES`` are the games the app offers: the first four, then those of RULES.md §8–§12.
"""

from __future__ import annotations

from ledger.rules import gin, jokeren, kaluki, rummy, rummy500, spin, spot, spots, tally
from ledger.rules.base import Game
from ledger.rules.errors import RuleError

GAMES: dict[str, Game] = {
    g.key: g
    for g in (
        spot.GAME,
        spots.GAME,
        rummy.GAME,
        spin.GAME,
        gin.GAME,
        rummy500.GAME,
        kaluki.GAME,
        jokeren.GAME,
        tally.GAME,
    )
}


def get_game(key: str) -> Game:
    """The game with this key, or a RuleError that lists the games there are."""
    try:
        return GAMES[key]
    except KeyError:
        raise RuleError(
            "There is no game '{key}'. The games are: {games}.",
            field="game",
            key=str(key),
            games=", ".join(GAMES),
        ) from None
