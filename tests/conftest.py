"""Fixtures for the tests that need the app: a fresh app and database for every test.

tests/rules/ uses none of these; the app is imported inside the fixtures so collecting the
card engine's tests never loads the web stack.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient, FlaskCliRunner


@pytest.fixture
def app(tmp_path, monkeypatch) -> Iterator[Flask]:
    """The app on an empty database: a new SQLite file, or LEDGER_TEST_DATABASE_URL if set.

    The instance folder is a temporary one, so a developer's instance/config.py, database
    and secret key never leak into a test.
    """
    from ledger import create_app
    from ledger.extensions import db

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    monkeypatch.delenv("LEDGER_SECRET_KEY", raising=False)
    external_url = os.environ.get("LEDGER_TEST_DATABASE_URL")

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": external_url or f"sqlite:///{tmp_path / 'test.sqlite'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        if external_url:
            db.drop_all()  # whatever a crashed earlier run left behind
        db.create_all()

    yield app

    with app.app_context():
        if external_url:
            db.drop_all()
        for engine in db.engines.values():
            engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
