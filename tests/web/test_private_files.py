"""The instance folder and the SQLite file are the owner's only (0700, 0600), like the secret key:
they hold every group's hands and passphrase hashes, and a shared server has other users."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger import create_app
from ledger.extensions import db


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask of most systems, under which files are readable by everyone by default."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


@pytest.fixture
def instance(tmp_path, monkeypatch) -> Path:
    """The instance folder of LEDGER_INSTANCE_PATH, not made yet, inside a folder others can
    read (as a home folder or /srv often is)."""
    (tmp_path / "srv").mkdir(mode=0o755)
    os.chmod(tmp_path / "srv", 0o755)
    folder = tmp_path / "srv" / "instance"
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(folder))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    monkeypatch.delenv("LEDGER_SECRET_KEY", raising=False)
    return folder


def close(app) -> None:
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


def test_init_db_makes_a_private_folder_and_a_private_database(instance):
    app = create_app()
    try:
        result = app.test_cli_runner().invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
    finally:
        close(app)

    assert mode(instance) == 0o700
    assert mode(instance / "ledger.sqlite") == 0o600
    assert mode(instance / "secret_key") == 0o600
    for companion in instance.glob("ledger.sqlite-*"):  # WAL files left by the connection
        assert mode(companion) == 0o600, companion


def test_the_first_request_makes_a_private_database(instance):
    app = create_app()
    try:
        with app.app_context():
            db.create_all()
        assert app.test_client().get("/").status_code == 200
    finally:
        close(app)

    assert mode(instance) == 0o700
    assert mode(instance / "ledger.sqlite") == 0o600


def test_a_folder_and_a_database_made_readable_before_are_made_private(instance):
    instance.mkdir(mode=0o755)
    os.chmod(instance, 0o755)
    database = instance / "ledger.sqlite"
    database.touch()
    os.chmod(database, 0o644)
    wal = instance / "ledger.sqlite-wal"
    wal.touch()
    os.chmod(wal, 0o664)

    app = create_app()
    try:
        with app.app_context():
            db.create_all()
    finally:
        close(app)

    assert mode(instance) == 0o700
    assert mode(database) == 0o600
    if wal.exists():
        assert mode(wal) == 0o600


def test_a_database_file_elsewhere_is_private_too(instance, tmp_path, monkeypatch):
    database = tmp_path / "srv" / "elsewhere.sqlite"
    monkeypatch.setenv("LEDGER_DATABASE_URL", f"sqlite:///{database}")
    app = create_app()
    try:
        with app.app_context():
            db.create_all()
    finally:
        close(app)

    assert mode(database) == 0o600
