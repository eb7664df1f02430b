"""Settling up: the fewest transfers, always the same ones, the pot as a party (RULES.md §6)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules.settle import EXACT_LIMIT, PartyT, Transfer, greedy_settle, settle

Balances = Mapping[str | None, int]


def after(balances: Mapping[PartyT, int], transfers: Sequence[Transfer]) -> dict[str | None, int]:
    """What everyone is owed once the transfers are made."""
    left: dict[str | None, int] = {party: units for party, units in balances.items()}
    for t in transfers:
        left[t.source] = left.get(t.source, 0) + t.units
        left[t.target] = left.get(t.target, 0) - t.units
    return left


def all_square(balances: Mapping[PartyT, int], transfers: Sequence[Transfer]) -> bool:
    return all(units == 0 for units in after(balances, transfers).values())


def fewest_by_brute_force(values: Sequence[int]) -> int:
    """n minus the most zero-sum groups, trying every way to split the parties into groups."""
    nonzero = [v for v in values if v]

    def most_groups(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1  # -1: no zero-sum split of ``rest`` containing ``first``'s group exists
        for mask in range(1 << len(others)):
            group = [others[i] for i in range(len(others)) if mask >> i & 1]
            if first + sum(group) == 0:
                remaining = [others[i] for i in range(len(others)) if not mask >> i & 1]
                below = most_groups(remaining)
                if below >= 0:
                    best = max(best, 1 + below)
        return best

    return len(nonzero) - most_groups(nonzero)


def zero_sum_balances(max_players: int, max_units: int = 60) -> st.SearchStrategy[Balances]:
    """Named players with balances that add up to zero, the pot sometimes among them."""

    def build(draw: st.DrawFn) -> Balances:
        count = draw(st.integers(min_value=1, max_value=max_players))
        values = draw(
            st.lists(
                st.integers(min_value=-max_units, max_value=max_units),
                min_size=count - 1,
                max_size=count - 1,
            )
        )
        values.append(-sum(values))
        names: list[str | None] = [f"P{i}" for i in range(count)]
        if draw(st.booleans()):
            names[-1] = None
        return dict(zip(names, values, strict=True))

    return st.composite(build)()


# --- Examples -------------------------------------------------------------------------------


def test_the_fewest_transfers_beat_paying_the_largest_creditor_first() -> None:
    balances = {"Enda": 6, "John": 10, "Rex": -6, "Finn": -5, "Mary": -5}

    transfers = settle(balances)

    assert transfers == (
        Transfer("Finn", "John", 5),
        Transfer("Mary", "John", 5),
        Transfer("Rex", "Enda", 6),
    )
    assert len(greedy_settle(balances)) == 4
    assert all_square(balances, greedy_settle(balances))


def test_a_group_that_cannot_be_split_needs_one_transfer_fewer_than_its_size() -> None:
    balances = {"Enda": 7, "John": 4, "Rex": -3, "Finn": -8}

    transfers = settle(balances)

    assert len(transfers) == 3
    assert all_square(balances, transfers)


def test_two_separate_debts_are_settled_apart() -> None:
    # 3 + 4 - 7 and 5 - 2 - 3: two groups, so 6 parties need 4 transfers, not 5.
    balances = {"A": 3, "B": 4, "C": -7, "D": 5, "E": -2, "F": -3}

    transfers = settle(balances)

    assert len(transfers) == 4
    assert all_square(balances, transfers)


def test_players_pay_a_carried_pot_into_the_pot() -> None:
    balances = {None: 20, "Enda": 44, "John": -38, "Rex": -26}

    transfers = settle(balances)

    assert all_square(balances, transfers)
    assert len(transfers) == 3
    assert any(t.target is None for t in transfers)
    assert all(t.source is not None for t in transfers)


def test_the_pot_pays_out_like_any_other_party() -> None:
    balances = {None: -15, "Enda": 10, "John": 5}

    transfers = settle(balances)

    assert transfers == (Transfer(None, "Enda", 10), Transfer(None, "John", 5))


def test_a_pot_exactly_owed_by_one_player_is_one_transfer() -> None:
    assert settle({None: 12, "Finn": -12, "Rex": 0}) == (Transfer("Finn", None, 12),)


def test_nobody_owes_anything_means_no_transfers() -> None:
    assert settle({}) == ()
    assert settle({"Enda": 0}) == ()
    assert settle({"Enda": 0, "John": 0, None: 0}) == ()


def test_two_players_settle_with_one_transfer() -> None:
    assert settle({"Enda": 38, "Finn": -38}) == (Transfer("Finn", "Enda", 38),)


def test_balances_that_do_not_add_up_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="add up to zero"):
        settle({"Enda": 5, "Finn": -4})
    with pytest.raises(ValueError, match="add up to zero"):
        settle({"Enda": 5})
    with pytest.raises(ValueError, match="add up to zero"):
        greedy_settle({"Enda": 5, "Finn": -4})


def test_a_balance_that_is_not_whole_units_is_refused() -> None:
    with pytest.raises(TypeError):
        settle({"Enda": 0.5, "Finn": -0.5})  # type: ignore[dict-item]


def test_a_transfer_always_moves_money_between_two_parties() -> None:
    with pytest.raises(ValueError):
        Transfer("Enda", "Finn", 0)
    with pytest.raises(ValueError):
        Transfer("Enda", "Enda", 5)


def test_the_same_balances_in_any_order_give_the_same_list() -> None:
    balances = {"Enda": 6, "John": 10, None: 4, "Rex": -6, "Finn": -5, "Mary": -5, "Sue": -4}
    expected = settle(balances)
    shuffle = random.Random(2024)

    for _ in range(20):
        items = list(balances.items())
        shuffle.shuffle(items)
        assert settle(dict(items)) == expected


def test_equal_balances_are_matched_by_name() -> None:
    balances = {"Zoe": 5, "Amy": 5, "Ben": -5, "Yan": -5}

    assert settle(balances) == (Transfer("Ben", "Amy", 5), Transfer("Yan", "Zoe", 5))


def test_sixteen_parties_are_settled_exactly() -> None:
    # No two balances are opposites, so all sixteen go through the exact search.
    balances = {f"P{i:02}": units for i, units in enumerate([1, 2, 4, 8, 16, 32, 64, 128])}
    balances.update({f"N{i:02}": -units for i, units in enumerate([3, 12, 48, 100, 7, 9, 11, 65])})
    assert sum(balances.values()) == 0
    assert EXACT_LIMIT >= 16

    transfers = settle(balances)

    assert all_square(balances, transfers)
    assert len(transfers) <= len(greedy_settle(balances))


def test_a_crowd_too_large_to_search_is_still_settled_in_at_most_n_minus_one() -> None:
    shuffle = random.Random(25)
    # Distinct sizes and no opposites, so nothing pairs off and the fallback has to work.
    sizes = shuffle.sample(range(10, 400), 24)
    values = [size if i % 2 else -size for i, size in enumerate(sizes)]
    values.append(-sum(values))
    assert len({abs(v) for v in values}) == 25 and 0 not in values
    balances: dict[str | None, int] = {f"P{i:02}": units for i, units in enumerate(values)}
    assert len(balances) > EXACT_LIMIT

    transfers = settle(balances)

    assert all_square(balances, transfers)
    assert len(transfers) <= 24
    assert len(transfers) <= len(greedy_settle(balances))
    items = list(balances.items())
    shuffle.shuffle(items)
    assert settle(dict(items)) == transfers


def test_a_large_crowd_of_opposites_is_paired_off() -> None:
    balances: dict[str | None, int] = {}
    for i in range(15):
        balances[f"C{i:02}"] = 10 + i
        balances[f"D{i:02}"] = -(10 + i)

    transfers = settle(balances)

    assert len(transfers) == 15
    assert all_square(balances, transfers)


# --- Properties -----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances(max_players=12))
def test_settling_leaves_everyone_square_with_positive_transfers(balances: Balances) -> None:
    transfers = settle(balances)

    assert all_square(balances, transfers)
    assert all(t.units > 0 and t.source != t.target for t in transfers)
    assert all(t.source in balances and t.target in balances for t in transfers)


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances(max_players=12))
def test_never_more_than_n_minus_one_nor_more_than_greedy(balances: Balances) -> None:
    nonzero = sum(1 for units in balances.values() if units)

    transfers = settle(balances)

    assert len(transfers) <= max(nonzero - 1, 0)
    assert len(transfers) <= len(greedy_settle(balances))


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances(max_players=7, max_units=12))
def test_the_number_of_transfers_is_the_true_minimum(balances: Balances) -> None:
    assert len(settle(balances)) == fewest_by_brute_force(list(balances.values()))


@settings(max_examples=200, deadline=None)
@given(zero_sum_balances(max_players=10), st.randoms(use_true_random=False))
def test_the_order_the_balances_come_in_does_not_matter(
    balances: Balances, shuffle: random.Random
) -> None:
    items = list(balances.items())
    shuffle.shuffle(items)

    assert settle(dict(items)) == settle(balances)
    assert greedy_settle(dict(items)) == greedy_settle(balances)


@settings(max_examples=40, deadline=None)
@given(zero_sum_balances(max_players=30, max_units=500))
def test_crowds_beyond_the_exact_search_are_settled_too(balances: Balances) -> None:
    nonzero = sum(1 for units in balances.values() if units)

    transfers = settle(balances)

    assert all_square(balances, transfers)
    assert len(transfers) <= max(nonzero - 1, 0)
    assert len(transfers) <= len(greedy_settle(balances))
