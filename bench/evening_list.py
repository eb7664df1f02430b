"""Benchmark: a club evening's list and draw stay quick as its players grow.

The list (ledger/rules/evening.py) grows with its players, not with their square. Each view
of the evening, each check-in and each page builds the list, so at 500 players checked in a
list that compared every player with every other cost 0.8 s. The figure is a ratio of two
timings in the same run: the list of 500 players over six rounds ÷ the list of 50. Ten
times the players may cost about ten times (sorting adds a little): the goal is at most 20;
comparing every pair made it about 150.

The draw (ledger/rules/draw.py) of round 6 at tables of 12 (Any game), 120 players ÷ 40: its
search for the fewest pairs meeting again makes fewer starts as the players grow, so a draw
of 120 costs about what one of 40 does (goal at most 4); with every start at every size it
was about 25, 17 s for the 120, the evening locked all the while.

    python bench/evening_list.py            # 30 repeats of each list, 3 of each draw
    python bench/evening_list.py --quick    # 5 and 1

Prints the figure with its goal, then ``N of M goals met``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections import Counter  # noqa: E402
from random import Random  # noqa: E402

from ledger.rules.draw import draw_round, pairs, table_sizes  # noqa: E402
from ledger.rules.evening import Money, TableResult, evening_list  # noqa: E402

ROUNDS = 6
GOAL = 20.0
DRAW_GOAL = 4.0


def list_seconds(players: int, repeats: int) -> float:
    """The best of ``repeats`` timings of one list of ``players`` over six played rounds."""
    names = [f"Player {i:03d}" for i in range(players)]
    results = [
        TableResult(r, {p: (i * 7 + r * 3) % 60 for i, p in enumerate(names)})
        for r in range(1, ROUNDS + 1)
    ]
    money = Money(entry_fee=500, prizes=(50, 30, 20))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        evening_list(names, results, ROUNDS, money)
        best = min(best, time.perf_counter() - start)
    return best


def draw_seconds(players: int, repeats: int) -> float:
    """The best of ``repeats`` timings of the sixth round's draw of ``players`` at tables of
    two to twelve, after five rounds drawn the same way."""
    names = [f"Player {i:03d}" for i in range(players)]
    sizes = table_sizes(players, 2, 12)
    met: Counter[frozenset[str]] = Counter()
    rng = Random(6)
    for _ in range(ROUNDS - 1):
        met += pairs(draw_round(names, sizes, met, rng))
    best = float("inf")
    for i in range(repeats):
        start = time.perf_counter()
        draw_round(names, sizes, met, Random(i))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    repeats = 5 if parser.parse_args().quick else 30
    small, large = list_seconds(50, repeats), list_seconds(500, repeats)
    ratio = large / small
    print(f"      list of 50 players: {small * 1000:.2f} ms; of 500: {large * 1000:.2f} ms")
    print(f"evening list: 500 players ÷ 50 players {ratio:.1f} (goal <= {GOAL:g})")
    draws = max(1, repeats // 10)
    few, many = draw_seconds(40, draws), draw_seconds(120, draws)
    drawn = many / few
    print(f"      round 6 drawn for 40 players: {few * 1000:.0f} ms; for 120: {many * 1000:.0f} ms")
    print(f"evening draw: 120 players ÷ 40 players {drawn:.1f} (goal <= {DRAW_GOAL:g})")
    met = (ratio <= GOAL) + (drawn <= DRAW_GOAL)
    print(f"{met} of 2 goals met")
    return 0 if met == 2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
