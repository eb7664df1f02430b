"""Boerenbridge as RULES.md §15 reads it: the rounds up and down, the dealer's hook, exact bids
score, the worked example round by round, and the saved bids."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import boerenbridge
from ledger.rules.base import HandOutcome, State
from ledger.rules.boerenbridge import BidResult, RoundEntry
from ledger.rules.errors import RuleError
from ledger.rules.payout import game_payout
from ledger.rules.registry import GAMES

GAME = boerenbridge.GAME
SEATS = ("Ann", "Bob", "Cas", "Dee")


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(**given: Any) -> State:
    return GAME.new_state(SEATS, "Ann", options(**given))


def entry(bids: dict[str, int | None], tricks: dict[str, int | None]) -> RoundEntry:
    return RoundEntry(tuple(BidResult(p, bids.get(p), tricks.get(p)) for p in bids | tricks))


def play(
    state: State, bids: dict[str, int | None], tricks: dict[str, int], **given: Any
) -> HandOutcome:
    return GAME.play(state, entry(bids, tricks), options(**given))


def refused(state: State, round_entry: RoundEntry, **given: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        GAME.play(state, round_entry, options(**given))
    return [(p.field, p.message) for p in caught.value.problems]


# The worked example of RULES.md §15: each round's bids in bidding order, tricks taken (the
# others none), points: "Bob 0, Cas 1, Dee 0, Ann 0 | Cas 1 | 10 12 10 10".
ROUNDS = """
Bob 0, Cas 1, Dee 0, Ann 0 | Cas 1 | 10 12 10 10
Cas 1, Dee 1, Ann 0, Bob 1 | Cas 1, Ann 1 | 12 -2 -2 -2
Dee 2, Ann 1, Bob 0, Cas 1 | Dee 2, Cas 1 | 14 -2 10 12
Ann 1, Bob 2, Cas 0, Dee 0 | Ann 1, Bob 1, Cas 1, Dee 1 | 12 -2 -2 -2
Bob 1, Cas 1, Dee 0, Ann 0 | Bob 1, Cas 2 | 12 -2 10 10
Cas 1, Dee 1, Ann 0, Bob 0 | Cas 1, Dee 1 | 12 12 10 10
Dee 0, Ann 0, Bob 1, Cas 0 | Bob 1 | 10 10 12 10
"""


def _said(text: str) -> dict[str, int]:
    return {p: int(n) for p, n in (part.split() for part in text.split(","))}


def _round(line: str) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    bids, tricks, points = (part.strip() for part in line.split("|"))
    order = list(_said(bids))
    return _said(bids), _said(tricks), dict(zip(order, map(int, points.split()), strict=True))


WORKED = [_round(line) for line in ROUNDS.strip().splitlines()]


def all_tricks(tricks: dict[str, int]) -> dict[str, int]:
    return {p: tricks.get(p, 0) for p in SEATS}


def test_the_worked_example_round_by_round() -> None:
    state = start(max_cards=4)
    cards, dealers = [], []
    for bids, tricks, points in WORKED:
        dealers.append(state.dealer)
        outcome = play(state, bids, all_tricks(tricks), max_cards=4)
        cards.append(outcome.more["cards"])
        assert {r.player: r.points for r in outcome.results} == points
        state = outcome.state
        if len(cards) == 3:
            assert state.scores == {"Ann": 6, "Bob": 18, "Cas": 36, "Dee": 22}
    assert cards == [1, 2, 3, 4, 3, 2, 1]
    assert dealers == ["Ann", "Bob", "Cas", "Dee", "Ann", "Bob", "Cas"]
    assert state.scores == {"Ann": 48, "Bob": 50, "Cas": 54, "Dee": 52}
    assert state.finished and state.winners == ("Cas",)
    with pytest.raises(RuleError, match="The game is over: no more rounds can be added."):
        play(state, {p: 0 for p in SEATS}, all_tricks({"Ann": 1}), max_cards=4)


def test_round_four_the_dealer_may_not_bid_one() -> None:
    state = start(max_cards=4)
    for bids, tricks, _ in WORKED[:3]:
        state = play(state, bids, all_tricks(tricks), max_cards=4).state
    assert state.dealer == "Dee"
    problems = refused(
        state,
        entry({"Ann": 1, "Bob": 2, "Cas": 0, "Dee": 1}, all_tricks({p: 1 for p in SEATS})),
        max_cards=4,
    )
    assert problems == [
        (
            "results[3].bid",
            "Dee deals and may not bid 1: the bids would add up to 4, the round's cards.",
        )
    ]
    assert boerenbridge.forbidden_bid(4, [1, 2, 0], options(max_cards=4)) == 1


def test_the_hook_follows_its_option() -> None:
    # A round of three cards: over_three lets the dealer make the bids add up; always not.
    state = start(max_cards=3, order="down_up")
    three = {"Bob": 1, "Cas": 1, "Dee": 0, "Ann": 1}
    assert play(
        state, three, all_tricks({"Bob": 1, "Cas": 1, "Ann": 1}), max_cards=3, order="down_up"
    )
    assert refused(
        state,
        entry(three, all_tricks({"Bob": 1, "Cas": 1, "Ann": 1})),
        max_cards=3,
        order="down_up",
        hook="always",
    )
    assert boerenbridge.forbidden_bid(5, [1, 1, 1], options(hook="never")) is None


def test_the_rounds_go_up_and_down_or_down_and_up() -> None:
    assert boerenbridge.rounds(4, options(max_cards=4)) == (1, 2, 3, 4, 3, 2, 1)
    assert boerenbridge.rounds(4, options(max_cards=4, order="down_up")) == (4, 3, 2, 1, 2, 3, 4)
    assert boerenbridge.most_cards(4, options()) == 10
    assert boerenbridge.most_cards(6, options()) == 8
    assert len(boerenbridge.rounds(7, options())) == 13


def test_the_refusals_of_the_rules_in_their_words() -> None:
    state = start(max_cards=4)
    for bids, tricks, _ in WORKED[:3]:
        state = play(state, bids, all_tricks(tricks), max_cards=4).state
    problems = refused(
        state,
        entry(
            {"Ann": None, "Bob": 5, "Cas": 0, "Dee": 0}, {"Ann": 1, "Bob": 1, "Cas": 1, "Dee": 0}
        ),
        max_cards=4,
    )
    assert ("results[0].bid", "Ann's bid is missing.") in problems
    assert ("results[1].bid", "Bob's bid cannot be 5: this round has 4 cards.") in problems
    assert (
        "results",
        "The tricks add up to 3, but this round has 4 cards: every trick is won by one player.",
    ) in problems


def test_a_player_with_too_few_cards_in_the_pack_is_refused() -> None:
    with pytest.raises(RuleError) as caught:
        GAME.new_state(("A", "B", "C", "D", "E", "F", "G"), "A", options(max_cards=8))
    assert caught.value.field == "options.max_cards"
    with pytest.raises(RuleError):
        GAME.new_state(("A", "B"), "A", options())


def test_bids_saved_before_the_round_are_used_and_then_cleared() -> None:
    state = start(max_cards=4)
    saved = GAME.call(
        "bids", state, {"bids": {"Bob": 0, "Cas": 1, "Dee": 0, "Ann": 0}}, options(max_cards=4)
    )
    assert boerenbridge.saved_bids(saved) == {"Bob": 0, "Cas": 1, "Dee": 0, "Ann": 0}
    outcome = GAME.play(
        saved, entry({p: None for p in SEATS}, all_tricks({"Cas": 1})), options(max_cards=4)
    )
    assert outcome.state.scores == {"Ann": 10, "Bob": 10, "Cas": 12, "Dee": 10}
    assert boerenbridge.saved_bids(outcome.state) == {}


def test_saved_bids_are_checked_naming_each_bid() -> None:
    state = start(max_cards=4)
    for bids, tricks, _ in WORKED[:3]:
        state = play(state, bids, all_tricks(tricks), max_cards=4).state
    with pytest.raises(RuleError) as caught:
        GAME.call(
            "bids", state, {"bids": {"Ann": 1, "Bob": 2, "Cas": 0, "Dee": 1}}, options(max_cards=4)
        )
    assert caught.value.field == "bids.Dee"
    with pytest.raises(RuleError) as caught:
        GAME.call("bids", state, {"bids": {"Ann": 1, "Bob": 7, "Cas": 0}}, options(max_cards=4))
    fields = [p.field for p in caught.value.problems]
    assert fields == ["bids.Bob", "bids.Dee"]


def test_the_game_plays_for_money_as_section_7() -> None:
    state = start(max_cards=4, stake=1)
    first = state
    for bids, tricks, _ in WORKED:
        state = play(state, bids, all_tricks(tricks), max_cards=4, stake=1).state
    money = game_payout(GAME, state, options(max_cards=4, stake=1), first)
    assert money == {"Ann": -6, "Bob": -4, "Cas": 12, "Dee": -2}


@st.composite
def a_round(draw: Any, cards: int) -> tuple[dict[str, int], dict[str, int]]:
    bids = {p: draw(st.integers(0, cards)) for p in SEATS}
    cuts = sorted(draw(st.lists(st.integers(0, cards), min_size=3, max_size=3)))
    bounds = [0, *cuts, cards]
    tricks = {p: bounds[i + 1] - bounds[i] for i, p in enumerate(SEATS)}
    return bids, tricks


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_rounds_scores_follow_from_its_bids_and_tricks_alone(data: Any) -> None:
    """Whatever came before, a round's points are the bids and the tricks, nothing else."""
    state = start(max_cards=4, hook="never")
    for bids, tricks, _ in WORKED[: data.draw(st.integers(0, 6))]:
        state = play(state, bids, all_tricks(tricks), max_cards=4, hook="never").state
    cards = boerenbridge.round_cards(state, options(max_cards=4))
    assert cards is not None
    bids, tricks = data.draw(a_round(cards))
    outcome = play(state, bids, tricks, max_cards=4, hook="never")
    for r in outcome.results:
        b, t = bids[r.player], tricks[r.player]
        assert r.points == (10 + 2 * t if b == t else -2 * abs(t - b))
        assert outcome.state.scores[r.player] == state.scores[r.player] + r.points


def test_the_paper_has_a_row_per_round_with_its_cards_and_dealer_however_far_the_game_is():
    """The blank sheet's rows (Game.paper_rows): every round from the first, the deal passing
    left from the first dealer, also when asked after two rounds (Cas deals the third)."""
    seats = ("Ann", "Bob", "Cas", "Dee")
    fresh = GAME.paper_rows({"max_cards": 3}, seats, "Ann", 0)
    later = GAME.paper_rows({"max_cards": 3}, seats, "Cas", 2)
    assert fresh == later
    assert fresh is not None and fresh.headings == ("Cards", "Dealer")
    assert fresh.rows == (("1", "Ann"), ("2", "Bob"), ("3", "Cas"), ("2", "Dee"), ("1", "Ann"))
    assert len(GAME.paper_rows({}, seats[:3], "Ann", 0).rows) == 19  # 1 … 10 … 1
    assert GAMES["spot"].paper_rows({}, seats, "Ann", 0) is None  # a numbered row per hand
