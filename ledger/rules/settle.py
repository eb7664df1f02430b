"""Settling up: the fewest transfers that bring every balance, the pot's included, to zero."""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

# Up to this many nonzero parties (left after pairing exact opposites) the minimum is found
# exactly; the subset DP costs O(2^n · n): under a tenth of a second at 16, but each party
# more doubles it.
EXACT_LIMIT = 16


@dataclass(frozen=True)
class Transfer:
    """One payment at the end of the night. ``None`` on either side is the pot."""

    source: str | None  # who pays
    target: str | None  # who is paid
    units: int  # always > 0

    def __post_init__(self) -> None:
        if self.units <= 0:
            raise ValueError(f"A transfer moves a positive number of units, not {self.units}.")
        if self.source == self.target:
            raise ValueError("A transfer needs two different parties.")


Party: TypeAlias = str | None
Balance: TypeAlias = tuple[Party, int]
# Balances keyed by player names only (no pot) are accepted as they are: Mapping is invariant
# in its key, so a plain ``Mapping[str | None, int]`` would turn away a ``dict[str, int]``.
PartyT = TypeVar("PartyT", bound=str | None)


def party_key(party: Party) -> tuple[bool, str]:
    """Players by name, the pot after all of them: the one order every tie is broken by."""
    return (party is None, party or "")


def settle(balances: Mapping[PartyT, int]) -> tuple[Transfer, ...]:
    """The fewest transfers that zero every balance (positive: is owed; negative: owes).

    The pot is the party ``None``. With ``n`` nonzero parties that fall into at most ``g``
    disjoint groups summing to zero, no list is shorter than ``n - g``: the transfers join
    the parties into connected groups that each sum to zero, and a group of ``k`` needs
    ``k - 1`` transfers. So the largest such partition is found (exactly up to
    ``EXACT_LIMIT`` parties) and each group is settled with ``k - 1`` transfers. The answer
    depends only on the balances, not on the mapping's order.
    """
    parties = _nonzero(balances)
    pairs, rest = _pair_opposites(parties)
    if len(rest) <= EXACT_LIMIT:
        transfers = pairs + [t for group in _zero_sum_groups(rest) for t in _greedy(group)]
    else:
        # Too many for the exact search: still correct and at most n - 1, just maybe not the
        # minimum. Pairing first nearly always helps; keeping plain greedy when it does better
        # means the answer is never worse than the naive method.
        transfers = pairs + _greedy(rest)
        plain = _greedy(parties)
        if len(plain) < len(transfers):
            transfers = plain
    return _ordered(transfers)


def greedy_settle(balances: Mapping[PartyT, int]) -> tuple[Transfer, ...]:
    """The naive method: the largest debtor pays the largest creditor, again and again.

    Kept for comparison in tests and benchmarks; it can need more transfers than ``settle``.
    """
    return _ordered(_greedy(_nonzero(balances)))


def _nonzero(balances: Mapping[PartyT, int]) -> list[Balance]:
    """The nonzero balances, largest first, ties by party: everything after is deterministic."""
    for party, units in balances.items():
        # Money is whole units; a float here would be a bug upstream, so fail loudly.
        if not isinstance(units, int):
            raise TypeError(f"The balance of {party!r} is not a whole number of units: {units!r}.")
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"Balances must add up to zero, not {total}.")
    parties: list[Balance] = [(party, units) for party, units in balances.items() if units]
    parties.sort(key=lambda b: (-abs(b[1]), party_key(b[0])))
    return parties


def _pair_opposites(parties: Sequence[Balance]) -> tuple[list[Transfer], list[Balance]]:
    """Settle every +x with a -x directly; the rest, in their order, is left to the search.

    This never costs optimality: if +x and -x sit in different groups of a best partition,
    moving them into a pair of their own leaves the two groups' remainder still summing to
    zero, so the number of groups does not drop. It also shrinks the exponential search.
    """
    debtors: dict[int, list[Party]] = {}
    for party, units in parties:
        if units < 0:
            debtors.setdefault(-units, []).append(party)
    paired: set[Party] = set()
    transfers: list[Transfer] = []
    for party, units in parties:
        waiting = debtors.get(units) if units > 0 else None
        if waiting:
            debtor = waiting.pop(0)
            transfers.append(Transfer(debtor, party, units))
            paired.update((party, debtor))
    return transfers, [b for b in parties if b[0] not in paired]


def _zero_sum_groups(parties: Sequence[Balance]) -> list[list[Balance]]:
    """Split parties that sum to zero into the most disjoint groups that each sum to zero.

    ``best[mask]`` is the most zero-sum prefixes any ordering of ``mask`` has: removing one
    member at a time, count the subsets along the way that sum to zero. For the full set that
    is the largest partition, and walking back along a best ordering recovers the groups.
    """
    n = len(parties)
    if n == 0:
        return []
    values = [units for _, units in parties]
    size = 1 << n
    sums = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * size
    for mask in range(1, size):
        most = 0
        rest = mask
        while rest:
            low = rest & -rest
            if best[mask ^ low] > most:
                most = best[mask ^ low]
            rest ^= low
        best[mask] = most + (sums[mask] == 0)

    groups: list[list[Balance]] = []
    mask = boundary = size - 1
    while mask:
        wanted = best[mask] - (sums[mask] == 0)
        rest = mask
        # The lowest member that keeps the ordering optimal: a fixed choice, so a fixed answer.
        while best[mask ^ (rest & -rest)] != wanted:
            rest ^= rest & -rest
        mask ^= rest & -rest
        if sums[mask] == 0:
            members = boundary ^ mask
            groups.append([parties[i] for i in range(n) if members >> i & 1])
            boundary = mask
    return groups


def _greedy(parties: Sequence[Balance]) -> list[Transfer]:
    """Largest debtor pays largest creditor until all are square: at most n - 1 transfers.

    Each transfer zeroes at least one party and the last zeroes two. On a group that no
    smaller zero-sum group can be split from, n - 1 is also the least possible.
    """
    # Heap entries order by amount, then party; the party key is unique, so ties never reach
    # the party itself (None and str do not compare).
    creditors = [(-units, party_key(p), p) for p, units in parties if units > 0]
    debtors = [(units, party_key(p), p) for p, units in parties if units < 0]
    heapq.heapify(creditors)
    heapq.heapify(debtors)
    transfers: list[Transfer] = []
    while creditors and debtors:
        owed, creditor_key, creditor = heapq.heappop(creditors)
        owes, debtor_key, debtor = heapq.heappop(debtors)
        units = min(-owed, -owes)
        transfers.append(Transfer(debtor, creditor, units))
        if -owed > units:
            heapq.heappush(creditors, (owed + units, creditor_key, creditor))
        if -owes > units:
            heapq.heappush(debtors, (owes + units, debtor_key, debtor))
    return transfers


def _ordered(transfers: Sequence[Transfer]) -> tuple[Transfer, ...]:
    return tuple(
        sorted(transfers, key=lambda t: (party_key(t.source), party_key(t.target), t.units))
    )
