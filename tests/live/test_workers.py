"""`ledger serve --workers 2`: two processes answer on one port, on one database, and the
server goes on answering when a worker dies."""

from __future__ import annotations

import http.client
import os
import signal
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.live.api import new_group, new_spot_session
from tests.live.server import fresh_database, running_server


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory, external_database):
    folder = tmp_path_factory.mktemp("workers")
    with (
        fresh_database(external_database, folder) as database_url,
        running_server(folder / "instance", database_url, workers=2) as url,
    ):
        yield url


def serving_pids(port: int) -> dict[int, int]:
    """Each process with an open connection accepted on ``port``: how many it holds.

    Read from /proc: a socket's inode in /proc/net/tcp (or tcp6) with the port as its local
    one and an established state, and the process whose file descriptors hold that inode.
    """
    accepted: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if int(local.rsplit(":", 1)[1], 16) == port and state == "01":
                accepted.add(inode)
    holders: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:
            continue
        count = sum(1 for link in links if link[len("socket:[") : -1] in accepted)
        if count:
            holders[int(entry.name)] = count
    return holders


def test_two_workers_both_answer_on_one_port(two_workers):
    address = urlsplit(two_workers)
    connections = []
    try:
        # Connections kept open, each having had its answer: every worker that took one
        # holds it. The kernel gives each new one to whichever worker accepts first.
        for _ in range(40):
            connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            assert answer.status == 200
            answer.read()
            connections.append(connection)
            if len(serving_pids(address.port)) >= 2:
                break
        holders = serving_pids(address.port)
        assert len(holders) == 2, holders
    finally:
        for connection in connections:
            connection.close()


def workers_of(pid: int) -> list[int]:
    """The worker processes of the server that ``pid`` is a worker of."""
    status = Path(f"/proc/{pid}/status").read_text()
    parent = int(next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1])
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    return [int(c) for c in children]


def test_the_workers_share_one_database(two_workers):
    api = new_group(two_workers)
    session = new_spot_session(api, ["Enda", "John"], "John")
    # Each call on a connection of its own, so by either worker: all see the same session.
    for _ in range(8):
        assert api.ok("GET", f"/sessions/{session['id']}")["version"] == session["version"]


def test_a_worker_that_dies_is_started_again_and_the_other_answers_meanwhile(two_workers):
    address = urlsplit(two_workers)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    connection.request("GET", "/healthz")
    connection.getresponse().read()
    (victim,) = serving_pids(address.port)
    before = workers_of(victim)
    assert len(before) == 2 and victim in before
    connection.close()
    os.kill(victim, signal.SIGKILL)
    survivor = next(pid for pid in before if pid != victim)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        fresh = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
        fresh.request("GET", "/healthz")
        assert fresh.getresponse().status == 200
        fresh.close()
        now = workers_of(survivor)
        if len(now) == 2 and victim not in now:
            return
        time.sleep(0.2)
    pytest.fail("the dead worker was not started again")
