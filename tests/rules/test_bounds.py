"""The engine's bounds (API.md "Bounds"): options within their limits, however they are typed,
and no hand that takes a total past what the database and the pages hold."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ledger.rules import rummy, spot
from ledger.rules.base import MAX_TOTAL, HandEntry, ResultEntry
from ledger.rules.errors import RuleError

SEATS = ("Enda", "John")


@pytest.mark.parametrize(
    ("game", "option", "value", "words"),
    [
        (spot.GAME, "ante", 10_001, "at most 10000"),
        (spot.GAME, "ante", "10001", "at most 10000"),
        (spot.GAME, "ante", 10**28, "at most 10000"),
        (spot.GAME, "ante", "9" * 5000, "at most 10000"),
        (spot.GAME, "ante", "-" + "9" * 5000, "at least 0"),
        (spot.GAME, "ante", 1e28, "whole number"),
        (spot.GAME, "ante", 5.0, "whole number"),
        (spot.GAME, "ante", "5.0", "whole number"),
        (spot.GAME, "ante", "²", "whole number"),
        (spot.GAME, "ante", "١٢", "whole number"),
        (spot.GAME, "ante", "--5", "whole number"),
        (spot.GAME, "unit_value", "1000.5", "at most 1000"),
        (rummy.GAME, "target", 100_001, "at most 100000"),
        (rummy.GAME, "target", "9" * 5000, "at most 100000"),
    ],
)
def test_an_option_past_its_bound_is_refused_naming_it(game, option, value, words) -> None:
    with pytest.raises(RuleError) as refused:
        game.check_options({option: value})
    assert refused.value.field == f"options.{option}"
    assert words in refused.value.message


def test_options_at_their_bounds_and_typed_as_text_are_taken() -> None:
    assert spot.GAME.check_options({"ante": " 10000 "})["ante"] == 10_000
    assert spot.GAME.check_options({"ante": "0"})["ante"] == 0
    assert spot.GAME.check_options({"unit_value": "1000"})["unit_value"] == "1000"
    assert rummy.GAME.check_options({"target": 100_000})["target"] == 100_000


def spot_hand(**cards: str) -> HandEntry:
    return HandEntry(results=tuple(ResultEntry(player=p, cards=c) for p, c in cards.items()))


def test_a_hand_that_takes_a_score_past_the_bound_is_refused() -> None:
    options: dict[str, Any] = spot.GAME.check_options({"ante": 10_000})
    state = spot.GAME.new_state(SEATS, "Enda", options)
    state = replace(state, scores={"Enda": MAX_TOTAL - 10, "John": -(MAX_TOTAL - 10)})

    with pytest.raises(RuleError, match="more than the app can keep"):
        spot.GAME.play(state, spot_hand(Enda="2", John="K Q J"), options)


def test_a_hand_within_the_bound_is_played() -> None:
    options: dict[str, Any] = spot.GAME.check_options({"ante": 10_000})
    state = spot.GAME.new_state(SEATS, "Enda", options)
    state = replace(state, scores={"Enda": MAX_TOTAL // 2, "John": -(MAX_TOTAL // 2)})

    outcome = spot.GAME.play(state, spot_hand(Enda="2", John="K Q J"), options)
    assert outcome.number == 1
