"""Skat as RULES.md §18 reads it: game values against a table worked out by hand from the ISkO,
the list's points from the values alone, the dealer sitting out at four, the night's length,
the worked example, and every refusal in its words."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import skat
from ledger.rules.base import HandOutcome, State
from ledger.rules.errors import RuleError
from ledger.rules.gameparts import Typed
from ledger.rules.payout import game_payout
from ledger.rules.skat import SkatEntry

GAME = skat.GAME
THREE = ("Ann", "Bob", "Cas")
FOUR = ("Ann", "Bob", "Cas", "Dee")


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(seats: tuple[str, ...] = THREE, dealer: str | None = None, **given: Any) -> State:
    return GAME.new_state(seats, dealer or seats[-1], options(**given))


def play(state: State, entry: SkatEntry, **given: Any) -> HandOutcome:
    return GAME.play(state, entry, options(**given))


def points(outcome: HandOutcome) -> dict[str, int]:
    return {r.player: r.points or 0 for r in outcome.results}


def refused(entry: SkatEntry, state: State | None = None) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        play(state or start(), entry)
    return [(p.field, p.message) for p in caught.value.problems]


# --- Game values: a second table, worked out by hand from the ISkO ------------------------------
#
# Each row: game, matadors (+ with, − without), hand, schneider announced, schwarz announced,
# ouvert, bid, the declarer's card points, tricks; then the value, won, overbid. The values were
# counted by hand as a table counts them ("with 2, game 3, hand 4 × 12 = 48"), not by the app.

VALUES = [
    # Null: 23, hand 35, ouvert 46, ouvert hand 59; won with no trick.
    ("null", None, False, False, False, False, 18, None, "none", 23, True, False),
    ("null", None, False, False, False, False, 23, None, "some", 23, False, False),
    ("null", None, True, False, False, False, 35, None, "none", 35, True, False),
    ("null", None, True, False, False, False, 30, None, "all", 35, False, False),
    ("null", None, False, False, False, True, 46, None, "none", 46, True, False),
    ("null", None, False, False, False, True, 24, None, "some", 46, False, False),
    ("null", None, True, False, False, True, 59, None, "none", 59, True, False),
    ("null", None, True, False, False, True, 18, None, "some", 59, False, False),
    # Suit games: base × (matadors + game + levels).
    ("clubs", 2, False, False, False, False, 36, 78, "some", 36, True, False),  # 12 × 3
    ("clubs", -2, False, False, False, False, 18, 61, "some", 36, True, False),  # 61 wins
    ("spades", 1, False, False, False, False, 22, 60, "some", 22, False, False),  # 60 loses
    ("hearts", 1, False, False, False, False, 20, 90, "some", 30, True, False),  # schneider
    ("hearts", 1, False, False, False, False, 20, 89, "some", 20, True, False),  # 31 left
    ("diamonds", 1, False, False, False, False, 18, 30, "some", 27, False, False),  # own schneider
    ("diamonds", 1, False, False, False, False, 18, 0, "none", 36, False, False),  # schwarz
    ("diamonds", 1, False, False, False, False, 18, 31, "some", 18, False, False),
    ("clubs", 11, False, False, False, False, 18, 70, "some", 144, True, False),  # with 11: 12 × 12
    ("clubs", 11, False, False, False, False, 18, 120, "all", 168, True, False),  # 12 × 14
    ("hearts", -11, True, False, False, False, 18, 65, "some", 130, True, False),  # 10 × 13
    ("clubs", 3, False, False, False, False, 18, 120, "some", 60, True, False),  # no schwarz
    ("spades", 2, True, False, False, False, 44, 75, "some", 44, True, False),  # 11 × 4
    ("spades", 2, True, True, False, False, 18, 95, "some", 66, True, False),  # 11 × 6
    ("spades", 2, True, True, False, False, 18, 85, "some", 66, False, False),  # announced, missed
    ("hearts", 1, True, True, True, False, 18, 120, "all", 70, True, False),  # 10 × 7
    ("hearts", 1, True, True, True, False, 18, 110, "some", 70, False, False),  # schwarz missed
    ("spades", 2, True, True, True, True, 18, 120, "all", 99, True, False),  # ouvert: 11 × 9
    ("spades", 2, True, True, True, True, 18, 100, "some", 99, False, False),  # ouvert, missed
    # Grand: 24 × (matadors + game + levels), matadors at most 4.
    ("grand", 4, False, False, False, False, 18, 70, "some", 120, True, False),  # 24 × 5
    ("grand", -4, True, False, False, False, 18, 61, "some", 144, True, False),  # 24 × 6
    ("grand", -1, True, False, False, False, 48, 92, "some", 96, True, False),  # the example
    ("grand", 4, True, True, False, False, 18, 89, "some", 192, False, False),  # §18: 8 × 24
    ("grand", 1, True, True, True, True, 18, 120, "all", 192, True, False),  # ouvert: 24 × 8
    ("grand", 2, False, False, False, False, 18, 10, "some", 96, False, False),  # own schneider
    # Overbid: lost at the smallest multiple of the base reaching the bid.
    ("hearts", 1, True, False, False, False, 40, 70, "some", 40, False, True),  # the example
    ("diamonds", 1, False, False, False, False, 20, 80, "some", 27, False, True),  # 9 × 3
    ("grand", 1, False, False, False, False, 50, 61, "some", 72, False, True),  # 24 × 3
    ("clubs", 1, False, False, False, False, 30, 80, "some", 36, False, True),  # 12 × 3
    ("clubs", -1, False, False, False, False, 30, 90, "some", 36, True, False),  # schneider saves
    ("spades", 1, False, False, False, False, 23, 40, "some", 33, False, True),  # 11 × 3
]


@pytest.mark.parametrize(
    (
        "game",
        "matadors",
        "hand",
        "sa",
        "swa",
        "ouvert",
        "bid",
        "cp",
        "tricks",
        "value",
        "won",
        "over",
    ),
    VALUES,
)
def test_a_game_is_worth_what_the_isko_table_says(
    game: str,
    matadors: int | None,
    hand: bool,
    sa: bool,
    swa: bool,
    ouvert: bool,
    bid: int,
    cp: int | None,
    tricks: str,
    value: int,
    won: bool,
    over: bool,
) -> None:
    entry = SkatEntry(
        declarer="Ann",
        bid=bid,
        game=game,
        matadors=matadors,
        hand=hand,
        schneider_announced=sa,
        schwarz_announced=swa,
        ouvert=ouvert,
        card_points=cp,
        tricks=tricks,
    )
    outcome = play(start(), entry)
    assert (outcome.more["value"], outcome.more["won"], outcome.more["overbid"]) == (
        value,
        won,
        over,
    )


def test_the_bids_are_the_values_a_game_can_have() -> None:
    assert skat.BIDS[:12] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44)
    assert 19 not in skat.BIDS and 21 not in skat.BIDS and 59 in skat.BIDS


def test_the_reason_is_counted_as_a_table_counts_it() -> None:
    overbid = play(start(), SkatEntry("Ann", 40, "hearts", 1, hand=True, card_points=70))
    assert str(skat.facts_reason(overbid.more)) == "with 1, game 2, hand 3 × 10 = 30: overbid at 40"
    null = play(start(), SkatEntry("Ann", 23, "null", hand=True, tricks="none"))
    assert str(skat.facts_reason(null.more)) == "Null hand = 35: won"
    deal = SkatEntry("Ann", 18, "grand", -4, hand=True, card_points=61)
    preview = GAME.preview(start(), Typed({}, entry=deal), {})
    assert preview is not None and not preview.boxes
    assert [str(p) for p in preview.said] == ["Without 4, game 5, hand 6 × 24 = 144: won"]


# --- Matadors counted from the declarer's twelve cards ------------------------------------------


@pytest.mark.parametrize(
    ("cards", "game", "matadors"),
    [
        ("JC JS JH JD AC 10C KC QC 9C 8C 7C AS", "clubs", 11),
        ("JC JS JH JD AC 10C KC QC 9C 8C 7C AS", "grand", 4),
        ("JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C", "hearts", 1),  # §18 (3): with 1
        ("JH JD AH 10H KH 9H 7H AS 10S KD 8C 7C", "hearts", -2),
        ("JD AS 10S KS QS 9S 8S 7S AH 10H KH QH", "grand", -3),
        ("AS 10S KS QS 9S 8S 7S AH 10H KH QH 9H", "clubs", -11),
        ("Bkr Bpi Ahe 10he Khe 9he 7he Api 10pi Kka 8kr 7kr", "hearts", 2),
    ],
)
def test_matadors_are_counted_from_the_cards(cards: str, game: str, matadors: int) -> None:
    language = "de" if "kr" in cards else "en"
    entry = SkatEntry(
        "Ann", 18, game, cards=cards, card_points=120, tricks="all", cards_language=language
    )
    assert play(start(), entry).more["matadors"] == matadors


def test_the_worked_example_counts_with_one_from_the_skat() -> None:
    cards = "JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C"
    outcome = play(start(), SkatEntry("Cas", 40, "hearts", cards=cards, hand=True, card_points=70))
    assert outcome.more["matadors"] == 1 and outcome.more["overbid"]
    assert points(outcome) == {"Ann": 40, "Bob": 40, "Cas": -130}


# --- The worked example, the list and the money -------------------------------------------------

WORKED = [
    SkatEntry("Ann", 36, "clubs", 2, card_points=78),
    SkatEntry("Bob", 48, "grand", -1, hand=True, card_points=92),
    SkatEntry("Cas", 40, "hearts", 1, hand=True, card_points=70),
    SkatEntry("Ann", 23, "null", tricks="some"),
    SkatEntry(None),
]


@pytest.mark.parametrize(
    ("kind", "each", "totals"),
    [
        ("seeger", [86, 146, -130, -96, 0], {"Ann": 30, "Bob": 226, "Cas": -90}),
        ("plain", [36, 96, -80, -46, 0], {"Ann": -10, "Bob": 96, "Cas": -80}),
    ],
)
def test_the_worked_example_on_both_lists(
    kind: str, each: list[int], totals: dict[str, int]
) -> None:
    state = start(list=kind)
    for entry, declarer_points in zip(WORKED, each, strict=True):
        outcome = play(state, entry, list=kind)
        if entry.declarer is not None:
            assert points(outcome)[entry.declarer] == declarer_points
        state = outcome.state
    assert dict(state.scores) == totals
    parts = GAME.session_parts(state, "open", options(list=kind), THREE)
    assert parts["won_games"] == {"Ann": 1, "Bob": 1, "Cas": 0}
    assert parts["lost_games"] == {"Ann": 1, "Bob": 0, "Cas": 1}
    assert [line["totals"] for line in parts["list"]][-1] == totals
    assert parts["list"][4]["declarer"] is None


def test_the_worked_example_settles_each_pair_by_the_gap() -> None:
    money = {"stake": 1, "unit_value": "0.01", "currency": "EUR", "deals": 5}
    first = start(**money)
    state = first
    for entry in WORKED:
        state = play(state, entry, **money).state
    assert state.finished and state.winners == ("Bob",)
    assert game_payout(GAME, state, options(**money), first) == {
        "Ann": -76,
        "Bob": 512,
        "Cas": -436,
    }


def test_payout_everyone_is_the_default() -> None:
    assert GAME.defaults()["payout"] == "everyone" and GAME.defaults()["list"] == "seeger"


# --- A table of four: the dealer sits out ------------------------------------------------------


def test_at_four_the_dealer_sits_out_and_scores_30_for_a_lost_game() -> None:
    state = start(FOUR, "Dee")
    assert GAME.sits_out(state) == "Dee"
    lost = play(state, SkatEntry("Ann", 18, "diamonds", 1, card_points=50))
    assert points(lost) == {"Ann": -86, "Bob": 30, "Cas": 30, "Dee": 30}
    assert [r.sitting_out for r in lost.results] == [False, False, False, True]
    assert GAME.sits_out(lost.state) == "Ann"  # the deal passes to the left
    assert GAME.session_parts(lost.state, "open", options(), FOUR)["lost_games"] == {
        "Ann": 1,
        "Bob": 0,
        "Cas": 0,
        "Dee": 0,
    }
    with pytest.raises(RuleError) as caught:
        play(lost.state, SkatEntry("Ann", 18, "diamonds", 1, card_points=70))
    assert caught.value.message == "Ann deals and sits out this deal."
    assert caught.value.field == "declarer"


def test_at_three_nobody_sits_out() -> None:
    state = start()
    assert GAME.sits_out(state) is None
    outcome = play(state, SkatEntry("Cas", 18, "diamonds", 1, card_points=70))
    assert not any(r.sitting_out for r in outcome.results)


# --- The night's length --------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "deals"), [(THREE, 36), (FOUR, 48)])
def test_a_night_is_twelve_deals_for_each_player(seats: tuple[str, ...], deals: int) -> None:
    state = start(seats)
    progress = GAME.progress(state, options())
    assert progress is not None and progress.hands_in_round == deals
    for _ in range(deals):
        state = play(state, SkatEntry(None)).state
    assert state.finished
    with pytest.raises(RuleError, match="The game is over"):
        play(state, SkatEntry(None))


def test_the_deals_option_sets_the_length() -> None:
    state = start(deals=2)
    state = play(state, SkatEntry(None), deals=2).state
    assert not state.finished
    state = play(state, SkatEntry("Ann", 18, "spades", 1, card_points=61), deals=2).state
    assert state.finished and state.winners == ("Ann",)
    with pytest.raises(RuleError, match="deals"):
        options(deals=0)


# --- Every refusal of §18, in its words ----------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "field", "message"),
    [
        (
            SkatEntry("Ann", 18, "grand", 5, card_points=70),
            "matadors",
            "Grand has at most 4 matadors: 5 is not.",
        ),
        (
            SkatEntry("Ann", 18, "clubs", 1, card_points=121),
            "card_points",
            "Card points are 0 to 120: 121 is not.",
        ),
        (
            SkatEntry("Ann", 18, "clubs", 1, schwarz_announced=True, hand=True, card_points=90),
            "schwarz_announced",
            "Schwarz announced needs schneider announced, and both need a hand game.",
        ),
        (
            SkatEntry("Ann", 18, "clubs", 1, schneider_announced=True, card_points=90),
            "schneider_announced",
            "Schwarz announced needs schneider announced, and both need a hand game.",
        ),
        (
            SkatEntry("Ann", 24, "null", tricks="none"),
            "bid",
            "A Null game is worth 23: after a bid of 24, declare a Null worth at least that.",
        ),
        (
            SkatEntry("Ann", 19, "clubs", 1, card_points=70),
            "bid",
            "18 is the lowest bid; 19 is no game's value.",
        ),
        (
            SkatEntry("Ann", 18, "clubs", cards="6S JC JS JH JD AC 10C KC QC 9C 8C 7C"),
            "cards",
            "Skat is played with 7 to ace: 6♠ is not in the pack.",
        ),
    ],
)
def test_the_refusals_of_section_18(entry: SkatEntry, field: str, message: str) -> None:
    assert (field, message) in refused(entry)


def test_the_dealer_at_four_cannot_declare() -> None:
    assert refused(SkatEntry("Dee", 18, "clubs", 1, card_points=70), start(FOUR, "Dee")) == [
        ("declarer", "Dee deals and sits out this deal.")
    ]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (
            "JC JC JH JD AC 10C KC QC 9C 8C 7C AS",
            "The declarer's cards hold J♣ twice: the pack has one of each.",
        ),
        (
            "JC JS JH JD AC 10C KC QC 9C 8C 7C",
            "The declarer's cards are twelve, hand and skat: 11 were typed.",
        ),
    ],
)
def test_typed_cards_must_be_twelve_different_ones(cards: str, message: str) -> None:
    entry = SkatEntry("Ann", 18, "clubs", cards=cards, card_points=70)
    assert refused(entry) == [("cards", message)]


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (SkatEntry("Eve", 18, "clubs", 1, card_points=70), "declarer"),
        (SkatEntry("Ann", 18, "clover", 1, card_points=70), "game"),
        (SkatEntry("Ann", None, "clubs", 1, card_points=70), "bid"),
        (SkatEntry("Ann", 18, "clubs", None, card_points=70), "matadors"),
        (SkatEntry("Ann", 18, "clubs", 0, card_points=70), "matadors"),
        (SkatEntry("Ann", 18, "clubs", 12, card_points=70), "matadors"),
        (SkatEntry("Ann", 18, "clubs", 1, cards="JC", card_points=70), "cards"),
        (SkatEntry("Ann", 18, "clubs", 1), "card_points"),
        (SkatEntry("Ann", 18, "clubs", 1, card_points=70, tricks="most"), "tricks"),
        (SkatEntry("Ann", 18, "clubs", 1, card_points=110, tricks="all"), "card_points"),
        (SkatEntry("Ann", 18, "clubs", 1, card_points=40, tricks="none"), "card_points"),
        (SkatEntry("Ann", 18, "clubs", 1, ouvert=True, hand=True, card_points=70), "ouvert"),
        (SkatEntry("Ann", 23, "null"), "tricks"),
        (SkatEntry("Ann", 23, "null", 2, tricks="none"), "matadors"),
        (SkatEntry("Ann", 23, "null", card_points=0, tricks="none"), "card_points"),
        (
            SkatEntry("Ann", 23, "null", schneider_announced=True, tricks="none"),
            "schneider_announced",
        ),
        (SkatEntry(None, 18, "clubs"), "declarer"),
    ],
)
def test_every_other_mistake_is_named_and_nothing_is_played(entry: SkatEntry, field: str) -> None:
    state = start()
    assert field in [f for f, _ in refused(entry, state)]
    assert state.hands_played == 0 and dict(state.scores) == dict.fromkeys(THREE, 0)


def test_every_mistake_at_once() -> None:
    found = refused(SkatEntry("Ann", 19, "grand", 5, card_points=121, tricks="most"))
    assert [f for f, _ in found] == ["bid", "matadors", "card_points", "tricks"]


# --- The list follows from the values alone (a property) ----------------------------------------

SUIT_GAME = st.sampled_from(["clubs", "spades", "hearts", "diamonds", "grand"])


@st.composite
def deals(draw: st.DrawFn, seats: tuple[str, ...], dealer: str) -> SkatEntry | None:
    """A deal that can be played: all passed, a Null, or a suit game or Grand."""
    kind = draw(st.sampled_from(["passed", "null", "suit"]))
    players = [p for p in seats if not (len(seats) == 4 and p == dealer)]
    declarer = draw(st.sampled_from(players))
    bid = draw(st.sampled_from(skat.BIDS[:20]))
    if kind == "passed":
        return SkatEntry(None)
    if kind == "null":
        hand, ouvert = draw(st.booleans()), draw(st.booleans())
        bid = min(bid, skat.null_value(hand, ouvert))
        bid = max(b for b in skat.BIDS if b <= bid)
        tricks = draw(st.sampled_from(["none", "some", "all"]))
        return SkatEntry(declarer, bid, "null", hand=hand, ouvert=ouvert, tricks=tricks)
    game = draw(SUIT_GAME)
    most = 4 if game == "grand" else 11
    matadors = draw(st.integers(1, most)) * draw(st.sampled_from([1, -1]))
    level = draw(st.integers(0, 4))  # none, hand, schneider ann., schwarz ann., ouvert
    tricks = draw(st.sampled_from(["all", "none", "some"]))
    cp = {"all": 120, "none": draw(st.integers(0, 22))}.get(tricks, draw(st.integers(0, 120)))
    return SkatEntry(
        declarer,
        bid,
        game,
        matadors,
        hand=level >= 1,
        schneider_announced=level >= 2,
        schwarz_announced=level >= 3,
        ouvert=level >= 4,
        card_points=cp,
        tricks=tricks,
    )


@settings(max_examples=150, deadline=None)
@given(data=st.data(), four=st.booleans(), kind=st.sampled_from(["seeger", "plain"]))
def test_the_list_points_follow_from_the_values_alone(
    data: st.DataObject, four: bool, kind: str
) -> None:
    seats = FOUR if four else THREE
    state = start(seats, list=kind, deals=400)
    for _ in range(data.draw(st.integers(1, 8))):
        entry = data.draw(deals(seats, state.dealer))
        assert entry is not None
        outcome = play(state, entry, list=kind, deals=400)
        got = points(outcome)
        value, won = outcome.more["value"], outcome.more["won"]
        expected = dict.fromkeys(seats, 0)
        if entry.declarer is not None:
            seeger = kind == "seeger"
            bonus = 50 if seeger else 0
            expected[entry.declarer] = value + bonus if won else -2 * value - bonus
            if not won and seeger:
                for p in seats:
                    if p != entry.declarer:
                        expected[p] = 30 if four else 40
            # An overbid's value is a multiple of the base that reaches the bid.
            if outcome.more["overbid"]:
                assert value >= entry.bid and value % outcome.more["base"] == 0
        assert got == expected
        state = outcome.state


@settings(max_examples=60, deadline=None)
@given(data=st.data(), four=st.booleans(), stake=st.integers(1, 5))
def test_the_money_adds_up_to_nothing(data: st.DataObject, four: bool, stake: int) -> None:
    seats = FOUR if four else THREE
    money = {"stake": stake, "deals": 6}
    first = start(seats, **money)
    state = first
    for _ in range(6):
        entry = data.draw(deals(seats, state.dealer))
        assert entry is not None
        state = play(state, entry, **money).state
    paid = game_payout(GAME, state, options(**money), first)
    assert paid is not None and sum(paid.values()) == 0
    top = max(state.scores.values())
    assert all(paid[p] >= 0 for p in seats if state.scores[p] == top)
