"""Spot, the Irish pub game for money (RULES.md §2): every rule, option and error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from ledger.rules import spot
from ledger.rules.base import HandEntry, HandOutcome, Movement, ResultEntry, State
from ledger.rules.errors import RuleError
from ledger.rules.game import join, leave
from ledger.rules.registry import get_game

GAME = spot.GAME
PUB = ("Enda", "John", "Rex", "Finn")
DEFAULTS = GAME.defaults()


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(
    seats: tuple[str, ...] = PUB, dealer: str = "Finn", carried_pot: int = 0, **opts: Any
) -> State:
    return GAME.new_state(seats, dealer, options(**opts), carried_pot)


def hand(out: str | None = None, **results: Any) -> HandEntry:
    """A hand entry: a string is cards, an int is a spot total, None is sitting out."""
    entries = []
    for player, value in results.items():
        if value is None:
            entries.append(ResultEntry(player, sitting_out=True))
        elif isinstance(value, str):
            entries.append(ResultEntry(player, cards=value))
        else:
            entries.append(ResultEntry(player, spots=value))
    return HandEntry(results=tuple(entries), out=out)


def play(state: State, entry: HandEntry, opts: Mapping[str, Any] | None = None) -> HandOutcome:
    return GAME.play(state, entry, opts if opts is not None else DEFAULTS)


def balance_check(state: State) -> None:
    assert sum(state.scores.values()) + state.pot == state.carried_in


def rejected(state: State, entry: HandEntry, opts: Mapping[str, Any] | None = None) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, entry, opts)
    return caught.value


HAND_1 = hand(Enda="J-10", John="A-3", Rex="2-9", Finn="Q-K")
HAND_2 = hand(out="Enda", John="5-5-6", Rex="K", Finn="3-5")


# --- The worked example of RULES.md §2, against API.md's examples -------------------------------


def test_worked_example_hand_one_john_is_paid_51_and_the_20_unit_pot_stays() -> None:
    first = play(start(), HAND_1)

    assert (first.number, first.dealer, first.leader) == (1, "Finn", "Enda")
    assert first.winners == ("John",)
    assert first.out is None
    assert first.payments == (
        Movement("Enda", "John", 20),
        Movement("Rex", "John", 11),
        Movement("Finn", "John", 20),
    )
    assert [m for m in first.movements if m.target is None] == [
        Movement(p, None, 5) for p in ("Enda", "John", "Rex", "Finn")
    ]
    assert (first.pot_before, first.pot_after) == (20, 20)
    assert dict(first.state.scores) == {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}
    assert [(r.player, r.spots, r.points) for r in first.results] == [
        ("Enda", 20, None),
        ("John", 4, None),
        ("Rex", 11, None),
        ("Finn", 20, None),
    ]
    assert [str(c) for c in first.results[0].cards] == ["J", "10"]
    balance_check(first.state)


def test_worked_example_hand_two_enda_goes_out_and_collects_40_plus_16_10_8() -> None:
    first = play(start(), HAND_1)
    second = play(first.state, HAND_2)

    # The deal passes to the right: Finn, then Rex, then John.
    assert (second.number, second.dealer, second.leader) == (2, "Rex", "Finn")
    assert second.out == "Enda"
    assert second.winners == ("Enda",)
    assert second.pot_before == 40
    assert Movement(None, "Enda", 40) in second.movements
    assert sorted(second.payments, key=lambda m: m.units) == [
        Movement("Finn", "Enda", 8),
        Movement("Rex", "Enda", 10),
        Movement("John", "Enda", 16),
    ]
    assert second.pot_after == 0
    assert dict(second.state.scores) == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}
    assert second.state.hands_played == 2
    assert second.state.dealer == "John"
    assert second.results[0].spots == 0 and second.results[0].cards == ()
    balance_check(second.state)


def test_the_next_hand_is_dealt_by_john_and_led_by_rex_after_the_worked_example() -> None:
    state = play(play(start(), HAND_1).state, HAND_2).state
    third = play(state, hand(John="A", Enda="2", Rex="3", Finn="4"))
    assert (third.dealer, third.leader) == ("John", "Rex")


def test_results_come_back_in_seat_order_whatever_the_entry_order_and_name_case() -> None:
    entry = hand(finn="Q K", REX="2 9", john="A 3", enda="J 10")
    outcome = play(start(), entry)
    assert [r.player for r in outcome.results] == list(PUB)
    assert outcome.winners == ("John",)


def test_playing_a_hand_leaves_the_state_it_was_given_unchanged() -> None:
    state = start()
    before = state.to_dict()
    play(state, HAND_1)
    assert state.to_dict() == before


def test_the_state_survives_a_round_trip_through_a_dict_between_hands() -> None:
    state = State.from_dict(play(start(), HAND_1).state.to_dict())
    assert dict(play(state, HAND_2).state.scores) == {
        "Enda": 44,
        "John": 25,
        "Rex": -31,
        "Finn": -38,
    }


# --- The game and its options ------------------------------------------------------------------


def test_spot_is_a_money_game_for_two_to_six_players_who_may_come_and_go() -> None:
    assert get_game("spot") is GAME
    assert (GAME.key, GAME.name, GAME.money, GAME.open_seating) == ("spot", "Spot", True, True)
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.description and "\n" not in GAME.description


def test_the_defaults_are_an_ante_of_5_a_penny_a_unit_and_the_deal_passing_right() -> None:
    assert GAME.defaults() == {
        "ante": 5,
        "unit_value": "0.01",
        "currency": "EUR",
        "dealer_rotation": "right",
        "tie_remainder": "pot",
        "entry": "cards",
        "leftover_pot": "carry",
    }


def test_options_are_checked_and_cleaned() -> None:
    chosen = options(ante="10", unit_value="0,05", currency=" gbp ", dealer_rotation="left")
    assert chosen["ante"] == 10
    assert chosen["unit_value"] == "0.05"
    assert chosen["currency"] == "GBP"
    assert chosen["dealer_rotation"] == "left"
    assert options(ante=0)["ante"] == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ante", -1),
        ("ante", "five"),
        ("ante", True),
        ("unit_value", "abc"),
        ("unit_value", "0"),
        ("currency", "EURO"),
        ("currency", "E1R"),
        ("dealer_rotation", "up"),
        ("tie_remainder", "split"),
        ("entry", "melds"),
        ("leftover_pot", "keep"),
        ("target", 100),
    ],
)
def test_a_bad_option_is_refused_and_named(name: str, value: Any) -> None:
    with pytest.raises(RuleError) as caught:
        options(**{name: value})
    assert caught.value.field == f"options.{name}"


def test_an_ante_of_zero_puts_nothing_in_the_pot() -> None:
    state = start(ante=0)
    outcome = play(state, HAND_1, options(ante=0))
    assert outcome.pot_before == outcome.pot_after == 0
    assert all(m.target is not None for m in outcome.movements)
    assert dict(outcome.state.scores) == {"Enda": -20, "John": 51, "Rex": -11, "Finn": -20}
    assert outcome.state.pot_antes == {}


def test_a_bigger_ante_fills_the_pot_faster() -> None:
    outcome = play(start(), HAND_1, options(ante=25))
    assert outcome.pot_before == 100
    assert dict(outcome.state.scores)["John"] == -25 + 51


def test_with_the_deal_passing_left_finn_is_followed_by_enda() -> None:
    opts = options(dealer_rotation="left")
    first = play(start(dealer_rotation="left"), HAND_1, opts)
    assert first.state.dealer == "Enda"
    second = play(first.state, HAND_2, opts)
    assert (second.dealer, second.leader) == ("Enda", "John")
    assert second.state.dealer == "John"


def test_the_unit_value_and_currency_do_not_change_the_units() -> None:
    opts = options(unit_value="0.50", currency="GBP")
    assert play(start(), HAND_1, opts).state.scores == play(start(), HAND_1).state.scores


# --- Going out and the stock running out -------------------------------------------------------


def test_the_player_out_takes_the_pot_carried_from_earlier_hands() -> None:
    state = play(start(), HAND_1).state
    assert state.pot == 20
    outcome = play(state, hand(out="Rex", Enda="K", John="2", Finn="3"))
    assert Movement(None, "Rex", 40) in outcome.movements
    assert outcome.state.pot == 0
    assert outcome.state.pot_antes == {}
    balance_check(outcome.state)


def test_the_player_out_may_give_empty_cards_or_no_result_at_all() -> None:
    omitted = play(start(), hand(out="Enda", John="A", Rex="2", Finn="3"))
    empty = play(start(), hand(out="Enda", Enda="", John="A", Rex="2", Finn="3"))
    assert omitted.state == empty.state
    assert omitted.results[0].spots == 0


def test_a_pot_carried_in_from_last_session_is_won_by_the_first_player_out() -> None:
    state = start(carried_pot=33)
    assert state.pot == state.carried_in == 33
    outcome = play(state, hand(out="John", Enda="A", Rex="2", Finn="3"))
    assert Movement(None, "John", 53) in outcome.movements
    assert sum(outcome.state.scores.values()) + outcome.state.pot == 33


def test_two_players_can_play_spot() -> None:
    outcome = play(start(("Ann", "Bob"), "Ann"), hand(out="Bob", Ann="K Q"))
    assert dict(outcome.state.scores) == {"Ann": -25, "Bob": 25}
    assert outcome.leader == "Bob"
    assert outcome.state.dealer == "Bob"


def test_nobody_out_the_lowest_total_wins_and_the_pot_carries_on() -> None:
    outcome = play(start(), hand(Enda="A", John="K", Rex="Q", Finn="5"))
    assert outcome.winners == ("Enda",)
    assert outcome.payments == (
        Movement("John", "Enda", 10),
        Movement("Rex", "Enda", 10),
        Movement("Finn", "Enda", 5),
    )
    assert outcome.pot_after == 20
    assert outcome.state.pot_antes == {p: 5 for p in PUB}


# --- Ties --------------------------------------------------------------------------------------

# Enda and John tie on 4; Rex (7) and Finn (12) pay 19 between them.
TIE = hand(Enda="4", John="A-3", Rex="2-5", Finn="K-2")


def test_tied_winners_share_the_payments_and_the_odd_unit_goes_to_the_pot() -> None:
    outcome = play(start(), TIE)
    assert outcome.winners == ("Enda", "John")
    # Payers in playing order fill each winner's share in turn; the odd unit goes in last.
    assert outcome.movements[4:] == (
        Movement("Rex", "Enda", 7),
        Movement("Finn", "Enda", 2),
        Movement("Finn", "John", 9),
        Movement("Finn", None, 1),
    )
    assert outcome.pot_after == 21
    assert dict(outcome.state.scores) == {"Enda": 4, "John": 4, "Rex": -12, "Finn": -17}
    balance_check(outcome.state)


def test_with_first_winner_the_odd_unit_goes_to_the_first_winner_from_the_dealers_left() -> None:
    opts = options(tie_remainder="first_winner")
    outcome = play(start(), TIE, opts)
    assert outcome.movements[4:] == (
        Movement("Rex", "Enda", 7),
        Movement("Finn", "Enda", 3),
        Movement("Finn", "John", 9),
    )
    assert outcome.pot_after == 20
    assert dict(outcome.state.scores) == {"Enda": 5, "John": 4, "Rex": -12, "Finn": -17}


def test_the_first_winner_is_counted_from_the_dealers_left_not_from_the_first_seat() -> None:
    opts = options(tie_remainder="first_winner")
    # Enda deals, so John plays first and gets the odd unit.
    outcome = play(start(dealer="Enda"), TIE, opts)
    assert outcome.winners == ("John", "Enda")
    assert dict(outcome.state.scores) == {"Enda": 4, "John": 5, "Rex": -12, "Finn": -17}


def test_three_tied_winners_leave_two_odd_units() -> None:
    entry = hand(Enda="2", John="A A", Rex="2", Finn="K A")
    pot = play(start(), entry)
    assert pot.winners == ("Enda", "John", "Rex")
    assert pot.pot_after == 22
    assert [m for m in pot.movements if m.source == "Finn"] == [
        Movement("Finn", None, 5),
        Movement("Finn", "Enda", 3),
        Movement("Finn", "John", 3),
        Movement("Finn", "Rex", 3),
        Movement("Finn", None, 2),
    ]
    first = play(start(), entry, options(tie_remainder="first_winner"))
    assert [first.state.scores[p] for p in PUB] == [-5 + 4, -5 + 4, -5 + 3, -5 - 11]
    assert first.pot_after == 20


def test_a_tie_whose_losers_pay_less_than_one_unit_per_winner_puts_it_all_in_the_pot() -> None:
    outcome = play(start(), hand(Enda="AS", John="AH", Rex="AD", Finn="2"))
    assert outcome.payments == ()
    assert Movement("Finn", None, 2) in outcome.movements
    assert outcome.pot_after == 22


def test_when_everyone_ties_nobody_pays_and_the_antes_stay_in_the_pot() -> None:
    outcome = play(start(), hand(Enda="5", John="2 3", Rex="A 4", Finn="A A 3"))
    assert outcome.winners == PUB
    assert outcome.payments == ()
    assert outcome.pot_after == 20
    assert dict(outcome.state.scores) == {p: -5 for p in PUB}


# --- Sitting out, joining and leaving ----------------------------------------------------------


def test_a_player_sitting_out_pays_no_ante_and_nothing_else() -> None:
    outcome = play(start(), hand(Enda=None, John="A-3", Rex="2-9", Finn="Q-K"))
    assert outcome.pot_before == 15
    assert outcome.leader == "John"  # Enda, on the dealer's left, sits out
    assert not any("Enda" in (m.source, m.target) for m in outcome.movements)
    assert dict(outcome.state.scores) == {"Enda": 0, "John": 26, "Rex": -16, "Finn": -25}
    assert outcome.results[0].sitting_out and outcome.results[0].spots is None
    assert "Enda" not in outcome.state.pot_antes


def test_the_dealer_may_sit_out_and_still_passes_the_deal_on() -> None:
    outcome = play(start(), hand(Enda="J-10", John="A-3", Rex="2-9", Finn=None))
    assert outcome.dealer == "Finn"
    assert outcome.state.dealer == "Rex"
    assert outcome.pot_before == 15


def test_a_player_sitting_out_cannot_also_give_cards() -> None:
    entry = HandEntry(
        results=(
            ResultEntry("Enda", cards="K", sitting_out=True),
            ResultEntry("John", cards="A"),
            ResultEntry("Rex", cards="2"),
            ResultEntry("Finn", cards="3"),
        )
    )
    error = rejected(start(), entry)
    assert error.players == ("Enda",)
    assert error.field == "results[0]"


def test_a_player_sitting_out_cannot_go_out() -> None:
    error = rejected(start(), hand(out="Enda", Enda=None, John="A", Rex="2", Finn="3"))
    assert error.field == "out"


def test_a_hand_needs_at_least_two_players_dealt_in() -> None:
    error = rejected(start(), hand(Enda=None, John=None, Rex=None, Finn="3"))
    assert "two players" in error.message


def test_a_player_who_joins_between_hands_antes_from_the_next_hand() -> None:
    state = play(start(), HAND_1).state
    state = join(GAME, state, "Maeve", after="John")
    assert state.seats == ("Enda", "John", "Maeve", "Rex", "Finn")
    outcome = play(state, hand(out="Maeve", Enda="A", John="2", Rex="3", Finn="4"))
    assert outcome.pot_before == 45
    assert outcome.state.scores["Maeve"] == -5 + 45 + 1 + 2 + 3 + 4
    balance_check(outcome.state)


def test_a_player_who_leaves_keeps_their_balance_and_the_deal_moves_on() -> None:
    state = play(start(), HAND_1).state  # Rex deals next
    state = leave(GAME, state, "Rex", pass_deal=-1)
    assert state.seats == ("Enda", "John", "Finn")
    assert state.dealer == "John"
    assert state.scores["Rex"] == -16
    outcome = play(state, hand(out="Finn", Enda="A", John="2"))
    assert outcome.state.scores["Rex"] == -16
    assert (outcome.dealer, outcome.leader) == ("John", "Finn")
    balance_check(outcome.state)


def test_when_the_next_dealer_leaves_the_deal_passes_on_in_the_sessions_direction() -> None:
    state = play(start(dealer_rotation="left"), HAND_1, options(dealer_rotation="left")).state
    assert state.dealer == "Enda"
    assert leave(GAME, state, "Enda", options(dealer_rotation="left")).dealer == "John"
    assert leave(GAME, state, "Enda", options(dealer_rotation="right")).dealer == "Finn"
    assert leave(GAME, state, "Enda").dealer == "Finn"  # the default passes to the right


def test_a_player_who_left_cannot_be_given_a_result() -> None:
    state = leave(GAME, start(), "Rex", pass_deal=-1)
    error = rejected(state, hand(Enda="A", John="2", Rex="3", Finn="4"))
    assert error.field == "results[2].player"


# --- Mistakes in an entry ------------------------------------------------------------------------


def test_only_one_player_can_go_out() -> None:
    error = rejected(start(), hand(out="Enda", John="", Rex="2", Finn="3"))
    assert "Only one player can go out" in error.message
    assert set(error.players) == {"Enda", "John"}
    assert error.field == "results[0].cards"


def test_two_players_with_no_cards_and_nobody_marked_out_is_two_out() -> None:
    error = rejected(start(), hand(Enda="", John="", Rex="2", Finn="3"))
    assert error.players == ("Enda", "John")


def test_a_player_with_no_cards_must_be_the_one_marked_out() -> None:
    error = rejected(start(), hand(Enda="A", John="", Rex="2", Finn="3"))
    assert error.players == ("John",)
    assert error.field == "results[1].cards"
    assert "mark John as out" in error.message


def test_the_player_out_cannot_have_cards_left() -> None:
    error = rejected(start(), hand(out="John", Enda="A", John="K", Rex="2", Finn="3"))
    assert error.players == ("John",)
    assert error.field == "results[1].cards"


def test_a_hand_ends_with_at_most_eight_cards() -> None:
    play(start(), hand(Enda="A 2 3 4 5 6 7 8", John="K", Rex="Q", Finn="J"))
    error = rejected(start(), hand(Enda="A 2 3 4 5 6 7 8 9", John="K", Rex="Q", Finn="J"))
    assert error.field == "results[0].cards"
    assert "9 cards" in error.message and "at most 8" in error.message


def test_a_card_can_only_be_in_one_hand() -> None:
    error = rejected(start(), hand(Enda="QS 2", John="A", Rex="QS", Finn="3"))
    assert error.players == ("Enda", "Rex")
    assert error.field == "results[0].cards"
    assert "Q♠" in error.message


def test_no_rank_more_than_four_times_in_a_hand() -> None:
    error = rejected(start(), hand(Enda="5 5 5", John="5 5", Rex="2", Finn="3"))
    assert set(error.players) == {"Enda", "John"}


def test_a_bad_card_is_named_with_its_player_and_field() -> None:
    error = rejected(start(), hand(Enda="A", John="2", Rex="11", Finn="3"))
    assert error.field == "results[2].cards"
    assert error.players == ("Rex",)
    assert "'11'" in error.message


def test_spot_has_no_jokers() -> None:
    error = rejected(start(), hand(Enda="JK", John="2", Rex="3", Finn="4"))
    assert "joker" in error.message


def test_an_unknown_player_is_refused() -> None:
    error = rejected(start(), hand(Enda="A", John="2", Rex="3", Finn="4", Maeve="5"))
    assert error.field == "results[4].player"


def test_a_missing_player_is_refused() -> None:
    error = rejected(start(), hand(Enda="A", John="2", Rex="3"))
    assert error.players == ("Finn",)


def test_an_unknown_player_out_is_refused() -> None:
    error = rejected(start(), hand(out="Maeve", Enda="A", John="2", Rex="3", Finn="4"))
    assert error.field == "out"


def test_melds_are_not_part_of_spot() -> None:
    body = {
        "results": [
            {"player": "Enda", "melds": ["A A A"]},
            {"player": "John", "cards": "2"},
            {"player": "Rex", "cards": "3"},
            {"player": "Finn", "cards": "4"},
        ]
    }
    with pytest.raises(RuleError) as caught:
        spot.GAME.read_entry(body)
    assert caught.value.field == "results[0].melds"
    assert caught.value.message == "Spot takes no melds in a player's result."


def test_no_hand_can_be_added_once_the_session_is_finished() -> None:
    done = spot.finish(start(), DEFAULTS, "carry").state
    error = rejected(done, HAND_1)
    assert "finished" in error.message


# --- Spot totals instead of cards --------------------------------------------------------------


def test_a_session_that_wants_cards_refuses_a_spot_total() -> None:
    error = rejected(start(), hand(Enda="J 10", John="A 3", Rex=11, Finn="Q K"))
    assert error.field == "results[2].spots"
    assert error.players == ("Rex",)
    assert "cards" in error.message


def test_with_totals_a_player_may_give_a_total_or_cards() -> None:
    opts = options(entry="totals")
    outcome = play(start(), hand(Enda=20, John="A 3", Rex=11, Finn=20), opts)
    assert outcome.state.scores == play(start(), HAND_1).state.scores
    assert outcome.results[0].cards == () and outcome.results[0].spots == 20


def test_with_totals_the_player_out_may_give_zero() -> None:
    opts = options(entry="totals")
    outcome = play(start(), hand(out="Enda", Enda=0, John=16, Rex=10, Finn=8), opts)
    assert outcome.state.scores["Enda"] == -5 + 20 + 34


def test_the_player_out_may_say_zero_spots_even_when_cards_are_asked_for() -> None:
    outcome = play(start(), hand(out="Enda", Enda=0, John="K", Rex="2", Finn="3"))
    assert outcome.winners == ("Enda",)


@pytest.mark.parametrize("total", [81, 0, -1, 100])
def test_a_spot_total_runs_from_1_to_80(total: int) -> None:
    opts = options(entry="totals")
    error = rejected(start(), hand(Enda="A", John=total, Rex="2", Finn="3"), opts)
    assert error.field == "results[1].spots"
    assert error.players == ("John",)
    assert error.message == f"John's spot total must be from 1 to 80, not {total}."


def test_a_spot_total_of_80_is_the_most_a_hand_can_hold() -> None:
    outcome = play(start(), hand(Enda="A", John=80, Rex="2", Finn="3"), options(entry="totals"))
    assert outcome.results[1].spots == 80


def test_a_total_of_zero_is_only_for_the_player_out() -> None:
    opts = options(entry="totals")
    error = rejected(start(), hand(out="Enda", Enda=0, John=0, Rex="2", Finn="3"), opts)
    assert (error.field, error.players) == ("results[1].spots", ("John",))
    assert "from 1 to 80" in error.message
    error = rejected(start(), hand(out="John", Enda="A", John=4, Rex="2", Finn="3"), opts)
    assert error.field == "results[1].spots"


def test_going_rummy_is_not_part_of_spot() -> None:
    entry = HandEntry(HAND_2.results, out="Enda", rummy=True)
    error = rejected(start(), entry)
    assert error.field == "rummy"
    assert error.message == "Spot has no going-rummy bonus: mark the player who went out as out."


@pytest.mark.parametrize("total", [True, 4.0, "4"])
def test_a_spot_total_must_be_a_whole_number(total: Any) -> None:
    opts = options(entry="totals")
    entry = HandEntry(
        results=(
            ResultEntry("Enda", cards="A"),
            ResultEntry("John", spots=total),
            ResultEntry("Rex", cards="2"),
            ResultEntry("Finn", cards="3"),
        )
    )
    assert rejected(start(), entry, opts).field == "results[1].spots"


# --- The end of the night ------------------------------------------------------------------------


def test_carry_keeps_the_pot_for_the_next_session() -> None:
    state = play(start(), HAND_1).state
    finished = spot.finish(state, DEFAULTS, "carry")
    assert finished.movements == ()
    assert finished.state.finished
    assert finished.state.pot == 20
    assert finished.state.scores == state.scores
    balance_check(finished.state)
    # The carried pot opens the group's next session.
    assert start(carried_pot=finished.state.pot).pot == 20


def test_the_end_of_night_choice_defaults_to_the_session_option() -> None:
    state = play(start(), HAND_1).state
    assert spot.finish(state, DEFAULTS, None).state.pot == 20
    refunded = spot.finish(state, options(leftover_pot="refund"), None)
    assert refunded.state.pot == 0


def test_refund_gives_back_the_antes_paid_since_the_pot_was_last_won() -> None:
    state = play(start(), HAND_1).state
    state = play(state, hand(Enda=None, John="A", Rex="2", Finn="3")).state
    assert state.pot == 35
    finished = spot.finish(state, DEFAULTS, "refund")
    assert sorted(finished.movements, key=lambda m: str(m.target)) == [
        Movement(None, "Enda", 5),
        Movement(None, "Finn", 10),
        Movement(None, "John", 10),
        Movement(None, "Rex", 10),
    ]
    assert finished.state.pot == 0
    assert finished.state.pot_antes == {}
    assert finished.state.finished
    balance_check(finished.state)


def test_refund_after_the_pot_was_won_returns_only_the_later_antes() -> None:
    state = play(play(start(), HAND_1).state, HAND_2).state
    state = play(state, hand(Enda="A", John="2", Rex="3", Finn="4")).state
    finished = spot.finish(state, DEFAULTS, "refund")
    assert {m.target: m.units for m in finished.movements} == {p: 5 for p in PUB}


def test_refund_shares_tie_remainders_and_the_odd_unit_stays_in_the_pot() -> None:
    state = play(start(), TIE).state  # pot 21: 20 in antes and 1 odd unit
    finished = spot.finish(state, DEFAULTS, "refund")
    assert {m.target: m.units for m in finished.movements} == {p: 5 for p in PUB}
    assert finished.state.pot == 1
    balance_check(finished.state)


def carried_from(finished: State, seats: tuple[str, ...], dealer: str = "Finn") -> State:
    """The group's next session, opened with the pot and the antes a finished one left."""
    return GAME.new_state(seats, dealer, DEFAULTS, finished.pot, carried_antes=finished.pot_antes)


def test_a_carried_pot_brings_the_antes_paid_into_it() -> None:
    last_night = spot.finish(play(start(), HAND_1).state, DEFAULTS, "carry").state
    assert last_night.pot_antes == {p: 5 for p in PUB}

    tonight = carried_from(last_night, ("Enda", "John", "Maeve"), dealer="Maeve")
    assert (tonight.pot, tonight.carried_in) == (20, 20)
    assert tonight.pot_antes == {p: 5 for p in PUB}
    balance_check(tonight)


def test_refund_of_a_carried_pot_goes_back_to_the_players_who_paid_it() -> None:
    last_night = spot.finish(play(start(), HAND_1).state, DEFAULTS, "carry").state
    tonight = carried_from(last_night, ("Enda", "John", "Maeve"), dealer="Maeve")
    state = play(tonight, hand(Enda="2", John="3", Maeve="4")).state  # pot 20 + 15

    finished = spot.finish(state, DEFAULTS, "refund")

    # Enda and John get last night's antes and tonight's; Maeve only tonight's. Rex's and
    # Finn's antes from last night stay in the pot, and it still knows they are theirs.
    assert {m.target: m.units for m in finished.movements} == {
        "Enda": 10,
        "John": 10,
        "Maeve": 5,
    }
    assert finished.state.pot == 10
    assert finished.state.pot_antes == {"Rex": 5, "Finn": 5}
    balance_check(finished.state)

    # When Rex and Finn next play, a refund gives them their antes back.
    next_night = carried_from(finished.state, ("Rex", "Finn", "Maeve"))
    refunded = spot.finish(next_night, DEFAULTS, "refund")
    assert {m.target: m.units for m in refunded.movements} == {"Rex": 5, "Finn": 5}
    assert (refunded.state.pot, refunded.state.pot_antes) == (0, {})
    balance_check(refunded.state)


def test_refund_gives_a_player_who_paid_nothing_into_the_pot_nothing_of_it() -> None:
    last_night = spot.finish(play(start(), HAND_1).state, DEFAULTS, "carry").state
    tonight = carried_from(last_night, ("Enda", "Maeve"), dealer="Maeve")

    finished = spot.finish(tonight, DEFAULTS, "refund")

    assert finished.movements == (Movement(None, "Enda", 5),)
    assert finished.state.scores == {"Enda": 5, "Maeve": 0}
    assert finished.state.pot == 15
    assert finished.state.pot_antes == {"John": 5, "Rex": 5, "Finn": 5}


def test_a_carried_pot_that_is_won_takes_its_antes_with_it() -> None:
    last_night = spot.finish(play(start(), HAND_1).state, DEFAULTS, "carry").state
    state = play(carried_from(last_night, PUB), HAND_2).state  # Enda goes out: pot won
    state = play(state, hand(Enda="A", John="2", Rex="3", Finn="4")).state

    finished = spot.finish(state, DEFAULTS, "refund")

    assert {m.target: m.units for m in finished.movements} == {p: 5 for p in PUB}
    assert (finished.state.pot, finished.state.pot_antes) == (0, {})


def test_refund_shares_a_pot_carried_with_no_record_of_its_antes_among_the_players_refunded() -> (
    None
):
    # A pot carried before the antes were recorded with it: nobody can say whose it is.
    opts = options(tie_remainder="first_winner", ante=1)
    state = start(carried_pot=10, tie_remainder="first_winner")  # Finn deals first
    state = play(state, HAND_1, opts).state  # Rex deals next, so Finn is first to play
    assert state.pot == 14
    finished = spot.finish(state, opts, "refund")
    # 4 antes back and 10 unrecorded: 2 each and one more for Finn then Enda.
    assert {m.target: m.units for m in finished.movements} == {
        "Finn": 4,
        "Enda": 4,
        "John": 3,
        "Rex": 3,
    }
    assert finished.state.pot == 0
    assert sum(finished.state.scores.values()) == 10


def test_refund_shares_only_what_is_beyond_every_recorded_ante() -> None:
    # Last night's pot: 20 in antes and 1 odd unit from a tie, carried on.
    last_night = spot.finish(play(start(), TIE).state, DEFAULTS, "carry").state
    assert (last_night.pot, sum(last_night.pot_antes.values())) == (21, 20)
    opts = options(tie_remainder="first_winner")
    tonight = GAME.new_state(
        ("Enda", "John"), "John", opts, last_night.pot, carried_antes=last_night.pot_antes
    )

    finished = spot.finish(tonight, opts, "refund")

    # The odd unit is shared as a tie's: Enda plays first. Rex's and Finn's antes are theirs.
    assert {m.target: m.units for m in finished.movements} == {"Enda": 6, "John": 5}
    assert (finished.state.pot, finished.state.pot_antes) == (10, {"Rex": 5, "Finn": 5})


@pytest.mark.parametrize(
    "antes, pot",
    [
        ({"Enda": 15, "John": 10}, 20),  # more antes than the pot holds
        ({"Enda": 10}, 0),
        ({"Enda": -5}, 20),
        ({"Enda": 2.5}, 20),
        ({"Enda": True}, 20),
        ({"": 5}, 20),
    ],
)
def test_antes_carried_in_must_be_whole_units_the_carried_pot_holds(
    antes: dict[str, Any], pot: int
) -> None:
    with pytest.raises(RuleError) as caught:
        GAME.new_state(PUB, "Finn", DEFAULTS, pot, carried_antes=antes)
    assert caught.value.field == "carried_antes"
    assert caught.value.message.endswith(".")


def test_antes_of_nothing_carried_in_are_not_kept() -> None:
    state = GAME.new_state(PUB, "Finn", DEFAULTS, 10, carried_antes={"Enda": 10, "John": 0})
    assert state.pot_antes == {"Enda": 10}


def test_refund_includes_a_player_who_has_left_the_table() -> None:
    state = play(start(), HAND_1).state
    state = leave(GAME, state, "Enda", pass_deal=-1)
    finished = spot.finish(state, DEFAULTS, "refund")
    assert Movement(None, "Enda", 5) in finished.movements
    assert finished.state.scores["Enda"] == -20


def test_refund_with_no_antes_paid_carries_the_pot_whole() -> None:
    finished = spot.finish(start(carried_pot=7), DEFAULTS, "refund")
    assert finished.movements == ()
    assert finished.state.pot == 7


def test_finishing_twice_or_with_an_unknown_choice_is_refused() -> None:
    with pytest.raises(RuleError) as caught:
        spot.finish(start(), DEFAULTS, "keep")
    assert caught.value.field == "leftover_pot"
    done = spot.finish(start(), DEFAULTS, "carry").state
    with pytest.raises(RuleError):
        spot.finish(done, DEFAULTS, "refund")
