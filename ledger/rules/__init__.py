"""The card engine: parsing, deck checks, one module per game, settle-up. Pure Python.

What the pages and the API may use of it is named here: the engine's public types and
functions, and the registry's game descriptions. Everything else in this package is the
engine's own business.
"""

from ledger.rules.base import HandEntry, Movement, PlayerResult, ResultEntry, has_name, tidy_name
from ledger.rules.cards import (
    CARD_LANGUAGES,
    DUTCH_SUITS,
    SUIT_SYMBOLS,
    card_label,
    card_letters,
    cards_as_typed,
    rank_letter,
)
from ledger.rules.entries import ShapeError
from ledger.rules.errors import Phrase, RuleError
from ledger.rules.game import Game
from ledger.rules.gin import Story as EndingStory
from ledger.rules.gin import story as ending_story
from ledger.rules.money import amount, coin, minor_units
from ledger.rules.registry import GAMES, get_game
from ledger.rules.table import EntryForm, PotStory, RummyReward, pot_story
from ledger.rules.texts import N_

__all__ = [
    "CARD_LANGUAGES",
    "DUTCH_SUITS",
    "GAMES",
    "SUIT_SYMBOLS",
    "EndingStory",
    "EntryForm",
    "Game",
    "HandEntry",
    "Movement",
    "N_",
    "Phrase",
    "PlayerResult",
    "PotStory",
    "ResultEntry",
    "RummyReward",
    "RuleError",
    "ShapeError",
    "amount",
    "card_label",
    "card_letters",
    "cards_as_typed",
    "coin",
    "ending_story",
    "get_game",
    "has_name",
    "minor_units",
    "pot_story",
    "rank_letter",
    "tidy_name",
]
