"""Every game the app knows, looked up by key: a new game is one new module and one line here.

Each game's description (``Game``) says all a page needs of it, its table's facts included
(``Game.table``, ledger/rules/table.py): pages read those, never a game's key.

``GAMES`` are the games the app offers. ``NEW_GAMES`` are those of RULES.md §8–§12, complete
in the engine but not offered yet: the pages, the API's fields for their entries (``ending``,
``melded``, ``points``…, Kaluki's buy-in call) and their Dutch texts are still to come. Moving
one into ``GAMES`` offers it everywhere at once (the new-session page, ``GET /games``).
"""

from __future__ import annotations

from ledger.rules import gin, jokeren, kaluki, rummy, rummy500, spin, spot, spots, tally
from ledger.rules.base import Game
from ledger.rules.errors import RuleError

GAMES: dict[str, Game] = {g.key: g for g in (spot.GAME, spots.GAME, rummy.GAME, spin.GAME)}
NEW_GAMES: dict[str, Game] = {
    g.key: g for g in (gin.GAME, rummy500.GAME, kaluki.GAME, jokeren.GAME, tally.GAME)
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


def find_game(key: str) -> Game:
    """The game with this key among those offered and the new ones not offered yet (for the
    engine's own callers and tests); a RuleError as ``get_game`` gives for any other key."""
    if key in NEW_GAMES:
        return NEW_GAMES[key]
    return get_game(key)
