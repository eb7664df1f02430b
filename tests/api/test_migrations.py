"""The schema's migrations (ledger/migrations): they build exactly the tables of the models."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from ledger import MIGRATIONS, create_app
from ledger.cli import ensure_database
from ledger.extensions import db


@pytest.fixture
def empty_app(tmp_path, monkeypatch):
    """The app on a new, empty SQLite file: no create_all, nothing at all."""
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrated.sqlite'}",
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def head() -> str:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def differences(app) -> list:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def stored_revision(app) -> str | None:
    with app.app_context(), db.engine.connect() as connection:
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def test_the_migrations_on_an_empty_database_make_exactly_the_models_tables(empty_app):
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))

    assert differences(empty_app) == []
    assert stored_revision(empty_app) == head()


def test_the_migrations_go_down_to_nothing_and_up_again(empty_app):
    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS))
        downgrade(directory=str(MIGRATIONS), revision="base")
        assert set(inspect(db.engine).get_table_names()) == {"alembic_version"}
        upgrade(directory=str(MIGRATIONS))
    assert differences(empty_app) == []


def test_ledger_db_upgrade_makes_the_database(empty_app):
    result = empty_app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert stored_revision(empty_app) == head()


def test_serve_brings_an_empty_database_up_to_date_and_keeps_a_used_one(empty_app):
    ensure_database(empty_app)
    assert stored_revision(empty_app) == head()
    client = empty_app.test_client()
    made = client.post("/api/v1/groups", json={"name": "Snug", "passphrase": "pints of plain"})
    assert made.status_code == 201

    ensure_database(empty_app)  # a restart: nothing to do, nothing lost

    with empty_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("SELECT name FROM groups")).scalars().all() == ["Snug"]


def test_a_database_made_by_create_all_is_stamped_not_rebuilt(empty_app):
    with empty_app.app_context():
        db.create_all()

    ensure_database(empty_app)

    assert stored_revision(empty_app) == head()
    assert differences(empty_app) == []
