"""Hearts (docs/rules.md §17): 26 penalty points a hand, the moon, the lowest at 100 wins."""

from __future__ import annotations

import pytest

from ledger.rules.errors import RuleError
from ledger.rules.registry import get_game

GAME = get_game("hartenjagen")


def hand(**points: int) -> dict:
    return {"results": [{"player": p, "points": n} for p, n in points.items()]}


def test_a_hand_adds_its_penalty_points_and_the_lowest_leads():
    state = GAME.new_state(["Ann", "Bob", "Cas"], "Cas", GAME.check_options({}))
    state = GAME.play(state, GAME.read_entry(hand(Ann=13, Bob=10, Cas=3)), {}).state
    assert state.scores == {"Ann": 13, "Bob": 10, "Cas": 3}
    assert GAME.leaders(state, {}) == ("Cas",)


def test_shooting_the_moon_gives_the_others_26_each():
    state = GAME.new_state(["Ann", "Bob", "Cas"], "Cas", {})
    state = GAME.play(state, GAME.read_entry(hand(Ann=0, Bob=26, Cas=26)), {}).state
    assert state.scores == {"Ann": 0, "Bob": 26, "Cas": 26}


def test_points_that_do_not_add_up_to_26_are_refused_in_words():
    state = GAME.new_state(["Ann", "Bob", "Cas"], "Cas", {})
    with pytest.raises(RuleError, match="add up to 26"):
        GAME.play(state, GAME.read_entry(hand(Ann=13, Bob=10, Cas=4)), {})


def test_the_game_ends_when_a_total_reaches_100_and_the_lowest_wins():
    state = GAME.new_state(["Ann", "Bob", "Cas"], "Cas", {})
    for _ in range(4):
        state = GAME.play(state, GAME.read_entry(hand(Ann=0, Bob=26, Cas=26)), {}).state
    assert state.finished and state.winners == ("Ann",)
