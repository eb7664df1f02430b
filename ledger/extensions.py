"""The Flask extensions, created once here and bound to each app in create_app."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.orm import DeclarativeBase

from ledger.config import make_private_database_file, sqlite_file

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy import Connection

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


def init_engine_events(app: Flask) -> None:
    """Bind what each of the app's databases needs on its connections.

    SQLite: WAL lets the phones read while one of waitress's threads writes, and SQLite leaves
    foreign keys off unless each connection asks (the busy timeout is in the engine options).
    """
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_on_connect)
                path = sqlite_file(engine.url.render_as_string(hide_password=False))
                if path is not None:
                    event.listen(engine, "do_connect", _private_file_before_connecting(path))


def _private_file_before_connecting(path: Path) -> Callable[..., None]:
    """Before each new connection: the database file exists, readable by its owner only."""

    def before(dialect: Any, connection_record: Any, cargs: Any, cparams: Any) -> None:
        make_private_database_file(path)

    return before


def _sqlite_on_connect(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()
