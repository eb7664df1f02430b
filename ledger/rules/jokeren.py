"""Jokeren (RULES.md §11): Dutch rummy in penalty points, Rummy (§4) with an option set.

Two packs with two jokers each (108 cards), 13 cards each, penalties as kaartspellen.info counts
them (joker 25, ace 11, K Q J 10, 2–10 face value), the lowest total wins after each player has
dealt twice. The Rummy engine scores it (``rummy.play_variant``); this module only fixes the
preset and names the options a table may still change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ledger.rules import payout, rummy
from ledger.rules.base import HandEntry, HandOutcome, State
from ledger.rules.game import Game, Option, Progress
from ledger.rules.lengths import optional_whole
from ledger.rules.table import RummyReward
from ledger.rules.texts import N_

# What makes Rummy Jokeren and a table cannot change (RULES.md §11): penalty scoring, two
# packs with two jokers each, 13 cards each.
PRESET: Mapping[str, Any] = {"scoring": "penalty", "packs": 2, "jokers": 2, "cards": 13}


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One hand of Jokeren: Rummy's with the preset over the session's options."""
    return rummy.play_variant(GAME, state, entry, {**options, **PRESET})


def with_preset(options: Mapping[str, Any]) -> dict[str, Any]:
    """The session's options with their defaults and the preset: all the Rummy engine reads."""
    return {**rummy.DEAL_DEFAULTS, **GAME.defaults(), **options, **PRESET}


def progress(state: State, options: Mapping[str, Any]) -> Progress | None:
    """Hands played of ``hands``: "round 2 · hand 1 of 4" (a round is one deal each)."""
    return rummy.progress(state, with_preset(options))


def leaders(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The lowest total leads; equal lowest share the lead (RULES.md §11, as §3)."""
    return rummy.leaders(state, with_preset(options))


def reward(options: Mapping[str, Any]) -> RummyReward:
    """What going out in one turn is worth: the others' penalties doubled (§4's default)."""
    return rummy.rummy_reward(with_preset(options))


_RUMMY = rummy.GAME.options


class Jokeren(Game):
    key = "jokeren"
    name = N_("Jokeren")
    description = N_(
        "Dutch rummy with two packs and four jokers: the cards left in hand are penalty "
        "points, and the lowest total after each player has dealt twice wins."
    )
    min_players = 2
    max_players = 6
    money = False
    options = {
        "rummy_bonus": _RUMMY["rummy_bonus"],
        "ace_value": replace(_RUMMY["ace_value"], default=11),
        "joker_value": Option(25, choices=(15, 25), help=N_("What a joker left in hand is worth.")),
        "hands": Option(
            rummy.TWICE_ROUND,
            parse=optional_whole("hands", 1, rummy.MAX_HANDS, words=(rummy.TWICE_ROUND,)),
            help=N_(
                "The game ends after this many hands; twice: each player deals twice; "
                "off: play to the target."
            ),
            # The word typed for it, in the page's language on the page ("twee keer").
            choice_labels={rummy.TWICE_ROUND: N_("twice")},
        ),
        "target": Option(
            None,
            parse=optional_whole("target", 1, rummy.MAX_TARGET),
            help=N_("The game ends when a score reaches this; off: no target."),
        ),
        "entry": _RUMMY["entry"],
        **payout.OPTIONS,  # RULES.md §7: played for money
    }
    open_seating = True
    nobody_out = False
    rummy = True
    target_option = "target"
    preset = PRESET

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        return progress(state, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return leaders(state, options)

    def rummy_reward(self, options: Mapping[str, Any]) -> RummyReward | None:
        return reward(options)

    def penalties(self, options: Mapping[str, Any]) -> bool:
        return rummy.penalty_scoring(options)


GAME = Jokeren()
