"""Fixtures for the tests that need the app: a fresh app and database for every test.

tests/rules/ uses none of these; the app is imported inside the fixtures so collecting the
card engine's tests never loads the web stack. Where the database lives (a SQLite file, or a
schema of the PostgreSQL database named by LEDGER_TEST_DATABASE_URL) is tests/pgpool.py's job.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient, FlaskCliRunner

    from tests.pgpool import EmptyDatabase

# The random tests (Hypothesis) draw the same examples on every run, so the suite passes or
# fails by the code alone, never by luck (issue 37: a fuzz test failed one run in ten). No
# deadline and no "too slow" health check either: on a busy machine those fail by the clock.
# ``--hypothesis-profile=explore`` draws new examples each run, to hunt (CI does it beside its
# steady run; docs/tests.md): a failure prints the example, and the blob that replays it.
_PATIENT = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "print_blob": True}
settings.register_profile("steady", derandomize=True, **_PATIENT)
settings.register_profile("explore", derandomize=False, database=None, **_PATIENT)
settings.load_profile("steady")

# A plugin rather than fixtures here: the schema pool is a few hundred lines of PostgreSQL
# housekeeping that no test reads, and tests/live needs its engine too.
pytest_plugins = ["tests.pgpool"]


# Python's cycle collector, set for a test run. By the time the tests start, a worker holds
# some 300,000 objects that live as long as it does (the app's modules, SQLAlchemy, Hypothesis,
# the collected tests), and every test makes and drops a whole app. With Python's defaults
# the collector ran some 15,000 times over tests/api alone and walked all of those objects in
# every full collection: 82 s of CPU for tests/api, 62 s with these settings, and the whole
# suite's 567 busy core-seconds became 479. Frozen, those objects are left out of every
# collection; a higher first threshold collects the tests' garbage less often (a worker holds
# about 80 MB more). Cycles are still collected; the app's own processes (the live servers)
# keep Python's defaults. docs/tests.md has the figures.
def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


# A quick passphrase hash. Almost every test makes a group, and the app's own (scrypt) is
# slow on purpose: 75 ms of CPU for each group made and each passphrase checked, a minute
# and more of the suite's CPU. tests/api/test_auth.py checks that the app's own default is
# scrypt; tests/live/server.py gives the live servers the same quick hash.
QUICK_HASH = "pbkdf2:sha256:1000"

# Every test makes groups from one address (the test client's), many in some: the limit on
# groups an address makes an hour is off, but in the tests that turn it on
# (tests/web/test_anonymous_limits.py).
TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": False,
    "LEDGER_GROUP_LIMIT": 0,
    "LEDGER_PASSPHRASE_HASH": QUICK_HASH,
}


@pytest.fixture
def app(tmp_path, monkeypatch, empty_database: EmptyDatabase) -> Iterator[Flask]:
    """The app on an empty database: a new SQLite file, or an empty PostgreSQL schema.

    The instance folder is a temporary one, so a developer's instance/config.py, database
    and secret key never leak into a test.
    """
    from flask import Flask

    from ledger import create_app
    from tests.shared_routes import Rule
    from tests.shared_templates import SHARED_TEMPLATES

    # Each route's address builder compiled once per process (tests/shared_routes.py), for
    # every app made while the test runs.
    monkeypatch.setattr(Flask, "url_rule_class", Rule)
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    monkeypatch.delenv("LEDGER_SECRET_KEY", raising=False)

    app = create_app(TEST_CONFIG | empty_database.config)
    # Each template compiled once per process, not once per test (tests/shared_templates.py).
    app.jinja_env.bytecode_cache = SHARED_TEMPLATES
    try:
        empty_database.create_tables(app)
        yield app
    finally:
        close_connections(app)


def close_connections(app: Flask) -> None:
    """Close every connection of the app's, so that nothing holds a lock on the database's
    tables when the next test gets them, and no socket is left for the garbage collector to
    warn about (a ResourceWarning, which the suite turns into an error)."""
    from ledger.extensions import db

    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without cookies, talking to the app in this process."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The app's command-line commands, run in this process rather than in a shell."""
    return app.test_cli_runner()
