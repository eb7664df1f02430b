"""Benchmark: a club evening of 40 players (10 tables) with every phone polling stays within
the club figure of bench/run.py: one process, the polls' p95 at most 3× one table's.

On one real ``ledger serve`` (one process, SQLite in a throwaway folder): an evening of 4
players (one table) and one of 40 (ten tables of 4) are drawn through the JSON API. Each
player's phone polls its table's ``version.json`` every 3 s, as static/live.js does, and
fetches the scoreboard when it changed; the organiser's wall polls the evening's
``version.json`` as often and fetches the evening's page when it changed; each table enters
a hand every ``HAND_SECONDS``. The one-table evening is measured first (three times as long),
then the forty; the figure is the ratio of their polls' p95.

    python bench/evening.py            # 20 s for the forty
    python bench/evening.py --quick    # 6 s

Prints the figure with its goal, then ``N of M goals met``.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Client, Lean, Server, get_page, lean_phone, new_group, phone  # noqa: E402

POLL_SECONDS = 3.0
HAND_SECONDS = 20.0
CONNECTIONS = 24
GOAL = 3.0


@dataclass
class Evening:
    """An evening drawn on the server: the wall's address, each table's scoreboard and
    session, and the players at each table."""

    client: Client
    page: str
    boards: list[tuple[str, int, tuple[str, ...]]]
    cookie: str


@dataclass
class Step:
    polls: list[float] = field(default_factory=list)
    pages: int = 0
    hands: int = 0

    def p95(self) -> float:
        return statistics.quantiles(self.polls, n=20)[-1] if len(self.polls) > 1 else 0.0


def drawn_evening(base: str, players: int) -> Evening:
    """A Spot evening of ``players`` checked in and its first round drawn, through the API."""
    client = new_group(base)
    at = f"/groups/{client.slug}/evenings"
    body = {"name": "Bench drive", "game": "spot", "options": {"entry": "totals"}}
    evening = client.call("POST", at, 201, json=body).json()
    for i in range(players):
        client.call("POST", f"{at}/{evening['id']}/players", 201, json={"player": f"P{i:02d}"})
    drawn = client.call("POST", f"{at}/{evening['id']}/rounds", 201, json={}).json()
    signed_in = phone(base, client.slug)
    page = f"/g/{client.slug}/evenings/{evening['id']}"
    get_page(signed_in, base + page)
    cookie = lean_phone(base, signed_in).headers["Cookie"]
    signed_in.close()
    boards = [
        (f"/g/{client.slug}/s/{t['session']}", t["session"], tuple(t["players"]))
        for t in drawn["tables"]
    ]
    return Evening(client, page, boards, cookie)


def step(base: str, evening: Evening, seconds: float, rng: random.Random) -> Step:
    """Every phone of the evening (one per player, and the wall) polling for ``seconds``,
    spread over the poll's period; each table's hands spread over ``HAND_SECONDS``."""
    start = time.monotonic() + 0.5
    end = start + seconds
    pollers = [(board, k) for board, _, seats in evening.boards for k in range(len(seats))]
    pollers.append((evening.page, -1))
    due: list[tuple[float, int]] = []
    for i in range(len(pollers)):
        due.append((start + POLL_SECONDS * i / len(pollers), i))
    for t in range(len(evening.boards)):
        due.append((start + HAND_SECONDS * (t + 0.5) / len(evening.boards), -1 - t))
    heapq.heapify(due)
    lock = threading.Lock()
    seen: dict[int, str] = {}
    found = Step()

    def work() -> None:
        connection = Lean(base, evening.cookie)
        try:
            while True:
                with lock:
                    if not due or due[0][0] >= end:
                        return
                    when, i = heapq.heappop(due)
                time.sleep(max(0.0, when - time.monotonic()))
                if i < 0:
                    _, session, seats = evening.boards[-1 - i]
                    spots = [{"player": p, "spots": rng.randint(1, 20)} for p in seats]
                    evening.client.add_hand(session, {"results": spots})
                    with lock:
                        found.hands += 1
                        heapq.heappush(due, (when + HAND_SECONDS, i))
                    continue
                page, _k = pollers[i]
                sent = time.perf_counter()
                body = connection.get(f"{page}/version.json")
                took = time.perf_counter() - sent
                version = str(json.loads(body)["version"])
                fetch = seen.get(i, version) != version
                if fetch:
                    connection.get(page)
                with lock:
                    seen[i] = version
                    found.polls.append(took)
                    found.pages += fetch
                    heapq.heappush(due, (when + POLL_SECONDS, i))
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=CONNECTIONS) as pool:
        for job in [pool.submit(work) for _ in range(CONNECTIONS)]:
            job.result()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run, for CI")
    args = parser.parse_args()
    seconds = 6.0 if args.quick else 20.0
    rng = random.Random(50)
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        try:
            one = drawn_evening(server.url, 4)
            forty = drawn_evening(server.url, 40)
            step(server.url, one, 2.0, rng)  # warmed: connections, the first pages
            base = step(server.url, one, 3 * seconds, rng)
            many = step(server.url, forty, seconds, rng)
        finally:
            server.stop()
    ratio = many.p95() / base.p95()
    for label, found, tables in (("1 table", base, 1), ("10 tables", many, 10)):
        print(
            f"  evening of {tables * 4} players ({label}): {len(found.polls)} polls, "
            f"{found.pages} pages after {found.hands} hands, poll p95 {found.p95() * 1000:.1f} ms"
        )
    met = ratio <= GOAL
    print(f"evening: 40 players' polls p95 ÷ 4 players' {ratio:.2f} (goal <= {GOAL:g})")
    print(f"{int(met)} of 1 goals met")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
