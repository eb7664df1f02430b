"""The live tests' server: a real `ledger serve` subprocess per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live.server import fresh_database, running_server


@pytest.fixture(scope="module")
def live_server(tmp_path_factory, external_database) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of `ledger serve` on an empty database.

    One server per test module keeps the suite quick, so the tests of a module share it:
    each makes groups of its own. The database is a new SQLite file, or a new PostgreSQL
    database when LEDGER_TEST_DATABASE_URL is set; it is dropped when the module is done.
    """
    folder = tmp_path_factory.mktemp("live")
    with (
        fresh_database(external_database, folder) as database_url,
        running_server(folder / "instance", database_url) as url,
    ):
        yield url
