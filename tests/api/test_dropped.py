"""A PostgreSQL connection the server has ended (a restart, an administrator) is replaced
before a request uses it: no phone sees an error for it (SQLAlchemy's pool_pre_ping, set in
ledger/config.py's engine options)."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from ledger.extensions import db


def end_pooled_connections(app, count: int = 3) -> int:
    """What a server restart does to the app's pooled connections: each is told and closed.

    ``count`` connections are taken from the app's pool (their server processes noted) and
    put back; another connection, of its own, then ends those processes."""
    with app.app_context():
        held = [db.engine.connect() for _ in range(count)]
        pids = [c.execute(text("SELECT pg_backend_pid()")).scalar_one() for c in held]
        for connection in held:
            connection.rollback()
            connection.close()
        outside = create_engine(db.engine.url, poolclass=NullPool)
        try:
            with outside.connect() as connection:
                ended = connection.execute(
                    text(
                        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM "
                        "unnest(CAST(:pids AS integer[])) AS pid"
                    ),
                    {"pids": pids},
                ).scalar_one()
                connection.commit()
                # pg_terminate_backend only signals: each process says so on its socket and
                # ends a moment later. A restart's connections are gone before anyone asks:
                # wait until these are (a busy machine may take a while).
                deadline = time.monotonic() + 30
                while (
                    time.monotonic() < deadline
                    and connection.execute(
                        text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:pids)"),
                        {"pids": pids},
                    ).scalar_one()
                ):
                    time.sleep(0.05)
        finally:
            outside.dispose()
    return int(ended)


@pytest.fixture
def postgres(app):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the test database is SQLite: there is no server to end a connection")
    return app


def test_connections_the_server_ended_are_replaced_before_a_request_uses_them(postgres, table):
    app = postgres
    sid = table.session()["id"]
    for _ in range(3):  # the pool now holds connections the next requests would take
        assert table.get(f"/sessions/{sid}").status_code == 200
    assert end_pooled_connections(app) == 3
    for _ in range(5):
        answer = table.get(f"/sessions/{sid}")
        assert answer.status_code == 200, answer.get_data(as_text=True)
    created = table.client.post(
        "/api/v1/groups", json={"name": "After the restart", "passphrase": "still pouring"}
    )
    assert created.status_code == 201
