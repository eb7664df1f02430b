"""The Flask extensions, created once here and bound to each app in create_app."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.exc import InvalidatePoolError
from sqlalchemy.orm import DeclarativeBase

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy import Connection, Engine

# Named constraints give Alembic migrations stable names to drop and alter, the same on
# SQLite and PostgreSQL (otherwise each database invents its own).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The base of every model (db.Model): SQLAlchemy 2.0 typed declarative style."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
# render_as_batch: SQLite cannot ALTER most things; batch mode copies the table instead.
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel()


@contextmanager
def quick_read() -> Iterator[Connection]:
    """A pooled connection for a read or two, outside the ORM session, in autocommit mode.

    For what every poll and every API call reads first (a group, a version, a credential):
    no ORM bookkeeping, and on PostgreSQL no BEGIN before the query and no ROLLBACK when the
    connection goes back to the pool, so the read is one round trip. (SQLite's driver opens
    no transaction for a SELECT anyway; switching it to autocommit and back costs more.)
    """
    with db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            yield connection
        else:
            yield connection.execution_options(isolation_level="AUTOCOMMIT")


# A pooled connection idle longer than this is pinged before it is handed out: a PostgreSQL
# restart or a NAT box dropping quiet connections takes longer than that to happen unseen,
# and a connection in use every few seconds (any night at the table) is never pinged.
IDLE_PING_SECONDS = 30.0

# Where a pooled connection keeps the moment it went back to the pool (its entry's info,
# which lives as long as that one DBAPI connection: a new connection starts without it).
_IDLE_SINCE = "ledger_idle_since"

# The clock idle times are read from (a test sets the time instead of waiting).
_clock = time.monotonic


def init_engine_events(app: Flask) -> None:
    """Bind what each of the app's databases needs on its connections.

    SQLite: WAL lets the phones read while one of waitress's threads writes, and SQLite leaves
    foreign keys off unless each connection asks (the busy timeout is in the engine options).
    Others (PostgreSQL): a connection idle for a while is pinged when it leaves the pool.
    """
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_on_connect)
            else:
                ping_idle_connections(engine)


def ping_idle_connections(engine: Engine, idle: float = IDLE_PING_SECONDS) -> None:
    """Ping a pooled connection that sat unused for ``idle`` seconds before handing it out.

    Instead of SQLAlchemy's ``pool_pre_ping``, which pings at every checkout: on PostgreSQL
    that is a round trip before every poll of a scoreboard. A connection that fails the ping
    is thrown away with the others pooled before it and the pool opens a new one, so a server
    restart is still survived without an error page.
    """
    dialect = engine.dialect

    def checked_in(dbapi_connection: Any, entry: Any) -> None:
        entry.info[_IDLE_SINCE] = _clock()

    def checked_out(dbapi_connection: Any, entry: Any, proxy: Any) -> None:
        since = entry.info.pop(_IDLE_SINCE, None)
        if since is None or _clock() - since < idle:
            return  # new, or back in the pool only moments ago
        try:
            dialect.do_ping(dbapi_connection)
            # The ping may have begun a transaction (psycopg does outside autocommit): end
            # it, so the connection leaves the pool as idle as it came in. No round trip
            # when there is none.
            dbapi_connection.rollback()
        except dialect.loaded_dbapi.Error as e:
            # Gone after a restart, and so are the others pooled before it: all are
            # replaced, as pool_pre_ping does (InvalidatePoolError is a DisconnectionError).
            raise InvalidatePoolError(f"a connection idle for {idle:.0f} s was gone") from e

    event.listen(engine, "checkin", checked_in)
    event.listen(engine, "checkout", checked_out)


def _sqlite_on_connect(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()
