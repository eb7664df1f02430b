"""A club evening's draw (RULES.md §19): table sizes, seats, fewest pairs meeting again."""

from __future__ import annotations

import random

import pytest

from ledger.rules.draw import draw_round, game_tables, meetings_again, pairs, table_sizes
from ledger.rules.errors import RuleError
from ledger.rules.registry import get_game

SEVEN = ("Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus")
EIGHT = (*SEVEN, "Hal")


def test_skat_tables_as_many_fours_as_can_be_then_threes() -> None:
    assert table_sizes(6, 3, 4) == (3, 3)
    assert table_sizes(7, 3, 4) == (4, 3)
    assert table_sizes(10, 3, 4) == (4, 3, 3)
    assert table_sizes(11, 3, 4) == (4, 4, 3)
    assert table_sizes(40, 3, 4) == (4,) * 10


def test_five_at_skat_is_refused_with_rules_sentence() -> None:
    with pytest.raises(RuleError) as caught:
        table_sizes(5, 3, 4)
    assert caught.value.message == (
        "5 players cannot sit at tables of three and four: check one more in or one out."
    )
    assert caught.value.field == "players"


def test_klaverjassen_and_cribbage_sizes_come_from_the_game() -> None:
    assert game_tables(get_game("klaverjassen"), 8) == (4, 4)
    assert game_tables(get_game("cribbage"), 6) == (2, 2, 2)
    with pytest.raises(RuleError) as caught:
        game_tables(get_game("klaverjassen"), 6)
    assert caught.value.message == "6 players cannot sit at tables of four: 4 or 8 would."
    with pytest.raises(RuleError) as caught:
        game_tables(get_game("cribbage"), 7)
    assert "check one more in or one out" in caught.value.message


def test_other_games_as_even_as_their_limits_allow() -> None:
    spot = get_game("spot")
    sizes = game_tables(spot, spot.max_players + 1)
    assert sum(sizes) == spot.max_players + 1 and len(sizes) == 2
    assert max(sizes) - min(sizes) <= 1


def test_round_one_seats_everyone_once() -> None:
    tables = draw_round(SEVEN, (4, 3), {}, random.Random(1))
    assert [len(t) for t in tables] == [4, 3]
    assert sorted(p for t in tables for p in t) == sorted(SEVEN)


@pytest.mark.parametrize("seed", range(8))
def test_eight_players_meet_again_in_exactly_four_pairs(seed: int) -> None:
    rng = random.Random(seed)
    first = draw_round(EIGHT, (4, 4), {}, rng)
    second = draw_round(EIGHT, (4, 4), pairs(first), rng)
    assert meetings_again(second, pairs(first)) == 4


@pytest.mark.parametrize("seed", range(8))
def test_seven_players_meet_again_in_exactly_three_pairs(seed: int) -> None:
    rng = random.Random(seed)
    first = draw_round(SEVEN, (4, 3), {}, rng)
    second = draw_round(SEVEN, (4, 3), pairs(first), rng)
    assert meetings_again(second, pairs(first)) == 3


def test_the_draw_is_random_among_the_best() -> None:
    first = (("Ann", "Bob", "Cas", "Dee"), ("Eve", "Fay", "Gus", "Hal"))
    draws = {draw_round(EIGHT, (4, 4), pairs(first), random.Random(s)) for s in range(2)}
    assert len(draws) == 2
    assert all(meetings_again(d, pairs(first)) == 4 for d in draws)


def test_one_player_alone_is_refused_as_one_not_as_1_players() -> None:
    with pytest.raises(RuleError) as caught:
        table_sizes(1, 2, 2)
    assert caught.value.message == "One player cannot sit at tables of two: 2 would."
    with pytest.raises(RuleError) as caught:
        table_sizes(2, 3, 4)
    assert caught.value.message == "2 players cannot sit at tables of three and four: 3 would."
