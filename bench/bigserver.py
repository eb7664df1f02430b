"""A big server for the benchmark: thousands of groups and a million hands, written straight
into the tables, so that "a database holding 10,000 groups answers as one holding one group"
can be measured in minutes instead of the days the API would take to fill it.

Every generated group is a copy of one template group made through the API (its players, one
session and its first hands, and their lines of history), with new ids and slugs. The rows
are copied as they are stored, column by column, so a column added to a table later is copied
too. SQLite takes them by ``executemany`` in one transaction; PostgreSQL by COPY, and its id
sequences are moved past the ids written.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

# Tables in the order their rows may be written (each refers only to those before it).
ORDER = ("groups", "players", "sessions", "session_players", "hands", "changes")
# Rows written to the database at a time.
BATCH = 20_000


def new_database_url(base_url: str | None, folder: str, suffix: str) -> str:
    """An empty database: a SQLite file in ``folder`` (``base_url`` None or SQLite), or, on
    PostgreSQL, a new database beside the one ``base_url`` names (the user must be allowed to
    make one)."""
    if base_url is None or make_url(base_url).get_backend_name() == "sqlite":
        return f"sqlite:///{folder}/{suffix}.sqlite"
    url = make_url(base_url)
    name = f"{url.database}_{suffix}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


def drop_database(database_url: str) -> None:
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        return
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
    admin.dispose()


def template(source_url: str, slug: str, session_id: int, hands: int) -> dict[str, list[dict]]:
    """The rows of group ``slug`` to copy: its players, session ``session_id`` cut to its first
    ``hands`` hands (its state that of the last one kept), and their history."""
    engine = create_engine(source_url)
    with engine.connect() as c:
        rows: dict[str, list[dict]] = {}

        def read(table: str, where: str, **params: Any) -> list[dict]:
            found = c.execute(text(f"SELECT * FROM {table} WHERE {where} ORDER BY id"), params)
            return [dict(r._mapping) for r in found]

        rows["groups"] = read("groups", "slug = :slug", slug=slug)
        group = rows["groups"][0]["id"]
        rows["players"] = read("players", "group_id = :g", g=group)
        rows["sessions"] = read("sessions", "id = :s", s=session_id)
        rows["session_players"] = read("session_players", "session_id = :s", s=session_id)
        rows["hands"] = read("hands", "session_id = :s AND number <= :n", s=session_id, n=hands)
        rows["changes"] = read(
            "changes",
            "session_id = :s AND (hand_number IS NULL OR hand_number <= :n) "
            "AND kind IN ('session.created', 'hand.created')",
            s=session_id,
            n=hands,
        )
    engine.dispose()
    if len(rows["hands"]) < hands:
        raise SystemExit(f"the template session has {len(rows['hands'])} hands, not {hands}")
    session = rows["sessions"][0]
    session.update(
        state=rows["hands"][-1]["state_after"],
        hands_played=hands,
        version=hands + 1,
        seating=[],
        status="open",
        finished_at=None,
        request_id=None,
    )
    return rows


def generate(
    url: str,
    rows: dict[str, list[dict]],
    groups: int,
    one_group: bool = False,
    one_session: bool = False,
) -> float:
    """Write ``groups`` copies of the template ``rows`` into the (empty, migrated) database at
    ``url``; the seconds it took. With ``one_group`` the copies are sessions of the template's
    group (its first copy), not groups of their own: one group with a long history. With
    ``one_session`` the copies are hands of the template's session, numbered on: one night
    of ``groups`` times the template's hands (the scores start again with each copy)."""
    if one_session:
        one_group = True
        rows = _one_long_session(rows, groups)
    started = time.perf_counter()
    engine = create_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        if sqlite:
            cursor.execute("PRAGMA synchronous=OFF")
        for table in ORDER:
            columns = list(rows[table][0]) if rows[table] else []
            if not columns:
                continue
            if one_group and table in ("groups", "players"):
                copies = _copies(table, rows, 1, columns)
            elif one_session and table in ("sessions", "session_players"):
                copies = _copies(table, rows, 1, columns)
            elif one_session:
                copies = _copies(table, rows, groups, columns, one_group, one_session)
            else:
                copies = _copies(table, rows, groups, columns, one_group)
            if sqlite:
                marks = ", ".join("?" for _ in columns)
                statement = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                for batch in _batches(copies):
                    cursor.executemany(statement, batch)
            else:
                with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    for row in copies:
                        copy.write_row(row)
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
        raw.commit()
        if not sqlite:
            # VACUUM runs outside a transaction only: on the driver's own connection.
            raw.driver_connection.autocommit = True
            raw.driver_connection.execute("VACUUM ANALYZE")
        else:
            cursor.execute("ANALYZE")
            raw.commit()
    finally:
        raw.close()
        engine.dispose()
    return time.perf_counter() - started


def _copies(
    table: str,
    rows: dict[str, list[dict]],
    groups: int,
    columns: list[str],
    one_group: bool = False,
    one_session: bool = False,
) -> Iterator[tuple[Any, ...]]:
    """Every copy's rows of ``table``: ids moved on by the copy's number times the template's
    count of that table, and every reference moved on alike (with ``one_group``, references
    to the group and its players stay those of the first copy; with ``one_session``, to the
    session too, and the hands' numbers are moved on instead)."""
    hands = len(rows["hands"])
    counts = {t: len(rows[t]) for t in ORDER}
    links = {
        "group_id": "groups",
        "session_id": "sessions",
        "player_id": "players",
        "carried_into_id": "sessions",
    }
    firsts = {t: rows[t][0]["id"] if rows[t] else 0 for t in ORDER}
    # JSON and timestamps as the database stored them, made ready once, not per copy.
    ready = [{k: _stored(v) for k, v in row.items()} for row in rows[table]]
    for copy in range(groups):
        for row in ready:
            if one_session and copy and table == "changes" and row["hand_number"] is None:
                continue  # the session was made once: its hands' lines are copied with them
            values = []
            for column in columns:
                value = row[column]
                if column == "id":
                    value = _moved(value, table, copy, counts, firsts)
                elif column in links and value is not None:
                    kept = one_group and links[column] in ("groups", "players")
                    kept = kept or (one_session and links[column] == "sessions")
                    value = _moved(value, links[column], 0 if kept else copy, counts, firsts)
                elif table == "sessions" and column == "number":
                    value += copy * counts["sessions"]  # a night's number is its group's once
                elif one_session and column in ("number", "hand_number") and value is not None:
                    value += copy * hands
                elif one_session and column == "request_id" and copy:
                    value = None  # a request id is the session's once
                elif table == "groups" and column == "slug":
                    value = f"big-{copy}"
                elif table == "groups" and column == "name":
                    value = f"Big table {copy}"
                values.append(value)
            yield tuple(values)


def _one_long_session(rows: dict[str, list[dict]], copies: int) -> dict[str, list[dict]]:
    """The template for ``copies`` copies of its hands in its one session: the session counts
    them all."""
    hands = len(rows["hands"]) * copies
    session = {**rows["sessions"][0], "hands_played": hands, "version": hands + 1}
    return {**rows, "sessions": [session]}


def _moved(value: int, table: str, copy: int, counts: dict, firsts: dict) -> int:
    # Ids from 1 up, copy after copy; the template's own rows are not copied over.
    return 1 + (value - firsts[table]) + copy * counts[table]


def _stored(value: Any) -> Any:
    """A value as it goes back into the table: JSON (read back as dicts and lists on
    PostgreSQL) as text."""
    if isinstance(value, dict | list):
        return json.dumps(value)
    return value


def _batches(rows: Iterator[tuple[Any, ...]]) -> Iterator[Sequence[tuple[Any, ...]]]:
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
