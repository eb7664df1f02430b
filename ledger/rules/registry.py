"""Every game the app knows, looked up by key: a new game is one new module and one line here.

Each game (a ``Game``, ledger/rules/game.py) says all a page, a service or the API needs of
it in its attributes and methods, its entry's fields included: they read those, never a
game's key. Everything that lists the games (the new-session page, the API's game list, the
OpenAPI description's check, the tests) reads ``GAMES``, in the order the app offers them.
"""

from __future__ import annotations

from ledger.rules import (
    boerenbridge,
    cribbage,
    gin,
    jokeren,
    kaluki,
    klaverjassen,
    rummy,
    rummy500,
    skat,
    spin,
    spot,
    spots,
    tally,
)
from ledger.rules.errors import RuleError
from ledger.rules.game import Game

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
        boerenbridge.GAME,
        klaverjassen.GAME,
        cribbage.GAME,
        skat.GAME,
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
