"""Spots, the Dutch house rules (RULES.md §3): penalty points over a game of fixed length."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from ledger.rules import spots
from ledger.rules.base import HandEntry, HandOutcome, ResultEntry, State
from ledger.rules.errors import RuleError
from ledger.rules.game import Progress, join, leave
from ledger.rules.registry import get_game

GAME = spots.GAME
FOUR = ("Anna", "Bram", "Cees", "Dirk")
FIVE = ("Anna", "Bram", "Cees", "Dirk", "Eva")
CARDS = GAME.defaults()
TOTALS = GAME.check_options({"entry": "totals"})


def start(seats: tuple[str, ...] = FOUR, dealer: str = "Anna") -> State:
    return GAME.new_state(seats, dealer, CARDS)


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


def play(state: State, entry: HandEntry, opts: Mapping[str, Any] = CARDS) -> HandOutcome:
    return GAME.play(state, entry, opts)


def progress(state: State) -> tuple[int, int, int, int] | None:
    where = spots.progress(state, CARDS)
    return None if where is None else (where.round, where.hand, where.hands_in_round, where.rounds)


def rejected(state: State, entry: HandEntry, opts: Mapping[str, Any] = CARDS) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, entry, opts)
    return caught.value


# --- The game ----------------------------------------------------------------------------------


def test_spots_is_a_points_game_for_three_to_five_players_with_fixed_seats() -> None:
    assert get_game("spots") is GAME
    assert (GAME.key, GAME.name, GAME.money, GAME.open_seating) == ("spots", "Spots", False, False)
    assert (GAME.min_players, GAME.max_players) == (3, 5)
    assert GAME.defaults() == {
        "entry": "cards",
        **{"stake": 0, "unit_value": "0.01", "currency": "EUR", "payout": "winner"},
    }
    assert GAME.description and "\n" not in GAME.description


@pytest.mark.parametrize("seats", [("Anna", "Bram"), (*FIVE, "Femke")])
def test_spots_refuses_two_or_six_players(seats: tuple[str, ...]) -> None:
    with pytest.raises(RuleError):
        start(seats)


def test_a_pot_carried_from_spot_does_not_open_a_game_of_spots() -> None:
    state = GAME.new_state(FOUR, "Anna", CARDS, 40, carried_antes={"Anna": 40})
    assert (state.pot, state.carried_in, state.pot_antes) == (0, 0, {})
    assert dict(state.scores) == {p: 0 for p in FOUR}


def test_nobody_can_join_or_leave_a_game_of_spots() -> None:
    with pytest.raises(RuleError):
        join(GAME, start(), "Eva", after="Anna")
    with pytest.raises(RuleError):
        leave(GAME, start(), "Anna", pass_deal=1)


# --- Scoring a hand ------------------------------------------------------------------------------


def test_everyone_adds_their_own_spots_and_the_player_out_adds_nothing() -> None:
    outcome = play(start(), hand(out="Bram", Anna="A 7 10 Q", Cees="K", Dirk="2 3"))
    assert [(r.player, r.spots, r.points) for r in outcome.results] == [
        ("Anna", 28, 28),
        ("Bram", 0, 0),
        ("Cees", 10, 10),
        ("Dirk", 5, 5),
    ]
    assert dict(outcome.state.scores) == {"Anna": 28, "Bram": 0, "Cees": 10, "Dirk": 5}
    assert outcome.winners == ("Bram",)
    assert outcome.movements == () and outcome.payments == ()
    assert outcome.pot_before is None and outcome.pot_after is None


def test_a_dubbel_is_entered_as_going_out() -> None:
    outcome = play(start(), hand(out="Cees", Anna="K", Bram="Q", Cees="", Dirk="J"))
    assert outcome.out == "Cees"
    assert outcome.state.scores["Cees"] == 0


def test_when_nobody_goes_out_everyone_adds_their_spots_and_the_lowest_wins_the_hand() -> None:
    outcome = play(start(), hand(Anna="K", Bram="2", Cees="2", Dirk="9"))
    assert outcome.out is None
    assert outcome.winners == ("Bram", "Cees")
    assert dict(outcome.state.scores) == {"Anna": 10, "Bram": 2, "Cees": 2, "Dirk": 9}


def test_the_deal_passes_clockwise_and_the_player_left_of_the_dealer_leads() -> None:
    outcome = play(start(dealer="Cees"), hand(out="Dirk", Anna="K", Bram="2", Cees="3"))
    assert (outcome.dealer, outcome.leader) == ("Cees", "Dirk")
    assert outcome.state.dealer == "Dirk"


def test_totals_add_up_over_the_hands() -> None:
    state = play(start(), hand(out="Bram", Anna="K", Cees="2", Dirk="3")).state
    state = play(state, hand(out="Anna", Bram="K", Cees="2", Dirk="3")).state
    assert dict(state.scores) == {"Anna": 10, "Bram": 10, "Cees": 4, "Dirk": 6}


def test_with_totals_a_player_may_give_a_spot_total_or_cards() -> None:
    outcome = play(start(), hand(out="Anna", Anna=0, Bram=28, Cees="K", Dirk=80), TOTALS)
    assert dict(outcome.state.scores) == {"Anna": 0, "Bram": 28, "Cees": 10, "Dirk": 80}


# --- Whole games ---------------------------------------------------------------------------------


def test_a_four_player_game_is_two_rounds_of_four_hands_and_the_lowest_total_wins() -> None:
    hands = [
        hand(out="Bram", Anna="K", Cees="2 3", Dirk="A"),
        hand(out="Cees", Anna="5", Bram="Q J", Dirk="4"),
        hand(out="Dirk", Anna="A", Bram="2", Cees="3"),
        hand(Anna="7", Bram="8", Cees="9", Dirk="10"),
        hand(out="Anna", Bram="A", Cees="A", Dirk="A"),
        hand(out="Bram", Anna="2", Cees="2", Dirk="2"),
        hand(out="Cees", Anna="K Q", Bram="3", Dirk="3"),
        hand(out="Dirk", Anna="J", Bram="4", Cees="4"),
    ]
    state = start()
    seen = []
    for entry in hands:
        seen.append((progress(state), state.dealer))
        outcome = play(state, entry)
        assert outcome.leader == FOUR[(FOUR.index(state.dealer) + 1) % 4]
        assert not outcome.state.finished or outcome.number == 8
        state = outcome.state
    assert seen == [
        ((1, 1, 4, 2), "Anna"),
        ((1, 2, 4, 2), "Bram"),
        ((1, 3, 4, 2), "Cees"),
        ((1, 4, 4, 2), "Dirk"),
        ((2, 1, 4, 2), "Anna"),
        ((2, 2, 4, 2), "Bram"),
        ((2, 3, 4, 2), "Cees"),
        ((2, 4, 4, 2), "Dirk"),
    ]
    assert dict(state.scores) == {"Anna": 55, "Bram": 38, "Cees": 24, "Dirk": 21}
    assert state.finished and state.hands_played == 8
    assert state.winners == ("Dirk",)
    assert progress(state) is None


def test_a_three_player_game_is_three_rounds_of_three_hands() -> None:
    state = start(("Anna", "Bram", "Cees"), "Cees")
    dealers = []
    for n in range(9):
        assert spots.progress(state, CARDS) == Progress(n // 3 + 1, n % 3 + 1, 3, 3)
        dealers.append(state.dealer)
        # The player left of the dealer goes out; the other two hold 5 and 7 spots.
        out = ("Anna", "Bram", "Cees")[n % 3]
        rest = [p for p in ("Anna", "Bram", "Cees") if p != out]
        outcome = play(state, hand(out=out, **{rest[0]: 5, rest[1]: 7}), TOTALS)
        assert outcome.leader == out
        state = outcome.state
        assert state.finished == (n == 8)
    assert dealers == ["Cees", "Anna", "Bram"] * 3
    assert dict(state.scores) == {"Anna": 30, "Bram": 36, "Cees": 42}
    assert state.winners == ("Anna",)
    assert spots.progress(state, CARDS) is None


def test_equal_lowest_totals_share_the_win() -> None:
    state = start(("Anna", "Bram", "Cees"), "Anna")
    for n in range(9):
        out = ("Bram", "Cees", "Anna")[n % 3]
        others = {p: 6 for p in ("Anna", "Bram", "Cees") if p != out}
        state = play(state, hand(out=out, **others), TOTALS).state
    assert dict(state.scores) == {"Anna": 36, "Bram": 36, "Cees": 36}
    assert state.winners == ("Anna", "Bram", "Cees")


def test_a_five_player_game_is_two_rounds_of_five_hands_and_the_dealer_sits_out() -> None:
    state = start(FIVE, "Anna")
    dealers = []
    for n in range(10):
        assert spots.progress(state, CARDS) == Progress(n // 5 + 1, n % 5 + 1, 5, 2)
        dealer = state.dealer
        dealers.append(dealer)
        at = FIVE.index(dealer)
        out, first, second, third = (FIVE[(at + k) % 5] for k in range(1, 5))
        results: dict[str, Any] = {first: 1, second: 2, third: 30 if n == 9 else 3}
        if n % 2:  # the dealer's result may be left out or given as sitting out
            results[dealer] = None
        outcome = play(state, hand(out=out, **results), TOTALS)
        assert outcome.leader == out
        sat_out = [r.player for r in outcome.results if r.sitting_out]
        assert sat_out == [dealer]
        assert outcome.results[at].points is None
        state = outcome.state
    assert dealers == list(FIVE) * 2
    # Each player was twice dealer, twice out, and twice each of 1, 2 and 3 spots; Dirk held
    # 30 instead of 3 in the last hand.
    assert dict(state.scores) == {"Anna": 12, "Bram": 12, "Cees": 12, "Dirk": 39, "Eva": 12}
    assert state.finished and state.winners == ("Anna", "Bram", "Cees", "Eva")
    assert spots.progress(state, CARDS) is None


def test_no_hand_can_be_added_to_a_finished_game() -> None:
    state = start(("Anna", "Bram", "Cees"), "Anna")
    for _ in range(9):
        state = play(state, hand(out="Anna", Bram=4, Cees=5), TOTALS).state
    with pytest.raises(RuleError) as caught:
        play(state, hand(out="Anna", Bram=4, Cees=5), TOTALS)
    assert caught.value.message == "The game is over: no more hands can be added."


# --- Sitting out ---------------------------------------------------------------------------------


def test_the_five_player_dealer_may_be_given_as_empty_cards() -> None:
    outcome = play(start(FIVE), hand(out="Bram", Anna="", Cees="2", Dirk="3", Eva="4"))
    assert outcome.results[0].sitting_out


def test_the_five_player_dealer_has_no_cards_to_enter() -> None:
    error = rejected(start(FIVE), hand(out="Bram", Anna="K", Cees="2", Dirk="3", Eva="4"))
    assert error.players == ("Anna",)
    assert error.field == "results[0].cards"
    assert "Anna deals" in error.message


def test_the_five_player_dealer_cannot_sit_out_and_give_cards() -> None:
    entry = HandEntry(
        results=(
            ResultEntry("Anna", cards="K", sitting_out=True),
            ResultEntry("Bram", cards="2"),
            ResultEntry("Cees", cards="3"),
            ResultEntry("Dirk", cards="4"),
            ResultEntry("Eva", cards="5"),
        )
    )
    assert rejected(start(FIVE), entry).players == ("Anna",)


def test_the_five_player_dealer_cannot_go_out() -> None:
    error = rejected(start(FIVE), hand(out="Anna", Bram="2", Cees="3", Dirk="4", Eva="5"))
    assert error.field == "out"
    assert error.players == ("Anna",)


def test_with_five_players_only_the_dealer_sits_out() -> None:
    error = rejected(start(FIVE), hand(out="Bram", Cees=None, Dirk="3", Eva="4"))
    assert error.players == ("Cees",)
    assert error.field == "results[0].sitting_out"


def test_with_four_players_nobody_sits_out() -> None:
    error = rejected(start(), hand(out="Bram", Anna=None, Cees="3", Dirk="4"))
    assert error.players == ("Anna",)


def test_with_four_players_the_dealer_plays_and_must_have_a_result() -> None:
    error = rejected(start(), hand(out="Bram", Cees="3", Dirk="4"))
    assert error.players == ("Anna",)


# --- Mistakes ------------------------------------------------------------------------------------


def test_only_one_player_can_go_out_in_spots() -> None:
    error = rejected(start(), hand(out="Bram", Anna="", Cees="3", Dirk="4"))
    assert set(error.players) == {"Anna", "Bram"}


def test_the_player_out_has_no_cards_left_in_spots() -> None:
    error = rejected(start(), hand(out="Bram", Anna="2", Bram="K", Cees="3", Dirk="4"))
    assert error.field == "results[1].cards"


def test_a_spots_hand_ends_with_at_most_eight_cards() -> None:
    error = rejected(start(), hand(out="Bram", Anna="A 2 3 4 5 6 7 8 9", Cees="3", Dirk="4"))
    assert error.field == "results[0].cards"


def test_two_players_cannot_hold_the_same_card_in_spots() -> None:
    error = rejected(start(), hand(out="Bram", Anna="7H", Cees="7h", Dirk="4"))
    assert error.players == ("Anna", "Cees")


def test_a_spots_session_that_wants_cards_refuses_totals() -> None:
    error = rejected(start(), hand(out="Bram", Anna=12, Cees="3", Dirk="4"))
    assert error.field == "results[0].spots"


@pytest.mark.parametrize("total", [81, 0])
def test_a_spots_total_runs_from_1_to_80(total: int) -> None:
    error = rejected(start(), hand(out="Bram", Anna=total, Cees="3", Dirk="4"), TOTALS)
    assert (error.field, error.players) == ("results[0].spots", ("Anna",))
    assert error.message == f"Anna's spot total must be from 1 to 80, not {total}."


def test_going_rummy_is_not_part_of_spots() -> None:
    entry = hand(out="Bram", Anna="2", Cees="3", Dirk="4")
    error = rejected(start(), HandEntry(entry.results, out="Bram", rummy=True))
    assert error.field == "rummy"
    assert error.message == "Spots has no going-rummy bonus: mark the player who went out as out."


def test_an_unknown_player_in_spots_is_refused() -> None:
    error = rejected(start(), hand(out="Bram", Anna="2", Cees="3", Dirk="4", Eva="5"))
    assert error.field == "results[3].player"
