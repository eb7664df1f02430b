"""Kaluki as RULES.md §10 reads it: penalties to elimination, buying back in, the pot."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.rules import kaluki
from ledger.rules.base import HandEntry, HandOutcome, Movement, ResultEntry, State
from ledger.rules.errors import RuleError

GAME = kaluki.GAME
TOTALS = {"entry": "totals"}


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(players: str = "Ann Bob Cas Dee", dealer: str = "Dee", **given: Any) -> State:
    return GAME.new_state(players.split(), dealer, options(**given))


def hand(out: str | None, kaluki_: bool = False, **left: Any) -> HandEntry:
    """One result per keyword: a string is the cards left, an int a total."""
    results = tuple(
        ResultEntry(p, spots=v) if isinstance(v, int) else ResultEntry(p, cards=v)
        for p, v in left.items()
    )
    return HandEntry(results, out=out, rummy=kaluki_)


def play(state: State, entry: HandEntry, /, **given: Any) -> HandOutcome:
    return GAME.play(state, entry, options(**given))


def problems(state: State, entry: HandEntry, /, **given: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(state, entry, **given)
    return [(p.field, p.message) for p in caught.value.problems]


def conserved(state: State) -> bool:
    """The balances and the pot add up to zero: no unit made or lost."""
    return sum(state.scores.values()) + state.pot == 0


def after_hand_5() -> State:
    """§10's example before hand 6: Ann 62, Bob 141, Cas 98, Dee 120, a pot of 400."""
    state = start(**TOTALS)
    for entry in (
        hand("Ann", Bob=60, Cas=30, Dee=40),
        hand("Bob", Ann=20, Cas=30, Dee=40),
        hand("Cas", Ann=20, Bob=40, Dee=20),
        hand("Dee", Ann=22, Bob=39, Cas=36),
        hand("Ann", Bob=2, Cas=2, Dee=20),
    ):
        state = play(state, entry, **TOTALS).state
    return state


# --- The game and its options ------------------------------------------------------------------


def test_kaluki_is_a_money_game_for_two_to_six_with_the_defaults_of_the_rules() -> None:
    assert (GAME.key, GAME.name, GAME.money, GAME.open_seating) == (
        "kaluki", "Kaluki", True, False,
    )  # fmt: skip
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.defaults() == {
        "target": 150,
        "kaluki_bonus": "double",
        "ante": 100,
        "buy_in": 100,
        "call_up": 0,
        "kaluki_pay": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "entry": "cards",
        "joker_value": 25,
    }
    assert GAME.pot_choices() == ()  # no pot is carried
    assert options(buy_in="off")["buy_in"] is None
    assert options(buy_in="250")["buy_in"] == 250
    with pytest.raises(RuleError) as caught:
        options(buy_in="lots")
    assert caught.value.field == "options.buy_in"
    with pytest.raises(RuleError, match="Kaluki is played by 2 to 6 players, not 7"):
        start("A B C D E F G", dealer="A")


def test_the_hand_form_offers_jokers_at_25_and_aces_at_11_and_going_kaluki() -> None:
    form = GAME.entry_form(options(), 4)
    assert (form.values["JK"], form.values["A"]) == (25, 11)
    assert form.rummy and not form.nobody_out
    assert GAME.went_rummy(options()) is not None


# --- The worked example ------------------------------------------------------------------------


def test_the_antes_make_the_pot_with_the_first_hand() -> None:
    first = play(start(**TOTALS), hand("Ann", Bob=60, Cas=30, Dee=40), **TOTALS)
    assert first.pot_before == first.pot_after == 400
    assert [m for m in first.movements if m.target is None] == [
        Movement(p, None, 100) for p in ("Ann", "Bob", "Cas", "Dee")
    ]
    assert first.state.scores == dict.fromkeys(("Ann", "Bob", "Cas", "Dee"), -100)
    assert first.state.totals == {"Ann": 0, "Bob": 60, "Cas": 30, "Dee": 40}
    second = play(first.state, hand("Bob", Ann=20, Cas=30, Dee=40), **TOTALS)
    assert second.pot_before == 400 and not [m for m in second.movements if m.target is None]


def test_worked_example_hands_6_to_8_and_ann_takes_the_pot_of_500() -> None:
    state = after_hand_5()
    assert state.totals == {"Ann": 62, "Bob": 141, "Cas": 98, "Dee": 120}
    assert (state.pot, state.eliminated) == (400, {})

    six = play(state, hand("Cas", Ann="7S 6S", Bob="JK 8H", Dee="AD AC 10H 9S"), **TOTALS)
    assert [(r.player, r.spots, r.points) for r in six.results] == [
        ("Ann", 13, 13), ("Bob", 33, 33), ("Cas", 0, 0), ("Dee", 41, 41),
    ]  # fmt: skip
    state = six.state
    assert state.totals == {"Ann": 75, "Bob": 174, "Cas": 98, "Dee": 161}
    assert state.eliminated == {"Bob": 6, "Dee": 6}
    assert kaluki.can_buy_in(state, options(**TOTALS)) == ("Bob", "Dee")

    bought = kaluki.buy_in(state, "Bob", options(**TOTALS))
    assert bought.buy_in == kaluki.BuyIn("Bob", after_hand=6, units=100, total=98)
    assert bought.movements == (Movement("Bob", None, 100),)
    state = bought.state
    assert (state.pot, state.totals["Bob"], state.eliminated) == (500, 98, {"Dee": 6})
    assert state.buy_ins == {"Bob": (98,)}

    seven = play(state, hand("Ann", True, Bob="KS QS 4D", Cas="JK JK 5H"), **TOTALS)
    assert [(r.player, r.spots, r.points) for r in seven.results] == [
        ("Ann", 0, 0), ("Bob", 24, 48), ("Cas", 55, 110),
    ]  # fmt: skip
    state = seven.state
    assert state.totals == {"Ann": 75, "Bob": 146, "Cas": 208, "Dee": 161}
    assert state.eliminated == {"Dee": 6, "Cas": 7}

    eight = play(state, hand("Ann", Bob="9C 2H"), **TOTALS)
    state = eight.state
    assert state.totals["Bob"] == 157 and state.eliminated["Bob"] == 8
    assert kaluki.players_in(state) == ("Ann",)
    assert kaluki.waits_for_the_table(state, options(**TOTALS)) and not state.finished

    ended = GAME.finish(state, options(**TOTALS), None)
    assert ended is not None
    assert ended.movements == (Movement(None, "Ann", 500),)
    assert ended.state.scores == {"Ann": 400, "Bob": -200, "Cas": -100, "Dee": -100}
    assert (ended.state.pot, ended.state.finished, ended.state.winners) == (0, True, ("Ann",))
    assert conserved(ended.state)


def test_with_buy_ins_off_the_last_player_takes_the_pot_with_the_hand() -> None:
    given = {**TOTALS, "buy_in": "off"}
    state = start("Ann Bob", dealer="Bob", **given)
    outcome = play(state, hand("Ann", Bob=151), **given)
    assert outcome.movements[-1] == Movement(None, "Ann", 200)
    assert (outcome.pot_before, outcome.pot_after) == (200, 0)
    assert outcome.state.scores == {"Ann": 100, "Bob": -100}
    assert (outcome.state.finished, outcome.state.winners) == (True, ("Ann",))


def test_exactly_150_stays_in() -> None:
    state = play(start("Ann Bob", dealer="Bob", **TOTALS), hand("Ann", Bob=150), **TOTALS).state
    assert state.eliminated == {} and not state.finished


def test_without_kaluki_bonus_a_kaluki_is_not_doubled() -> None:
    given = {"kaluki_bonus": "none"}
    outcome = play(start("Ann Bob", dealer="Bob", **given), hand("Ann", True, Bob="KS"), **given)
    assert outcome.state.totals == {"Ann": 0, "Bob": 10}


def test_call_ups_and_the_kaluki_pay_go_to_the_player_out() -> None:
    given = {"call_up": 5, "kaluki_pay": 20}
    state = start("Ann Bob Cas", dealer="Cas", **given)
    first = play(state, hand("Ann", Bob="KS", Cas="2C"), **given)
    assert first.payments == (Movement("Bob", "Ann", 5), Movement("Cas", "Ann", 5))
    second = play(first.state, hand("Bob", True, Ann="3C", Cas="4C"), **given)
    assert second.payments == (Movement("Ann", "Bob", 20), Movement("Cas", "Bob", 20))
    assert second.state.scores == {"Ann": -100 + 10 - 20, "Bob": -100 - 5 + 40, "Cas": -125}
    assert conserved(second.state)


def test_the_game_finished_earlier_shares_the_pot_among_the_players_still_in() -> None:
    state = play(start(**TOTALS), hand("Ann", Bob=160, Cas=30, Dee=40), **TOTALS).state
    state = kaluki.buy_in(state, "Bob", options(**TOTALS)).state  # pot 500
    state = play(state, hand("Cas", Ann=10, Bob=170, Dee=2), **TOTALS).state
    assert kaluki.players_in(state) == ("Ann", "Cas", "Dee")
    ended = kaluki.finish(state, options(**TOTALS))
    # 500 among three, in playing order from the dealer's left: Cas deals next.
    assert state.dealer == "Cas"
    assert ended.movements == (
        Movement(None, "Dee", 167), Movement(None, "Ann", 167), Movement(None, "Cas", 166),
    )  # fmt: skip
    assert ended.state.winners == ("Ann", "Cas", "Dee")
    assert conserved(ended.state) and ended.state.pot == 0
    with pytest.raises(RuleError, match="already finished"):
        kaluki.finish(ended.state, options(**TOTALS))


def test_the_deal_passes_among_the_players_still_in() -> None:
    state = start(**TOTALS)  # Dee deals hand 1, Ann leads
    one = play(state, hand("Ann", Bob=160, Cas=30, Dee=40), **TOTALS)
    assert (one.dealer, one.leader) == ("Dee", "Ann")
    two = play(one.state, hand("Cas", Ann=10, Dee=2), **TOTALS)
    assert (two.dealer, two.leader) == ("Ann", "Cas")  # Bob is out of it
    assert two.state.dealer == "Cas"


def test_a_player_who_leaves_is_eliminated_without_a_buy_in() -> None:
    state = play(start(**TOTALS), hand("Ann", Bob=10, Cas=30, Dee=40), **TOTALS).state
    state = kaluki.leave(state, "Ann", options(**TOTALS))
    assert (state.seats, state.dealer) == (("Bob", "Cas", "Dee"), "Bob")  # Ann was to deal
    assert state.eliminated == {"Ann": 1}
    assert kaluki.players_in(state) == ("Bob", "Cas", "Dee")
    assert state.scores["Ann"] == -100 and conserved(state)
    with pytest.raises(RuleError, match="not seated"):
        kaluki.buy_in(state, "Ann", options(**TOTALS))


# --- Refusals ------------------------------------------------------------------------------------


def test_say_who_went_out_exactly_one_player_goes_out() -> None:
    state = replace(start(), hands_played=4)
    assert problems(state, hand(None, Ann="2C", Bob="3C", Cas="4C", Dee="5C")) == [
        ("out", "Say who went out in hand 5: exactly one player goes out.")
    ]
    assert problems(start(), hand(None, Ann="", Bob="3C", Cas="", Dee="5C")) == [
        ("out", "Ann and Cas are both entered as out: only one player goes out.")
    ]


def test_the_player_out_has_no_cards_and_the_others_have_some() -> None:
    assert problems(start(), hand("Cas", Ann="2C", Bob="3C", Cas="5H", Dee="")) == [
        ("results[2].cards", "Cas went out, so has no cards left: remove 5H."),
        ("results[3].cards", "Dee did not go out, so has cards left: enter them."),
    ]


def test_nobody_has_more_than_13_cards_left() -> None:
    fourteen = "2 3 4 5 6 7 8 9 10 J Q K A 2"
    assert problems(start(), hand("Ann", Bob="3C", Cas="4C", Dee=fourteen)) == [
        ("results[2].cards", "Dee cannot have 14 cards left: each player is dealt 13.")
    ]


def test_a_total_is_2_to_198() -> None:
    assert problems(start(**TOTALS), hand("Ann", Bob=3, Cas=4, Dee=199), **TOTALS) == [
        ("results[2].spots", "Dee's total cannot be 199: 13 cards are worth at most 198.")
    ]
    assert problems(start(**TOTALS), hand("Ann", Bob=3, Cas=4, Dee=1), **TOTALS) == [
        ("results[2].spots", "Dee's total cannot be 1: the cheapest card is a two.")
    ]
    fifteen = {**TOTALS, "joker_value": 15}
    assert problems(start(**fifteen), hand("Ann", Bob=3, Cas=4, Dee=159), **fifteen) == [
        ("results[2].spots", "Dee's total cannot be 159: 13 cards are worth at most 158.")
    ]
    assert play(start(**TOTALS), hand("Ann", Bob=2, Cas=4, Dee=198), **TOTALS)


def test_the_deck_has_four_jokers() -> None:
    assert problems(start(), hand("Ann", Bob="JK JK", Cas="JK JK JK", Dee="5C")) == [
        (
            "results[0].cards",
            "There are only four jokers in the deck, but 5 were entered (Bob 2, Cas 3).",
        )
    ]


def test_an_eliminated_player_has_no_hand_to_enter() -> None:
    state = play(after_hand_5(), hand("Cas", Ann="7S 6S", Bob="JK 8H", Dee="AD AC 10H 9S"),
                 **TOTALS).state  # fmt: skip
    state = kaluki.buy_in(state, "Bob", options(**TOTALS)).state
    found = problems(state, hand("Ann", Bob="KS", Cas="2C", Dee="3C"), **TOTALS)
    assert found == [("results[2]", "Dee is eliminated (161, over 150): Dee has no hand to enter.")]
    found = problems(state, hand("Dee", Ann="2C", Bob="KS", Cas="2C"), **TOTALS)
    assert found == [("out", "Dee is eliminated (161, over 150): Dee cannot go out.")]


def test_only_the_player_who_went_out_can_go_kaluki() -> None:
    assert problems(start(), hand(None, True, Ann="2C", Bob="3C", Cas="4C", Dee="5C")) == [
        ("out", "Only the player who went out can go kaluki: say who went out in hand 1.")
    ]


def test_buy_in_refusals() -> None:
    state = play(after_hand_5(), hand("Cas", Ann="7S 6S", Bob="JK 8H", Dee="AD AC 10H 9S"),
                 **TOTALS).state  # fmt: skip
    opts = options(**TOTALS)

    def refused(at: State, player: str, **given: Any) -> str:
        with pytest.raises(RuleError) as caught:
            kaluki.buy_in(at, player, {**opts, **given})
        assert caught.value.field == "player"
        return caught.value.message

    assert refused(state, "Ann") == "Ann cannot buy in: Ann is still in the game."
    assert refused(state, "Bob", buy_in=None) == "Buy-ins are off in this session."
    state = kaluki.buy_in(state, "Bob", opts).state
    state = play(state, hand("Ann", True, Bob="KS QS 4D", Cas="JK JK 5H"), **TOTALS).state
    assert refused(state, "Dee") == (
        "Dee cannot buy in now: Dee was eliminated in hand 6 and hand 7 has been entered."
    )
    assert refused(state, "Eve") == "Eve is not seated in this session."


def test_no_hand_is_added_after_the_game_is_over_nor_with_one_player_left() -> None:
    given = {**TOTALS, "buy_in": "off"}
    over = play(start("Ann Bob", dealer="Bob", **given), hand("Ann", Bob=151), **given).state
    with pytest.raises(RuleError, match="^The game is over: no more hands can be added.$"):
        play(over, hand("Ann", Bob=2), **given)
    waiting = play(start("Ann Bob", dealer="Bob", **TOTALS), hand("Ann", Bob=151), **TOTALS)
    with pytest.raises(RuleError, match="Only Ann is still in: a player eliminated in hand 1"):
        play(waiting.state, hand("Ann", Bob=2), **TOTALS)


def test_a_buy_in_is_kept_and_replayed_after_its_hand() -> None:
    state = play(start(**TOTALS), hand("Ann", Bob=160, Cas=30, Dee=40), **TOTALS).state
    bought = kaluki.buy_in(state, "Bob", options(**TOTALS))
    record = kaluki.BuyIn.from_dict(bought.buy_in.to_dict())
    assert kaluki.replay_buy_in(state, record, options(**TOTALS)).state == bought.state
    assert State.from_dict(bought.state.to_dict()) == bought.state
    later = play(bought.state, hand("Cas", Ann=10, Bob=2, Dee=2), **TOTALS).state
    with pytest.raises(RuleError, match="after hand 1, not after hand 2"):
        kaluki.replay_buy_in(later, record, options(**TOTALS))


# --- Properties --------------------------------------------------------------------------------


@st.composite
def nights(draw: st.DrawFn) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """Options and a list of steps: hands (who goes out, kaluki, each total) and buy-ins."""
    given = {
        **TOTALS,
        "target": draw(st.integers(20, 200)),
        "ante": draw(st.integers(0, 300)),
        "buy_in": draw(st.sampled_from([None, 0, 50, 100, 333])),
        "call_up": draw(st.integers(0, 20)),
        "kaluki_pay": draw(st.integers(0, 40)),
    }
    steps: list[tuple[str, Any]] = []
    for _ in range(draw(st.integers(1, 25))):
        if draw(st.integers(0, 3)) == 0:
            steps.append(("buy_in", draw(st.sampled_from(["Ann", "Bob", "Cas", "Dee"]))))
        else:
            totals = draw(st.lists(st.integers(2, 198), min_size=4, max_size=4))
            steps.append(("hand", (draw(st.integers(0, 5)), draw(st.booleans()), totals)))
    steps.append(("finish", None))
    return given, steps


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights())
def test_money_is_conserved_through_antes_buy_ins_and_the_pot(
    night: tuple[dict[str, Any], list[tuple[str, Any]]],
) -> None:
    given, steps = night
    opts = options(**given)
    state = start(**given)
    into_pot = out_of_pot = 0
    for kind, what in steps:
        if state.finished:
            break
        before = state
        if kind == "buy_in":
            try:
                bought = kaluki.buy_in(state, what, opts)
            except RuleError:
                continue
            moves, state = bought.movements, bought.state
            assert bought.buy_in.units == (given["buy_in"] or 0)
        elif kind == "hand":
            left = kaluki.players_in(state)
            if len(left) < 2:
                continue
            pick, went_kaluki, totals = what
            out = left[pick % len(left)]
            results = {p: t for p, t in zip(left, totals, strict=False) if p != out}
            outcome = GAME.play(state, hand(out, went_kaluki, **results), opts)
            moves, state = outcome.movements, outcome.state
            assert outcome.pot_after == state.pot and out not in state.eliminated
        else:
            ended = kaluki.finish(state, opts)
            moves, state = ended.movements, ended.state
        # Every unit that moved is explained by the movements, and none is made or lost.
        for p in before.scores:
            change = sum(m.units for m in moves if m.target == p)
            change -= sum(m.units for m in moves if m.source == p)
            assert state.scores[p] - before.scores[p] == change
        into_pot += sum(m.units for m in moves if m.target is None)
        out_of_pot += sum(m.units for m in moves if m.source is None)
        assert state.pot == into_pot - out_of_pot >= 0
        assert conserved(state)
        # What each player paid into the pot (antes and buy-ins) is all there is in it.
        assert sum(state.pot_antes.values()) == state.pot
    if state.finished:
        assert state.pot == 0 and into_pot == out_of_pot
        assert sum(state.scores.values()) == 0
        assert all(p not in state.eliminated for p in state.winners)
        assert bool(state.winners) == bool(state.hands_played)
