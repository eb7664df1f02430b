"""Benchmark: seasons cost a page next to nothing (issue 46.2).

Two groups with the same NIGHTS finished Spot nights (4 to 6 of 8 players, one hand each),
entered through the JSON API in-process; one of them has SEASONS open seasons over all its
nights, under way today (a season per week of an imagined year, each over the whole period so
that every one counts every night). Timed in pairs, side by side and in turns:

- the group page (it shows each season under way) of the group with the seasons against the
  same page of the group with none: the goal is at most RATIO times as long;
- for information, the seasons page and a player's page the same way, and the group page
  right after a new night is finished (each season counting it is built again, once).

    python bench/seasons.py            # 1,000 nights, 60 seasons
    python bench/seasons.py --quick    # 120 nights, 12 seasons

bench/run.py runs it too (``season_figures``). Prints one line per figure with its goal.
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PLAYERS = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fin", "Gus", "Hal"]
PASSPHRASE = "bench passphrase"
RATIO = 2.0


class Group:
    """One group over the in-process API, and a signed-in browser for its pages."""

    def __init__(self, app: Any, name: str) -> None:
        self.browser = app.test_client()  # makes the group, so is signed in to it
        made = self.browser.post(
            "/groups", data={"create-name": name, "create-passphrase": PASSPHRASE}
        )
        if made.status_code != 302:
            raise SystemExit(f"making the group {name} answered {made.status_code}")
        self.slug = made.headers["Location"].split("/g/")[1].split("?")[0]
        self.client = app.test_client()
        token = base64.b64encode(f"{self.slug}:{PASSPHRASE}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}"}

    def call(self, method: str, path: str, body: object = None) -> Any:
        response = self.client.open(
            f"/api/v1{path}", method=method, json=body, headers=self.headers
        )
        if response.status_code >= 300:
            raise SystemExit(f"{method} {path} answered {response.status_code}")
        return response.get_json()

    def page(self, path: str) -> Callable[[], None]:
        def get() -> None:
            response = self.browser.get(f"/g/{self.slug}{path}")
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")

        return get


def night(group: Group, chance: random.Random) -> int:
    """A finished Spot night of 4 to 6 players, one hand nobody went out of."""
    players = chance.sample(PLAYERS, chance.randint(4, 6))
    body = {"game": "spot", "players": players, "dealer": players[-1],
            "options": {"ante": 0, "entry": "totals"}}  # fmt: skip
    sid = int(group.call("POST", f"/groups/{group.slug}/sessions", body)["id"])
    results = [{"player": p, "spots": chance.randint(1, 40)} for p in players]
    group.call("POST", f"/sessions/{sid}/hands", {"results": results})
    group.call("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    return sid


def paired(a: Callable[[], None], b: Callable[[], None], repeat: int) -> float:
    """The median of ``a``'s times over the median of ``b``'s, taken in turns (one warm-up
    each first)."""
    a(), b()
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(repeat):
        for which in (0, 1) if i % 2 == 0 else (1, 0):
            started = time.perf_counter()
            (a, b)[which]()
            times[which].append(time.perf_counter() - started)
    return statistics.median(times[0]) / statistics.median(times[1])


def season_figures(quick: bool = False) -> list[tuple[str, float, str | None, bool]]:
    """The figures: (what, ratio, goal or None for information, met)."""
    from ledger import create_app
    from ledger.extensions import db

    nights, count = (120, 12) if quick else (1000, 60)
    repeat = 7 if quick else 11
    with tempfile.TemporaryDirectory(prefix="ledger-bench-seasons-") as folder:
        os.environ["LEDGER_INSTANCE_PATH"] = folder  # not a developer's instance/config.py
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
                "LEDGER_PASSPHRASE_HASH": "pbkdf2:sha256:1000",
                "LEDGER_GROUP_LIMIT": 0,
                "LEDGER_GROUP_HANDS": 0,
                "WTF_CSRF_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
        league, plain = Group(app, "League"), Group(app, "Plain")
        started = time.perf_counter()
        chance = (random.Random(46), random.Random(46))  # the same nights in both groups
        for _ in range(nights):
            night(league, chance[0])
            night(plain, chance[1])
        print(f"  {2 * nights:,} nights entered in {time.perf_counter() - started:.0f} s")
        today = datetime.now(UTC).date()
        for week in range(count):
            league.call(
                "POST",
                f"/groups/{league.slug}/seasons",
                {
                    "name": f"Week {week + 1}",
                    "game": "spot",
                    "from": (today - timedelta(days=week + 1)).isoformat(),
                    "to": (today + timedelta(days=365 - week)).isoformat(),
                    "entry_fee": 100,
                    "best_of": 10 + week,
                },
            )
        seasons = league.call("GET", f"/groups/{league.slug}/seasons")["seasons"]
        if len(seasons) != count or any(len(s["nights"]) != nights for s in seasons):
            raise SystemExit("the seasons do not each count every night")
        group = paired(league.page(""), plain.page(""), repeat)
        listed = paired(league.page("/seasons"), plain.page("/seasons"), repeat)
        player = paired(league.page("/p/Ann"), plain.page("/p/Ann"), repeat)

        def finished(group: Group, chance: random.Random) -> Callable[[], None]:
            def go() -> None:
                night(group, chance)
                group.page("")()

            return go

        added = (random.Random(7), random.Random(7))
        changed = paired(finished(league, added[0]), finished(plain, added[1]), max(3, repeat // 2))
    what = f"{nights:,} nights"
    return [
        (f"group page: {what} and {count} seasons / {what} and none", group, f"<= {RATIO:g}",
         group <= RATIO),
        (f"seasons page: {what} and {count} seasons / {what} and none", listed, None, True),
        (f"player page: {what} and {count} seasons / {what} and none", player, None, True),
        (f"a night played and finished, then the group page: {count} seasons / none",
         changed, None, True),
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="120 nights and 12 seasons")
    figures = season_figures(parser.parse_args().quick)
    for name, value, goal, met in figures:
        mark = "info" if goal is None else "ok  " if met else "MISS"
        print(f"{mark} {name:<74} {value:6.2f}   {goal or 'no goal (for information)'}")
    goals = [f for f in figures if f[2] is not None]
    print(f"{sum(f[3] for f in goals)} of {len(goals)} goals met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
