"""A club evening's fields as typed (API.md fifth edition, "Evenings"; RULES.md §19), checked."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ledger.rules.base import tidy_name
from ledger.rules.errors import Phrase, RuleError
from ledger.rules.evening import Money
from ledger.rules.game import Game
from ledger.rules.league import DEFAULT_PRIZES, PLACES, POINTS, SCORINGS
from ledger.rules.names import code_point, hidden_character
from ledger.rules.season_options import MOST_FEE, money_option, whole_option

NAME_LENGTH = 60
MOST_ROUNDS = 6


@dataclass(frozen=True)
class EveningFields:
    """An evening as it will be kept: its name, game and the game's options, rounds, money."""

    name: str
    game: str
    options: Mapping[str, Any]
    rounds: int = 2
    entry_fee: int = 0
    unit_value: Decimal = Decimal("0.01")
    currency: str = "EUR"
    prizes: tuple[int, ...] = DEFAULT_PRIZES
    booby: int = 0
    lost_game_fee: int = 0
    scoring: str = PLACES

    def money(self) -> dict[str, Any]:
        """The list's and the money's options as stored and answered (the unit value as
        text)."""
        return {
            "scoring": self.scoring,
            "entry_fee": self.entry_fee,
            "unit_value": str(self.unit_value),
            "currency": self.currency,
            "prizes": list(self.prizes),
            "booby": self.booby,
            "lost_game_fee": self.lost_game_fee,
        }


def money_of(stored: Mapping[str, Any]) -> Money:
    """The stored money options as the list's arithmetic reads them."""
    return Money(
        entry_fee=int(stored.get("entry_fee", 0)),
        prizes=tuple(int(p) for p in stored.get("prizes", DEFAULT_PRIZES)),
        booby=int(stored.get("booby", 0)),
        lost_game_fee=int(stored.get("lost_game_fee", 0)),
    )


def evening_fields(body: Mapping[str, Any], games: Mapping[str, Game]) -> EveningFields:
    """The evening ``body`` gives, refused with a sentence naming the field."""
    given_name = body.get("name")
    name = tidy_name(given_name) if isinstance(given_name, str) else ""
    if not name:
        raise RuleError("An evening needs a name.", field="name")
    # As a player's name is checked (services/groups.py): an emoji sequence joined by
    # zero-width joiners ("👨‍👩‍👧") stays whole, a character that hides or turns text is refused.
    if len(name) > NAME_LENGTH or any(_control(c) for c in name):
        raise RuleError(
            "An evening's name is at most {most} characters, without control characters.",
            field="name",
            most=NAME_LENGTH,
        )
    hidden = hidden_character(name)
    if hidden is not None:
        raise RuleError(
            "A name cannot hold {character}, a character that shows nothing or turns the text "
            "around it: one name could pass for another.",
            field="name",
            character=code_point(hidden),
        )
    key = body.get("game")
    if not isinstance(key, str) or key not in games:
        raise RuleError(
            "There is no game '{key}'. The games are: {games}.",
            field="game",
            key=str(key)[:40],
            games=", ".join(games),
        )
    game = games[key]
    given = body.get("options")
    given = {} if given is None or given == "" else given  # "" from a form's empty field
    if not isinstance(given, Mapping):
        raise RuleError("The options are a JSON object of option names.", field="options")
    options = game.check_options(given)
    rounds = body.get("rounds", 2)
    fields: dict[str, Any] = {
        "rounds": whole_option("rounds", 2 if rounds is None else rounds, 1, MOST_ROUNDS)
    }
    for option in ("entry_fee", "unit_value", "currency", "prizes", "booby"):
        if body.get(option) is not None:
            fields[option] = money_option(option, body[option])
    if body.get("lost_game_fee") is not None:
        fields["lost_game_fee"] = whole_option("lost_game_fee", body["lost_game_fee"], 0, MOST_FEE)
    fields["scoring"] = _scoring(body.get("scoring"), game)
    return EveningFields(name=name, game=game.key, options=options, **fields)


def _control(ch: str) -> bool:
    """A control character or half a surrogate pair (spaces are tidied before)."""
    return unicodedata.category(ch) in ("Cc", "Cs")


def _scoring(value: Any, game: Game) -> str:
    """How a table's night counts on the list (RULES.md §19): Skat's list points and
    Klaverjassen's team points by default (``Game.evening_scoring``), other games by places,
    or as §13 says."""
    if value is None or value == "":
        return game.evening_scoring
    if value not in SCORINGS:
        raise RuleError(
            "An evening's list counts places, winnings or points, not '{value}'.",
            field="scoring",
            value=str(value)[:40],
        )
    if value == POINTS and game.money:
        raise RuleError(
            "{game} has no points to count: use places or winnings.",
            field="scoring",
            game=Phrase(game.name),
        )
    return str(value)
