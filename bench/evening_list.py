"""Benchmark: a club evening's list (ledger/rules/evening.py) grows with its players, not with
their square. Each view of the evening, each check-in and each page builds the list, so at
500 players checked in a list that compared every player with every other cost 0.8 s.

The figure is a ratio of two timings in the same run: the list of 500 players over six
rounds ÷ the list of 50. Ten times the players may cost about ten times (sorting adds a
little): the goal is at most 20; comparing every pair made it about 100.

    python bench/evening_list.py            # 30 repeats of each
    python bench/evening_list.py --quick    # 5

Prints the figure with its goal, then ``N of M goals met``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.rules.evening import Money, TableResult, evening_list  # noqa: E402

ROUNDS = 6
GOAL = 20.0


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    repeats = 5 if parser.parse_args().quick else 30
    small, large = list_seconds(50, repeats), list_seconds(500, repeats)
    ratio = large / small
    print(f"      list of 50 players: {small * 1000:.2f} ms; of 500: {large * 1000:.2f} ms")
    print(f"evening list: 500 players ÷ 50 players {ratio:.1f} (goal <= {GOAL:g})")
    met = ratio <= GOAL
    print(f"{int(met)} of 1 goals met")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
