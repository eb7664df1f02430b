"""Rummy 500 as RULES.md §9 reads it: melded points less the cards in hand, to 500."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import rummy500
from ledger.rules.base import HandEntry, HandOutcome, State
from ledger.rules.cards import RANKS, SUITS
from ledger.rules.codecs import outcome_to_dict
from ledger.rules.errors import RuleError
from ledger.rules.payout import game_payout
from ledger.rules.rummy500 import Rummy500Result

GAME = rummy500.GAME


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(players: str = "Ann Bob Cas", dealer: str = "Cas", **given: Any) -> State:
    return GAME.new_state(players.split(), dealer, options(**given))


def r(player: str, melded: Any = None, hand: Any = None, low: int | None = None) -> Rummy500Result:
    """A result: ``melded`` cards (text) or points (int); ``hand`` cards (text) or a total."""
    return Rummy500Result(
        player,
        cards=hand if isinstance(hand, str) else None,
        spots=hand if isinstance(hand, int) else None,
        melded=melded if isinstance(melded, str) else None,
        melded_points=melded if isinstance(melded, int) else None,
        low_aces=low,
    )


def play(state: State, out: str | None, *results: Rummy500Result, **given: Any) -> HandOutcome:
    return GAME.play(state, HandEntry(results, out=out), options(**given))


def problems(
    state: State, out: str | None, *results: Rummy500Result, **given: Any
) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(state, out, *results, **given)
    return [(p.field, p.message) for p in caught.value.problems]


def by_player(outcome: HandOutcome) -> dict[str, tuple[int | None, int | None, int | None]]:
    """Each player's melded points, in-hand points and net."""
    return {x.player: (x.melded, x.spots, x.points) for x in outcome.results}


HAND_1 = (
    r("Ann", "7H 7S 7D AH 2H 3H KC KD KS", "", low=1),
    r("Bob", "QH QS QC 9C 10C JC", "AS 5D"),
    r("Cas", "", "JK 8C 8H 4S"),
)


# --- The game and its options ------------------------------------------------------------------


def test_rummy_500_is_a_points_game_for_two_to_eight_to_500() -> None:
    assert (GAME.key, GAME.name, GAME.money) == ("rummy500", "Rummy 500", False)
    assert (GAME.min_players, GAME.max_players) == (2, 8)
    assert GAME.defaults() == {
        "target": 500,
        "jokers": 2,
        "entry": "cards",
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }
    with pytest.raises(RuleError) as caught:
        start("A B C D E F G H I", dealer="A")
    assert caught.value.message == "Rummy 500 is played by 2 to 8 players, not 9."


def test_the_hand_form_counts_aces_and_jokers_at_15() -> None:
    form = GAME.entry_form(options(), 3)
    assert (form.values["A"], form.values["JK"], form.values["K"]) == (15, 15, 10)
    assert form.nobody_out and not form.rummy
    assert "JK" not in GAME.entry_form(options(jokers=0), 3).ranks


def test_one_pack_to_four_players_and_two_from_five() -> None:
    assert [rummy500.packs(n) for n in range(2, 9)] == [1, 1, 1, 2, 2, 2, 2]
    assert rummy500.deck_worth(4, options()) == 426
    assert rummy500.deck_worth(4, options(jokers=0)) == 396
    assert rummy500.deck_worth(5, options()) == 852
    five = start("A B C D E", dealer="E")
    outcome = play(five, "A", r("A", "7H 7H 7S", ""), r("B", 0, "2C"), r("C", 0, "2C"),
                   r("D", 0, "3C"), r("E", 0, "4C"))  # fmt: skip
    assert outcome.state.scores == {"A": 21, "B": -2, "C": -2, "D": -3, "E": -4}


# --- The worked example --------------------------------------------------------------------------


def test_worked_example_hand_1() -> None:
    """§9: Ann +57 (21 + 6 + 30, one low ace), Bob 59 − 20 = +39, Cas 0 − 35 = −35."""
    outcome = play(start(), "Ann", *HAND_1)
    assert by_player(outcome) == {"Ann": (57, 0, 57), "Bob": (59, 20, 39), "Cas": (0, 35, -35)}
    assert outcome.state.scores == {"Ann": 57, "Bob": 39, "Cas": -35}
    assert outcome.out == "Ann" and outcome.winners == ("Ann",)
    stored = outcome_to_dict(outcome)["results"]
    assert [(x["melded"], x["spots"], x["points"]) for x in stored] == [
        (57, 0, 57), (59, 20, 39), (0, 35, -35),
    ]  # fmt: skip
    assert stored[0]["melded_cards"][:3] == ["7H", "7S", "7D"]


def test_worked_example_hand_10_nobody_out_bob_wins_over_ann_past_500() -> None:
    """§9: before hand 10 Ann 462, Bob 418, Cas 301; the stock runs out: Ann 61 − 20 (503),
    Bob 110 − 15 (513), Cas 18 − 30 (289). Bob wins; stake 1: Ann pays 10, Cas 224."""
    given = {"entry": "totals", "stake": 1}
    first = start(**given)
    before = replace(first, scores={"Ann": 462, "Bob": 418, "Cas": 301}, hands_played=9)
    outcome = play(before, None, r("Ann", 61, 20), r("Bob", 110, 15), r("Cas", 18, 30), **given)
    assert by_player(outcome) == {
        "Ann": (61, 20, 41),
        "Bob": (110, 15, 95),
        "Cas": (18, 30, -12),
    }
    after = outcome.state
    assert after.scores == {"Ann": 503, "Bob": 513, "Cas": 289}
    assert (after.finished, after.winners) == (True, ("Bob",))
    assert outcome.out is None and outcome.winners == ()
    assert game_payout(GAME, after, options(**given), first) == {
        "Ann": -10,
        "Bob": 234,
        "Cas": -224,
    }


def test_equal_highest_totals_share_the_win() -> None:
    state = replace(start(), scores={"Ann": 480, "Bob": 470, "Cas": 0})
    outcome = play(state, "Bob", r("Ann", "5H 5S 5D", "5C"), r("Bob", "10H 10S 10D", ""),
                   r("Cas", 0, "2C"))  # fmt: skip
    assert outcome.state.scores == {"Ann": 490, "Bob": 500, "Cas": -2}
    assert outcome.state.winners == ("Bob",)
    state = replace(start(), scores={"Ann": 490, "Bob": 470, "Cas": 0})
    outcome = play(state, "Bob", r("Ann", "5H 5S 5D", "5C"), r("Bob", "10H 10S 10D", ""),
                   r("Cas", 0, "2C"))  # fmt: skip
    assert outcome.state.scores == {"Ann": 500, "Bob": 500, "Cas": -2}
    assert outcome.state.winners == ("Ann", "Bob")


def test_a_total_may_go_below_zero_and_the_game_goes_on_under_500() -> None:
    outcome = play(start(), "Bob", r("Ann", 0, "KH QH"), r("Bob", "2S 3S 4S", ""),
                   r("Cas", 0, "AC"))  # fmt: skip
    assert outcome.state.scores == {"Ann": -20, "Bob": 9, "Cas": -15}
    assert not outcome.state.finished


def test_the_entry_is_stored_and_read_back_with_its_melded_fields() -> None:
    entry = HandEntry(HAND_1, out="Ann")
    stored = GAME.entry_to_dict(entry)
    assert stored["results"][0] == {
        "player": "Ann",
        "cards": "",
        "melded": "7H 7S 7D AH 2H 3H KC KD KS",
        "low_aces": 1,
    }
    assert GAME.entry_from_dict(stored) == entry


# --- Refusals ------------------------------------------------------------------------------------


def test_say_who_went_out_or_that_nobody_did() -> None:
    state = replace(start(), hands_played=2)
    assert problems(
        state, None, r("Ann", "7H 7S 7D", ""), r("Bob", 0, "2C"), r("Cas", 0, "3C")
    ) == [("out", "Say who went out in hand 3, or that nobody did.")]


def test_the_player_out_has_nothing_left_in_hand() -> None:
    assert problems(
        start(), "Ann", r("Ann", "7H 7S 7D", "4C"), r("Bob", 0, "2C"), r("Cas", 0, "3C")
    ) == [  # fmt: skip
        ("results[0].cards", "Ann went out, so has no cards left in hand: remove 4C.")
    ]
    totals = {"entry": "totals"}
    assert problems(
        start(**totals), "Ann", r("Ann", 21, 4), r("Bob", 0, 2), r("Cas", 0, 3), **totals
    ) == [  # fmt: skip
        ("results[0].spots", "Ann went out, so their in-hand total is 0.")
    ]


def test_a_player_who_did_not_go_out_has_cards_in_hand() -> None:
    assert problems(
        start(), "Ann", r("Ann", "7H 7S 7D", ""), r("Bob", 0, ""), r("Cas", 0, "3C")
    ) == [  # fmt: skip
        ("results[1].cards", "Bob did not go out, so has cards left in hand: enter them.")
    ]


def test_the_player_out_melded_something() -> None:
    assert problems(start(), "Ann", r("Ann", 0, ""), r("Bob", 0, "2C"), r("Cas", 0, "3C")) == [
        (
            "results[0].melded_points",
            "Ann went out, so they melded something: enter their melded points.",
        )
    ]


def test_the_player_out_who_gives_nothing_is_asked_for_their_melded_points() -> None:
    entry = HandEntry((Rummy500Result("Bob", melded_points=0, cards="2C"),
                       Rummy500Result("Cas", melded_points=0, cards="3C")), out="Ann")  # fmt: skip
    with pytest.raises(RuleError) as caught:
        GAME.play(start(), entry, options())
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("results", "Ann went out, so they melded something: enter their melded points.")
    ]


def test_melded_points_must_be_given_even_when_none() -> None:
    assert problems(
        start(), "Ann", r("Ann", "7H 7S 7D", ""), r("Bob", 0, "2C"), r("Cas", None, "3C")
    ) == [  # fmt: skip
        ("results[2].melded", "Cas's melded points are missing: enter 0 if they melded nothing.")
    ]


def test_low_aces_are_counted_only_where_the_melded_cards_hold_them() -> None:
    assert problems(
        start(), "Ann", r("Ann", "AH 2H 3H", "", low=2), r("Bob", 0, "2C"), r("Cas", 0, "3C")
    ) == [  # fmt: skip
        ("results[0].low_aces", "Ann's low aces are 2, but their melded cards hold 1 ace.")
    ]
    assert problems(
        start(), "Ann", r("Ann", 21, "", low=1), r("Bob", 0, "2C"), r("Cas", 0, "3C")
    ) == [  # fmt: skip
        (
            "results[0].low_aces",
            "Ann's low aces go with melded cards: a melded total already counts them.",
        )
    ]
    high = play(start(), "Ann", r("Ann", "QH KH AH", ""), r("Bob", 0, "2C"), r("Cas", 0, "3C"))
    assert by_player(high)["Ann"] == (35, 0, 35)


def test_melded_points_are_at_most_what_the_deck_is_worth() -> None:
    assert problems(start(), "Ann", r("Ann", 430, ""), r("Bob", 0, "2C"), r("Cas", 0, "3C")) == [
        ("results[0].melded_points", "Ann's melded points cannot be 430: the deck is worth 426.")
    ]
    assert play(start(), "Ann", r("Ann", 426, ""), r("Bob", 0, "2C"), r("Cas", 0, "3C"))


def test_an_in_hand_total_is_at_least_a_two() -> None:
    totals = {"entry": "totals"}
    assert problems(
        start(**totals), "Ann", r("Ann", 21, 0), r("Bob", 0, 1), r("Cas", 0, 3), **totals
    ) == [  # fmt: skip
        ("results[1].spots", "Bob's in-hand total cannot be 1: the cheapest card is a two.")
    ]


def test_the_deck_check_covers_melded_and_in_hand_cards_together() -> None:
    found = problems(start(), "Ann", r("Ann", "JK JK 7H", ""), r("Bob", "7H 7S 7D", "2C"),
                     r("Cas", 0, "JK 3C"))  # fmt: skip
    assert found == [
        (
            "results[0].melded",
            "There are only two jokers in the deck, but 3 were entered (Ann 2, Cas 1).",
        ),
        ("results[0].melded", "Two players both have the 7♥ (Ann, Bob)."),
    ]


def test_no_hand_is_added_after_the_game_is_over() -> None:
    state = replace(start(), finished=True)
    with pytest.raises(RuleError, match="^The game is over: no more hands can be added.$"):
        play(state, "Ann", *HAND_1)


def test_every_mistake_is_named_at_once() -> None:
    found = problems(start(), "Ann", r("Ann", "7H 7S 7D 1", "4C"), r("Bob", None, ""),
                     r("Cas", 500, "3C"))  # fmt: skip
    assert [f for f, _ in found] == [
        "results[0].melded",
        "results[0].cards",
        "results[1].melded",
        "results[1].cards",
        "results[2].melded_points",
    ]


# --- Properties --------------------------------------------------------------------------------

DECK = [rank + suit for rank in RANKS for suit in SUITS] + ["JK", "JK"]


def worth(code: str, low: bool = False) -> int:
    """A card's points as §9 lists them, written out again for the test."""
    rank = code[:-1] if code != "JK" else "JK"
    if rank == "A":
        return 1 if low else 15
    return {"JK": 15, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_each_score_is_what_was_melded_less_what_is_in_hand(data: st.DataObject) -> None:
    players = ("Ann", "Bob", "Cas")
    state = start()
    expected = dict.fromkeys(players, 0)
    for _ in range(data.draw(st.integers(1, 5), label="hands")):
        deck = iter(data.draw(st.permutations(DECK), label="deck"))
        out = data.draw(st.sampled_from([None, *players]), label="out")
        results = []
        for p in players:
            melded = [next(deck) for _ in range(data.draw(st.integers(0 if p != out else 1, 9)))]
            held = [next(deck) for _ in range(0 if p == out else data.draw(st.integers(1, 6)))]
            aces = sum(c.startswith("A") for c in melded)
            low = data.draw(st.integers(0, aces))
            results.append(r(p, " ".join(melded), " ".join(held), low=low))
            value = sum(worth(c) for c in melded) - 14 * low - sum(worth(c) for c in held)
            expected[p] += value
        outcome = play(state, out, *results)
        for x in outcome.results:
            assert x.points == (x.melded or 0) - (x.spots or 0)
        state = outcome.state
        assert dict(state.scores) == expected
        if state.finished:
            break
