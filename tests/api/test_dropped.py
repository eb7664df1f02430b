"""A PostgreSQL connection the server has ended (a restart, an administrator) is replaced
before a request uses it: no phone sees an error for it (ledger/extensions.py)."""

from __future__ import annotations

import os
import resource
import socket
import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from ledger import extensions
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


def test_a_connection_idle_for_long_is_pinged_and_one_that_fails_is_replaced(
    postgres, table, monkeypatch
):
    app = postgres
    sid = table.session()["id"]
    table.get(f"/sessions/{sid}")
    pings = []
    with app.app_context():
        dialect = db.engine.dialect

        def failing_ping(dbapi_connection):
            pings.append(dbapi_connection)
            raise OSError("no answer: a NAT box forgot the connection")

        monkeypatch.setattr(dialect, "do_ping", failing_ping)
    monkeypatch.setattr(extensions, "IDLE_PING_SECONDS", -1.0)  # every connection "idle"
    answer = table.get(f"/sessions/{sid}")
    assert answer.status_code == 200
    assert pings  # pinged, found dead, and the request went on a new connection


class Connection:
    """A driver connection as the check sees it: its socket's number."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


def test_the_check_tells_a_quiet_connection_from_one_the_server_spoke_on_or_closed():
    ours, server = socket.socketpair()
    try:
        assert not extensions._has_news(Connection(ours.fileno()))  # idle: kept
        server.sendall(b"E")  # the server's goodbye
        assert extensions._has_news(Connection(ours.fileno()))
    finally:
        ours.close()
        server.close()
    ours, server = socket.socketpair()
    server.close()  # gone without a word, the socket closed
    try:
        assert extensions._has_news(Connection(ours.fileno()))
    finally:
        ours.close()
    assert extensions._has_news(Connection(-1))  # no socket at all


def test_a_socket_numbered_past_1024_is_checked_too():
    """A busy server has many files open: its database sockets may be numbered past the
    1,024 that select() can watch. Such a quiet connection must not look dead."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    high = 1500
    assert hard == resource.RLIM_INFINITY or hard > high, "the machine allows few open files"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, high + 1), hard))
    ours, server = socket.socketpair()
    try:
        os.dup2(ours.fileno(), high)
        assert not extensions._has_news(Connection(high))
        server.sendall(b"E")
        assert extensions._has_news(Connection(high))
    finally:
        os.close(high)
        ours.close()
        server.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
