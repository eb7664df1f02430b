"""Cribbage as RULES.md §17 reads it: the worked example deal by deal, every show the engine
counts checked against a plain brute-force count written here, the order of counting, skunks,
teams, three players, the refusals in their words, and the money conserved."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import cribbage
from ledger.rules.base import State
from ledger.rules.cards import RANKS, SUITS, Card, parse_cards
from ledger.rules.cribbage import CribEntry, CribResult
from ledger.rules.cribbage_show import count, spoken, total
from ledger.rules.errors import RuleError
from ledger.rules.payout import game_payout

GAME = cribbage.GAME
PACK = [Card(r, s) for r in RANKS for s in SUITS]


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, suits_required=True)


def shown(hand: str, starter: str, *, crib: bool = False) -> int:
    return total(count(cards(hand), cards(starter)[0], crib=crib))


def deal(
    starter: str | None,
    shows: dict[str, Any],
    crib: Any,
    pegged: dict[str, int] | None = None,
    out: str | None = None,
) -> CribEntry:
    pegged = pegged or {}
    results = tuple(CribResult(p, s, pegged.get(p, 0)) for p, s in shows.items())
    return CribEntry(results=results, starter=starter, crib=crib, pegged_out=out)


def refused(state: State, typed: CribEntry, **given: Any) -> list[tuple[str | None, str]]:
    with pytest.raises(RuleError) as caught:
        GAME.play(state, typed, options(**given))
    return [(p.field, p.message) for p in caught.value.problems]


# --- A brute-force count, written apart from the engine -------------------------------------------

NUMBER = {r: i + 1 for i, r in enumerate(RANKS)}


def plain_count(hand: tuple[Card, ...], starter: Card, crib: bool) -> int:
    """Every subset of the five for fifteens (by bit mask), every pair, runs from the rank
    counts (the longest stretch of consecutive ranks, times the ways of choosing one card of
    each), the flush and nobs."""
    five = [*hand, starter]
    points = 0
    for mask in range(1, 32):
        picked = [five[i] for i in range(5) if mask >> i & 1]
        if sum(min(NUMBER[str(c.rank)], 10) for c in picked) == 15:
            points += 2
    for i in range(5):
        for j in range(i + 1, 5):
            if five[i].rank == five[j].rank:
                points += 2
    counts = [0] * 15
    for c in five:
        counts[NUMBER[str(c.rank)]] += 1
    best = 0
    for low in range(1, 14):
        length, ways = 0, 1
        while low + length <= 13 and counts[low + length]:
            ways *= counts[low + length]
            length += 1
        if length >= 3 and (low == 1 or not counts[low - 1]):
            best = max(best, length * ways)
    points += best
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += 5
        elif not crib:
            points += 4
    points += sum(1 for c in hand if c.rank == "J" and c.suit == starter.suit)
    return points


@settings(max_examples=600, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_every_show_agrees_with_a_brute_force_count(rng: random.Random, crib: bool) -> None:
    pack = list(PACK)
    rng.shuffle(pack)
    hand, starter = tuple(pack[:4]), pack[4]
    parts = count(hand, starter, crib=crib)
    assert total(parts) == plain_count(hand, starter, crib)
    assert total(parts) not in (19, 25, 26, 27)
    assert 0 <= total(parts) <= 29
    # Each part is made of the cards it names, all of them in the five.
    assert all(set(p.cards) <= {*hand, starter} for p in parts)


def test_the_best_hand_is_29() -> None:
    assert shown("5C 5D 5H JS", "5S") == 29
    parts = count(cards("5C 5D 5H JS"), cards("5S")[0])
    kinds = [p.what for p in parts]
    assert (
        kinds.count("fifteen") == 8
        and kinds.count("pair") == 6
        and kinds
        == [
            *["fifteen"] * 8,
            *["pair"] * 6,
            "nobs",
        ]
    )
    assert str(spoken(parts)) == (
        "15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, 15-16, four of a kind is 28, nobs is 29"
    )


def test_counts_spelled_out_as_a_table_says_them() -> None:
    said = spoken(count(cards("5S 5D JH 10C"), cards("5H")[0]))
    assert str(said) == (
        "15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, three of a kind is 20, nobs is 21"
    )
    assert str(spoken(count(cards("4C 6C 7C 8C"), cards("5H")[0]))) == (
        "15-2, 15-4, a run of 5 is 9, a flush is 13"
    )
    assert str(spoken(count(cards("3S 3D 4H 5C"), cards("KH")[0]))) == (
        "15-2, 15-4, a pair is 6, a double run of 3 is 12"
    )
    assert str(spoken(count(cards("2S 4D 6H 8C"), cards("QH")[0]))) == "nothing"


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "points"),
    [
        ("4C 6C 7C 8C", "5H", False, 13),  # the worked example: flush of four in a hand
        ("4C 6C 7C 8C", "5H", True, 9),  # a crib needs all five for a flush
        ("4C 6C 7C 8C", "5C", True, 14),  # all five: 5
        ("QS KS AS 2S", "3H", False, 4 + 3 + 4),  # Q K A is no run; A 2 3 is; two fifteens
        ("4H 4D 5C 6H", "6D", False, 24),  # four runs of three
        ("JD 2C 3H 9S", "4D", False, 1 + 3 + 2 + 2),  # nobs, A-less run 2-3-4, 2+9+4, J+2+3
        ("5C 5D 5H JS", "5S", False, 29),
        ("9C 9S 3H KC", "6D", False, 6),
    ],
)
def test_shows_of_the_rules(hand: str, starter: str, crib: bool, points: int) -> None:
    assert shown(hand, starter, crib=crib) == points


def test_no_five_cards_count_19_25_26_or_27() -> None:
    """Every combination of ranks (four in hand, one turned). Fifteens, pairs and runs depend
    on the ranks alone (counted here by the engine under suits that give nothing more); the
    suits can only add nobs (a jack in hand, the starter no jack), a flush of four (four
    ranks in hand, no two alike) or of five (the starter's rank not in hand as well; with a
    jack in hand, nobs comes with it). Every total so made: none is 19, 25, 26 or 27, and
    the most is 29."""
    seen: set[int] = set()
    for hand in combinations_with_replacement(range(13), 4):
        for turned in range(13):
            ranks = (*hand, turned)
            if any(ranks.count(r) > 4 for r in ranks):
                continue
            held = [Card(RANKS[r], SUITS[(i + hand[:i].count(r)) % 4]) for i, r in enumerate(hand)]
            starter = Card(RANKS[turned], SUITS[(4 + ranks[:4].count(turned)) % 4])
            starter = starter if starter not in held else Card(RANKS[turned], "C")
            parts = count(tuple(held), starter)
            base = sum(p.points for p in parts if p.what in ("fifteen", "pair", "run"))
            jack = RANKS.index("J") in hand
            seen.add(base)
            if jack and RANKS[turned] != "J":
                seen.add(base + 1)
            if len(set(hand)) == 4:
                seen.add(base + 4)
                if turned not in hand:
                    seen.add(base + 5 + (1 if jack else 0))
    assert seen.isdisjoint({19, 25, 26, 27})
    assert max(seen) == 29
    assert set(range(30)) - seen == {19, 25, 26, 27}


# --- The worked example ---------------------------------------------------------------------------


def test_the_worked_example_deal_by_deal() -> None:
    opts = options(target=61, stake=1, unit_value="0.50")
    first = GAME.new_state(("Ann", "Bob"), "Ann", opts)
    one = GAME.play(
        first,
        deal(
            "5H", {"Bob": "5S 5D JH 10C", "Ann": "4C 6C 7C 8C"}, "2D 3D KS QC", {"Bob": 4, "Ann": 3}
        ),
        opts,
    )
    assert dict(one.state.scores) == {"Bob": 25, "Ann": 24}
    by = {r.player: r for r in one.results}
    assert by["Bob"].more["show_points"] == 21 and by["Ann"].more["show_points"] == 13
    assert one.more["crib"]["points"] == 8
    fifteens = [c for c in by["Bob"].more["counts"] if c["what"] == "fifteen"]
    assert (
        len(fifteens) == 7
        and {"what": "nobs", "cards": ["JH"], "points": 1} in by["Bob"].more["counts"]
    )
    two = GAME.play(
        one.state,
        deal(
            "JS", {"Ann": "5H 5D 5C QD", "Bob": "7H 8H 9H 10H"}, "AC 4S KD 2C", {"Ann": 5, "Bob": 2}
        ),
        opts,
    )
    assert dict(two.state.scores) == {"Ann": 49, "Bob": 44}
    heels = {r.player: r.more["counts"] for r in two.results}["Bob"][0]
    assert heels == {"what": "his_heels", "cards": ["JS"], "points": 2}
    three = GAME.play(
        two.state,
        deal(
            "6D", {"Bob": "9C 9S 3H KC", "Ann": "4H 4D 5C 6H"}, "2S 3S 7D 8D", {"Ann": 6, "Bob": 3}
        ),
        opts,
    )
    assert dict(three.state.scores) == {"Ann": 61, "Bob": 53}
    assert three.more["crib"]["counted"] is False
    assert three.more["won"] == {
        "number": 1,
        "winners": ["Ann"],
        "skunk": None,
        "scores": {"Ann": 61, "Bob": 53},
        "lost": {"Bob": 1},
    }
    assert three.state.dealer == "Bob"  # game 2 begins, Bob to deal
    assert dict(GAME.opened(three.state, opts).scores) == {"Ann": 0, "Bob": 0}
    assert game_payout(GAME, three.state, opts, first) == {"Ann": 1, "Bob": -1}
    # Game 2 starts at 0.
    four = GAME.play(
        three.state, deal("2C", {"Ann": "3C 4D 9H KS", "Bob": "AS 6H 7C QD"}, "2D 5S 8S JC"), opts
    )
    assert four.more["game"] == 2
    assert max(four.state.scores.values()) < 20


# --- The order of counting ------------------------------------------------------------------------


def _near(scores: dict[str, int], dealer: str = "Ann", **given: Any) -> State:
    state = GAME.new_state(tuple(scores), dealer, options(**given))
    return State(**{**state.__dict__, "scores": scores})


def test_the_non_dealer_counts_first_and_wins() -> None:
    state = _near({"Ann": 115, "Bob": 115})
    out = GAME.play(
        state, deal("2C", {"Ann": "5S 5D 5H 10C", "Bob": "AS 3H 9C QD"}, "4S 6H 8S KC"), options()
    )
    assert out.more["won"]["winners"] == ["Bob"]
    assert dict(out.state.scores) == {"Ann": 115, "Bob": 121}
    ann = next(r for r in out.results if r.player == "Ann")
    assert ann.more["counted"] is False and ann.points == 0


def test_his_heels_comes_before_everything() -> None:
    state = _near({"Ann": 119, "Bob": 120})
    out = GAME.play(
        state,
        deal("JS", {"Ann": "5S 5D 5H 10C", "Bob": "AS 3H 9C QD"}, "4S 6H 8S KC", {"Bob": 5}),
        options(),
    )
    assert out.more["won"]["winners"] == ["Ann"]
    assert dict(out.state.scores) == {"Ann": 121, "Bob": 120}


def test_both_past_the_target_in_the_play_needs_who_pegged_out() -> None:
    state = _near({"Ann": 118, "Bob": 117})
    entry = deal(
        "2C", {"Ann": "5S 5D 5H 10C", "Bob": "AS 3H 9C QD"}, "4S 6H 8S KC", {"Ann": 3, "Bob": 6}
    )
    problems = refused(state, entry)
    assert problems == [
        ("pegged_out", "Ann and Bob both pass 121 in the play: say who pegged out first.")
    ]
    out = GAME.play(
        state,
        deal(
            "2C",
            {"Ann": "5S 5D 5H 10C", "Bob": "AS 3H 9C QD"},
            "4S 6H 8S KC",
            {"Ann": 3, "Bob": 6},
            out="Bob",
        ),
        options(),
    )
    assert dict(out.state.scores) == {"Ann": 120, "Bob": 121}  # Ann keeps up to one short
    wrong = deal(
        "2C", {"Ann": "5S 5D 5H 10C", "Bob": "AS 3H 9C QD"}, "4S 6H 8S KC", {"Ann": 1}, out="Ann"
    )
    assert refused(state, wrong) == [
        ("pegged_out", "Ann did not peg out: the play does not take them to 121.")
    ]


# --- Skunks, teams, three players -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "skunks", "target", "games", "word"),
    [
        (91, "double_triple", 121, 1, None),
        (90, "double_triple", 121, 2, "skunk"),
        (61, "double_triple", 121, 2, "skunk"),
        (60, "double_triple", 121, 3, "double"),
        (60, "double", 121, 2, "skunk"),
        (10, "none", 121, 1, None),
        (31, "double_triple", 61, 1, None),
        (30, "double_triple", 61, 2, "skunk"),
    ],
)
def test_skunks(loser: int, skunks: str, target: int, games: int, word: str | None) -> None:
    state = _near({"Ann": target - 2, "Bob": loser}, skunks=skunks, target=target)
    out = GAME.play(
        state,
        deal("2C", {"Ann": "AS 3H 9C QD", "Bob": "2S 4D 6H 8C"}, "7S 7H 10S KC", {"Ann": 2}),
        options(skunks=skunks, target=target, stake=5),
    )
    assert out.more["won"]["lost"] == {"Bob": games}
    assert out.more["won"]["skunk"] == word
    assert cribbage.game_money(out.more["won"], 5) == {"Bob": -5 * games, "Ann": 5 * games}


def test_four_play_in_two_teams_partners_opposite() -> None:
    seats = ("Ann", "Bob", "Cas", "Dee")
    assert GAME.sides(seats) == (("Ann", "Cas"), ("Bob", "Dee"))
    opts = options(stake=2)
    state = GAME.new_state(seats, "Dee", opts)
    out = GAME.play(
        state,
        deal(
            "5H",
            {
                "Ann": "5S 5D JH 10C",
                "Bob": "4C 6C 7C 8C",
                "Cas": "2S 3H 9D KD",
                "Dee": "AH 4H QS QH",
            },
            "2D 3D KS QC",
            {"Ann": 2, "Bob": 1, "Cas": 3, "Dee": 4},
        ),
        opts,
    )
    scores = dict(out.state.scores)
    assert scores["Ann"] == scores["Cas"] and scores["Bob"] == scores["Dee"]
    ann, cas = (next(r for r in out.results if r.player == p) for p in ("Ann", "Cas"))
    team = 2 + 3 + ann.more["show_points"] + cas.more["show_points"]
    assert scores["Ann"] == team and ann.points == cas.points == team


def test_a_team_game_won_pays_each_loser_to_the_winners() -> None:
    game = {"winners": ["Ann", "Cas"], "lost": {"Bob": 2, "Dee": 2}}
    assert cribbage.game_money(game, 3) == {"Ann": 6, "Cas": 6, "Bob": -6, "Dee": -6}


def test_three_players_each_loser_on_their_own_score() -> None:
    state = _near({"Ann": 119, "Bob": 95, "Cas": 50})
    out = GAME.play(
        state,
        deal(
            "2C", {"Ann": "AS 3H 9C QD", "Bob": "2S 4D 6H 8C", "Cas": "7S 7H 10S KC"}, "5S 5H JD JC"
        ),
        options(),
    )
    assert out.more["won"]["lost"] == {"Bob": 1, "Cas": 3}
    assert out.more["won"]["skunk"] == "double"
    assert cribbage.games_won(out.state) == {"Ann": 3, "Bob": 0, "Cas": 0}


# --- Refusals -------------------------------------------------------------------------------------


def test_a_card_twice_names_both_places_and_every_problem_at_once() -> None:
    state = GAME.new_state(("Ann", "Bob"), "Ann", options())
    entry = deal("5H", {"Bob": "5S 5D JH", "Ann": "4C 6C 5H 8C"}, "2D 3D KS 4C", {"Bob": 61})
    assert refused(state, entry) == [
        ("results[0].show", "Bob's show has 3 cards: a show is four cards."),
        ("results[0].pegged", "Bob pegged 61: the play gives 0 to 60."),
        ("results[1].show", "The 5♥ is typed in the starter and Ann's show: one pack has one."),
        ("crib", "The 4♣ is typed in Ann's show and the crib: one pack has one."),
    ]


def test_a_card_typed_twice_in_one_show() -> None:
    state = GAME.new_state(("Ann", "Bob"), "Ann", options())
    entry = deal("5H", {"Bob": "5S 5S JH 10C", "Ann": "4C 6C 7C 8C"}, "2D 3D KS QC")
    assert refused(state, entry) == [
        ("results[0].show", "The 5♠ is typed twice in Bob's show: one pack has one.")
    ]


def test_points_entry_refuses_a_count_no_hand_makes() -> None:
    state = GAME.new_state(("Ann", "Bob"), "Ann", options(entry="points"))
    entry = deal(None, {"Bob": 19, "Ann": 30}, 25)
    assert refused(state, entry, entry="points") == [
        ("results[0].show", "No hand counts 19: at the table 'nineteen' means nothing, enter 0."),
        ("results[1].show", "A show counts 0 to 29: Ann's show cannot count 30."),
        ("crib", "No hand counts 25: no five cards make 19, 25, 26 or 27."),
    ]
    out = GAME.play(
        state, deal("JD", {"Bob": 12, "Ann": 29}, 0, {"Ann": 2}), options(entry="points")
    )
    assert dict(out.state.scores) == {"Bob": 12, "Ann": 2 + 29 + 2}


def test_cards_entry_wants_cards_and_a_starter() -> None:
    state = GAME.new_state(("Ann", "Bob"), "Ann", options())
    assert refused(state, deal(None, {"Bob": 12, "Ann": "4C 6C 7C 8C"}, "2D 3D KS QC")) == [
        ("starter", "Type the starter, the card turned up."),
        ("results[0].show", "Type the four cards of Bob's show."),
    ]
    assert refused(state, deal("5H 6H", {"Bob": "5S 5D JH 10C"}, "2D 3D KS QC")) == [
        ("results", "Ann has no show in this deal."),
        ("starter", "The starter is one card, not 2."),
    ]


def test_a_finished_night_takes_no_deal() -> None:
    state = GAME.new_state(("Ann", "Bob"), "Ann", options())
    done = State(**{**state.__dict__, "finished": True})
    with pytest.raises(RuleError, match="The night is over"):
        GAME.play(
            done,
            deal("5H", {"Bob": "5S 5D JH 10C", "Ann": "4C 6C 7C 8C"}, "2D 3D KS QC"),
            options(),
        )


# --- A night of games, its money conserved --------------------------------------------------------


def _random_deal(rng: random.Random, seats: tuple[str, ...]) -> CribEntry:
    pack = list(PACK)
    rng.shuffle(pack)
    shows = {p: " ".join(c.code for c in pack[4 * i : 4 * i + 4]) for i, p in enumerate(seats)}
    n = 4 * len(seats)
    crib = " ".join(c.code for c in pack[n : n + 4])
    pegged = {p: rng.randint(0, 12) for p in seats}
    return deal(pack[n + 4].code, shows, crib, pegged)


def _play_night(
    rng: random.Random, seats: tuple[str, ...], opts: dict[str, Any], deals: int
) -> tuple[State, State]:
    first = state = GAME.new_state(seats, seats[0], opts)
    for _ in range(deals):
        entry = _random_deal(rng, seats)
        try:
            state = GAME.play(state, entry, opts).state
        except RuleError:  # the play took two past the target: say who pegged out
            named = CribEntry(entry.results, entry.starter, entry.crib, seats[1])
            try:
                state = GAME.play(state, named, opts).state
            except RuleError:
                state = GAME.play(
                    state, CribEntry(entry.results, entry.starter, entry.crib, seats[0]), opts
                ).state
    return first, state


@settings(max_examples=40, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from((("Ann", "Bob"), ("Ann", "Bob", "Cas"), ("Ann", "Bob", "Cas", "Dee"))),
    st.sampled_from((121, 61)),
    st.sampled_from(("double_triple", "double", "none")),
    st.integers(1, 50),
)
def test_a_nights_money_adds_up_to_nothing(
    rng: random.Random, seats: tuple[str, ...], target: int, skunks: str, stake: int
) -> None:
    opts = options(target=target, skunks=skunks, stake=stake)
    first, state = _play_night(rng, seats, opts, 30)
    money = game_payout(GAME, state, opts, first)
    assert money is not None and sum(money.values()) == 0
    games = state.more["games"]
    assert sum(cribbage.games_won(state).values()) >= len(games)
    for game in games:
        scores = game["scores"]
        assert max(scores.values()) == target
        assert all(scores[p] < target for p in scores if p not in game["winners"])
    assert all(0 <= s < target or s == target for s in state.scores.values())


def test_its_players_options_and_defaults_as_the_rules_give_them() -> None:
    assert (GAME.min_players, GAME.max_players, GAME.money) == (2, 4, False)
    assert GAME.defaults() == {
        "target": 121, "entry": "cards", "skunks": "double_triple",
        "stake": 0, "unit_value": "0.01", "currency": "EUR",
    }  # fmt: skip
    with pytest.raises(RuleError, match="The option target cannot be '100'"):
        options(target=100)
    with pytest.raises(RuleError, match="Cribbage is played by 2 to 4 players, not 5"):
        GAME.new_state(("A", "B", "C", "D", "E"), "A", options())
