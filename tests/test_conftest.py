"""The `app` fixture's promise: every test starts on an empty database, whatever came before.

On PostgreSQL a test's schema is emptied and handed to a later test (tests/pgpool.py), so
these tests run a few times over, each checking what the one before left and then leaving a
mess of its own: rows, used-up ids, an extra table.
"""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from ledger.extensions import db

ROUNDS = range(3)


@pytest.mark.parametrize("round", ROUNDS)
def test_every_test_starts_with_empty_tables_and_fresh_ids(app, client, round):
    with app.app_context():
        for table in db.metadata.sorted_tables:
            count = db.session.execute(text(f'SELECT count(*) FROM "{table.name}"')).scalar()
            assert count == 0, f"{table.name} has {count} rows from an earlier test"

    for n in range(1, 4):
        response = client.post(
            "/api/v1/groups", json={"name": f"Table {n}", "passphrase": "pints of plain"}
        )
        assert response.status_code == 201, response.get_data(as_text=True)
    with app.app_context():
        ids = db.session.execute(text("SELECT id FROM groups ORDER BY id")).scalars().all()
    assert ids == [1, 2, 3]


@pytest.mark.parametrize("round", ROUNDS)
def test_a_table_a_test_adds_is_gone_for_the_next(app, round):
    with app.app_context():
        assert set(inspect(db.engine).get_table_names()) == set(db.metadata.tables)
        db.session.execute(text("CREATE TABLE leftover (id integer)"))
        db.session.commit()


@pytest.mark.parametrize("round", ROUNDS)
def test_a_column_a_test_adds_is_gone_for_the_next(app, round):
    with app.app_context():
        columns = {c["name"] for c in inspect(db.engine).get_columns("groups")}
        assert columns == set(db.metadata.tables["groups"].columns.keys())
        db.session.execute(text("ALTER TABLE groups ADD COLUMN leftover integer"))
        db.session.commit()


def test_on_postgresql_each_test_has_a_schema_of_its_own(app):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the test database is SQLite: a file of its own per test")
    with app.app_context():
        schema = db.session.execute(text("SELECT current_schema()")).scalar()
    assert schema.startswith("t_")
