"""Any game (``tally``) as RULES.md §12 reads it: the table's points added up, to a target or a
number of hands, best total wins, played for money as §7."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import tally
from ledger.rules.base import HandEntry, HandOutcome, State
from ledger.rules.errors import RuleError
from ledger.rules.game import join
from ledger.rules.payout import game_payout

GAME = tally.GAME
TallyResult = tally.TallyResult
HEARTS = {"name": "Hearts", "lowest_wins": True, "target": 100, "stake": 1}


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(players: str = "Ann Bob Cas Dee", dealer: str = "Dee", **given: Any) -> State:
    return GAME.new_state(players.split(), dealer, options(**given))


def hand(**points: Any) -> HandEntry:
    """One result per keyword: a number is the points, None sits the player out."""
    return HandEntry(
        tuple(
            TallyResult(p, sitting_out=True) if v is None else TallyResult(p, points=v)
            for p, v in points.items()
        )
    )


def play(state: State, entry: HandEntry, /, **given: Any) -> HandOutcome:
    return GAME.play(state, entry, options(**given))


def problems(state: State, entry: HandEntry, /, **given: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(state, entry, **given)
    return [(p.field, p.message) for p in caught.value.problems]


# --- The game and its options ------------------------------------------------------------------


def test_any_game_is_a_points_game_for_two_to_twelve_fixed_at_the_start() -> None:
    assert (GAME.key, GAME.name, GAME.money, GAME.open_seating) == (
        "tally", "Any game", False, False,
    )  # fmt: skip
    assert (GAME.min_players, GAME.max_players) == (2, 12)
    assert GAME.defaults() == {
        "name": "",
        "lowest_wins": False,
        "target": None,
        "hands": None,
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }
    with pytest.raises(RuleError, match="2 to 12 players, not 13"):
        start(" ".join(f"P{n}" for n in range(13)), dealer="P0")
    with pytest.raises(RuleError, match="cannot join"):
        join(GAME, start(), "Eve", "Dee", options())


def test_the_options_are_read_as_a_form_or_json_gives_them() -> None:
    assert options(name="  Klaverjassen  ", lowest_wins="on", target="", hands="16") == {
        **GAME.defaults(),
        "name": "Klaverjassen",
        "lowest_wins": True,
        "hands": 16,
    }
    assert options(lowest_wins=False, target="off")["target"] is None
    for name, value in (("name", "x" * 41), ("lowest_wins", "maybe"), ("target", 0),
                        ("hands", "many"), ("target", 100_001)):  # fmt: skip
        with pytest.raises(RuleError) as caught:
            options(**{name: value})
        assert caught.value.field == f"options.{name}"


def test_the_hand_form_asks_for_points_only() -> None:
    form = GAME.entry_form(options(), 4)
    assert not form.cards and form.sitting_out and form.nobody_out
    assert not form.show_total and not form.totals and not form.out_choice


# --- The worked example ------------------------------------------------------------------------


def test_worked_example_hearts_to_100_lowest_wins_cas_wins_116() -> None:
    """§12: after hand 7 Ann 62, Bob 101, Cas 45, Dee 88; Bob reached 100, Cas wins;
    ``winner``: Ann pays 17, Bob 56, Dee 43: Cas +116."""
    state = first = start(**HEARTS)
    for _ in range(6):
        state = play(state, hand(Ann=10, Bob=15, Cas=7, Dee=14), **HEARTS).state
        assert not state.finished
    last = play(state, hand(Ann=2, Bob=11, Cas=3, Dee=4), **HEARTS)
    after = last.state
    assert after.scores == {"Ann": 62, "Bob": 101, "Cas": 45, "Dee": 88}
    assert (after.finished, after.winners, after.hands_played) == (True, ("Cas",), 7)
    assert last.winners == ("Ann",)  # the hand's best: its lowest points
    assert game_payout(GAME, after, options(**HEARTS), first) == {
        "Ann": -17,
        "Bob": -56,
        "Cas": 116,
        "Dee": -43,
    }
    with pytest.raises(RuleError, match="^The game is over: no more hands can be added.$"):
        play(after, hand(Ann=0, Bob=0, Cas=0, Dee=0), **HEARTS)


def test_each_player_has_a_place_equal_totals_sharing_one() -> None:
    """§12's rank: in the worked example after hand 7, Cas 1st (45), Ann 2nd, Dee 3rd, Bob
    4th; the highest first by default, equal totals sharing a place (1, 1, 3)."""
    state = start(**HEARTS)
    state = play(state, hand(Ann=62, Bob=101, Cas=45, Dee=88), **HEARTS).state
    assert GAME.places(state, options(**HEARTS)) == {"Cas": 1, "Ann": 2, "Dee": 3, "Bob": 4}
    level = play(start(), hand(Ann=5, Bob=5, Cas=2, Dee=9)).state
    assert GAME.places(level, options()) == {"Dee": 1, "Ann": 2, "Bob": 2, "Cas": 4}


def test_the_highest_total_wins_by_default_and_a_target_is_reached_at_or_past_it() -> None:
    state = play(start(target=10), hand(Ann=10, Bob=3, Cas=-4, Dee=0), target=10).state
    assert (state.finished, state.winners) == (True, ("Ann",))


def test_a_number_of_hands_ends_the_game_and_equal_best_share_the_win() -> None:
    state = start(hands=2)
    progress = GAME.progress(state, options(hands=2))
    assert progress is not None and (progress.hand, progress.hands_in_round) == (1, 2)
    state = play(state, hand(Ann=5, Bob=3, Cas=1, Dee=0), hands=2).state
    assert not state.finished
    state = play(state, hand(Ann=0, Bob=2, Cas=4, Dee=-1), hands=2).state
    assert (state.finished, state.winners) == (True, ("Ann", "Bob", "Cas"))


def test_whichever_comes_first_of_target_and_hands_ends_the_game() -> None:
    given = {"target": 50, "hands": 3}
    state = play(start(**given), hand(Ann=50, Bob=0, Cas=0, Dee=0), **given).state
    assert state.finished and state.hands_played == 1


def test_with_neither_the_table_ends_the_game_and_the_best_total_wins() -> None:
    state = start(lowest_wins=True)
    for _ in range(30):
        state = play(state, hand(Ann=100_000, Bob=-5, Cas=0, Dee=-5), lowest_wins=True).state
    assert not state.finished
    assert GAME.standing_winners(state, options(lowest_wins=True)) == ("Bob", "Dee")


def test_a_player_may_sit_out_a_hand() -> None:
    outcome = play(start(), hand(Ann=5, Bob=None, Cas=-3, Dee=0))
    assert outcome.state.scores == {"Ann": 5, "Bob": 0, "Cas": -3, "Dee": 0}
    assert [x.sitting_out for x in outcome.results] == [False, True, False, False]
    assert outcome.results[1].points is None


def test_the_entry_is_stored_and_read_back() -> None:
    entry = hand(Ann=5, Bob=None, Cas=-3, Dee=0)
    assert GAME.entry_to_dict(entry)["results"][0] == {"player": "Ann", "points": 5}
    assert GAME.entry_from_dict(GAME.entry_to_dict(entry)) == entry


# --- Refusals ------------------------------------------------------------------------------------


def test_every_refusal_of_the_rules_at_once() -> None:
    entry = HandEntry(
        (TallyResult("Ann"), TallyResult("Bob", points=7.5), TallyResult("Cas", points=250_000))
    )
    assert problems(start(), entry) == [
        ("results[0].points", "Ann's points are missing: enter 0 for none."),
        ("results[1].points", "Bob's points must be a whole number, not 7.5."),
        ("results[2].points", "Cas's points cannot be 250000: −100,000 to 100,000."),
        ("results", "Dee's points are missing: enter 0 for none."),
    ]


def test_points_at_the_bounds_and_a_whole_float_are_taken() -> None:
    outcome = play(start(), hand(Ann=100_000, Bob=-100_000, Cas=7.0, Dee=0))
    assert outcome.state.scores == {"Ann": 100_000, "Bob": -100_000, "Cas": 7, "Dee": 0}


def test_everyone_sitting_out_is_refused() -> None:
    state = play(play(start(), hand(Ann=1, Bob=1, Cas=1, Dee=1)).state, hand(Ann=1, Bob=1,
                 Cas=1, Dee=1)).state  # fmt: skip
    assert problems(state, hand(Ann=None, Bob=None, Cas=None, Dee=None)) == [
        ("results", "Everyone sits out hand 3: at least one player has points.")
    ]


def test_cards_or_a_player_out_are_not_for_any_game() -> None:
    entry = HandEntry(
        (TallyResult("Ann", cards="5H"), TallyResult("Bob", points=1),
         TallyResult("Cas", points=1, sitting_out=True), TallyResult("Dee", points=0)),
        out="Bob",
    )  # fmt: skip
    assert [f for f, _ in problems(start(), entry)] == ["out", "results[0]", "results[2]"]


# --- Properties --------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(-100_000, 100_000)), min_size=3, max_size=3),
        min_size=1,
        max_size=20,
    ),
    st.booleans(),
)
def test_the_totals_are_the_sums_of_the_points_and_the_best_wins(
    hands: list[list[int | None]], lowest: bool
) -> None:
    players = ("Ann", "Bob", "Cas")
    state = GAME.new_state(players, "Cas", options(lowest_wins=lowest, hands=len(hands)))
    sums = dict.fromkeys(players, 0)
    for row in hands:
        if all(v is None for v in row):
            continue
        state = play(state, hand(**dict(zip(players, row, strict=True))), lowest_wins=lowest,
                     hands=len(hands)).state  # fmt: skip
        for p, v in zip(players, row, strict=True):
            sums[p] += v or 0
    assert dict(state.scores) == sums
    if state.finished:
        best = (min if lowest else max)(sums.values())
        assert state.winners == tuple(p for p in players if sums[p] == best)
