"""A club evening's list and money (RULES.md §19): totals, ties, the pot and the balances."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ledger.rules.evening import Money, TableResult, evening_list
from ledger.rules.settle import settle

PLAYERS = ("Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus")
TOTALS = {"Ann": 1210, "Bob": 980, "Cas": 980, "Dee": 640, "Eve": 515, "Fay": 410, "Gus": -60}
WON = {"Ann": 8, "Bob": 8, "Cas": 9, "Dee": 5, "Eve": 4, "Fay": 3, "Gus": 2}
LOST = {"Ann": 1, "Bob": 2, "Cas": 2, "Dee": 3, "Eve": 2, "Fay": 2, "Gus": 2}
PREISSKAT = Money(entry_fee=1000, prizes=(50, 30, 20), lost_game_fee=50)


def worked_example() -> list[TableResult]:
    """The §19 example's totals, split over two rounds (60 % in the first, the rest after)."""
    first = {p: TOTALS[p] * 3 // 5 for p in PLAYERS}
    second = {p: TOTALS[p] - first[p] for p in PLAYERS}
    return [
        TableResult(1, {p: first[p] for p in PLAYERS[:4]}, {p: 4 for p in PLAYERS[:4]},
                    {p: 1 for p in PLAYERS[:4]}),
        TableResult(1, {p: first[p] for p in PLAYERS[4:]}, {p: 2 for p in PLAYERS[4:]},
                    {p: 1 for p in PLAYERS[4:]}),
        TableResult(2, second, {p: WON[p] - (4 if p in PLAYERS[:4] else 2) for p in PLAYERS},
                    {p: LOST[p] - 1 for p in PLAYERS}),
    ]  # fmt: skip


def test_worked_example_list_pot_prizes_and_balances() -> None:
    found = evening_list(PLAYERS, worked_example(), 2, PREISSKAT)
    assert [(line.player, line.rank, line.total) for line in found.lines] == [
        ("Ann", 1, 1210), ("Cas", 2, 980), ("Bob", 3, 980), ("Dee", 4, 640), ("Eve", 5, 515),
        ("Fay", 6, 410), ("Gus", 7, -60),
    ]  # fmt: skip
    assert sum(line.lost_games for line in found.lines) == 14
    assert found.pot == 7700
    assert {p.player: p.units for p in found.prizes} == {"Ann": 3850, "Cas": 2310, "Bob": 1540}
    balances = found.balances()
    assert balances == {
        "Ann": 2800, "Cas": 1210, "Bob": 440, "Dee": -1150, "Eve": -1100, "Fay": -1100,
        "Gus": -1100,
    }  # fmt: skip
    assert sum(balances.values()) == 0
    assert sum(t.units for t in settle(balances)) == 2800 + 1210 + 440


def test_equal_totals_and_equal_games_share_a_rank_and_its_prizes() -> None:
    results = [TableResult(1, {"Ann": 100, "Bob": 100, "Cas": 0}, {"Ann": 2, "Bob": 2}, {})]
    found = evening_list(("Ann", "Bob", "Cas"), results, 1, Money(entry_fee=100))
    assert [line.rank for line in found.lines] == [1, 1, 3]
    # 60 + 30 of 300 shared: 135 each
    assert {p.player: p.units for p in found.prizes} == {"Ann": 135, "Bob": 135, "Cas": 30}


def test_other_games_split_equal_totals_by_the_best_round() -> None:
    results = [
        TableResult(1, {"Ann": 3, "Bob": 1}),
        TableResult(2, {"Ann": 1, "Bob": 2}),
        TableResult(2, {"Cas": 4}),
    ]
    found = evening_list(("Ann", "Bob", "Cas"), results, 2, Money())
    # Ann and Cas have 4 each: Cas's best round (4) beats Ann's (3)
    assert [(line.player, line.rank) for line in found.lines] == [
        ("Cas", 1),
        ("Ann", 2),
        ("Bob", 3),
    ]
    assert found.balances() == {}  # no entry fee: no money


def test_a_player_who_missed_a_round_has_none_there() -> None:
    found = evening_list(("Ann", "Bob"), [TableResult(1, {"Ann": 5})], 2, Money())
    assert found.lines[0].rounds == (5, None)
    assert found.lines[1].rounds == (None, None)


@given(
    totals=st.lists(st.integers(-500, 2000), min_size=2, max_size=12),
    lost=st.lists(st.integers(0, 6), min_size=12, max_size=12),
    entry_fee=st.integers(0, 2000),
    lost_game_fee=st.integers(0, 100),
    booby=st.integers(0, 500),
    prizes=st.sampled_from([(100,), (60, 30, 10), (50, 30, 20), (40, 30, 20, 10)]),
)
def test_the_balances_add_up_to_zero_and_the_pot_is_paid_out_whole(
    totals, lost, entry_fee, lost_game_fee, booby, prizes
) -> None:
    players = [f"P{i}" for i in range(len(totals))]
    results = [
        TableResult(1, dict(zip(players, totals, strict=False)), {},
                    {p: lost[i] for i, p in enumerate(players)})
    ]  # fmt: skip
    money = Money(entry_fee, prizes, booby, lost_game_fee)
    found = evening_list(players, results, 1, money)
    assert found.pot == len(players) * entry_fee + lost_game_fee * sum(lost[: len(players)])
    if found.pot:
        assert sum(p.units for p in found.prizes) == found.pot
        assert sum(found.balances().values()) == 0


@given(
    firsts=st.lists(st.integers(-3, 3), min_size=1, max_size=30),
    seconds=st.lists(st.one_of(st.none(), st.integers(-3, 3)), min_size=30, max_size=30),
)
def test_a_rank_is_one_more_than_the_players_strictly_ahead(firsts, seconds) -> None:
    # Few distinct points, many ties: the shared ranks the binary search of the keys finds
    # must be the rule's, one more than those with a better total (or equal, better best).
    players = [f"P{i}" for i in range(len(firsts))]
    results = [
        TableResult(1, dict(zip(players, firsts, strict=False))),
        TableResult(2, {p: v for p, v in zip(players, seconds, strict=False) if v is not None}),
    ]
    found = evening_list(players, results, 2, Money())
    key = {line.player: (-line.total, -line.best) for line in found.lines}
    for line in found.lines:
        assert line.rank == 1 + sum(k < key[line.player] for k in key.values())
    assert [line.rank for line in found.lines] == sorted(line.rank for line in found.lines)
