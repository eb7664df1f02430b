"""Fixtures of the API tests: a group at the table, on the app and client of tests/conftest.py."""

from __future__ import annotations

import pytest

from tests.api.helpers import Table


@pytest.fixture(autouse=True)
def quick_hashes(app):
    """A quick passphrase hash: every test makes a group, and scrypt is slow on purpose.
    test_auth.py checks that the app's own default is scrypt."""
    app.config["LEDGER_PASSPHRASE_HASH"] = "pbkdf2:sha256:1000"


@pytest.fixture
def table(client) -> Table:
    return Table(client)


@pytest.fixture
def other(client) -> Table:
    return Table(client, name="The Other Table", passphrase="another passphrase")
