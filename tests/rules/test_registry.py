"""The game registry: every game of RULES.md, found by key, with the defaults RULES.md gives."""

from __future__ import annotations

import pytest

from ledger.rules.base import State
from ledger.rules.errors import RuleError
from ledger.rules.registry import GAMES, get_game


def test_the_games_of_the_rules_are_registered_by_key_in_their_order() -> None:
    # The games of RULES.md §2–§12 come first, in its order; a game added later follows them
    # (its own tests say what it is).
    assert list(GAMES)[:9] == [
        "spot", "spots", "rummy", "spin", "gin", "rummy500", "kaluki", "jokeren", "tally",
    ]  # fmt: skip
    for key, game in GAMES.items():
        assert get_game(key) is game
        assert game.key == key
        assert game.description


@pytest.mark.parametrize(
    ("key", "low", "high", "money"),
    [
        ("spot", 2, 6, True),
        ("spots", 3, 5, False),
        ("rummy", 2, 7, False),
        ("spin", 1, 2, False),
        ("gin", 2, 2, False),
        ("rummy500", 2, 8, False),
        ("kaluki", 2, 6, True),
        ("jokeren", 2, 6, False),
        ("tally", 2, 12, False),
    ],  # fmt: skip
)
def test_each_game_says_how_many_play_it_and_whether_it_is_for_money(
    key: str, low: int, high: int, money: bool
) -> None:
    game = get_game(key)
    assert (game.min_players, game.max_players, game.money) == (low, high, money)


def test_spot_defaults_are_the_ones_in_the_rules() -> None:
    assert get_game("spot").defaults() == {
        "ante": 5,
        "unit_value": "0.01",
        "currency": "EUR",
        "dealer_rotation": "right",
        "tie_remainder": "pot",
        "entry": "cards",
        "leftover_pot": "carry",
    }


def test_rummy_defaults_are_the_ones_in_the_rules() -> None:
    assert get_game("rummy").defaults() == {
        "scoring": "winner",
        "rummy_bonus": "double",
        "ace_value": 1,
        "jokers": 0,
        "packs": 1,
        "target": 100,
        "entry": "cards",
        # RULES.md §7: not for money unless a stake is given.
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }


def test_dutch_spots_asks_for_cards_by_default() -> None:
    assert get_game("spots").defaults() == {
        "entry": "cards",
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }


def test_an_unknown_game_is_refused_with_the_list_of_games() -> None:
    with pytest.raises(RuleError) as caught:
        get_game("poker")
    assert "poker" in caught.value.message
    assert "spot" in caught.value.message
    assert caught.value.field == "game"


def test_an_unknown_option_is_refused_naming_it() -> None:
    with pytest.raises(RuleError) as caught:
        get_game("spot").check_options({"stake": 3})
    assert "stake" in caught.value.message
    assert caught.value.field == "options.stake"


def test_an_option_outside_its_choices_is_refused_with_the_choices() -> None:
    with pytest.raises(RuleError) as caught:
        get_game("spot").check_options({"dealer_rotation": "up"})
    assert "right" in caught.value.message and "left" in caught.value.message


def test_a_negative_ante_is_refused_and_a_string_number_is_read_as_a_number() -> None:
    with pytest.raises(RuleError) as caught:
        get_game("spot").check_options({"ante": -1})
    assert caught.value.field == "options.ante"
    assert get_game("spot").check_options({"ante": "10"})["ante"] == 10


def test_the_next_hand_is_led_by_the_dealers_left_except_in_spin_rummy() -> None:
    spot = get_game("spot")
    state = spot.new_state(["Enda", "John", "Rex", "Finn"], "Finn", spot.defaults())
    assert spot.next_leader(state) == "Enda"
    spin = get_game("spin")
    state = spin.new_state(["Ann", "Bea"], "Bea", spin.defaults())
    assert spin.next_leader(state) == "Bea"


def _standing(key: str, scores: dict[str, int], **options: object) -> tuple[str, ...]:
    seats = tuple(scores)
    state = State(seats=seats, dealer=seats[0], scores=scores, hands_played=2)
    return get_game(key).standing_winners(state, options)


@pytest.mark.parametrize(
    ("key", "scores", "options", "winners"),
    [
        ("rummy", {"A": 40, "B": 75, "C": 75}, {}, ("B", "C")),
        ("rummy", {"A": 40, "B": 75, "C": 12}, {"scoring": "penalty"}, ("C",)),
        ("spots", {"A": 30, "B": 12, "C": 50}, {}, ("B",)),
        ("spin", {"A": 30, "B": 52}, {}, ("B",)),
        ("spin", {"A": 61}, {}, ("A",)),
        ("spin", {"A": 59}, {}, ()),
        ("spot", {"A": 30, "B": -30}, {}, ()),
    ],
)
def test_a_game_ended_at_the_table_is_won_by_its_own_measure_where_it_stands(
    key: str, scores: dict[str, int], options: dict[str, object], winners: tuple[str, ...]
) -> None:
    assert _standing(key, scores, **options) == winners


def test_a_game_ended_before_its_first_hand_has_no_winner() -> None:
    state = State(seats=("A", "B"), dealer="A", scores={"A": 0, "B": 0})
    assert get_game("rummy").standing_winners(state, {}) == ()
