"""Benchmark: a night of Cribbage stays as quick at its 200th deal as at its 20th, like the
other games' long nights (bench/run.py's "2,000 ÷ 20" lines).

A Cribbage night is a run of games: its state keeps every game won (their boards and skunks)
and each deal's answer its counts in parts, so a long night carries more than a Spot night of
as many hands. This fills a throwaway group in-process (SQLite) with a Cribbage night of
DEALS random deals (121 up, two players: a game about every eight deals) and one of 20, and
a Spot night of each length for comparison, then times, interleaved, in the same run:

- the session read over the API (``GET /sessions/<id>``), long ÷ short;
- the scoreboard page after a new deal (the deal entered untimed, then undone), long ÷ short;
- entering a deal at the end of the long night ÷ the first deal of a fresh night.

    python bench/cribbage.py            # 200 deals
    python bench/cribbage.py --quick    # 60 deals

Prints one line per figure with its goal (each at most GOAL, as bench/run.py's long-night
figures; Spot's beside it for information), then ``N of M goals met``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from scaffold import PASSPHRASE, Group, throwaway_app

PACK = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for s in "SHDC"]  # fmt: skip
SHORT = 20
GOAL = 1.1
SPOT_PLAYERS = ["Enda", "John", "Rex", "Finn"]


def cribbage_deal(rng: random.Random) -> dict[str, Any]:
    """A legal deal for Ann and Bob: eight cards shown, four in the crib, the starter."""
    cards = rng.sample(PACK, 13)
    results = [
        {"player": p, "show": " ".join(cards[4 * i : 4 * i + 4]), "pegged": rng.randint(0, 10)}
        for i, p in enumerate(("Ann", "Bob"))
    ]
    return {"starter": cards[12], "results": results, "crib": " ".join(cards[8:12])}


def spot_hand(rng: random.Random) -> dict[str, Any]:
    cards = rng.sample(PACK, 16)
    out = rng.choice([None, *SPOT_PLAYERS])
    results = [
        {"player": p, "cards": "" if p == out else " ".join(cards[4 * i : 4 * i + 4])}
        for i, p in enumerate(SPOT_PLAYERS)
    ]
    return {"results": results, "out": out}


class Table(Group):
    """One group's API and one signed-in phone, in process."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.phone = app.test_client()
        opened = self.phone.post(
            "/open", data={"open-group": self.slug, "open-passphrase": PASSPHRASE}
        )
        assert opened.status_code == 302, opened.status_code

    def call(self, method: str, path: str, body: object = None, status: int | None = 200) -> Any:
        return super().call(method, path, body, status)

    def night(self, game: str) -> int:
        body = (
            {"game": "cribbage", "players": ["Ann", "Bob"], "dealer": "Ann",
             "options": {"stake": 1}}
            if game == "cribbage"
            else {"game": "spot", "players": SPOT_PLAYERS, "dealer": "Finn", "options": {}}
        )  # fmt: skip
        return int(self.call("POST", f"/groups/{self.slug}/sessions", body, 201)["id"])

    def add(self, sid: int, entry: dict[str, Any]) -> int:
        response = self.client.post(
            f"/api/v1/sessions/{sid}/hands", json=entry, headers=self.headers
        )
        if response.status_code == 422 and "pegged_out" in str(response.get_json()):
            entry = {**entry, "pegged_out": "Ann"}  # the play took both out: Ann first
            response = self.client.post(
                f"/api/v1/sessions/{sid}/hands", json=entry, headers=self.headers
            )
        assert response.status_code == 201, response.get_json()
        return int(response.get_json()["number"])

    def undo(self, sid: int, number: int) -> None:
        self.call("DELETE", f"/sessions/{sid}/hands/{number}", status=204)

    def board(self, sid: int) -> None:
        assert self.phone.get(f"/g/{self.slug}/s/{sid}").status_code == 200


def pairs(a: Callable[[], float], b: Callable[[], float], repeat: int) -> float:
    """The median of a ÷ b over ``repeat`` pairs, taken in turns so noise hits both alike."""
    ratios = []
    for i in range(repeat):
        first, second = (a(), b()) if i % 2 == 0 else (b(), a())[::-1]
        ratios.append(first / second)
    return statistics.median(ratios)


def figures(
    table: Table, game: str, long: int, rng: random.Random, repeat: int
) -> dict[str, float]:
    deal = cribbage_deal if game == "cribbage" else spot_hand
    big, small, fresh = table.night(game), table.night(game), table.night(game)
    for sid, count in ((big, long), (small, SHORT)):
        for _ in range(count):
            table.add(sid, deal(rng))

    def timed(action: Callable[[], object]) -> float:
        started = time.perf_counter()
        action()
        return time.perf_counter() - started

    def board_after_deal(sid: int) -> Callable[[], float]:
        def go() -> float:
            number = table.add(sid, deal(rng))
            took = timed(lambda: table.board(sid))
            table.undo(sid, number)
            return took

        return go

    def enter(sid: int) -> Callable[[], float]:
        def go() -> float:
            started = time.perf_counter()
            number = table.add(sid, deal(rng))
            took = time.perf_counter() - started
            table.undo(sid, number)
            return took

        return go

    def read(sid: int) -> Callable[[], float]:
        return lambda: timed(lambda: table.call("GET", f"/sessions/{sid}"))

    return {
        f"read the night over the API: {long} ÷ {SHORT}": pairs(read(big), read(small), 3 * repeat),
        f"scoreboard after a new deal: {long} ÷ {SHORT}": pairs(
            board_after_deal(big), board_after_deal(small), repeat
        ),
        f"enter a deal at {long} ÷ at 1": pairs(enter(big), enter(fresh), 3 * repeat),
    }, big


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 deals instead of 200")
    quick = parser.parse_args().quick
    long, repeat = (60, 9) if quick else (200, 21)
    # The phone posts as the tests' do.
    with throwaway_app(WTF_CSRF_ENABLED=False) as app:
        table = Table(app)
        rng = random.Random(48)
        started = time.perf_counter()
        crib, night = figures(table, "cribbage", long, rng, repeat)
        spot, _ = figures(table, "spot", long, rng, repeat)
        games = table.call("GET", f"/sessions/{night}")["games"]
        print(f"filled and timed in {time.perf_counter() - started:.0f} s; "
              f"the long Cribbage night has {len(games)} games")  # fmt: skip
    met = 0
    for (name, ratio), spot_ratio in zip(crib.items(), spot.values(), strict=True):
        ok = ratio <= GOAL
        met += ok
        print(f"{'ok  ' if ok else 'MISS'} Cribbage {name:<46} {ratio:5.2f}  goal <= {GOAL:g}"
              f"   (Spot: {spot_ratio:.2f})")  # fmt: skip
    print(f"{met} of {len(crib)} goals met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
