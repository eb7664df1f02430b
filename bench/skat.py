"""Benchmark: a long Skat night stays flat — entering a deal at deal N costs what it costs at
deal 1, and reading the night grows only with the list it answers.

A Skat night keeps the list as it goes (a line per deal in the session's state: the clubs'
list on the scoreboard and in the API). This fills a throwaway group (SQLite, in-process,
through the JSON API) with a night of DEALS random deals at a table of four and a fresh night,
then times, in pairs and in turns so a busy machine slows both alike:

- entering one more deal at the end of the long night (then undoing it) against entering the
  first deal of the fresh night (then undoing it): the goal is at most RATIO;
- a correction of a deal ten from the end against entering a deal: at most 3 (it replays the
  ten deals after it);
- reading the long night (``GET /sessions/<id>``, whose ``list`` has a line per deal) against
  reading a night of 20 deals: for information.

    python bench/skat.py            # 399 deals (one short of the most `deals` allows)
    python bench/skat.py --quick    # 100 deals

Prints one line per figure with its goal, then ``N of M goals met``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from scaffold import Group, throwaway_app

PLAYERS = ["Ann", "Bob", "Cas", "Dee"]
RATIO = 1.1
GAMES = ["clubs", "spades", "hearts", "diamonds", "grand", "null"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 deals instead of 399")
    quick = parser.parse_args().quick
    deals, repeat = (100, 15) if quick else (399, 31)
    with throwaway_app() as app:
        group = Group(app)
        slug = group.slug

        def call(method: str, path: str, body: object = None) -> dict:
            return group.call(method, path, body) or {}

        def night() -> int:
            body = {"game": "skat", "players": PLAYERS, "dealer": "Dee",
                    "options": {"deals": 400}}  # fmt: skip
            return int(call("POST", f"/groups/{slug}/sessions", body)["id"])

        chance = random.Random(49)
        long_night, short_night, fresh = night(), night(), night()
        started = time.perf_counter()
        for _ in range(deals):
            call("POST", f"/sessions/{long_night}/hands", deal(chance, call, long_night))
        for _ in range(20):
            call("POST", f"/sessions/{short_night}/hands", deal(chance, call, short_night))
        print(f"{deals} deals entered in {time.perf_counter() - started:.1f} s")

        def enter(session: int) -> Callable[[], float]:
            def go() -> float:
                body = deal(chance, call, session)
                start = time.perf_counter()
                number = call("POST", f"/sessions/{session}/hands", body)["number"]
                took = time.perf_counter() - start
                call("DELETE", f"/sessions/{session}/hands/{number}")
                return took

            return go

        def read(session: int) -> Callable[[], float]:
            def go() -> float:
                start = time.perf_counter()
                call("GET", f"/sessions/{session}")
                return time.perf_counter() - start

            return go

        at_end, at_start = paired(enter(long_night), enter(fresh), repeat)
        long_read, short_read = paired(read(long_night), read(short_night), repeat)
        number = deals - 10
        corrections: list[float] = []
        for _ in range(max(5, repeat // 3)):
            body = deal(chance, call, long_night, number)
            start = time.perf_counter()
            call("PUT", f"/sessions/{long_night}/hands/{number}", body)
            corrections.append(time.perf_counter() - start)
    goals = [
        report(f"enter a deal at deal {deals} / at deal 1", at_end, at_start, RATIO),
        report(
            f"correct deal {number} of {deals} / enter a deal",
            [statistics.median(corrections)],
            [statistics.median(at_start)],
            3.0,
        ),
    ]
    report(f"read the night: {deals} deals / 20 deals", long_read, short_read, None)
    print(f"{sum(goals)} of {len(goals)} goals met")
    return 0


def deal(
    chance: random.Random, call: Callable[..., dict], session: int, number: int | None = None
) -> dict:
    """A random deal the table could have played: a declarer who is not sitting out (at four
    the dealer of that deal sits out), a game, its matadors, card points and a bid it reached
    or overbid; now and then all passed."""
    if chance.random() < 0.1:
        return {"declarer": None}
    if number is None:
        out = call("GET", f"/sessions/{session}")["sitting_out"]
    else:
        out = call("GET", f"/sessions/{session}/hands?after={number - 1}&limit=1")[0]["dealer"]
    declarer = chance.choice([p for p in PLAYERS if p != out])
    game = chance.choice(GAMES)
    if game == "null":
        return {"declarer": declarer, "bid": 23, "game": game,
                "tricks": chance.choice(["none", "some"])}  # fmt: skip
    most = 4 if game == "grand" else 11
    matadors = chance.randint(1, most) * chance.choice([1, -1])
    return {"declarer": declarer, "bid": chance.choice([18, 20, 22, 24, 30, 36]), "game": game,
            "matadors": matadors, "card_points": chance.randint(31, 89)}  # fmt: skip


def paired(
    a: Callable[[], float], b: Callable[[], float], repeat: int
) -> tuple[list[float], list[float]]:
    """``repeat`` timings of each, in turns (a then b, b then a), after one of each to warm up."""
    a(), b()
    first: list[float] = []
    second: list[float] = []
    for i in range(repeat):
        if i % 2 == 0:
            first.append(a())
            second.append(b())
        else:
            second.append(b())
            first.append(a())
    return first, second


def report(what: str, measured: list[float], against: list[float], goal: float | None) -> bool:
    """The median of the pairs' ratios (taken side by side: a burst of other work on a busy
    machine hits one pair, not the figure), with the two medians for scale."""
    a, b = statistics.median(measured), statistics.median(against)
    ratio = statistics.median(x / y for x, y in zip(measured, against, strict=True))
    met = goal is None or ratio <= goal
    said = (
        "for information"
        if goal is None
        else f"goal at most {goal:g}× " + ("met" if met else "NOT met")
    )
    print(f"{what}: {ratio:.2f}× ({a * 1000:.1f} ms against {b * 1000:.1f} ms); {said}")
    return met


if __name__ == "__main__":
    raise SystemExit(main())
