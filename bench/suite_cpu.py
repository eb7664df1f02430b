"""Where the test suite's CPU time goes: a pytest plugin that adds it up per test folder.

Wall time on a shared machine says more about the neighbours than about the suite; CPU time
does not. Load it with ``-p bench.suite_cpu`` and name a folder for the figures:

    LEDGER_SUITE_CPU=/tmp/cpu python -m pytest -p bench.suite_cpu
    python bench/suite_cpu.py /tmp/cpu        # the table: CPU seconds per folder

Each pytest process (each pytest-xdist worker too) writes one JSON file there: after each
test, the CPU seconds (user and system) its process and its ended children (live servers,
the browser, subprocesses) used since the test before, put down to the test's folder
(tests/e2e, tests/web…). A child's time counts when it ends: a module's server at the
module's end, the run's shared server and browser at the run's end ("end of the run").
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

FOLDER = "LEDGER_SUITE_CPU"


def _cpu(children: bool = True) -> float:
    t = os.times()
    return t.user + t.system + (t.children_user + t.children_system if children else 0.0)


def _folder(nodeid: str) -> str:
    parts = nodeid.split("::")[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else "tests (top level)"


class SuiteCpu:
    """The figures of one pytest process. pytest-xdist's controller, which only hands out
    tests and hears back, counts its own time alone: its children are the workers, whose
    files count theirs."""

    def __init__(self, where: Path, controller: bool) -> None:
        self.where = where
        self.controller = controller
        self.seconds: dict[str, float] = defaultdict(float)
        self.tests: dict[str, int] = defaultdict(int)
        self.last = _cpu(not controller)
        self.started = time.monotonic()

    def _charge(self, folder: str) -> None:
        now = _cpu(not self.controller)
        self.seconds["xdist controller" if self.controller else folder] += now - self.last
        self.last = now

    def pytest_collection_finish(self, session) -> None:
        self._charge("collection and start")

    def pytest_runtest_logfinish(self, nodeid, location) -> None:
        self._charge(_folder(nodeid))
        if not self.controller:
            self.tests[_folder(nodeid)] += 1

    def pytest_unconfigure(self, config) -> None:
        self._charge("end of the run")
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.where.mkdir(parents=True, exist_ok=True)
        report = {
            "seconds": self.seconds,
            "tests": self.tests,
            "wall": time.monotonic() - self.started,
        }
        (self.where / f"{worker}-{os.getpid()}.json").write_text(json.dumps(report))


def pytest_configure(config) -> None:
    where = os.environ.get(FOLDER)
    if where:
        workers = getattr(config.option, "numprocesses", None)
        controller = bool(workers) and "PYTEST_XDIST_WORKER" not in os.environ
        config.pluginmanager.register(SuiteCpu(Path(where), controller), "suite-cpu")


def table(where: Path) -> str:
    """The CPU seconds per folder over every process's file in ``where``, as Markdown."""
    seconds: dict[str, float] = defaultdict(float)
    tests: dict[str, int] = defaultdict(int)
    for path in sorted(where.glob("*.json")):
        report = json.loads(path.read_text())
        for folder, s in report["seconds"].items():
            seconds[folder] += s
        for folder, n in report["tests"].items():
            tests[folder] += n
    lines = ["| folder | tests | CPU s |", "| --- | ---: | ---: |"]
    for folder in sorted(seconds, key=lambda f: -seconds[f]):
        lines.append(f"| {folder} | {tests.get(folder, '')} | {seconds[folder]:.0f} |")
    lines.append(f"| all | {sum(tests.values())} | {sum(seconds.values()):.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(Path(sys.argv[1])))
