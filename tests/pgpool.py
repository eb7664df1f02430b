"""The PostgreSQL side of the test database: an empty schema per test, from a pool that reuses them.

A pytest plugin, registered by tests/conftest.py. With LEDGER_TEST_DATABASE_URL unset, the
``empty_database`` fixture is a SQLite file in the test's own folder and nothing here touches a
server. With it set (a PostgreSQL URL, see docs/tests.md), every test gets an empty schema of that
database (SchemaPool): making one per test would cost more than most tests do, so a schema a
test left in its shape is emptied and handed to the next. tests/test_conftest.py holds the
pool to its promise that no test can tell.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy import MetaData
    from sqlalchemy.engine import URL, Connection, Engine

# How long cleaning up after a test waits for a lock. Only a connection the test left open
# (in a thread, a leaked session) can hold one; failing says so, where waiting would hang.
CLEANUP_LOCK_TIMEOUT = "10s"

# Everything a schema holds, as names and definitions: two schemas with the same shape give
# the same rows, and a test that changed the shape (a migration, a stamp, an ALTER) shows.
SHAPE = """
SELECT c.relname, c.relkind::text, a.attname, format_type(a.atttypid, a.atttypmod),
       a.attnotnull::text
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
 WHERE n.nspname = :schema
UNION ALL
SELECT con.conname, con.contype::text, pg_get_constraintdef(con.oid), NULL, NULL
  FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace
 WHERE n.nspname = :schema
UNION ALL
SELECT t.typname, t.typtype::text, NULL, NULL, NULL
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
 WHERE n.nspname = :schema
UNION ALL
SELECT p.proname, 'function', NULL, NULL, NULL
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = :schema
UNION ALL
SELECT tg.tgname, 'trigger', NULL, NULL, NULL
  FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = :schema
"""

RESET_SEQUENCES = """
SELECT setval(c.oid, 1, false)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = :schema AND c.relkind = 'S'
"""


def worker_tag() -> str:
    """This process's name among pytest-xdist's workers (``gw0``, ``gw1``…), or ``main``.

    Part of the name of every schema and database the tests make, beside a random part that
    alone keeps them apart: a name says which worker left it, should a run be killed.
    """
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def external_database_url() -> URL | None:
    """LEDGER_TEST_DATABASE_URL, read as the app reads database URLs, or None when unset."""
    raw = os.environ.get("LEDGER_TEST_DATABASE_URL")
    if not raw:
        return None
    from sqlalchemy.engine import make_url

    from ledger.config import normalise_database_url

    return make_url(normalise_database_url(raw))


class SchemaPool:
    """Empty schemas for the tests, one per test, in the database of LEDGER_TEST_DATABASE_URL.

    A test's app connects with ``search_path`` set to its schema, so the app's unqualified
    table names (all of ours; Alembic's alembic_version too) are made and found there.

    Creating the tables is the slow part on PostgreSQL (~50 ms for a handful of tables, where
    the whole of a small test takes a few). So a schema is made once, and after a test that
    left its shape alone its rows are deleted and its sequences restarted, and the next test
    gets it: it cannot tell the difference from a new one. A schema whose shape the test
    changed is dropped instead, and a new one made.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine  # AUTOCOMMIT: each statement below stands on its own
        self.free: list[tuple[str, frozenset[str]]] = []  # (schema, the tables it was made for)
        self.shapes: dict[frozenset[str], frozenset[tuple]] = {}

    def take(self, metadata: MetaData) -> tuple[str, bool]:
        """A schema for the next test, and whether its tables still need to be created."""
        from sqlalchemy import text

        tables = frozenset(metadata.tables)
        for i, (schema, made_for) in enumerate(self.free):
            if made_for == tables:
                del self.free[i]
                return schema, False
        schema = f"t_{worker_tag()}_{uuid.uuid4().hex}"
        with self.engine.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        return schema, True

    def give_back(self, schema: str, metadata: MetaData) -> None:
        """Empty the schema for the next test, or drop it if it is not as it was made."""
        from sqlalchemy import text

        tables = frozenset(metadata.tables)
        with self.engine.connect() as connection:
            connection.execute(text(f"SET lock_timeout = '{CLEANUP_LOCK_TIMEOUT}'"))
            shape = self._shape(connection, schema)
            expected = self.shapes.setdefault(tables, shape)
            if shape == expected and self._empty(connection, schema, metadata):
                self.free.append((schema, tables))
            else:
                connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))

    def remember_shape(self, schema: str, metadata: MetaData) -> None:
        """Record what a newly made schema looks like, if nothing was recorded yet."""
        tables = frozenset(metadata.tables)
        if tables not in self.shapes:
            with self.engine.connect() as connection:
                self.shapes[tables] = self._shape(connection, schema)

    def close(self) -> None:
        from sqlalchemy import text

        with self.engine.connect() as connection:
            for schema, _ in self.free:
                connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        self.free.clear()

    @staticmethod
    def _shape(connection: Connection, schema: str) -> frozenset[tuple]:
        from sqlalchemy import text

        rows = connection.execute(text(SHAPE), {"schema": schema})
        return frozenset(tuple(row) for row in rows)

    @staticmethod
    def _empty(connection: Connection, schema: str, metadata: MetaData) -> bool:
        """Delete every row (children first) and restart the sequences; False if it failed.

        DELETE, not TRUNCATE: on tables of a few rows it is many times quicker. No transaction
        is needed: if any statement fails, the caller drops the schema.
        """
        from sqlalchemy import exc, text

        try:
            for table in reversed(metadata.sorted_tables):
                connection.execute(text(f'DELETE FROM "{schema}"."{table.name}"'))
            connection.execute(text(RESET_SEQUENCES), {"schema": schema})
        except exc.DBAPIError:
            return False
        return True


@pytest.fixture(scope="session")
def external_database() -> Iterator[Engine | None]:
    """An engine on LEDGER_TEST_DATABASE_URL that makes and drops schemas and databases.

    None when the variable is unset (the tests use SQLite). The database is created when it
    does not exist yet, so any PostgreSQL server with a user allowed to create databases
    will do.
    """
    url = external_database_url()
    if url is None:
        yield None
        return
    if url.get_backend_name() != "postgresql":
        pytest.exit(f"LEDGER_TEST_DATABASE_URL must be a PostgreSQL URL, not {url.drivername}.")

    from sqlalchemy import create_engine, exc, text

    engine = create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1, max_overflow=4)
    try:
        try:
            with engine.connect():
                pass
        except exc.OperationalError as e:
            if "does not exist" not in str(e):
                raise
            server = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
            try:
                with server.connect() as connection:
                    connection.execute(text(f'CREATE DATABASE "{url.database}"'))
            except exc.DBAPIError as e:
                # pytest-xdist's workers start together: another one may have made it first.
                if "already exists" not in str(e) and "pg_database_datname_index" not in str(e):
                    raise
            finally:
                server.dispose()
        yield engine
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def schema_pool(external_database) -> Iterator[SchemaPool | None]:
    if external_database is None:
        yield None
        return
    pool = SchemaPool(external_database)
    try:
        yield pool
    finally:
        pool.close()


@dataclass
class EmptyDatabase:
    """Where a test's app keeps its rows: the settings that point the app there, and whether
    its tables are still to be made (a schema from the pool already has them)."""

    config: dict[str, Any]
    pool: SchemaPool | None = None
    schema: str | None = None
    new: bool = True

    def create_tables(self, app: Flask) -> None:
        """Make the tables a new database or schema lacks; the pool learns a new schema's shape.

        On SQLite, the app's connections also stop waiting for the disk at each commit
        (``PRAGMA synchronous=OFF``): a test's file is thrown away after it, and a commit that
        waits for the disk took ten milliseconds and more on a busy machine. Nothing a test
        reads changes: only what a power cut would leave of the file. And its statements are
        compiled to SQL once per process, not once per test (tests/shared_sql.py).
        """
        from sqlalchemy import event

        from ledger.extensions import db
        from tests.shared_sql import SHARED_SQL

        with app.app_context():
            for engine in db.engines.values():
                if engine.dialect.name == "sqlite":
                    event.listen(engine, "connect", _no_waiting_for_the_disk)
                    engine.update_execution_options(compiled_cache=SHARED_SQL)
        if not self.new:
            return

        with app.app_context():
            db.create_all()
        if self.pool is not None and self.schema is not None:
            self.pool.remember_shape(self.schema, db.metadata)


def _no_waiting_for_the_disk(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA synchronous=OFF")
    finally:
        cursor.close()


@pytest.fixture(scope="session")
def empty_sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every table and no row, made once per pytest process: each test
    that asks for an empty SQLite database gets a copy (a file copied is far quicker than the
    tables made anew, which took a commit per table)."""
    from sqlalchemy import create_engine

    import ledger.models  # noqa: F401  (db.metadata must list every table)
    from ledger.extensions import db

    path = tmp_path_factory.mktemp("empty") / "empty.sqlite"
    engine = create_engine(f"sqlite:///{path}")
    try:
        db.metadata.create_all(engine)
    finally:
        engine.dispose()
    return path


@pytest.fixture
def empty_database(
    tmp_path: Path, schema_pool: SchemaPool | None, request: pytest.FixtureRequest
) -> Iterator[EmptyDatabase]:
    """A database no test has written to yet: a copy of ``empty_sqlite_file`` in the test's
    folder, or a schema from the pool.

    The schema goes back to the pool after the test; the ``app`` fixture, which depends on this
    one, has closed its connections by then, so nothing holds a lock on its tables.
    """
    import ledger.models  # noqa: F401  (db.metadata must list every table before take())
    from ledger.extensions import db

    if schema_pool is None:
        path = tmp_path / "test.sqlite"
        shutil.copyfile(request.getfixturevalue("empty_sqlite_file"), path)
        yield EmptyDatabase({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}, new=False)
        return
    schema, new = schema_pool.take(db.metadata)
    config = {
        "SQLALCHEMY_DATABASE_URI": schema_pool.engine.url.render_as_string(hide_password=False),
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}},
    }
    try:
        yield EmptyDatabase(config, schema_pool, schema, new)
    finally:
        schema_pool.give_back(schema, db.metadata)
