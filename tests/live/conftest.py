"""The live tests' server: a real `ledger serve` subprocess, shared by the tests of a run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live.server import LOGS, fresh_server


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, external_database) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of `ledger serve` on a database of its own.

    Made once per pytest process (each pytest-xdist worker has its own) and shared by every
    test that asks for it, here and in tests/e2e: starting a server costs a second or two of
    CPU. So each test makes groups of its own (tests/live/api.py's ``new_group`` gives each a
    random slug) and finds nothing of another's. The database is a new SQLite file, or a new
    PostgreSQL database when LEDGER_TEST_DATABASE_URL is set, dropped at the end.

    A test that needs the server otherwise (other settings, several workers, stopping it) or
    that counts against 127.0.0.1 as a whole (wrong passphrases: the limit per address)
    starts one of its own (``fresh_server``), or overrides this fixture in its module.
    """
    with fresh_server(tmp_path_factory.mktemp("live"), external_database) as url:
        yield url


@pytest.fixture(autouse=True)
def live_server_log_checked(request) -> Iterator[None]:
    """After each test on the shared server: an error the server did not handle (a traceback
    in its log: a 500) fails the test it came in (or the next, if a module's fixture caused
    it), with the log's new lines to read."""
    if "live_server" not in request.fixturenames:
        yield
        return
    log = LOGS.get(request.getfixturevalue("live_server"))  # None: a module's own server
    yield
    if log is not None and "Traceback" in (news := log.news()):
        pytest.fail(f"ledger serve logged an error it did not handle:\n{news}", pytrace=False)
