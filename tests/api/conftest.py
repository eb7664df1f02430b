"""Fixtures of the API tests: a group at the table, on the app and client of tests/conftest.py."""

from __future__ import annotations

import pytest

from tests.api.helpers import Table


@pytest.fixture
def table(client) -> Table:
    return Table(client)


@pytest.fixture
def other(client) -> Table:
    return Table(client, name="The Other Table", passphrase="another passphrase")
