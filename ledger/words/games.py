"""The page's words about games: option labels, choices, "hand" or "round", engine texts shown.

The engine (ledger/rules) speaks English and knows nothing of Flask-Babel; it marks its own
texts with ``N_`` where it writes them (ledger/rules/texts.py), so ``gettext(game.description)``
finds the Dutch. The words here are the page's own, marked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import get_translations, gettext

from ledger.rules import GAMES, N_, labels
from ledger.rules.labels import CHOICE_LABELS, OPTION_LABELS  # noqa: F401 (the tests')

# A game whose table calls its hands rounds (``Game.rounds``: Spin Rummy deals one hand per
# contract round) has pages that say "round" wherever the others' say "hand".
# (key: (the hand's text, the round's))
HAND_TEXTS = {
    "number": (N_("Hand %(number)d"), N_("Round %(number)d")),
    "saved": (N_("Hand %(number)d saved."), N_("Round %(number)d saved.")),
    "enter": (N_("Enter hand"), N_("Enter round")),
    "save": (N_("Save hand"), N_("Save round")),
    "correct": (N_("Correct hand %(number)d"), N_("Correct round %(number)d")),
    "correct_this": (N_("Correct this hand"), N_("Correct this round")),
    "corrected": (N_("Hand %(number)d is corrected."), N_("Round %(number)d is corrected.")),
    "this": (N_("This hand"), N_("This round")),
    "last": (N_("Last hands"), N_("Last rounds")),
    "all": (N_("All hands"), N_("All rounds")),
    "none": (N_("No hands yet."), N_("No rounds yet.")),
    "none_first": (
        N_("No hands yet. The first one: tap “Enter hand”."),
        N_("No rounds yet. The first one: tap “Enter round”."),
    ),
    "undo": (N_("Undo hand %(number)d"), N_("Undo round %(number)d")),
    "undo_ask": (N_("Undo hand %(number)d?"), N_("Undo round %(number)d?")),
    "undone": (N_("Hand %(number)d is undone."), N_("Round %(number)d is undone.")),
    "chart": (N_("Running scores after each hand"), N_("Running scores after each round")),
    "end_ask": (
        N_("End the game here? No more hands can be added."),
        N_("End the game here? No more rounds can be added."),
    ),
    "mistake": (
        N_("Something in this hand does not add up: see the marked player."),
        N_("Something in this round does not add up: see the marked player."),
    ),
    "mistakes": (
        N_("%(count)d things in this hand do not add up: each is marked below."),
        N_("%(count)d things in this round do not add up: each is marked below."),
    ),
    "no_more": (
        N_("The game is over: no more hands can be added."),
        N_("The game is over: no more rounds can be added."),
    ),
    # A save refused because another phone changed the session after the form was loaded.
    "entered_elsewhere": (
        N_(
            "Hand %(number)d was entered on another phone while you were typing. If yours is "
            "the same hand, drop it; if it is the next one, save it as hand %(next)d."
        ),
        N_(
            "Round %(number)d was entered on another phone while you were typing. If yours is "
            "the same round, drop it; if it is the next one, save it as round %(next)d."
        ),
    ),
    "as_saved": (N_("Hand %(number)d as saved"), N_("Round %(number)d as saved")),
    "save_mine": (N_("Save mine as hand %(number)d"), N_("Save mine as round %(number)d")),
    "changed_elsewhere": (
        N_(
            "The session changed on another phone while you were typing (a hand undone or "
            "corrected, or someone joining or leaving). Check the scoreboard: if this is still "
            "the next hand, save it again."
        ),
        N_(
            "The session changed on another phone while you were typing (a round undone or "
            "corrected, or someone joining or leaving). Check the scoreboard: if this is still "
            "the next round, save it again."
        ),
    ),
    "changed_while_correcting": (
        N_(
            "The session changed on another phone while you were correcting hand %(number)d. "
            "What you typed is kept: saving again applies your correction to hand %(number)d "
            "as it is now."
        ),
        N_(
            "The session changed on another phone while you were correcting round %(number)d. "
            "What you typed is kept: saving again applies your correction to round %(number)d "
            "as it is now."
        ),
    ),
    "corrected_elsewhere": (
        N_(
            "Hand %(number)d was corrected on another phone while you were correcting it. "
            "What you typed is kept: saving again puts your correction in place of that one."
        ),
        N_(
            "Round %(number)d was corrected on another phone while you were correcting it. "
            "What you typed is kept: saving again puts your correction in place of that one."
        ),
    ),
    "see_now": (N_("See hand %(number)d as it is now"), N_("See round %(number)d as it is now")),
}


# Where a night of points play is ended at the table, said to be over or opened again: "the
# game", or "the night" where the night is a run of games (``Game.night_of_games``: Cribbage,
# whose games end by themselves, one after another). (key: (a game's text, a night of games'))
SESSION_TEXTS = {
    "end": (N_("End the game here"), N_("End the night here")),
    "over": (N_("The game is over."), N_("The night is over.")),
    "reopen": (N_("Open the game again"), N_("Open the night again")),
    "ended": (N_("The game was ended at the table."), N_("The night was ended at the table.")),
    "changed": (
        N_(
            "The scores changed on another phone since this page was loaded, so the game is "
            "not ended. Look at them, then end it again if you mean to."
        ),
        N_(
            "The scores changed on another phone since this page was loaded, so the night is "
            "not ended. Look at them, then end it again if you mean to."
        ),
    ),
}
# HAND_TEXTS's words that end "the game", as a night of games says them.
NIGHT_HAND_TEXTS = {
    "end_ask": N_("End the night here? No more hands can be added."),
    "no_more": N_("The night is over: no more hands can be added."),
}


def session_text(game_key: str, key: str) -> str:
    """The page's words for ending ``key`` in this game: "End the game here" or, where the
    night is a run of games (Cribbage), "End the night here"."""
    one, run = SESSION_TEXTS[key]
    return gettext(run if _night_of_games(game_key) else one)


def _night_of_games(game_key: str) -> bool:
    game = GAMES.get(game_key)
    return game is not None and game.night_of_games


def is_round_game(game_key: str) -> bool:
    """Whether the game's pages call a hand a round (Spin Rummy)."""
    game = GAMES.get(game_key)
    return game is not None and game.rounds


def played_text(game_key: str, played: int, of: int) -> str:
    """How far a night of a fixed length is, in the game's own word: "3 of 36 hands played",
    or where its list counts deals (Skat) "3 of 36 deals played" (German: "Spielen"). The
    plural follows the night's length (``of``), as Flask-Babel's ``num`` cannot."""
    game = GAMES.get(game_key)
    if game is not None and game.counts_deals:
        said = get_translations().ngettext(
            "%(num)d of %(of)d deal played", "%(num)d of %(of)d deals played", of
        )
    else:
        said = get_translations().ngettext(
            "%(num)d of %(of)d hand played", "%(num)d of %(of)d hands played", of
        )
    return said % {"num": played, "of": of}


def hand_words(game_key: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """What a hand's words need to know of its game and options (summary.hand_summary's
    ``rounds``, ``rummy``, ``penalty`` and ``says_out``): the engine's answers."""
    game = GAMES.get(game_key)
    if game is None:
        return {}
    return dict(
        own=game.hand_phrases,
        rounds=game.rounds,
        rummy=game.went_rummy(options),
        penalty=game.penalty_points(options),
        says_out=game.says_out(),
    )


def hand_text(game_key: str, key: str, **variables: Any) -> str:
    """The page's words for ``key`` in this game: "Hand 2 saved." or, in Spin, "Round 2 saved."."""
    if key in NIGHT_HAND_TEXTS and _night_of_games(game_key):
        return gettext(NIGHT_HAND_TEXTS[key], **variables)
    hand, round_ = HAND_TEXTS[key]
    return gettext(round_ if is_round_game(game_key) else hand, **variables)


def text(message: str | None) -> str:
    """The engine's ``message`` in the page's language (as it is, when there is no entry)."""
    return gettext(message) if message else ""


def option_label(name: str, game: str | None = None) -> str:
    """What the option ``name`` is called on this page (``game``'s own words first)."""
    label = labels.option_label(name, game)
    return gettext(label) if label else name.replace("_", " ").capitalize()


def choice_label(name: str, value: Any, game: str | None = None) -> str:
    """What a choice of the option ``name`` is called on this page (``game``'s own first)."""
    label = labels.choice_label(name, value, game)
    return gettext(label) if label else str(value)


def typed_choice(name: str, typed: str, game: str | None = None) -> str:
    """What the engine takes for a word typed in the page's language for a choice of the
    option ``name``, the shared ones' or ``game``'s own ("twee keer": twice)."""
    words = {gettext(label).lower(): v for v, label in labels.choice_words(name, game).items()}
    return words.get(typed.strip().lower(), typed)
