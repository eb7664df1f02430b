"""Jokeren as RULES.md §11 reads it: Rummy's penalty scoring with a Dutch option set."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.rules import jokeren, rummy
from ledger.rules.base import HandEntry, HandOutcome, ResultEntry, State
from ledger.rules.errors import RuleError

GAME = jokeren.GAME


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(players: str = "Ann Bob Cas Dee", dealer: str = "Dee", **given: Any) -> State:
    return GAME.new_state(players.split(), dealer, options(**given))


def entry(out: str | None, rummy_: bool = False, language: str = "en", **hands: Any) -> HandEntry:
    """One result per keyword: a string is cards, an int a spot total."""
    results = tuple(
        ResultEntry(p, spots=v) if isinstance(v, int) else ResultEntry(p, cards=v)
        for p, v in hands.items()
    )
    return HandEntry(results, out=out, rummy=rummy_, cards_language=language)


def play(state: State, hand: HandEntry, **given: Any) -> HandOutcome:
    return GAME.play(state, hand, options(**given))


def points(outcome: HandOutcome) -> dict[str, int | None]:
    return {r.player: r.points for r in outcome.results}


def problems(state: State, hand: HandEntry, **given: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(state, hand, **given)
    return [(p.field, p.message) for p in caught.value.problems]


# --- The preset ----------------------------------------------------------------------------------


def test_jokeren_is_a_points_game_for_two_to_six_with_the_dutch_defaults() -> None:
    assert (GAME.key, GAME.name, GAME.money) == ("jokeren", "Jokeren", False)
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.defaults() == {
        "rummy_bonus": "double",
        "ace_value": 11,
        "joker_value": 25,
        "hands": "twice",
        "target": None,
        "entry": "cards",
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }
    assert jokeren.PRESET == {"scoring": "penalty", "packs": 2, "jokers": 2, "cards": 13}


def test_seven_players_cannot_play_jokeren() -> None:
    with pytest.raises(RuleError, match="2 to 6 players, not 7"):
        start("A B C D E F G", dealer="A")


def test_the_options_a_table_may_change_are_checked() -> None:
    assert options(hands="10", target="off") == {**GAME.defaults(), "hands": 10, "target": None}
    assert options(target=150)["target"] == 150
    assert options(joker_value="15")["joker_value"] == 15
    for name, value in (("hands", 0), ("hands", "thrice"), ("target", -5), ("joker_value", 20)):
        with pytest.raises(RuleError) as caught:
            options(**{name: value})
        assert caught.value.field == f"options.{name}"
    with pytest.raises(RuleError) as caught:
        options(packs=1)
    assert caught.value.field == "options.packs"


def test_the_hand_form_offers_the_joker_at_25_and_the_ace_at_11() -> None:
    form = GAME.entry_form(options(), 4)
    assert form.values["JK"] == 25
    assert form.values["A"] == 11
    assert form.rummy and not form.nobody_out
    assert GAME.entry_form(options(joker_value=15), 4).values["JK"] == 15


# --- The worked example ------------------------------------------------------------------------


def test_worked_example_ann_out_in_one_turn_doubles_the_dutch_hands() -> None:
    """§11: Bob JK AS 7H 43, Cas Vh 10r 20, Dee 2k 3k 5; doubled: Bob +86, Cas +40, Dee +10."""
    hand = entry("Ann", True, "nl", Ann="", Bob="JK AS 7H", Cas="Vh 10r", Dee="2k 3k")
    outcome = play(start(), hand)
    assert [r.spots for r in outcome.results] == [0, 43, 20, 5]
    assert points(outcome) == {"Ann": 0, "Bob": 86, "Cas": 40, "Dee": 10}
    assert outcome.state.scores == {"Ann": 0, "Bob": 86, "Cas": 40, "Dee": 10}
    assert [c.code for c in outcome.results[2].cards] == ["QH", "10D"]


def test_without_going_out_in_one_turn_the_penalties_are_the_hands_values() -> None:
    hand = entry("Ann", Bob="JK AS 7H", Cas="QH 10D", Dee="2C 3C")
    assert points(play(start(), hand)) == {"Ann": 0, "Bob": 43, "Cas": 20, "Dee": 5}


def test_a_joker_at_15_and_the_ten_point_rummy_bonus_are_options() -> None:
    hand = entry("Ann", True, Bob="JK AS 7H", Cas="QH 10D", Dee="2C 3C")
    outcome = play(start(joker_value=15), hand, joker_value=15, rummy_bonus="bonus10")
    assert points(outcome) == {"Ann": -10, "Bob": 33, "Cas": 20, "Dee": 5}


# --- The end -------------------------------------------------------------------------------------


def test_the_game_ends_after_each_player_has_dealt_twice_and_the_lowest_total_wins() -> None:
    state = start("Ann Bob Cas", dealer="Cas")
    for n in range(6):
        assert not state.finished
        progress = GAME.progress(state, options())
        assert progress is not None
        assert (progress.round, progress.hand, progress.hands_in_round, progress.rounds) == (
            n // 3 + 1,
            n % 3 + 1,
            3,
            2,
        )
        out = ("Ann", "Bob", "Cas")[n % 3]
        hand = entry(out, **{p: "5H" for p in ("Ann", "Bob", "Cas") if p != out})
        state = play(state, hand).state
    assert state.finished and state.hands_played == 6
    assert state.scores == {"Ann": 20, "Bob": 20, "Cas": 20}
    assert state.winners == ("Ann", "Bob", "Cas")  # equal lowest totals share the win
    assert GAME.progress(state, options()) is None
    with pytest.raises(RuleError, match="The game is over: no more hands can be added."):
        play(state, entry("Ann", Bob="5H", Cas="5H"))


def test_the_lowest_total_wins_alone_when_it_is_lowest() -> None:
    state = start("Ann Bob", dealer="Bob")
    for out, other, cards in (("Ann", "Bob", "KH"), ("Bob", "Ann", "2C"), ("Ann", "Bob", "3C")):
        state = play(state, entry(out, **{other: cards})).state
    assert not state.finished
    state = play(state, entry("Bob", Ann="4C")).state
    assert state.finished
    assert (state.scores, state.winners) == ({"Ann": 6, "Bob": 13}, ("Ann",))


def test_a_target_instead_of_a_number_of_hands_ends_the_game_when_a_total_reaches_it() -> None:
    given = {"hands": "off", "target": 100}
    state = start("Ann Bob", dealer="Bob", **given)
    state = play(state, entry("Ann", Bob="JK JK JK"), **given).state
    state = play(state, entry("Bob", Ann="K"), **given).state
    assert not state.finished  # past the two hands "twice" would have had
    state = play(state, entry("Ann", Bob="JK"), **given).state
    assert state.scores == {"Ann": 10, "Bob": 100}
    assert (state.finished, state.winners) == (True, ("Ann",))


def test_a_fixed_number_of_hands_can_be_chosen() -> None:
    state = start("Ann Bob", dealer="Bob", hands=1)
    assert play(state, entry("Ann", Bob="2C"), hands=1).state.finished


# --- Refusals: as Rummy's penalty game, with 13 cards and totals from 2 to 198 -------------------


def test_nobody_can_have_more_than_the_13_cards_dealt() -> None:
    hand = entry("Ann", Ann="", Bob="2C", Cas="2D", Dee="2 3 4 5 6 7 8 9 10 J Q K A 2")
    assert problems(start(), hand) == [
        ("results[3].cards", "Dee cannot have 14 cards left: each player is dealt 13.")
    ]


def test_a_total_is_2_to_198_with_jokers_at_25_and_to_158_with_jokers_at_15() -> None:
    def hand(total: int) -> HandEntry:
        return entry("Ann", Ann=0, Bob=total, Cas=2, Dee=198)

    outcome = play(start(entry="totals"), hand(2), entry="totals")
    assert points(outcome) == {"Ann": 0, "Bob": 2, "Cas": 2, "Dee": 198}
    assert problems(start(entry="totals"), hand(1), entry="totals") == [
        ("results[1].spots", "Bob's total cannot be 1: the cheapest card is a two.")
    ]
    too_much = entry("Ann", Ann=0, Bob=199, Cas=2, Dee=2)
    assert problems(start(entry="totals"), too_much, entry="totals") == [
        ("results[1].spots", "Bob's total cannot be 199: 13 cards are worth at most 198.")
    ]
    fifteen = {"entry": "totals", "joker_value": 15}
    assert problems(start(**fifteen), entry("Ann", Ann=0, Bob=159, Cas=2, Dee=2), **fifteen) == [
        ("results[1].spots", "Bob's total cannot be 159: 13 cards are worth at most 158.")
    ]


def test_the_deck_has_four_jokers_and_two_of_each_card() -> None:
    hand = entry("Ann", Ann="", Bob="JK JK JK", Cas="JK JK 7H", Dee="7H 7H")
    found = problems(start(), hand)
    assert len(found) == 2
    assert found[0][0] == "results[1].cards" and "four" in found[0][1] and "joker" in found[0][1]
    assert found[1][0] == "results[2].cards" and "7♥" in found[1][1] and "two" in found[1][1]


def test_every_mistake_of_a_hand_is_named_at_once() -> None:
    hand = entry(None, Ann="", Bob="", Cas="1", Dee="2 3 4 5 6 7 8 9 10 J Q K A 2")
    found = problems(start(), hand)
    assert [f for f, _ in found] == ["out", "results[2].cards", "results[3].cards"]
    assert found[0][1] == "Exactly one player goes out in each hand of Jokeren: say who went out."
    assert "ace is A" in found[1][1]


def test_everyone_plays_every_hand() -> None:
    hand = HandEntry(
        (ResultEntry("Ann"), ResultEntry("Bob", sitting_out=True), ResultEntry("Cas", "2"),
         ResultEntry("Dee", "3")),
        out="Ann",
    )  # fmt: skip
    assert problems(start(), hand) == [
        (
            "results[1]",
            "Bob plays every hand of Jokeren: enter the cards left in their hand "
            "(to miss hands, leave the table and join again).",
        )
    ]


# --- The options in the Rummy engine ------------------------------------------------------------


def test_plain_rummy_plays_as_before_without_the_new_options() -> None:
    """§4 unchanged: jokers at 15, §4's deal, to the target; its listed options are as before."""
    assert {"cards", "joker_value", "hands"}.isdisjoint(rummy.GAME.options)
    opts = rummy.GAME.check_options({"jokers": 2, "scoring": "penalty"})
    state = rummy.GAME.new_state(["Ann", "Bob"], "Bob", opts)
    hand = entry("Ann", Bob="JK 5H")
    assert points(rummy.GAME.play(state, hand, opts)) == {"Ann": 0, "Bob": 20}


def test_the_rummy_engine_reads_cards_joker_value_and_hands_where_they_are_given() -> None:
    opts = {
        **rummy.GAME.check_options({"jokers": 2, "scoring": "penalty"}),
        "joker_value": 25,
        "cards": 11,
        "hands": 2,
    }
    state = rummy.GAME.new_state(["Ann", "Bob"], "Bob", opts)
    first = rummy.GAME.play(state, entry("Ann", Bob="JK 5H"), opts)
    assert points(first) == {"Ann": 0, "Bob": 30}
    with pytest.raises(RuleError, match="Bob cannot have 12 cards left: each player is dealt 11"):
        rummy.GAME.play(state, entry("Ann", Bob="2 3 4 5 6 7 8 9 10 J Q K"), opts)
    second = rummy.GAME.play(first.state, entry("Bob", Ann="2C"), opts)
    assert second.state.finished and second.state.winners == ("Ann",)
