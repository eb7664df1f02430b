"""Klaverjassen as RULES.md §16 reads it: two teams seated opposite, 162 card points a hand,
roem, nat and pit, the worked example hand by hand, the refusals in their words."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import klaverjassen
from ledger.rules.base import HandOutcome, State
from ledger.rules.errors import RuleError
from ledger.rules.klaverjassen import KlaverEntry, TeamEntry
from ledger.rules.payout import game_payout

GAME = klaverjassen.GAME
SEATS = ("Ann", "Bob", "Cas", "Dee")  # Ann & Cas, Bob & Dee


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(**given: Any) -> State:
    return GAME.new_state(SEATS, "Dee", options(**given))


def hand(
    playing: int | None, points: dict[int, int], roem: dict[int, int], pit: int | None = None
) -> KlaverEntry:
    teams = tuple(TeamEntry(t, points.get(t), roem.get(t)) for t in (1, 2))
    return KlaverEntry(playing=playing, teams=teams, pit=pit)


def play(state: State, entry: KlaverEntry, **given: Any) -> HandOutcome:
    return GAME.play(state, entry, options(**given))


def refused(entry: KlaverEntry) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(start(), entry)
    return [(p.field, p.message) for p in caught.value.problems]


def team_scores(outcome: HandOutcome) -> tuple[int, int]:
    teams = outcome.more["teams"]
    return teams[0]["score"], teams[1]["score"]


def test_partners_sit_opposite() -> None:
    assert klaverjassen.team_players(SEATS, 1) == ("Ann", "Cas")
    assert klaverjassen.team_name(SEATS, 2) == "Bob & Dee"


def test_the_worked_example_hand_by_hand() -> None:
    state = start()
    one = play(state, hand(1, {1: 100}, {1: 20, 2: 0}))
    assert team_scores(one) == (120, 62)
    two = play(one.state, hand(2, {2: 70}, {1: 20, 2: 50}))
    assert team_scores(two) == (112, 120)
    three = play(two.state, hand(1, {1: 70}, {1: 20}))
    assert team_scores(three) == (0, 182)
    assert three.more["teams"][0]["nat"] and not three.more["teams"][1]["nat"]
    four = play(three.state, hand(2, {}, {2: 40}, pit=2))
    assert team_scores(four) == (0, 302)
    assert four.more["teams"][1]["pit"]
    assert four.state.scores == {"Ann": 232, "Bob": 666, "Cas": 232, "Dee": 666}
    assert four.state.more["sheet"][2] == {"scores": [0, 182], "nat": 1, "pit": None}


def test_the_game_ends_after_its_hands_and_the_higher_team_wins() -> None:
    state = start(hands=2)
    state = play(state, hand(1, {1: 100}, {}), hands=2).state
    state = play(state, hand(2, {2: 100}, {2: 20}), hands=2).state
    assert state.finished and state.winners == ("Bob", "Dee")
    with pytest.raises(RuleError, match="The game is over"):
        play(state, hand(1, {1: 100}, {}), hands=2)


def test_equal_points_is_nat() -> None:
    outcome = play(start(), hand(1, {1: 81}, {}))
    assert team_scores(outcome) == (0, 162)


def test_the_refusals_of_the_rules_in_their_words() -> None:
    assert refused(hand(1, {1: 170}, {})) == [
        ("teams[0].points", "Card points are 0 to 162: 170 is not.")
    ]
    assert refused(hand(1, {1: 100}, {2: 25})) == [
        ("teams[1].roem", "Roem comes in tens, up to 500: 25 is not.")
    ]
    assert refused(hand(1, {2: 10}, {}, pit=1)) == [
        ("teams[1].points", "A pit takes all the tricks: the other team has no card points.")
    ]
    assert refused(hand(None, {1: 100}, {})) == [("playing", "Say which team played.")]
    with pytest.raises(RuleError, match="Klaverjassen is for four players, two teams."):
        GAME.new_state(("Ann", "Bob", "Cas"), "Ann", options())


def test_both_teams_points_must_make_162() -> None:
    problems = refused(hand(1, {1: 100, 2: 60}, {}))
    assert problems == [("teams", "The card points add up to 160: the two teams' make 162.")]
    assert team_scores(play(start(), hand(1, {1: 100, 2: 62}, {}))) == (100, 62)


def test_the_money_of_section_7_between_the_teams() -> None:
    first = start(hands=1, stake=1)
    state = play(first, hand(1, {1: 100}, {1: 20}), hands=1, stake=1).state
    money = game_payout(GAME, state, options(hands=1, stake=1), first)
    # Each of Bob and Dee pays the gap, 58, shared by Ann and Cas.
    assert money == {"Ann": 58, "Cas": 58, "Bob": -58, "Dee": -58}


tens = st.integers(0, 50).map(lambda n: n * 10)


@settings(max_examples=200, deadline=None)
@given(
    playing=st.sampled_from([1, 2]),
    points=st.integers(0, 162),
    roem=st.tuples(tens, tens),
    pit=st.sampled_from([None, 1, 2]),
)
def test_every_hand_gives_out_162_and_the_roem_or_nat_gives_it_all_to_the_other_team(
    playing: int, points: int, roem: tuple[int, int], pit: int | None
) -> None:
    given_points = {} if pit else {playing: points}
    outcome = play(start(), hand(playing, given_points, {1: roem[0], 2: roem[1]}, pit=pit))
    teams = outcome.more["teams"]
    all_roem = sum(t["roem"] for t in teams)
    assert sum(t["score"] for t in teams) == 162 + all_roem
    nat = [t for t in teams if t["nat"]]
    if nat:
        assert nat[0]["team"] == playing and nat[0]["score"] == 0
    for p in SEATS:
        assert outcome.state.scores[p] == teams[klaverjassen.team_of(SEATS, p) - 1]["score"]
