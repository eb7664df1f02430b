"""What the options of the games and their choices are called, for the pages and workbooks.

English, marked with ``N_`` so that ``pybabel extract`` finds them; the pages translate them
where they show them (ledger/words/games.py), the workbooks where they write them
(ledger/export.py). Here, beside the engine, so that both read them without one importing
the other.
"""

from __future__ import annotations

from ledger.rules.game import Option
from ledger.rules.registry import GAMES
from ledger.rules.texts import N_

OPTION_LABELS = {
    "ante": N_("Ante"),
    "unit_value": N_("Worth of one unit"),
    "currency": N_("Currency"),
    "dealer_rotation": N_("The deal passes to the"),
    "tie_remainder": N_("Odd units of a tie go to"),
    "entry": N_("Enter"),
    "leftover_pot": N_("A pot left at the end"),
    "scoring": N_("Scoring"),
    "rummy_bonus": N_("Going rummy"),
    "ace_value": N_("Ace counts"),
    "jokers": N_("Jokers per pack"),
    "packs": N_("Packs"),
    "target": N_("Play to"),
    "stake": N_("Stake: units a point (0: not for money)"),
    "payout": N_("Who is paid"),
    # The games of RULES.md §8–§12.
    "gin_bonus": N_("Gin bonus"),
    "undercut_bonus": N_("Undercut bonus"),
    "box_bonus": N_("Points a box (hand won)"),
    "big_gin": N_("Big gin"),
    "game_bonus": N_("Game bonus"),
    "shutout": N_("A shutout"),
    "kaluki_bonus": N_("Going kaluki"),
    "buy_in": N_("Buy-in (units; off: none)"),
    "call_up": N_("Call-up (units)"),
    "kaluki_pay": N_("Call-up after a kaluki (units)"),
    "joker_value": N_("Joker counts"),
    "cards": N_("Cards each"),
    "hands": N_("Hands in the game (off: none)"),
    "lowest_wins": N_("Lowest total wins"),
    "name": N_("Name of the game"),
}

CHOICE_LABELS = {
    ("dealer_rotation", "right"): N_("right (anticlockwise)"),
    ("dealer_rotation", "left"): N_("left (clockwise)"),
    ("tie_remainder", "pot"): N_("the pot"),
    ("tie_remainder", "first_winner"): N_("the winners, from the dealer's left"),
    ("entry", "cards"): N_("every player's cards"),
    ("entry", "totals"): N_("spot totals (or cards)"),
    ("leftover_pot", "carry"): N_("is carried to the next session"),
    ("leftover_pot", "refund"): N_("is refunded to who paid in"),
    ("scoring", "winner"): N_("the player out scores the others' cards"),
    ("scoring", "penalty"): N_("each adds their own cards (penalty)"),
    ("rummy_bonus", "double"): N_("doubles the hand"),
    ("rummy_bonus", "bonus10"): N_("is worth 10 points more (with penalty points: 10 off)"),
    ("payout", "winner"): N_("the winner, by everyone behind"),
    ("payout", "everyone"): N_("everyone ahead, by everyone behind"),
    ("big_gin", "off"): N_("not played"),
    ("big_gin", "on"): N_("played, 31 points"),
    ("shutout", "double_bonus"): N_("doubles the game bonus"),
    ("shutout", "double_hands"): N_("doubles the winner's hand points"),
    ("shutout", "none"): N_("changes nothing"),
    ("kaluki_bonus", "double"): N_("doubles the others' penalties"),
    ("kaluki_bonus", "none"): N_("changes nothing"),
    ("lowest_wins", "false"): N_("no: the highest wins"),
    ("lowest_wins", "true"): N_("yes (as in Hearts)"),
    # How a hand of Gin Rummy ended (the hand form's first question).
    ("ending", "knock"): N_("Knock"),
    ("ending", "gin"): N_("Gin"),
    ("ending", "big_gin"): N_("Big gin"),
    ("ending", "draw"): N_("Draw (nobody knocked)"),
}


def option_label(name: str, game: str | None = None) -> str | None:
    """What an option is called (in English, marked for translation): ``game``'s own words
    (``Option.label``, as Klaverjassen's hands, which are never off) before the shared ones;
    without a game, the shared words or any game's own; None where none has any."""
    own = _own_option(name, game)
    if own is not None and own.label:
        return own.label
    if name in OPTION_LABELS:
        return OPTION_LABELS[name]
    if game is not None:
        return None
    labels = [g.options[name].label for g in GAMES.values() if name in g.options]
    return next((label for label in labels if label), None)


def choice_label(name: str, value: object, game: str | None = None) -> str | None:
    """What a choice of an option is called: ``game``'s own words before the shared ones
    (without a game, the shared words or any game's own)."""
    return choice_words(name, game).get(str(value))


def choice_words(name: str, game: str | None = None) -> dict[str, str]:
    """The words for the choices of ``name`` by value (as text): ``game``'s own
    (``Option.choice_labels``) over the shared ones; without a game, every game's own under
    the shared ones. What a page shows for a choice and reads back when it is typed."""
    words = {v: label for (o, v), label in CHOICE_LABELS.items() if o == name}
    if game is None:
        for g in GAMES.values():
            if name in g.options:
                words = {**g.options[name].choice_labels, **words}
        return words
    own = _own_option(name, game)
    return {**words, **(own.choice_labels if own is not None else {})}


def _own_option(name: str, game: str | None) -> Option | None:
    found = GAMES.get(game) if game is not None else None
    return found.options.get(name) if found is not None else None


# A Gin Rummy hand's line on the scoreboard, by how it ended ("undercut": a knock the other
# player undercut), for ledger/words/hands.py to fill in from the engine's story.
ENDING_WORDS = {
    "knock": N_("%(name)s knocks %(dead)d v %(against)d"),
    "undercut": N_("%(name)s knocks %(dead)d, %(other)s undercuts with %(against)d"),
    "gin": N_("%(name)s gin v %(against)d"),
    "big_gin": N_("%(name)s big gin v %(against)d"),
}
