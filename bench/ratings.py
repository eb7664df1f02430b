"""Benchmark: recomputing a group's ratings (RULES.md §14) stays quick over a few hundred nights.

Ratings are never stored: every read replays the group's finished nights through OpenSkill.
This fills a throwaway group with NIGHTS Spot nights (4 to 6 of 8 players, one hand each)
through the JSON API in-process, then times, in the same run:

- the ratings call (``GET /groups/<slug>/ratings?game=spot``) against the stats call over the
  same nights (``GET /groups/<slug>/stats``), which reads the same facts: the goal is at most
  RATIO times as long, so the rating model adds little to reading the nights;
- a season over all of them (``GET /groups/<slug>/seasons/<id>``), the same way.

    python bench/ratings.py            # 300 nights
    python bench/ratings.py --quick    # 60 nights

Prints one line per figure with its goal, then ``N of M goals met``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from scaffold import Group, throwaway_app

PLAYERS = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fin", "Gus", "Hal"]
RATIO = 3.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 nights instead of 300")
    nights = 60 if parser.parse_args().quick else 300
    with throwaway_app() as app:
        group = Group(app)
        call, slug = group.call, group.slug
        started = time.perf_counter()
        fill(call, slug, nights)
        print(f"{nights} nights entered in {time.perf_counter() - started:.1f} s")
        season = {"name": "All", "game": "spot", "from": "2000-01-01", "to": "2999-12-31"}
        season_id = call("POST", f"/groups/{slug}/seasons", season)["id"]  # type: ignore[index]
        stats = timed(lambda: call("GET", f"/groups/{slug}/stats"))
        ratings = timed(lambda: call("GET", f"/groups/{slug}/ratings?game=spot"))
        table = timed(lambda: call("GET", f"/groups/{slug}/seasons/{season_id}"))
    goals = [
        report("ratings against the stats", ratings, stats),
        report("a season's table against the stats", table, stats),
    ]
    print(f"{sum(goals)} of {len(goals)} goals met")
    return 0


def fill(call: Callable[..., object], slug: str, nights: int) -> None:
    """``nights`` finished Spot nights of 4 to 6 players, one hand each, nobody out."""
    chance = random.Random(40)
    for _ in range(nights):
        players = chance.sample(PLAYERS, chance.randint(4, 6))
        body = {"game": "spot", "players": players, "dealer": players[-1],
                "options": {"ante": 0, "entry": "totals"}}  # fmt: skip
        sid = call("POST", f"/groups/{slug}/sessions", body)["id"]  # type: ignore[index]
        results = [{"player": p, "spots": chance.randint(1, 40)} for p in players]
        call("POST", f"/sessions/{sid}/hands", {"results": results})
        call("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})


def timed(read: Callable[[], object], repeat: int = 5) -> float:
    """The median of ``repeat`` reads, in seconds (the first one warms up and is dropped)."""
    read()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        read()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def report(what: str, measured: float, against: float) -> bool:
    ratio = measured / against
    met = ratio <= RATIO
    print(
        f"{what}: {ratio:.2f}× ({measured * 1000:.0f} ms against {against * 1000:.0f} ms);"
        f" goal at most {RATIO:.0f}× {'met' if met else 'NOT met'}"
    )
    return met


if __name__ == "__main__":
    raise SystemExit(main())
