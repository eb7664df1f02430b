"""A real `ledger serve` in a subprocess, on a database of its own, for the live tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import QUICK_HASH
from tests.pgpool import worker_tag

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

SECRET_KEY = "live-tests-secret-key"
# For a server whose tests are about the slow passphrase checks themselves: the app's own
# hash (scrypt) rather than the tests' quick one (``environment``).
APP_OWN_HASH = {"LEDGER_PASSPHRASE_HASH": ""}
# Seconds for a server to answer /healthz: a cold start imports Flask, SQLAlchemy and the
# rest and creates the tables; a loaded CI machine can be slow at that.
START_TIMEOUT = 30
STOP_TIMEOUT = 10


# The address `ledger serve` prints once it listens (ledger/cli.py's open_message): its port.
ADDRESS = re.compile(r"http://\S+:(\d+)\s")


def ledger_command() -> list[str]:
    """The installed `ledger` script beside this Python, else `python -m ledger`."""
    script = Path(sys.executable).with_name("ledger")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ledger"]


@contextmanager
def fresh_database(external_database: Engine | None, folder: Path) -> Iterator[str]:
    """The URL of a new, empty database, dropped afterwards.

    A SQLite file in ``folder``, or, when the tests run against PostgreSQL, a new database on
    that server: a server process needs one of its own (the in-process tests' schemas are
    set per connection by the test's engine, which a subprocess does not share).
    """
    if external_database is None:
        yield f"sqlite:///{folder / f'live-{uuid.uuid4().hex[:8]}.sqlite'}"
        return
    from sqlalchemy import text

    name = f"live_{worker_tag()}_{uuid.uuid4().hex}"
    with external_database.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield external_database.url.set(database=name).render_as_string(hide_password=False)
    finally:
        with external_database.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def environment(
    instance: Path, database_url: str, settings: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a `ledger` command: this one, less any LEDGER_/FLASK_ settings,
    plus ``settings``. A module's tests make many groups from 127.0.0.1: the limit on groups
    an address makes an hour is off unless ``settings`` set LEDGER_GROUP_LIMIT. Passphrases
    get the in-process tests' quick hash (tests/conftest.py) unless ``settings`` set
    LEDGER_PASSPHRASE_HASH ("" for the app's own, scrypt)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEDGER_", "FLASK_"))}
    return env | {
        "LEDGER_INSTANCE_PATH": str(instance),
        "LEDGER_SECRET_KEY": SECRET_KEY,
        "LEDGER_DATABASE_URL": database_url,
        "LEDGER_GROUP_LIMIT": "0",
        "LEDGER_PASSPHRASE_HASH": QUICK_HASH,
        "PYTHONUNBUFFERED": "1",
        **(settings or {}),
    }


def run_ledger(instance: Path, database_url: str, *args: str) -> str:
    """Run ``ledger ARGS…`` to the end; its output, or a failed test that shows it."""
    instance.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [*ledger_command(), *args],
        env=environment(instance, database_url),
        cwd=instance,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0:
        command = " ".join(args)
        pytest.fail(f"ledger {command} exited with {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def _log(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def listening_address(server: subprocess.Popen, log: Path, deadline: float) -> str:
    """The base URL on 127.0.0.1 of a `ledger serve --port 0`, read from what it printed.

    Port 0 has the server's own socket take a free port. A port picked beforehand and handed
    over could be taken in between by another test's server or connection (pytest-xdist runs
    several at once, and every connection takes a port of the same range), and the server
    would fail to start.
    """
    while time.monotonic() < deadline:
        found = ADDRESS.search(_log(log))
        if found:
            return f"http://127.0.0.1:{found.group(1)}"
        if server.poll() is not None:
            pytest.fail(f"ledger serve exited with {server.returncode}:\n{_log(log)}")
        time.sleep(0.02)
    pytest.fail(f"ledger serve did not say where it listens within {START_TIMEOUT} s:\n{_log(log)}")


def _wait_until_healthy(server: subprocess.Popen, log: Path) -> str:
    """The server's base URL, once it answers /healthz."""
    deadline = time.monotonic() + START_TIMEOUT
    url = listening_address(server, log, deadline)
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"ledger serve exited with {server.returncode}:\n{_log(log)}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return url
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.02)
    pytest.fail(f"ledger serve did not answer /healthz within {START_TIMEOUT} s:\n{_log(log)}")


def _stop(server: subprocess.Popen, log: Path) -> None:
    """Stop the server with SIGTERM, as a service manager would, and make sure it went."""
    crashed = server.poll()
    server.terminate()
    try:
        server.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        pytest.fail(f"ledger serve did not stop within {STOP_TIMEOUT} s of SIGTERM:\n{_log(log)}")
    if crashed is not None:
        pytest.fail(f"ledger serve died during the tests ({crashed}):\n{_log(log)}")


@contextmanager
def running_server(
    instance: Path,
    database_url: str,
    *,
    threads: int = 8,
    check_log: bool = True,
    workers: int = 1,
    settings: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """Run `ledger serve` on 127.0.0.1 and a port it picks; yield its base URL; stop it.

    Its output goes to a file in ``instance`` (a pipe nobody reads could fill and stall it);
    ``settings`` are LEDGER_* variables for it (``environment``). With ``check_log``, a
    traceback in that output (an error the app did not handle: a 500) fails the test that
    stops the server, with the log to read.
    """
    instance.mkdir(parents=True, exist_ok=True)
    log = instance / f"serve-{uuid.uuid4().hex[:8]}.log"
    command = [*ledger_command(), "serve", "--host", "127.0.0.1", "--port", "0"]
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [*command, "--threads", str(threads)]
            + (["--workers", str(workers)] if workers > 1 else []),
            env=environment(instance, database_url, settings),
            cwd=instance,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        url = _wait_until_healthy(server, log)
        LOGS[url] = ServerLog(log)
        try:
            yield url
        finally:
            del LOGS[url]
    finally:
        _stop(server, log)
    if check_log and "Traceback" in (text := _log(log)):
        pytest.fail(f"ledger serve logged an error it did not handle:\n{text}")


class ServerLog:
    """A running server's output, read on from where it was last read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.read_to = 0

    def news(self) -> str:
        """What the server printed since the last call."""
        with open(self.path, "rb") as output:
            output.seek(self.read_to)
            new = output.read()
        self.read_to += len(new)
        return new.decode(errors="replace")


# The log of each server running now, by its base URL: tests/live/conftest.py reads the
# shared server's after each test.
LOGS: dict[str, ServerLog] = {}


@contextmanager
def fresh_server(folder: Path, external_database: Engine | None, **options: Any) -> Iterator[str]:
    """`ledger serve` (``running_server``'s ``options``) on a fresh database in ``folder``."""
    with (
        fresh_database(external_database, folder) as database_url,
        running_server(folder / "instance", database_url, **options) as url,
    ):
        yield url
