"""Points games played for money (RULES.md §7): the worked examples and the arithmetic."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.rules import payout, rummy, spin, spots
from ledger.rules.base import State
from ledger.rules.errors import RuleError
from ledger.rules.registry import GAMES
from ledger.rules.settle import settle

ORDER = ("Ann", "Bob", "Cas")
RUMMY = {"Ann": 104, "Bob": 60, "Cas": 35}


def test_rummy_winner_payout_worked_example():
    money = payout.payout(RUMMY, ["Ann"], ORDER, {"stake": 1}, highest_wins=True)

    assert money == {"Ann": 113, "Bob": -44, "Cas": -69}
    transfers = {(t.source, t.target, t.units) for t in settle(money)}
    assert transfers == {("Bob", "Ann", 44), ("Cas", "Ann", 69)}


def test_rummy_everyone_payout_worked_example():
    options = {"stake": 1, "payout": "everyone"}

    money = payout.payout(RUMMY, ["Ann"], ORDER, options, highest_wins=True)

    assert money == {"Ann": 113, "Bob": -19, "Cas": -94}
    # Cas pays Ann 69 and Bob 25, Bob pays Ann 44: the fewest transfers square it in two.
    assert len(settle(money)) == 2


def test_spots_lowest_wins_worked_example():
    scores = {"Enda": 40, "John": 55, "Rex": 90}

    money = payout.payout(
        scores, ["Enda"], ("Enda", "John", "Rex"), {"stake": 2}, highest_wins=False
    )

    assert money == {"Enda": 130, "John": -30, "Rex": -100}


def test_equal_winners_share_and_the_odd_unit_goes_first_in_playing_order():
    scores = {"Ann": 50, "Bob": 50, "Cas": 49}

    money = payout.payout(
        scores, ["Ann", "Bob"], ("Bob", "Cas", "Ann"), {"stake": 1}, highest_wins=True
    )

    assert money == {"Bob": 1, "Ann": 0, "Cas": -1}


def test_no_stake_or_no_winner_means_no_money():
    assert set(payout.payout(RUMMY, ["Ann"], ORDER, {"stake": 0}, highest_wins=True).values()) == {
        0
    }
    assert set(payout.payout(RUMMY, [], ORDER, {"stake": 1}, highest_wins=True).values()) == {0}


@given(
    st.dictionaries(st.sampled_from("ABCDEFG"), st.integers(-500, 500), min_size=2),
    st.integers(1, payout.MAX_STAKE),
    st.sampled_from(["winner", "everyone"]),
    st.booleans(),
)
def test_a_payout_always_adds_up_to_zero_and_nobody_ahead_pays(scores, stake, mode, highest):
    best = (max if highest else min)(scores.values())
    winners = [p for p in scores if scores[p] == best]

    money = payout.payout(
        scores, winners, sorted(scores), {"stake": stake, "payout": mode}, highest_wins=highest
    )

    assert sum(money.values()) == 0
    assert all(money[w] >= 0 for w in winners)
    assert all(isinstance(units, int) for units in money.values())


@pytest.mark.parametrize("game", [spots.GAME, rummy.GAME, spin.GAME])
def test_points_games_declare_the_money_options(game):
    defaults = game.defaults()
    assert (defaults["stake"], defaults["payout"]) == (0, "winner")
    assert (defaults["unit_value"], defaults["currency"]) == ("0.01", "EUR")
    assert game.check_options({"stake": 1000})["stake"] == 1000
    with pytest.raises(RuleError) as refused:
        game.check_options({"stake": 1001})
    assert refused.value.field == "options.stake"


def test_only_points_games_take_a_stake():
    assert "stake" not in GAMES["spot"].options


def test_which_way_each_game_counts():
    assert payout.highest_wins(rummy.GAME, {"scoring": "winner"})
    assert not payout.highest_wins(rummy.GAME, {"scoring": "penalty"})
    assert not payout.highest_wins(spots.GAME, {})
    assert payout.highest_wins(spin.GAME, {})


def test_spin_rummy_alone_has_no_money():
    with pytest.raises(RuleError) as refused:
        payout.check_stake_seats(["Ann"], {"stake": 1})
    assert refused.value.field == "options.stake"
    payout.check_stake_seats(["Ann"], {"stake": 0})


def test_the_money_waits_for_the_end_of_the_game():
    first = State(seats=ORDER, dealer="Cas", scores=dict.fromkeys(ORDER, 0))
    playing = replace(first, scores=RUMMY, hands_played=5)
    options = rummy.GAME.check_options({"stake": 1})

    assert payout.game_payout(rummy.GAME, playing, options, first) is None
    ended = replace(playing, finished=True, winners=("Ann",))
    assert payout.game_payout(rummy.GAME, ended, options, first) == {
        "Ann": 113,
        "Bob": -44,
        "Cas": -69,
    }
    assert payout.game_payout(rummy.GAME, ended, rummy.GAME.defaults(), first) is None
