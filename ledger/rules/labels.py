"""What the options of the games and their choices are called, for the pages and workbooks.

English, marked with ``N_`` so that ``pybabel extract`` finds them; the pages translate them
where they show them (ledger/web/texts.py), the workbooks where they write them
(ledger/export.py). Here, beside the engine, so that both read them without one importing
the other.
"""

from __future__ import annotations

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
}
