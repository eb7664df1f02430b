"""A pooled database connection is pinged before use only after sitting idle a while: no
round trip before every request, and a connection the server dropped meanwhile (a PostgreSQL
restart, a NAT box) is replaced instead of failing the request."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from ledger import extensions
from ledger.config import engine_options


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(extensions, "_clock", lambda: now[0])
    return now


@pytest.fixture
def engine(tmp_path, monkeypatch):
    # A file database has a pool of kept connections, as PostgreSQL's engine has.
    engine = create_engine(f"sqlite:///{tmp_path / 'pool.sqlite'}", pool_size=1)
    extensions.ping_idle_connections(engine, idle=30)
    pings = []
    real = engine.dialect.do_ping

    def counted(dbapi_connection):
        pings.append(dbapi_connection)
        return real(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    engine.pings = pings
    yield engine
    engine.dispose()


def use(engine) -> object:
    """One request's use of a pooled connection: the DBAPI connection it was given."""
    with engine.connect() as connection:
        assert connection.execute(text("SELECT 1")).scalar() == 1
        return connection.connection.dbapi_connection


def test_a_connection_back_in_the_pool_moments_ago_is_used_without_a_ping(engine, clock):
    first = use(engine)  # a new connection: nothing to ping
    clock[0] += 29
    assert use(engine) is first
    assert engine.pings == []


def test_a_connection_idle_past_the_limit_is_pinged_once_then_used(engine, clock):
    first = use(engine)
    clock[0] += 31
    assert use(engine) is first
    assert engine.pings == [first]
    assert use(engine) is first  # just used again: no second ping
    assert engine.pings == [first]


def test_a_connection_dropped_while_idle_is_replaced_not_reported(engine, clock):
    first = use(engine)
    first.close()  # as a restarted server leaves it
    clock[0] += 31
    second = use(engine)
    assert second is not first
    assert engine.pings == [first]  # the new connection is not pinged


def test_postgresql_connections_are_not_pinged_at_every_checkout():
    options = engine_options("postgresql+psycopg://pub@db/ledger", {})
    assert not options.get("pool_pre_ping")
    # One who wants SQLAlchemy's ping anyway can still ask for it.
    asked = engine_options("postgresql+psycopg://pub@db/ledger", {"pool_pre_ping": True})
    assert asked["pool_pre_ping"] is True
