"""Benchmark: the group workbook of a long history, in bounded time and memory (issue 46.5).

A group of NIGHTS finished Spot nights of six players and one hand each (what a group at the
size limit holds most nights of: each counts three lines), written straight into the tables
as copies of one night made through the API (bench/bigserver.py), and its workbook written
in a process of its own (``group_export_workbook``, as the download answers it):

- the seconds of a core it takes (process time), for 10,000 nights (goal: within 10 s) and
  for 1,000, and their ratio (a cost linear in the nights: about 10), openpyxl writing
  with lxml (a dependency: without it openpyxl's own XML writer is about 1.7 times slower);
- the process's peak memory while it is written: the growth of its resident size
  (ru_maxrss) and the peak of Python's allocations (tracemalloc, in runs of their own,
  since tracing slows the run), goal: within 100 MB, and flat: the peak of 10,000 nights
  within 1.25 times that of 1,000;
- its SQL queries per 1,000 nights (a handful per page of nights, not six a night).

    python bench/workbook.py            # 1,000 and 10,000 nights
    python bench/workbook.py --quick    # 300 and 3,000 nights

bench/run.py runs it too (``workbook_figures``). Prints one line per figure with its goal.
"""

from __future__ import annotations

import argparse
import base64
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import bigserver  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fin"]
PASSPHRASE = "bench passphrase"
SECONDS, MEGABYTES = 10.0, 100.0
# Memory that does not grow with the nights: ten times the nights within this much more.
FLAT = 1.25

# Run in a process of its own, so its time and memory are the workbook's alone.
WRITE = """
import os, resource, sys, time, tracemalloc
from sqlalchemy import event
from ledger import create_app
from ledger.backup import find_group
from openpyxl import LXML
from ledger.export import group_export_workbook
from ledger.extensions import db
from ledger.services import exports
traced = sys.argv[3] == "traced"
app = create_app({"SQLALCHEMY_DATABASE_URI": sys.argv[1], "SECRET_KEY": "bench"})
queries = [0]
def counted(*_args):
    queries[0] += 1
with app.app_context():
    event.listen(db.engine, "before_cursor_execute", counted)
    group = find_group(sys.argv[2])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if traced:
        tracemalloc.start()
    # Seconds of a core: the machine is shared, and the time waited for it is not the
    # workbook's.
    started = time.process_time()
    queries[0] = 0
    with open(os.devnull, "wb") as sink:
        group_export_workbook(exports.group_book(group), stream=sink)
    seconds = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1] if traced else 0
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(seconds, (after - before) / 1024, peak / 2**20, queries[0], int(LXML),
      after / 1024)
"""


def _night_rows(folder: Path) -> dict[str, list[dict]]:
    """The rows of one finished Spot night of six players and one hand, made through the API."""
    from ledger import create_app
    from ledger.extensions import db

    url = f"sqlite:///{folder}/source.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url,
                      "LEDGER_PASSPHRASE_HASH": "pbkdf2:sha256:1000"})  # fmt: skip
    with app.app_context():
        db.create_all()
    client = app.test_client()

    def call(method: str, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        answer = client.open(f"/api/v1{path}", method=method, json=body, headers=headers)
        if answer.status_code >= 300:
            raise SystemExit(f"{method} {path} answered {answer.status_code}")
        return answer.get_json()

    slug = call("POST", "/groups", {"name": "Long history", "passphrase": PASSPHRASE})["slug"]
    token = base64.b64encode(f"{slug}:{PASSPHRASE}".encode()).decode()
    auth = {"Authorization": f"Basic {token}"}
    body = {"game": "spot", "players": PLAYERS, "dealer": "Fin", "options": {"entry": "totals"}}
    sid = call("POST", f"/groups/{slug}/sessions", body, auth)["id"]
    results = [{"player": p, "spots": 5 + 3 * i} for i, p in enumerate(PLAYERS)]
    call("POST", f"/sessions/{sid}/hands", {"results": results}, auth)
    rows = bigserver.template(url, slug, sid, 1)
    finished = call("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"}, auth)
    # Each copy a finished night, as most of a long history's are.
    rows["sessions"][0].update(status="finished", finished_at=finished.get("finished_at"))
    return rows


def _group(folder: Path, rows: dict[str, list[dict]], nights: int) -> str:
    """A database holding one group of ``nights`` copies of the night; its URL."""
    from ledger import create_app
    from ledger.extensions import db

    url = f"sqlite:///{folder}/book-{nights}.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
    bigserver.generate(url, rows, nights, one_group=True)
    return url


def _write(url: str, folder: Path, mode: str) -> tuple[float, float, float, int, bool, float]:
    """The workbook written in a process of its own: its seconds of a core, its resident
    size's growth and Python's peak (MB, ``traced`` only), its queries, whether openpyxl
    wrote with lxml, and the process's peak
    resident size (MB: the app, its imports and the workbook)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, LEDGER_INSTANCE_PATH=str(folder), PYTHONPATH=path)
    done = subprocess.run(
        [sys.executable, "-c", WRITE, url, "big-0", mode],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit("writing the group workbook failed:\n" + done.stderr[-2000:])
    seconds, growth, peak, queries, own, most = done.stdout.split()[-6:]
    return float(seconds), float(growth), float(peak), int(queries), own == "1", float(most)


def workbook_figures(quick: bool = False) -> list[tuple[str, float, str | None, bool]]:
    """The figures: (what, value, goal or None for information, met)."""
    small, large = (300, 3_000) if quick else (1_000, 10_000)
    with tempfile.TemporaryDirectory(prefix="ledger-bench-workbook-") as name:
        folder = Path(name)
        os.environ["LEDGER_INSTANCE_PATH"] = name  # not a developer's instance/config.py
        rows = _night_rows(folder)
        urls = {n: _group(folder, rows, n) for n in (small, large)}
        timed = {n: _write(urls[n], folder, "plain") for n in (small, large)}
        traced = {n: _write(urls[n], folder, "traced") for n in (small, large)}
    seconds, growth, _, queries, own, most = timed[large]
    peak, small_peak = traced[large][2], traced[small][2]
    scale = f"{large:,} nights"
    cells = "openpyxl with lxml" if own else "openpyxl without lxml"
    return [
        (f"group workbook of {scale}: seconds of a core ({cells})", seconds,
         f"<= {SECONDS:g}", seconds <= SECONDS),
        (f"group workbook of {small:,} nights: seconds of a core", timed[small][0], None, True),
        (f"group workbook: {scale} / {small:,} nights, seconds", seconds / timed[small][0],
         None, True),
        (f"group workbook of {scale}: RSS growth, MB", growth, f"<= {MEGABYTES:g}",
         growth <= MEGABYTES),
        (f"group workbook of {scale}: the process's peak RSS (app included), MB", most,
         None, True),
        (f"group workbook: the process's peak RSS, {scale} / {small:,} nights", most /
         timed[small][5], None, True),
        (f"group workbook of {scale}: Python's peak (tracemalloc), MB", peak,
         f"<= {MEGABYTES:g}", peak <= MEGABYTES),
        (f"group workbook: Python's peak, {scale} / {small:,} nights (flat: 1)",
         peak / small_peak, f"<= {FLAT:g}", peak / small_peak <= FLAT),
        (f"group workbook of {scale}: SQL queries per 1,000 nights", queries * 1000 / large,
         None, True),
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 and 3,000 nights")
    figures = workbook_figures(parser.parse_args().quick)
    for name, value, goal, met in figures:
        mark = "info" if goal is None else "ok  " if met else "MISS"
        print(f"{mark} {name:<66} {value:8.2f}   {goal or 'no goal (for information)'}")
    goals = [f for f in figures if f[2] is not None]
    print(f"{sum(f[3] for f in goals)} of {len(goals)} goals met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
