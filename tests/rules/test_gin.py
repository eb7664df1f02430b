"""Gin Rummy as RULES.md §8 reads it: knocks, undercuts, gin, draws, boxes, bonuses, shutouts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ledger.rules import gin
from ledger.rules.base import HandEntry, HandOutcome, ResultEntry, State
from ledger.rules.errors import RuleError
from ledger.rules.gin import GinEntry
from ledger.rules.payout import game_payout

GAME = gin.GAME


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(players: str = "Ann Bob", dealer: str = "Bob", **given: Any) -> State:
    return GAME.new_state(players.split(), dealer, options(**given))


def hand(ending: str | None, out: str | None = None, **deadwood: Any) -> HandEntry:
    """One result per keyword: a string is the unmatched cards, an int a total."""
    results = tuple(
        ResultEntry(p, spots=v) if isinstance(v, int) else ResultEntry(p, cards=v)
        for p, v in deadwood.items()
    )
    return GinEntry(results, out=out, ending=ending)


def play(state: State, entry: HandEntry, /, **given: Any) -> HandOutcome:
    return GAME.play(state, entry, options(**given))


def points(outcome: HandOutcome) -> dict[str, int | None]:
    return {r.player: r.points for r in outcome.results}


def problems(state: State, entry: HandEntry, /, **given: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(state, entry, **given)
    return [(p.field, p.message) for p in caught.value.problems]


def example_1() -> list[HandOutcome]:
    """RULES.md §8, worked example 1 (defaults), Ann v Bob: every hand's outcome in turn."""
    hands = [
        hand("knock", "Ann", Ann="3H AC", Bob="KS 9D 5C"),
        hand("knock", "Bob", Bob="5S 3D", Ann="4C 2H"),
        hand("draw"),
        hand("gin", "Bob", Bob="", Ann="QH JC 7S 2D"),
        hand("gin", "Ann", Bob="KD 10C 6H"),
        hand("knock", "Ann", Ann="2C", Bob="9H"),
    ]
    state, outcomes = start(stake=1), []
    for entry in hands:
        outcomes.append(play(state, entry, stake=1))
        state = outcomes[-1].state
    return outcomes


# --- The game and its options ------------------------------------------------------------------


def test_gin_is_a_two_player_points_game_with_the_defaults_of_the_rules() -> None:
    assert (GAME.key, GAME.name) == ("gin", "Gin Rummy")
    assert (GAME.money, GAME.open_seating) == (False, False)
    assert (GAME.min_players, GAME.max_players) == (2, 2)
    assert GAME.defaults() == {
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "box_bonus": 25,
        "big_gin": "off",
        "target": 100,
        "game_bonus": 100,
        "shutout": "double_bonus",
        "entry": "cards",
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }
    form = GAME.entry_form(options(), 2)
    assert "JK" not in form.ranks and form.values["A"] == 1 and form.nobody_out


def test_gin_rummy_is_for_two_players() -> None:
    with pytest.raises(RuleError) as caught:
        start("Ann Bob Cas", dealer="Ann")
    assert caught.value.message == "Gin Rummy is played by exactly 2 players, not 3."
    assert caught.value.field == "players"


# --- Worked example 1 ----------------------------------------------------------------------------


def test_worked_example_1_hand_by_hand() -> None:
    one, two, three, four, five, six = example_1()
    assert points(one) == {"Ann": 20, "Bob": 0}
    assert [r.spots for r in one.results] == [4, 24]
    assert points(two) == {"Ann": 27, "Bob": 0}  # undercut: 8 − 6 + 25
    assert two.state.scores == {"Ann": 47, "Bob": 0}
    assert points(three) == {"Ann": 0, "Bob": 0} and three.winners == ()
    assert points(four) == {"Ann": 0, "Bob": 54}
    assert points(five) == {"Ann": 51, "Bob": 0} and five.state.scores["Ann"] == 98
    assert points(six) == {"Ann": 7, "Bob": 0}
    assert six.state.scores == {"Ann": 105, "Bob": 54}
    assert (six.state.finished, six.state.winners) == (True, ("Ann",))
    assert six.state.wins == {"Ann": 4, "Bob": 1}
    assert [o.ending for o in (one, two, three, four, five, six)] == [
        "knock", "knock", "draw", "gin", "gin", "knock",
    ]  # fmt: skip


def test_worked_example_1_ends_with_the_bonuses_and_bob_paying_226() -> None:
    last = example_1()[-1].state
    assert gin.bonuses(last, options()) == {
        "Ann": gin.Bonus(hands=105, game=100, boxes=4, box_points=100, shutout=False),
        "Bob": gin.Bonus(hands=54, game=0, boxes=1, box_points=25, shutout=False),
    }
    assert gin.final_scores(last, options()) == {"Ann": 305, "Bob": 79}
    assert GAME.final_totals(last, options()) == {"Ann": 305, "Bob": 79}
    first = start(stake=1)
    assert game_payout(GAME, last, options(stake=1), first) == {"Ann": 226, "Bob": -226}


def test_a_draw_scores_nothing_and_the_same_dealer_deals_again() -> None:
    outcomes = example_1()
    assert [o.dealer for o in outcomes] == ["Bob", "Ann", "Bob", "Bob", "Ann", "Bob"]
    assert outcomes[2].out is None and outcomes[2].number == 3
    assert outcomes[2].state.scores == outcomes[1].state.scores


def test_each_hand_tells_its_story_for_the_scoreboard_line() -> None:
    one, two, three, four, _, _ = example_1()
    told = [gin.story(o.ending, o.out, o.results) for o in (one, two, three, four)]
    # "Ann knocks 4 v 24: Ann +20"
    assert told[0] == gin.Story("knock", "Ann", 4, "Bob", 24, "Ann", 20)
    # "Bob knocks 8, Ann undercuts with 6: Ann +27"
    assert told[1] == gin.Story("knock", "Bob", 8, "Ann", 6, "Ann", 27)
    assert told[1].undercut and not told[0].undercut
    assert told[2].ending == "draw" and told[2].scorer is None  # "Draw"
    assert told[3] == gin.Story("gin", "Bob", 0, "Ann", 29, "Bob", 54)  # "Bob gin v 29: Bob +54"


def test_equal_deadwood_is_an_undercut() -> None:
    outcome = play(start(), hand("knock", "Ann", Ann="5H", Bob="5C"))
    assert points(outcome) == {"Ann": 0, "Bob": 25}
    assert outcome.winners == ("Bob",) and outcome.state.wins == {"Bob": 1}


def test_gin_is_never_undercut_and_scores_its_bonus_over_no_deadwood() -> None:
    outcome = play(start(), hand("gin", "Ann", Bob=""))
    assert points(outcome) == {"Ann": 25, "Bob": 0}


def test_big_gin_scores_31_where_the_session_plays_it() -> None:
    outcome = play(start(big_gin="on"), hand("big_gin", "Ann", Bob="KD 10C 6H"), big_gin="on")
    assert points(outcome) == {"Ann": 57, "Bob": 0}
    assert outcome.ending == "big_gin"


def test_the_bonuses_are_options() -> None:
    given = {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20, "game_bonus": 50}
    state = start(target=10, **given)
    two = play(state, hand("knock", "Bob", Bob="5S 3D", Ann="4C 2H"), target=10, **given)
    assert points(two) == {"Ann": 12, "Bob": 0}
    assert two.state.finished
    assert gin.final_scores(two.state, options(target=10, **given)) == {
        "Ann": 12 + 100 + 20,  # a shutout doubles the game bonus of 50
        "Bob": 0,
    }


# --- Worked example 2: the shutout ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("shutout", "cas"), [("double_bonus", 380), ("double_hands", 385), ("none", 280)]
)
def test_worked_example_2_a_shutout(shutout: str, cas: int) -> None:
    given = {"entry": "totals", "shutout": shutout}
    state = start("Cas Dee", dealer="Dee", **given)
    for entry in (
        hand("knock", "Cas", Cas=3, Dee=43),
        hand("gin", "Cas", Dee=10),
        hand("knock", "Cas", Cas=2, Dee=32),
    ):
        state = play(state, entry, **given).state
    assert state.scores == {"Cas": 105, "Dee": 0}
    assert state.finished and state.winners == ("Cas",)
    assert gin.final_scores(state, options(**given)) == {"Cas": cas, "Dee": 0}
    assert gin.bonuses(state, options(**given))["Cas"].shutout


def test_a_draw_does_not_undo_a_shutout_but_a_hand_won_does() -> None:
    given = {"entry": "totals", "target": 30}
    state = start("Cas Dee", dealer="Dee", **given)
    state = play(state, hand("draw"), **given).state
    state = play(state, hand("knock", "Cas", Cas=3, Dee=43), **given).state
    assert gin.bonuses(state, options(**given))["Cas"].game == 200
    state = start("Cas Dee", dealer="Dee", **given)
    state = play(state, hand("knock", "Dee", Cas=13, Dee=3), **given).state
    state = play(state, hand("knock", "Cas", Cas=3, Dee=43), **given).state
    assert gin.bonuses(state, options(**given))["Cas"].game == 100


def test_a_game_ended_at_the_table_has_no_game_bonus_and_its_boxes_decide() -> None:
    state = start()
    state = play(state, hand("knock", "Ann", Ann="3H AC", Bob="KS 9D 5C")).state  # Ann 20
    state = play(state, hand("knock", "Bob", Bob="2C", Ann="KH 9H")).state  # Bob 17
    state = play(state, hand("knock", "Bob", Bob="2D", Ann="5S")).state  # Bob 3 more: 20
    assert GAME.standing_winners(state, options()) == ("Bob",)  # 20 + 50 beats 20 + 25
    ended = State.from_dict({**state.to_dict(), "finished": True, "winners": ["Bob"]})
    assert gin.final_scores(ended, options()) == {"Ann": 45, "Bob": 70}


# --- Refusals ------------------------------------------------------------------------------------


def after(n: int) -> State:
    """The state after ``n`` hands of worked example 1."""
    return example_1()[n - 1].state if n else start()


def test_a_hand_must_say_how_it_ended() -> None:
    assert problems(after(3), hand(None, Ann="5H", Bob="9C")) == [
        ("ending", "Say how hand 4 ended: who knocked, who went gin, or that it was a draw.")
    ]
    assert problems(after(3), hand("knock", None, Ann="5H", Bob="9C")) == [
        ("out", "Say how hand 4 ended: who knocked, who went gin, or that it was a draw.")
    ]
    assert problems(after(3), hand("schneider", "Ann", Ann="5H", Bob="9C"))[0][0] == "ending"


def test_a_knock_needs_10_or_less_and_none_is_gin() -> None:
    assert problems(start(), hand("knock", "Ann", Ann="QH 2C", Bob="KS")) == [
        ("results[0].cards", "Knocker Ann's deadwood is 12: a knock needs 10 or less.")
    ]
    assert problems(start(), hand("knock", "Ann", Ann="", Bob="KS")) == [
        (
            "results[0].cards",
            "Knocker Ann's deadwood is 0: that is gin — enter it as Ann's gin "
            "(Bob lays nothing off).",
        )
    ]


def test_the_player_who_went_gin_has_no_deadwood() -> None:
    assert problems(start(), hand("gin", "Ann", Ann="3H", Bob="KS")) == [
        ("results[0].cards", "Ann went gin, so has no deadwood: remove 3H.")
    ]
    totals = {"entry": "totals"}
    assert problems(start(**totals), hand("gin", "Ann", Ann=3, Bob=10), **totals) == [
        ("results[0].spots", "Ann went gin, so their deadwood is 0.")
    ]


def test_a_player_holds_ten_cards_worth_at_most_100() -> None:
    eleven = "A 2 3 4 5 6 7 8 9 10 J"
    assert problems(start(), hand("gin", "Ann", Bob=eleven)) == [
        ("results[0].cards", "Bob's deadwood has 11 cards: a player holds 10.")
    ]
    totals = {"entry": "totals"}
    assert problems(start(**totals), hand("gin", "Ann", Bob=104), **totals) == [
        ("results[0].spots", "Bob's deadwood cannot be 104: ten cards are worth at most 100.")
    ]
    outcome = play(start(**totals), hand("gin", "Ann", Bob=100), **totals)
    assert points(outcome)["Ann"] == 125


def test_the_defenders_deadwood_must_be_entered() -> None:
    assert problems(start(), hand("knock", "Ann", Ann="3H")) == [
        ("results", "Bob's deadwood is missing: enter their unmatched cards after laying off.")
    ]
    entry = GinEntry((ResultEntry("Ann", "3H"), ResultEntry("Bob")), out="Ann", ending="knock")
    assert problems(start(), entry) == [
        ("results[1]", "Bob's deadwood is missing: enter their unmatched cards after laying off.")
    ]


def test_big_gin_is_refused_where_the_session_does_not_play_it() -> None:
    assert problems(start(), hand("big_gin", "Ann", Bob="KS")) == [
        ("ending", "Big gin is not played in this session: enter it as gin, or turn on big_gin.")
    ]


def test_a_draw_takes_no_deadwood() -> None:
    assert problems(after(4), hand("draw", Ann="5H")) == [
        ("results[0]", "Hand 5 was a draw: it takes no deadwood.")
    ]


def test_one_pack_and_no_jokers() -> None:
    assert problems(start(), hand("knock", "Ann", Ann="7H", Bob="7H KS")) == [
        ("results[0].cards", "Two players both have the 7♥ (Ann, Bob).")
    ]
    found = problems(start(), hand("gin", "Ann", Bob="7 7 7 7 7"))
    assert found == [("results[0].cards", "Bob has five 7s, but there are only four in the deck.")]
    found = problems(start(), hand("knock", "Ann", Ann="JK", Bob="KS"))
    assert found[0][0] == "results[0].cards"
    assert "JK' is a joker, and Gin Rummy is played without jokers" in found[0][1]


def test_no_hand_is_added_after_the_game_is_over() -> None:
    with pytest.raises(RuleError, match="^The game is over: no more hands can be added.$"):
        play(after(6), hand("draw"), stake=1)


def test_every_mistake_of_a_hand_is_named_at_once() -> None:
    found = problems(start(), hand("knock", "Ann", Ann="QH 5C", Bob="A 2 3 4 5 6 7 8 9 10 1"))
    assert [f for f, _ in found] == ["results[0].cards", "results[1].cards"]
    assert "ace is A" in found[1][1]


# --- Properties --------------------------------------------------------------------------------


@st.composite
def gin_games(draw: st.DrawFn) -> tuple[dict[str, Any], list[HandEntry]]:
    given = {
        "entry": "totals",
        "gin_bonus": draw(st.integers(0, 40)),
        "undercut_bonus": draw(st.integers(0, 40)),
        "box_bonus": draw(st.integers(0, 40)),
        "game_bonus": draw(st.integers(0, 200)),
        "shutout": draw(st.sampled_from(["double_bonus", "double_hands", "none"])),
        "big_gin": "on",
        "target": draw(st.integers(1, 300)),
        "stake": draw(st.integers(0, 3)),
    }
    entries = []
    for _ in range(draw(st.integers(1, 30))):
        ending = draw(st.sampled_from(["knock", "gin", "big_gin", "draw"]))
        if ending == "draw":
            entries.append(hand("draw"))
            continue
        out, other = draw(st.sampled_from([("Ann", "Bob"), ("Bob", "Ann")]))
        mine = draw(st.integers(1, 10)) if ending == "knock" else 0
        entries.append(hand(ending, out, **{out: mine, other: draw(st.integers(0, 100))}))
    return given, entries


# Found by an exploring run: with no game bonus, Bob's three boxes put him ahead of Ann, who
# won the game (37 to 38): she pays him the stake on the difference.
BEHIND_ON_BOXES = (
    {"entry": "totals", "gin_bonus": 0, "undercut_bonus": 0, "box_bonus": 6, "game_bonus": 0,
     "shutout": "double_bonus", "big_gin": "on", "target": 21, "stake": 1},
    [hand("knock", "Bob", Bob=1, Ann=2), hand("gin", "Bob", Bob=0, Ann=0),
     hand("knock", "Bob", Bob=1, Ann=20), hand("big_gin", "Ann", Ann=0, Bob=0)],
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(gin_games())
@example(BEHIND_ON_BOXES)
def test_final_totals_are_the_hands_plus_the_bonuses(game: tuple[dict[str, Any], list[HandEntry]]):
    given, entries = game
    opts = options(**given)
    state = first = start(**given)
    earned = {"Ann": 0, "Bob": 0}
    won = {"Ann": 0, "Bob": 0}
    for entry in entries:
        if state.finished:
            break
        outcome = GAME.play(state, entry, opts)
        for r in outcome.results:
            earned[r.player] += r.points or 0
        for p in outcome.winners:
            won[p] += 1
        assert sum(1 for r in outcome.results if r.points) <= 1  # one player scores a hand
        state = outcome.state
    assert state.scores == earned
    finals = gin.final_scores(state, opts)
    if not state.finished:
        assert finals == {p: earned[p] + won[p] * given["box_bonus"] for p in earned}
        return
    (winner,) = state.winners
    loser = "Bob" if winner == "Ann" else "Ann"
    shutout = won[loser] == 0
    hands = earned[winner] * (2 if shutout and given["shutout"] == "double_hands" else 1)
    game_bonus = given["game_bonus"] * (2 if shutout and given["shutout"] == "double_bonus" else 1)
    assert finals[winner] == hands + game_bonus + won[winner] * given["box_bonus"]
    assert finals[loser] == earned[loser] + won[loser] * given["box_bonus"]
    assert earned[winner] >= given["target"] > earned[loser]
    money = game_payout(GAME, state, opts, first)
    if not given["stake"]:
        assert money is None
        return
    assert money is not None
    assert money[winner] == given["stake"] * (finals[winner] - finals[loser]) == -money[loser]
