"""The Flask extensions, created once here and bound to each app in create_app."""

from __future__ import annotations

import select
import time
from collections import namedtuple
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from flask import current_app
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, create_engine, event, exc
from sqlalchemy.orm import DeclarativeBase

from ledger.config import make_private_database_file, quick_read_options, sqlite_file

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy import Connection, Dialect, Engine, Select

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


# Where an app keeps its quick reads' engine (PostgreSQL only): ``quick_read``.
QUICK_READS = "ledger_quick_reads"


def every_engine() -> list[Engine]:
    """The app's engines: Flask-SQLAlchemy's, and on PostgreSQL the quick reads' own. What
    is to be done to each (closing its connections, listening to its statements)."""
    engines = list(db.engines.values())
    quick: Engine | None = current_app.extensions.get(QUICK_READS)
    return [*engines, quick] if quick is not None else engines


@contextmanager
def quick_read() -> Iterator[Connection]:
    """A pooled connection for a read or two, outside the ORM session, in autocommit mode.

    For what every poll and every API call reads first (a group, a version, a credential):
    no ORM bookkeeping, and on PostgreSQL no BEGIN before the query and no ROLLBACK when the
    connection goes back to the pool, so the read is one round trip. On PostgreSQL from an
    engine of their own (``config.quick_read_options``), whose connections keep their prepared
    statements and plan them once. (SQLite's driver opens no transaction for a SELECT
    anyway; switching it to autocommit and back costs more.)
    """
    quick: Engine | None = current_app.extensions.get(QUICK_READS)
    with (quick or db.engine).connect() as connection:
        yield connection


class DriverRead:
    """A Core select read straight through the driver's cursor: for the reads every kept page,
    every poll and every scoreboard build make, where SQLAlchemy's execution (building the
    statement, compiling, parameters, the result's processing) costs several times the query.

    The statement is compiled once per database kind and count of values in each of its
    lists (``expanding`` bind parameters), with the values its own constants hold. Its
    parameters must be ones the driver takes as Python holds them (numbers and text).
    ``first`` gives the driver's row as it is; ``rows`` and ``row`` convert each column as
    SQLAlchemy would (its type's result processor for the database: JSON decoded, SQLite's
    dates parsed) and name it as the statement does (``row.state``, ``row._asdict()``).
    """

    def __init__(
        self, statement: Select[*tuple[Any, ...]], expanding: tuple[str, ...] = ()
    ) -> None:
        self.statement = statement
        self.expanding = expanding
        self._plans: dict[Hashable, _Plan] = {}
        self._named: type[tuple[Any, ...]] | None = None

    def first(self, connection: Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row for ``params`` (lists for the expanding parameters), or None."""
        _plan, found = self._fetch(connection, params, every=False)
        return tuple(found[0]) if found else None

    def rows(self, connection: Connection, params: Mapping[str, Any]) -> list[Any]:
        """Every row for ``params``, converted and named."""
        plan, found = self._fetch(connection, params, every=True)
        return [self._convert(plan, row) for row in found]

    def row(self, connection: Connection, params: Mapping[str, Any]) -> Any | None:
        """The first row for ``params``, converted and named, or None."""
        plan, found = self._fetch(connection, params, every=False)
        return self._convert(plan, found[0]) if found else None

    def rows_in_parts(
        self, connection: Connection, params: Mapping[str, Any], widths: tuple[int, ...]
    ) -> list[tuple[Any, ...]]:
        """Every row for ``params``, cut into parts of ``widths`` columns (in the statement's
        order, together all of them), each part converted as ``rows`` would and named by its
        columns' own names; a part whose first column is NULL (an outer join that found
        nothing) is None, and its columns are not converted."""
        plan, found = self._fetch(connection, params, every=True)
        cuts = self._cuts(plan, widths)
        return [
            tuple(
                None if row[start] is None else _converted(named, processors, row[start:stop])
                for start, stop, named, processors in cuts
            )
            for row in found
        ]

    def _cuts(self, plan: _Plan, widths: tuple[int, ...]) -> list[_Cut]:
        cuts = plan.cuts.get(widths)
        if cuts is None:
            if sum(widths) != len(plan.named._fields):
                raise ValueError(f"{widths} do not cut {len(plan.named._fields)} columns")
            # Each column's own name (a label's, or the column's): two parts may each have an
            # ``id``, which the statement's keys would call ``id`` and ``id_1``.
            names = [column.name for column in self.statement.selected_columns]
            cuts, start = [], 0
            for width in widths:
                stop = start + width
                named = namedtuple("Part", names[start:stop], rename=True)  # type: ignore[misc]
                processors = tuple((i - start, f) for i, f in plan.processors if start <= i < stop)
                cuts.append(_Cut(start, stop, named, processors))
                start = stop
            plan.cuts[widths] = cuts
        return cuts

    def _fetch(
        self, connection: Connection, params: Mapping[str, Any], *, every: bool
    ) -> tuple[_Plan, Sequence[Sequence[Any]]]:
        """The plan for ``params`` and the driver's rows: every one, or the first (if any)."""
        plan = self._plan(connection.dialect, params)
        cursor = self._execute(connection, plan, params)
        try:
            if every:
                return plan, cursor.fetchall()
            first = cursor.fetchone()
            return plan, [first] if first is not None else []
        finally:
            cursor.close()

    def _convert(self, plan: _Plan, row: Sequence[Any]) -> Any:
        return _converted(plan.named, plan.processors, row)

    def _execute(self, connection: Connection, plan: _Plan, params: Mapping[str, Any]) -> Any:
        values = dict(plan.constants)
        for name, value in params.items():
            if name in self.expanding:
                values.update({f"{name}_{i}": v for i, v in enumerate(value, 1)})
            else:
                values[name] = value
        arguments = tuple(values[k] for k in plan.order) if plan.order else values
        driver = connection.connection.driver_connection
        cursor = driver.cursor()  # type: ignore[union-attr]
        try:
            # What listens for statements on the engine (a query count, a log) hears of this
            # one as of any other.
            heard = connection.dispatch.before_cursor_execute
            if heard:
                heard(connection, cursor, plan.sql, arguments, None, False)
            if plan.prepares and driver.prepare_threshold is not None:  # type: ignore[union-attr]
                # Prepared on the server at its first use on a connection, not its sixth as
                # psycopg would: planning it costs two to three times running it, and the pool
                # hands each request whichever connection comes (unless preparing was switched
                # off on the connection, as behind a pooler that cannot keep them).
                cursor.execute(plan.sql, arguments, prepare=True)
            else:
                cursor.execute(plan.sql, arguments)
        except BaseException:
            cursor.close()
            raise
        return cursor

    def _plan(self, dialect: Dialect, params: Mapping[str, Any]) -> _Plan:
        key = (dialect.name, dialect.paramstyle, tuple(len(params[n]) for n in self.expanding))
        plan = self._plans.get(key)
        if plan is None:
            compiled = self.statement.compile(dialect=dialect)
            state = compiled.construct_expanded_state(params)
            converters = (
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                for column in self.statement.selected_columns
            )
            if self._named is None:
                self._named = namedtuple(  # type: ignore[misc]
                    "Row", list(self.statement.selected_columns.keys()), rename=True
                )
            plan = self._plans[key] = _Plan(
                state.statement,
                state.positiontup,
                dict(state.parameters),
                tuple((i, f) for i, f in enumerate(converters) if f is not None),
                self._named,
                {},
                dialect.driver == "psycopg",
            )
        return plan


class _Plan(NamedTuple):
    """A DriverRead's statement compiled for one database: its text, the order of its
    positional parameters (None: named), its constants, and how its rows are read."""

    sql: str
    order: Sequence[str] | None
    constants: dict[str, Any]
    processors: tuple[tuple[int, Callable[[Any], Any]], ...]
    named: Any
    cuts: dict[tuple[int, ...], list[_Cut]]  # rows_in_parts' parts, by their widths
    prepares: bool  # psycopg: prepared on the server at its first use on a connection


class _Cut(NamedTuple):
    """One part of a DriverRead's rows (``rows_in_parts``): its columns, named and read."""

    start: int
    stop: int
    named: Any
    processors: tuple[tuple[int, Callable[[Any], Any]], ...]


def _converted(
    named: Any, processors: tuple[tuple[int, Callable[[Any], Any]], ...], row: Sequence[Any]
) -> Any:
    """A driver's row (or part of one) with each column read as its type says, named."""
    if not processors:
        return named._make(row)
    values = list(row)
    for i, processor in processors:
        values[i] = processor(values[i])
    return named._make(values)


def init_engine_events(app: Flask) -> None:
    """Bind what each of the app's databases needs on its connections, and on PostgreSQL
    make the quick reads' engine (``quick_read``).

    SQLite: WAL lets the phones read while one of waitress's threads writes, and SQLite leaves
    foreign keys off unless each connection asks (the busy timeout is in the engine options).
    """
    pre_ping = (app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {}).get("pool_pre_ping")
    quick = quick_read_options(
        app.config["SQLALCHEMY_DATABASE_URI"], app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    )
    if quick is not None:
        engine = create_engine(app.config["SQLALCHEMY_DATABASE_URI"], **quick)
        event.listen(engine, "connect", _plan_once)
        app.extensions[QUICK_READS] = engine
    with app.app_context():
        for engine in every_engine():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_on_connect)
                path = sqlite_file(engine.url.render_as_string(hide_password=False))
                if path is not None:
                    event.listen(engine, "do_connect", _private_file_before_connecting(path))
            elif engine.dialect.name == "postgresql" and not pre_ping:
                event.listen(engine, "checkin", _note_checkin)
                event.listen(engine, "checkout", _replace_dropped(engine))


def _plan_once(dbapi_connection: Any, connection_record: Any) -> None:
    """A quick reads' connection: its prepared statements planned once, for any values.

    PostgreSQL plans a prepared statement anew for its first five runs, then keeps one plan
    for any values only while that plan's estimated cost is no higher than the five's; once
    it is judged higher (the tables' statistics changed in between, say), it plans anew at
    every run, for good: measured on the scoreboard's access read, 0.3-0.4 ms of planning
    against a 0.1 ms run. Every quick read looks rows up by key, the same plan whatever the
    values, so these connections keep the one plan from the first run. Left as it is where
    preparing is switched off (a pooler in transaction mode shares the server's sessions).
    """
    if getattr(dbapi_connection, "prepare_threshold", None) is None:
        return
    autocommit = dbapi_connection.autocommit
    dbapi_connection.autocommit = True
    try:
        dbapi_connection.execute("SET plan_cache_mode TO force_generic_plan")
    finally:
        dbapi_connection.autocommit = autocommit


# A pooled PostgreSQL connection unused for this long is pinged before it is used again: a
# NAT box or firewall may have dropped it without a word (they forget a quiet connection
# after minutes, not seconds).
IDLE_PING_SECONDS = 30.0


def _note_checkin(dbapi_connection: Any, connection_record: Any) -> None:
    connection_record.info["checked_in"] = time.monotonic()


def _replace_dropped(engine: Engine) -> Callable[..., None]:
    """Before a pooled PostgreSQL connection is used: one that is gone is replaced, without
    a round trip for the connections a busy table keeps using.

    A server that restarts (or ends a connection) tells each client before it closes, so the
    connection's socket has something to read while no query is under way: that is checked
    with one poll of the socket, every time. A connection left unused for a while is pinged
    too, since a NAT box may drop it in silence. Either way the pool opens a new one
    (DisconnectionError), so no request fails on a dead connection. This replaces
    SQLAlchemy's pool_pre_ping, which pays a round trip to the server for every use.
    """
    dialect = engine.dialect

    def check(dbapi_connection: Any, connection_record: Any, connection_proxy: Any) -> None:
        if _has_news(dbapi_connection):
            raise exc.DisconnectionError("the server closed the connection")
        idle_since = connection_record.info.get("checked_in")
        if idle_since is not None and time.monotonic() - idle_since > IDLE_PING_SECONDS:
            try:
                dialect.do_ping(dbapi_connection)
                dbapi_connection.rollback()  # the ping's implicit transaction
            except Exception as e:
                raise exc.DisconnectionError("the connection did not answer a ping") from e

    return check


def _has_news(dbapi_connection: Any) -> bool:
    """Whether the server sent anything on an idle connection: its farewell, or its end."""
    try:
        fd = dbapi_connection.fileno()
        if hasattr(select, "poll"):
            # poll, not select: a busy server's sockets may be numbered past select's 1024.
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True  # no socket any more
    return bool(readable)


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
