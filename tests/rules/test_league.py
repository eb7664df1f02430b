"""Seasons (RULES.md §13): league points, best N, ranks and tie-breaks, the pot and prizes."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from ledger.rules.league import (
    NightResult,
    Rules,
    league_points,
    night_places,
    standings,
)
from ledger.rules.settle import settle

START = datetime(2026, 11, 2, 20, 0)


def spot_night(n: int, winnings: dict[str, int]) -> NightResult:
    """A Spot night: places follow the winnings."""
    return NightResult(n, n, START + timedelta(days=7 * n), tuple(winnings), winnings=winnings)


def in_order(n: int, *order: str | tuple[str, ...]) -> NightResult:
    """A Spot night whose players finish in this order; a tuple is an equal result."""
    winnings: dict[str, int] = {}
    for i, who in enumerate(order):
        for name in who if isinstance(who, tuple) else (who,):
            winnings[name] = 100 - 10 * i
    return spot_night(n, winnings)


WORKED = [
    in_order(1, "Ann", "Bob", "Cas", "Dee"),
    in_order(2, "Bob", "Cas", "Ann", "Dee"),
    in_order(3, "Cas", ("Ann", "Bob"), "Dee"),
    in_order(4, "Dee", "Ann", "Cas"),
    in_order(5, "Ann", "Dee", "Bob", "Cas"),
]
WORKED_RULES = Rules(best_of=3, entry_fee=500, prizes=(60, 30, 10), booby=100)


def test_the_worked_example_of_section_13():
    table = standings(WORKED, WORKED_RULES)
    assert [n.points for n in table.nights] == [
        {"Ann": 4, "Bob": 3, "Cas": 2, "Dee": 1},
        {"Bob": 4, "Cas": 3, "Ann": 2, "Dee": 1},
        {"Cas": 4, "Ann": 3, "Bob": 3, "Dee": 1},
        {"Dee": 3, "Ann": 2, "Cas": 1},
        {"Ann": 4, "Dee": 3, "Bob": 2, "Cas": 1},
    ]
    lines = {s.player: s for s in table.standings}
    assert [(s.player, s.rank, s.total) for s in table.standings] == [
        ("Ann", 1, 11),
        ("Bob", 2, 10),
        ("Cas", 3, 9),
        ("Dee", 4, 7),
    ]
    assert lines["Ann"].nights == 5 and lines["Ann"].counted == 3
    assert sum(table.nights[i].points["Ann"] for i in range(5)) == 15
    assert lines["Ann"].average == Decimal("3.0") and lines["Ann"].best == 4
    assert lines["Dee"].nights == 5 and lines["Dee"].won == 1
    assert table.pot == 2000
    assert {p.player: (p.units, p.booby) for p in table.prizes} == {
        "Ann": (1140, 0),
        "Bob": (570, 0),
        "Cas": (190, 0),
        "Dee": (100, 100),
    }
    balances = table.balances()
    assert balances == {"Ann": 640, "Bob": 70, "Cas": -310, "Dee": -400}
    assert len(settle(balances)) == 3


def test_best_of_drops_the_worst_nights_and_says_which():
    table = standings(WORKED, WORKED_RULES)
    # Ann's 2 of night 2 and 2 of night 4 are dropped: her 3 of night 3 counts.
    assert "Ann" in table.nights[1].dropped and "Ann" in table.nights[3].dropped
    assert "Ann" not in table.nights[2].dropped


def test_equal_results_share_the_best_place_they_cover():
    night = in_order(1, "Ann", ("Bob", "Cas"), "Dee")
    assert night_places(night) == {"Ann": 1, "Bob": 2, "Cas": 2, "Dee": 4}
    assert league_points(night, Rules()) == {"Ann": 4, "Bob": 3, "Cas": 3, "Dee": 1}


def test_a_tie_on_every_count_shares_the_rank_and_its_prizes():
    nights = [in_order(1, "Ann", "Bob", "Cas"), in_order(2, "Bob", "Ann", "Cas")]
    table = standings(nights, Rules(entry_fee=101, prizes=(60, 30, 10)))
    assert [(s.player, s.rank) for s in table.standings] == [("Ann", 1), ("Bob", 1), ("Cas", 3)]
    # 303 in the pot: 181, 90 and 30 rounded down, the 2 units left over to first place (183).
    # Ann and Bob cover places 1 and 2: 273 shared, the odd unit to Ann by name; Cas 30.
    assert {p.player: p.units for p in table.prizes} == {"Ann": 137, "Bob": 136, "Cas": 30}
    assert table.balances() == {"Ann": 36, "Bob": 35, "Cas": -71}


def test_an_odd_unit_of_a_shared_prize_goes_by_name():
    nights = [in_order(1, "Cas", "Bob", "Ann"), in_order(2, "Bob", "Cas", "Ann")]
    table = standings(nights, Rules(entry_fee=1, prizes=(100,)))
    # 3 units to first place, shared by Bob and Cas: Bob (first by name) gets the odd one.
    assert {p.player: p.units for p in table.prizes} == {"Bob": 2, "Cas": 1}


def test_equal_on_total_nights_won_and_best_night_share_the_rank():
    nights = [in_order(1, "Ann", "Bob", "Cas"), in_order(2, ("Bob", "Cas"), "Ann")]
    # Ann 3 + 1 = 4, Bob 2 + 3 = 5, Cas 1 + 3 = 4; Ann and Cas each won a night (a shared first
    # place is a night won) and each has a best night of 3: they share rank 2, listed by name.
    table = standings(nights, Rules())
    assert [(s.player, s.rank) for s in table.standings] == [("Bob", 1), ("Ann", 2), ("Cas", 2)]


def test_the_best_night_breaks_a_tie_on_total_and_nights_won():
    nights = [
        in_order(1, "Eve", "Ann", "Bob", "Cas", "Dee"),  # Ann 4, Bob 3, Cas 2
        in_order(2, "Eve", "Cas", "Bob", "Ann", "Dee"),  # Cas 4, Bob 3, Ann 2
    ]
    # Ann, Bob and Cas all have 6 and no night won; Ann's and Cas's best night (4) beats Bob's.
    table = standings(nights, Rules())
    assert [(s.player, s.total, s.rank) for s in table.standings] == [
        ("Eve", 10, 1),
        ("Ann", 6, 2),
        ("Cas", 6, 2),
        ("Bob", 6, 4),
        ("Dee", 2, 5),
    ]


def test_more_nights_won_beats_an_equal_total():
    nights = [
        in_order(1, "Ann", "Bob", "Cas"),  # Ann 3, Bob 2
        in_order(2, "Cas", "Bob", "Ann"),  # Bob 2, Ann 1
        in_order(3, "Bob", "Cas", "Ann"),  # Bob 3, Ann 1 -> Ann 5, Bob 7
        in_order(4, "Ann", "Cas", "Bob"),  # Ann 3, Bob 1 -> Ann 8, Bob 8
    ]
    table = standings(nights, Rules())
    lines = {s.player: s for s in table.standings}
    assert lines["Ann"].total == lines["Bob"].total == 8
    assert lines["Ann"].won == 2 and lines["Bob"].won == 1
    assert lines["Ann"].rank == 1 and lines["Bob"].rank == 2


def test_below_the_line_pays_the_fee_and_stands_unranked():
    nights = [in_order(1, "Ann", "Bob", "Cas"), in_order(2, "Ann", "Bob")]
    table = standings(nights, Rules(min_nights=2, entry_fee=10, prizes=(100,), booby=5))
    assert [(s.player, s.rank, s.below_line) for s in table.standings] == [
        ("Ann", 1, False),
        ("Bob", 2, False),
        ("Cas", None, True),
    ]
    # 30 in the pot: Bob's booby 5, then 25 to Ann.
    assert table.balances() == {"Ann": 15, "Bob": -5, "Cas": -10}


def test_winnings_scoring_adds_up_the_units():
    nights = [spot_night(1, {"Ann": 50, "Bob": -50}), spot_night(2, {"Ann": -20, "Bob": 20})]
    table = standings(nights, Rules(scoring="winnings"))
    assert [(s.player, s.total, s.best) for s in table.standings] == [
        ("Ann", 30, 50),
        ("Bob", -30, 20),
    ]


def test_points_scoring_where_the_lowest_total_wins():
    def hearts(n: int, scores: dict[str, int], winners: tuple[str, ...]) -> NightResult:
        return NightResult(
            n,
            n,
            START + timedelta(days=n),
            tuple(scores),
            scores=scores,
            winners=winners,
            money=False,
            lowest_wins=True,
        )

    nights = [
        hearts(1, {"Ann": 62, "Bob": 101, "Cas": 45}, ("Cas",)),
        hearts(2, {"Ann": 20, "Bob": 100, "Cas": 70}, ("Ann",)),
    ]
    assert night_places(nights[0]) == {"Cas": 1, "Ann": 2, "Bob": 3}
    table = standings(nights, Rules(scoring="points", best_of=1, lower_better=True))
    assert [(s.player, s.total) for s in table.standings] == [
        ("Ann", 20),
        ("Cas", 45),
        ("Bob", 100),
    ]


def test_a_points_game_places_its_winners_first():
    # Kaluki-like: the last player in wins although another has fewer points.
    night = NightResult(
        1,
        1,
        START,
        ("Ann", "Bob", "Cas"),
        scores={"Ann": 90, "Bob": 40, "Cas": 120},
        winners=("Ann",),
        money=False,
        lowest_wins=True,
    )
    assert night_places(night) == {"Ann": 1, "Bob": 2, "Cas": 3}


def test_prizes_of_places_nobody_holds_go_to_first_place():
    table = standings([in_order(1, "Ann", "Bob")], Rules(entry_fee=50, booby=0))
    assert {p.player: p.units for p in table.prizes} == {"Ann": 70, "Bob": 30}


def test_no_fee_no_prizes_and_no_balances():
    table = standings(WORKED, Rules())
    assert table.pot == 0 and table.prizes == () and table.balances() == {}
