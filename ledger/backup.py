"""A group's backup as one JSON document, and the restore that gives the whole group back.

The backup holds every row of the group: the group (its passphrase as the stored hash), its
players, sessions, seats, hands, the change history, the payments made at the table, the
payments against the tab and the bank accounts players keep (RULES.md §6a, §6b),
column by column as the models have them, all read at one moment.

A restore trusts nothing in the file (anyone may craft one, and the restore form needs no
sign-in). It accepts only what this app could itself have made, and refuses anything else
with one sentence saying what is wrong, storing nothing (ledger/backup_check.py): every key
and type as the app writes it, names, times and the passphrase hash as the app makes them,
every number within the database's range, each session's game and options as starting a
session checks them, every hand played again through the engine and each stored result
compared with the replay, pots carried between sessions that match, the history's versions,
and no name, hand number or request id twice.

Every restored row gets a new id, whatever ids the file holds, and every link follows: the
rows' references, a session's ``carried_into_id``, and the session ids inside the history.
The file's ids only keep the rows' order. So a restored group answers every API call as
before, but for its ids, which on a server with other groups differ (on an empty server
they come out the same). One transaction: all of the group or, on any refusal, nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, insert, null, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Session

from ledger.backup_check import (
    FORMAT,
    GROUP_COLUMNS_LEFT_OUT,
    SESSION_IDS_IN_CHANGES,
    TABLES,
    VERSION,
    BackupError,
    check_backup,
    references,
)
from ledger.extensions import db
from ledger.models import (
    AccessGrant,
    AddressFailure,
    BankAccount,
    Change,
    Credential,
    GameSession,
    Group,
    Hand,
    Payment,
    Player,
    SessionChart,
    SessionPlayer,
    TabPayment,
)
from ledger.rules.errors import RuleError
from ledger.services import room
from ledger.services.auth import client_of
from ledger.services.errors import Conflict, NotFound, ServiceError
from ledger.services.results import GroupRef
from ledger.services.tab import group_tabs
from ledger.services.throttle import claim_new_group

__all__ = [
    "FORMAT",
    "NOT_BACKED_UP",
    "TABLES",
    "VERSION",
    "BackupError",
    "backup_group",
    "dumps",
    "find_group",
    "loads",
    "restore_group",
    "restore_sent",
]

log = logging.getLogger(__name__)

# Rows that are not the group's history and are left out on purpose: remembered logins are
# keyed with this server's secret; browsers' sign-ins and API tokens open this server only
# (a backup file must never open a group); counts of wrong guesses are this server's business.
# A session's chart points are worked out from its hands: a restored session is charted from
# its hands until its next hand keeps them again (services/charts.py).
NOT_BACKED_UP = frozenset(
    {
        Credential.__tablename__,
        AccessGrant.__tablename__,
        AddressFailure.__tablename__,
        SessionChart.__tablename__,
    }
)


# --- Backing up -------------------------------------------------------------------------------


def find_group(slug: str) -> GroupRef:
    """The group with this slug, for the command line (which needs no passphrase)."""
    row = db.session.scalar(select(Group).where(Group.slug == slug))
    if row is None:
        raise NotFound("There is no group {slug}.", slug=slug)
    return GroupRef(row.id, row.slug, row.name)


def backup_group(slug: str) -> dict[str, Any]:
    """The group's every row as a JSON-ready dict (see the module's docstring), all of one
    moment: a hand saved while the backup is read is in it entirely or not at all."""
    with _snapshot() as session:
        group = session.scalar(select(Group).where(Group.slug == slug))
        if group is None:
            raise NotFound("There is no group {slug}.", slug=slug)
        session_ids = select(GameSession.id).where(GameSession.group_id == group.id)
        queries = {
            "players": select(Player).where(Player.group_id == group.id),
            "sessions": select(GameSession).where(GameSession.group_id == group.id),
            "session_players": select(SessionPlayer).where(
                SessionPlayer.session_id.in_(session_ids)
            ),
            "hands": select(Hand).where(Hand.session_id.in_(session_ids)),
            "changes": select(Change).where(Change.session_id.in_(session_ids)),
            "payments": select(Payment).where(Payment.session_id.in_(session_ids)),
            "tab_payments": select(TabPayment).where(TabPayment.group_id == group.id),
            "bank_accounts": select(BankAccount).where(
                BankAccount.player_id.in_(select(Player.id).where(Player.group_id == group.id))
            ),
        }
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "made_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "group": {k: v for k, v in _row_dict(group).items() if k not in GROUP_COLUMNS_LEFT_OUT},
        }
        for key, model in TABLES:
            rows = session.scalars(queries[key].order_by(model.id)).all()
            data[key] = [_row_dict(row) for row in rows]
    return data


@contextmanager
def _snapshot() -> Iterator[Session]:
    """A read-only ORM session on a connection of its own that sees the database as it was
    at its first query, whatever is committed while the backup's queries run.

    The backup reads six tables one after another while phones go on saving hands. Without
    one snapshot a hand saved between reading the sessions and reading the hands would be
    backed up beside a session that does not count it, and the restored session could take
    no next hand. The app's own session cannot give that snapshot: on SQLite the driver
    (pysqlite) sends no BEGIN before a SELECT, so every query is a read transaction of its
    own, and on PostgreSQL the default READ COMMITTED takes a new snapshot per statement.

    - PostgreSQL: REPEATABLE READ, read only. The snapshot is taken at the first query and
      held to the end; a read-only transaction never waits for writers nor makes them wait.
    - SQLite: an explicit BEGIN on the connection. With WAL (ledger/extensions.py) the read
      transaction keeps the snapshot of its first SELECT while writers commit beside it;
      without WAL it holds a shared lock, so writers wait (up to the busy timeout) instead.

    A connection of its own, because the isolation level of a transaction cannot change once
    it has begun, and the request may have begun one on ``db.session`` already. Comparing
    the sessions' versions before and after and reading again was the other way; it trusts
    every write of every table to move a session's version, which adding or renaming a
    player does not, and a busy table could make it give up.
    """
    with db.engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection = connection.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN")
        with Session(bind=connection) as session:
            try:
                yield session
            finally:
                session.rollback()  # a read: nothing to keep; ends SQLite's read transaction


def dumps(data: Mapping[str, Any]) -> str:
    """The backup as JSON text, names in UTF-8 as they were typed."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _row_dict(row: DeclarativeBase) -> dict[str, Any]:
    out = {}
    for column in row.__table__.columns:
        value = getattr(row, column.key)
        out[column.key] = _stamp(value) if isinstance(value, datetime) else value
    return out


def _stamp(moment: datetime) -> str:
    return moment.isoformat()


# --- Restoring --------------------------------------------------------------------------------


def loads(raw: str | bytes) -> dict[str, Any]:
    """A backup file's text as a dict, or a BackupError that says what is wrong with it."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BackupError("This file is not a Pub Ledger backup: it is not JSON.") from e
    except RecursionError as e:
        raise BackupError("The backup is damaged: it is nested too deep.") from e
    except ValueError as e:  # an integer of more digits than Python reads (4,300)
        raise BackupError("The backup is damaged: it holds a number too long to read.") from e
    if not isinstance(data, dict):
        raise BackupError("This file is not a Pub Ledger backup.")
    return data


def restore_sent(raw: bytes, address: str | None) -> GroupRef:
    """A backup file sent to the restore page by anyone, from ``address``: counted like a new
    group first (LEDGER_GROUP_LIMIT an hour per address, TooManyNewGroups), refused too when
    larger than a group may grow here (LEDGER_GROUP_HANDS). A file refused after it was read
    keeps its place in the count: it cost the server the same work."""
    claim_new_group(client_of(address))
    return restore_group(loads(raw), most_hands=room.most_hands())


def restore_group(
    data: Mapping[str, Any], *, slug: str | None = None, most_hands: int = 0
) -> GroupRef:
    """Put a backed-up group back, in one transaction: all of it or, on any error, nothing.

    ``slug`` gives the restored group another slug (when the backup's own is taken, say);
    ``most_hands`` (when above 0) refuses a group larger than that, counted in hands as
    ledger/services/room.py counts them (`ledger restore` on the command line takes any).
    Raises Conflict (409) when the slug is taken, BackupError (422) for a file that is not a
    backup Pub Ledger could have made (ledger/backup_check.py says what is checked).
    """
    try:
        checked = check_backup(data, slug)
    except (BackupError, Conflict):
        raise
    except RuleError as e:
        raise BackupError("The backup is refused: {reason}", reason=e.phrase) from None
    except Exception as e:  # a check that tripped over what it was given: still a refusal
        log.exception("a backup file could not be checked")
        raise BackupError("The backup is damaged: it cannot be read.") from e
    group = checked.group
    size = room.backup_size(checked.rows)
    if 0 < most_hands < size:
        raise BackupError(
            "The backup holds {size} hands, more than the {most} this server keeps for a group.",
            size=size,
            most=most_hands,
        )
    if db.session.scalar(select(Group.id).where(Group.slug == group["slug"])) is not None:
        raise Conflict(
            "There is a group {slug} already: restore the backup under another slug.",
            field="slug",
            slug=str(group["slug"]),
        )
    try:
        group_id = _insert_all(group, checked.rows)
        restored = GroupRef(group_id, group["slug"], group["name"])
        _check_readable(restored)
        db.session.commit()
    except IntegrityError as e:
        # Only a race can get here (every unique key is checked first): another restore or
        # a new group took the slug a moment ago.
        db.session.rollback()
        raise Conflict(
            "There is a group {slug} already: restore the backup under another slug.",
            field="slug",
            slug=str(group["slug"]),
        ) from e
    except BaseException:
        db.session.rollback()
        raise
    return restored


def _insert_all(group: dict[str, Any], rows: Mapping[str, list[dict[str, Any]]]) -> int:
    """Insert every row under a new id, in the order of the file's ids (so the restored rows
    keep their order), every link renamed to the new ids. The file's ids are never written:
    a crafted file cannot take ids another group will need, nor push an id sequence."""
    ids: dict[str, dict[int, int]] = {"groups": {group["id"]: _insert_one(Group, group)}}
    late: list[tuple[int, int]] = []  # (a session's new id, the backed-up id it carried into)
    for key, model in TABLES:
        renamed: list[dict[str, Any]] = []
        for backed_up in rows[key]:
            values = {k: v for k, v in backed_up.items() if k != "id"}
            for column, target in references(model):
                if values.get(column) is None:
                    continue
                if model is GameSession and column == "carried_into_id":
                    values[column] = None  # a later session: linked once all are in
                else:
                    values[column] = ids[target][values[column]]
            if model is Change:
                for column in ("before", "after"):
                    values[column] = _renamed_sessions(values[column], ids["sessions"])
            renamed.append(values)
        new_ids = _insert_many(model, renamed, need_ids=key in ("players", "sessions"))
        ids[model.__tablename__] = dict(zip((r["id"] for r in rows[key]), new_ids, strict=False))
        if model is GameSession:
            late = [(ids["sessions"][r["id"]], r["carried_into_id"]) for r in rows[key]]
    for new_id, into in late:
        if into is not None:
            db.session.execute(
                update(GameSession)
                .where(GameSession.id == new_id)
                .values(carried_into_id=ids["sessions"][into])
            )
    return ids["groups"][group["id"]]


def _renamed_sessions(record: Any, renamed: Mapping[int, int]) -> Any:
    """A change record's ``before`` or ``after`` with the session ids it holds renamed (the
    check made sure each is a session of the file, or one deleted since: null here, as its
    id may be another session's on this server)."""
    if not isinstance(record, dict):
        return record
    return {
        k: renamed.get(v) if k in SESSION_IDS_IN_CHANGES and v is not None else v
        for k, v in record.items()
    }


def _json_nulls(table: Any, values: Mapping[str, Any]) -> dict[str, Any]:
    # A JSON column's None is SQL NULL, as the row had it, not the JSON text "null".
    return {
        k: null() if v is None and isinstance(table.c[k].type, JSON) else v
        for k, v in values.items()
    }


def _insert_one(model: Any, values: Mapping[str, Any]) -> int:
    table = model.__table__
    row = _json_nulls(table, {k: v for k, v in values.items() if k != "id"})
    return int(db.session.execute(insert(table).values(row).returning(table.c.id)).scalar_one())


def _insert_many(model: Any, rows: list[dict[str, Any]], *, need_ids: bool) -> list[int]:
    """Insert ``rows`` (a few statements for thousands of hands); with ``need_ids`` answer
    the new ids in the rows' order."""
    if not rows:
        return []
    table = model.__table__
    if not need_ids:
        for start in range(0, len(rows), 500):
            chunk = rows[start : start + 500]
            db.session.execute(insert(table), [_json_nulls(table, r) for r in chunk])
        return []
    return [_insert_one(model, r) for r in rows]


def _check_readable(group: GroupRef) -> None:
    """Every restored session must read back through the services as the API reads it, or
    the restore is refused rather than leaving a group whose pages fail."""
    from ledger import services

    for summary in services.group_view(group).sessions:
        try:
            view = services.session_view(group, summary.id)
            services.list_hands(group, summary.id)
            if view.money or view.payout is not None:
                services.settlement(group, summary.id)
        except ServiceError:
            raise
        except Exception as e:
            raise BackupError(
                "Session {id} of the backup cannot be read back: it is damaged.", id=summary.id
            ) from e
    try:
        group_tabs(group)
    except Exception as e:
        raise BackupError("The tab of the backup cannot be worked out: it is damaged.") from e
