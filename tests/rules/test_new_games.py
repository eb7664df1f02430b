"""Every game in the registry (RULES.md §2–§12), their stored shapes, and what the later games
leave as it was for the first four."""

from __future__ import annotations

import pytest

from ledger.rules import gin, kaluki, rummy, spot
from ledger.rules.base import HandEntry, ResultEntry
from ledger.rules.codecs import outcome_to_dict
from ledger.rules.errors import RuleError
from ledger.rules.gin import GinEntry
from ledger.rules.payout import highest_wins
from ledger.rules.registry import GAMES, get_game


@pytest.mark.parametrize("key", GAMES)
def test_each_game_is_found_by_its_key(key: str) -> None:
    assert get_game(key) is GAMES[key] and GAMES[key].key == key
    with pytest.raises(RuleError, match="There is no game 'poker'"):
        get_game("poker")


@pytest.mark.parametrize("key", GAMES)
def test_each_game_checks_its_own_defaults_and_describes_itself(key: str) -> None:
    game = get_game(key)
    assert game.check_options({}) == game.defaults()
    assert game.check_options(game.defaults()) == game.defaults()
    assert game.name and game.description
    assert all(option.help for option in game.options.values())
    with pytest.raises(RuleError) as caught:
        game.check_options({"colour": "red"})
    assert caught.value.field == "options.colour"


def test_which_way_each_points_game_counts_for_its_money() -> None:
    assert highest_wins(get_game("gin"), {}) is True
    assert highest_wins(get_game("rummy500"), {}) is True
    assert highest_wins(get_game("jokeren"), {}) is False
    assert highest_wins(get_game("tally"), {}) is True
    assert highest_wins(get_game("tally"), {"lowest_wins": True}) is False


def test_a_gin_entry_and_outcome_are_stored_with_the_ending() -> None:
    entry = GinEntry(
        (ResultEntry("Ann", "3H AC"), ResultEntry("Bob", "KS 9D 5C")), out="Ann", ending="knock"
    )
    stored = gin.GAME.entry_to_dict(entry)
    assert stored["ending"] == "knock"
    assert gin.GAME.entry_from_dict(stored) == entry
    state = gin.GAME.new_state(["Ann", "Bob"], "Bob", gin.GAME.defaults())
    outcome = gin.GAME.play(state, entry, gin.GAME.defaults())
    assert outcome_to_dict(outcome)["ending"] == "knock"
    assert outcome.state.to_dict()["wins"] == {"Ann": 1}


def test_a_kaluki_state_is_stored_and_read_back_whole() -> None:
    opts = kaluki.GAME.check_options({"entry": "totals"})
    state = kaluki.GAME.new_state(["Ann", "Bob", "Cas"], "Cas", opts)
    hand = HandEntry((ResultEntry("Bob", spots=160), ResultEntry("Cas", spots=20)), out="Ann")
    state = kaluki.GAME.play(state, hand, opts).state
    state = kaluki.buy_in(state, "Bob", opts).state
    stored = state.to_dict()
    assert stored["totals"] == {"Ann": 0, "Bob": 20, "Cas": 20}
    assert stored["buy_ins"] == {"Bob": [20]}
    assert "eliminated" not in stored  # nobody is out of the game now
    assert type(state).from_dict(stored) == state


def test_the_first_four_games_store_what_they_stored_before() -> None:
    entry = HandEntry((ResultEntry("Enda", "J 10"), ResultEntry("John", "A 3")), out=None)
    assert spot.GAME.entry_to_dict(entry) == {
        "results": [{"player": "Enda", "cards": "J 10"}, {"player": "John", "cards": "A 3"}],
        "out": None,
        "rummy": False,
    }
    state = spot.GAME.new_state(["Enda", "John"], "John", spot.GAME.defaults())
    outcome = spot.GAME.play(state, entry, spot.GAME.defaults())
    assert set(outcome_to_dict(outcome)) == {
        "number", "dealer", "leader", "results", "out", "winners", "movements", "pot_before",
        "pot_after",
    }  # fmt: skip
    assert set(outcome_to_dict(outcome)["results"][0]) == {
        "player", "cards", "spots", "points", "sitting_out", "melds",
    }  # fmt: skip
    assert set(outcome.state.to_dict()) == {
        "seats", "dealer", "scores", "hands_played", "pot", "carried_in", "pot_antes",
        "finished", "winners",
    }  # fmt: skip
    rummy_state = rummy.GAME.new_state(["Ann", "Bob"], "Bob", rummy.GAME.defaults())
    assert "totals" not in rummy_state.to_dict()


def test_the_hand_forms_of_the_games_that_ask_more_than_cards() -> None:
    gin_game = get_game("gin")
    assert gin_game.endings({}) == ("knock", "gin", "draw")
    assert gin_game.endings({"big_gin": "on"}) == ("knock", "gin", "big_gin", "draw")
    assert get_game("rummy500").result_type is not ResultEntry
    assert not get_game("tally").entry_form({}, 3).cards
    for key in ("rummy", "spot", "spots", "spin"):
        assert get_game(key).entry_form({}, 4).cards
        assert get_game(key).entry_type is HandEntry
