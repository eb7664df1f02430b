"""A club evening's draw (RULES.md §19): the tables' sizes, and players drawn to tables and seats.

Pure: the caller passes the random source (a seeded ``random.Random``), so a draw can be
replayed and tested. ``table_sizes`` splits the players checked in into the fewest tables
the game's sizes allow, as even as possible (Skat's 3 and 4: as many 4s as can be, then 3s);
``draw_round`` seats them, from round 2 with as few pairs meeting again as it finds, at
random among the best draws it finds. Seat 1 of a table deals first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from ledger.rules.errors import Param, Phrase, RuleError
from ledger.rules.game import Game

Pair = frozenset[str]
Met = Mapping[Pair, int]

# How many random starts the search for the fewest pairs meeting again makes, up to 40
# players (fewer past that: ``_starts``): each start is improved by swapping two players
# until no swap helps. Small evenings (the tests' 7 and 8) reach the least possible at once.
STARTS = 24

_WORDS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
)  # fmt: skip


def _word(n: int) -> Param:
    return Phrase(_WORDS[n - 1]) if 1 <= n <= len(_WORDS) else n


def _fits(players: int, fewest: int, most: int) -> tuple[int, ...] | None:
    """The sizes of the fewest tables of ``fewest`` to ``most`` seats that hold ``players``,
    as even as possible (bigger tables first), or None where no tables do."""
    if players < fewest or fewest < 1:
        return None
    tables = -(-players // most)
    base, bigger = divmod(players, tables)
    if base < fewest:
        return None
    return tuple([base + 1] * bigger + [base] * (tables - bigger))


def _seats(fewest: int, most: int) -> Phrase:
    """ "three and four", "four", "two to eight": the table sizes in words."""
    if fewest == most:
        return Phrase("{size}", size=_word(fewest))
    if most == fewest + 1:
        return Phrase("{fewest} and {most}", fewest=_word(fewest), most=_word(most))
    return Phrase("{fewest} to {most}", fewest=_word(fewest), most=_word(most))


def table_sizes(players: int, fewest: int, most: int) -> tuple[int, ...]:
    """The tables for ``players`` at a game seated ``fewest`` to ``most`` at a table: the
    fewest tables, as even as possible. An impossible count is refused with what would fit."""
    sizes = _fits(players, fewest, most)
    if sizes is not None:
        return sizes
    seats = _seats(fewest, most)
    below = next((n for n in range(players - 1, 0, -1) if _fits(n, fewest, most)), None)
    above = next(n for n in range(players + 1, players + 2 * most + 2) if _fits(n, fewest, most))
    if below == players - 1 and above == players + 1:
        raise RuleError(
            "{count} players cannot sit at tables of {seats}: check one more in or one out.",
            field="players",
            count=players,
            seats=seats,
        )
    if players == 1:  # one, not "1 players"
        raise RuleError(
            "One player cannot sit at tables of {seats}: {above} would.",
            field="players",
            seats=seats,
            above=above,
        )
    if below is None:
        raise RuleError(
            "{count} players cannot sit at tables of {seats}: {above} would.",
            field="players",
            count=players,
            seats=seats,
            above=above,
        )
    raise RuleError(
        "{count} players cannot sit at tables of {seats}: {below} or {above} would.",
        field="players",
        count=players,
        seats=seats,
        below=below,
        above=above,
    )


def pairs(tables: Iterable[Sequence[str]]) -> Counter[Pair]:
    """Each pair of players who sit at the same table, counted once a table."""
    return Counter(frozenset(p) for table in tables for p in combinations(table, 2))


def meetings_again(tables: Iterable[Sequence[str]], met: Met) -> int:
    """How many pairs at these tables have sat together before."""
    return sum(1 for pair in pairs(tables) if met.get(pair, 0))


def _weight(times: int) -> int:
    """What seating a pair together again costs the search: a pair again counts far more
    than how often it met (RULES.md counts pairs), and among equals a pair that met twice
    costs more than two that met once, so meetings are spread out."""
    return 1000 + times * times if times else 0


def draw_round(
    players: Sequence[str], sizes: Sequence[int], met: Met, rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """The players drawn to tables of ``sizes`` (their sum is the players' count), each
    table's players in seat order. ``met``: the pairs that sat together in earlier rounds
    (``pairs``), empty in round 1; the draw keeps the fewest of them together that its
    search finds, picking at random among the draws as good as the best."""
    if sum(sizes) != len(players):
        raise ValueError("the tables' sizes must seat every player")
    pool = list(players)
    if not met:
        rng.shuffle(pool)
        return _tables(pool, sizes, rng)
    weights = _weights(players, met)
    seats = list(range(len(players)))
    best: list[list[int]] = []
    best_cost: int | None = None
    for _ in range(_starts(len(players))):
        rng.shuffle(seats)
        order, cost = _improved(seats, sizes, weights)
        if best_cost is None or cost < best_cost:
            best, best_cost = [order], cost
        elif cost == best_cost:
            best.append(order)
        if best_cost == 0:
            break
    return _tables([players[i] for i in rng.choice(best)], sizes, rng)


def _starts(players: int) -> int:
    """How many random starts the search makes for ``players``: ``STARTS`` up to 40 players,
    then fewer, down to one, so that its work (a pass of the swaps grows with the players'
    square) stays about that of 40 players' (a draw of 120 at tables of 12 took 20 s, the
    evening locked all the while)."""
    return max(1, min(STARTS, STARTS * 40 * 40 // (players * players)))


def _weights(players: Sequence[str], met: Met) -> list[dict[int, int]]:
    """Per player (by place in ``players``), what sitting with each player they met costs."""
    place = {p: i for i, p in enumerate(players)}
    weights: list[dict[int, int]] = [{} for _ in players]
    for pair, times in met.items():
        ends = [place[p] for p in pair if p in place]
        if times and len(ends) == 2:
            a, b = ends
            weights[a][b] = weights[b][a] = _weight(times)
    return weights


def _tables(
    order: Sequence[str], sizes: Sequence[int], rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """``order`` cut into tables of ``sizes``, each table's seats drawn."""
    tables = []
    start = 0
    for size in sizes:
        table = list(order[start : start + size])
        rng.shuffle(table)
        tables.append(tuple(table))
        start += size
    return tuple(tables)


def _improved(
    order: Sequence[int], sizes: Sequence[int], weights: Sequence[Mapping[int, int]]
) -> tuple[list[int], int]:
    """``order`` (players by place, cut into tables of ``sizes``) with two players of
    different tables swapped while a swap lowers the meetings again: a local best, and its
    cost."""
    at = list(order)
    table_of = [i for i, size in enumerate(sizes) for _ in range(size)]
    members: list[list[int]] = [[] for _ in sizes]
    for seat, player in enumerate(at):
        members[table_of[seat]].append(player)

    def cost_at(player: int, table: int, leaving: int) -> int:
        costs = weights[player]
        return sum(costs.get(o, 0) for o in members[table] if o != player and o != leaving)

    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(at)), 2):
            ta, tb = table_of[a], table_of[b]
            if ta == tb:
                continue
            pa, pb = at[a], at[b]
            now = cost_at(pa, ta, -1) + cost_at(pb, tb, -1)
            then = cost_at(pa, tb, pb) + cost_at(pb, ta, pa)
            if then < now:
                at[a], at[b] = pb, pa
                members[ta][members[ta].index(pa)] = pb
                members[tb][members[tb].index(pb)] = pa
                improved = True
    cost = sum(cost_at(p, t, -1) for t, table in enumerate(members) for p in table) // 2
    return at, cost


def game_tables(game: Game, players: int) -> tuple[int, ...]:
    """The tables an evening of ``game`` seats ``players`` at: its own table sizes
    (``Game.evening_tables``: Cribbage's pairs) or else its player limits."""
    fewest, most = game.evening_tables or (game.min_players, game.max_players)
    return table_sizes(players, fewest, most)
