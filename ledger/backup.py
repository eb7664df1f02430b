"""A group's backup as one JSON document, and the restore that gives the whole group back.

The backup holds every row of the group: the group (its passphrase as the stored hash), its
players, sessions, seats, hands and the change history, column by column as the models have
them. Restored into a database without those rows, the group answers every API call exactly
as before, ids included. Where some id is taken already (a server with other groups), every
row gets a new id and the references follow; only the ids in the answers then differ.

Rows are read and written through the models; nothing here scores a hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Integer,
    String,
    func,
    insert,
    null,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Session

from ledger.extensions import db
from ledger.models import (
    Change,
    Credential,
    GameSession,
    Group,
    Hand,
    Player,
    SessionPlayer,
)
from ledger.services.errors import Conflict, NotFound, ServiceError
from ledger.services.views import GroupRef

FORMAT = "pub-ledger-backup"
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
VERSION = 1

# The group's tables in the order they are restored (each refers only to those before it,
# but for a session's ``carried_into_id``, which is set once every session is in), with the
# key each has in the backup.
TABLES: tuple[tuple[str, type[Any]], ...] = (
    ("players", Player),
    ("sessions", GameSession),
    ("session_players", SessionPlayer),
    ("hands", Hand),
    ("changes", Change),
)
# Rows that are not the group's history and are left out on purpose: remembered logins are
# keyed with this server's secret, and counts of wrong passphrases are this server's business.
NOT_BACKED_UP = frozenset({Credential.__tablename__})
GROUP_COLUMNS_LEFT_OUT = frozenset({"failed_logins", "failed_since"})
# A reference to a row of the same table that may point forward: filled in at the end.
LATE_REFERENCES = {"sessions": ("carried_into_id",)}
# Keys of a change record's ``before`` and ``after`` that hold a session's id: the session a
# pot was carried into ("pot.carried" after.session, before.carried_into), the one a session's
# pot came from ("session.created" after.carried_from). Renamed as the sessions are, or the
# restored history would point at the backed-up ids. Only the top level of each is looked at:
# deeper down are scores keyed by player names, and a player may be called "session".
SESSION_IDS_IN_CHANGES = frozenset({"session", "session_id", "carried_from", "carried_into"})


class BackupError(ServiceError):
    """A file that is not a backup this app can restore: 422 with a sentence saying why."""

    status = 422


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

    The backup reads five tables one after another while phones go on saving hands. Without
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
    if not isinstance(data, dict):
        raise BackupError("This file is not a Pub Ledger backup.")
    return data


def restore_group(data: Mapping[str, Any], *, slug: str | None = None) -> GroupRef:
    """Put a backed-up group back, in one transaction: all of it or, on any error, nothing.

    ``slug`` gives the restored group another slug (when the backup's own is taken, say).
    Raises Conflict (409) when the slug is taken, BackupError (422) for a file that is not a
    whole backup of one group or whose sessions cannot be read back.
    """
    if data.get("format") != FORMAT:
        raise BackupError("This file is not a Pub Ledger backup.")
    if data.get("version") != VERSION:
        raise BackupError(
            "This backup is of version {version}; this Pub Ledger reads version {readable}.",
            version=str(data.get("version")),
            readable=VERSION,
        )
    group_data = {
        k: v
        for k, v in _mapping(data.get("group"), "group").items()
        if k not in GROUP_COLUMNS_LEFT_OUT
    }
    if slug is not None:
        group_data["slug"] = slug
    group = _values(Group, group_data, "group")
    rows = {
        key: [_values(model, _mapping(r, key), key) for r in _list(data.get(key), key)]
        for key, model in TABLES
    }
    _check_references(group, rows)
    _check_hands(rows)
    if not SLUG.fullmatch(group["slug"]):
        raise BackupError(
            "“{slug}” cannot be a group's slug: use small letters, digits and hyphens.",
            slug=str(group["slug"]),
        )
    if db.session.scalar(select(Group.id).where(Group.slug == group["slug"])) is not None:
        raise Conflict(
            "There is a group {slug} already: restore the backup under another slug.",
            field="slug",
            slug=str(group["slug"]),
        )
    try:
        keep_ids = _ids_are_free(group, rows)
        group_id = _insert_all(group, rows, keep_ids)
        if keep_ids:
            _advance_sequences()
        restored = GroupRef(group_id, group["slug"], group["name"])
        _check_readable(restored)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return restored


def _insert_all(group: dict[str, Any], rows: Mapping[str, list[dict[str, Any]]], keep: bool) -> int:
    """Insert every row; ``ids`` maps each table's backed-up ids to the ids the rows got."""
    ids: dict[str, dict[int, int]] = {
        Group.__tablename__: {group["id"]: _insert(Group, group, keep)}
    }
    later: list[tuple[Any, int, str, int]] = []  # (model, new id, column, backed-up target id)
    for key, model in TABLES:
        table_ids = ids.setdefault(model.__tablename__, {})
        for backed_up in rows[key]:
            values = dict(backed_up)
            deferred = {}
            for column, target in _references(model):
                if values.get(column) is None:
                    continue
                if column in LATE_REFERENCES.get(key, ()):
                    deferred[column] = values.pop(column)
                else:
                    values[column] = ids[target][values[column]]
            if model is Change:
                for column in ("before", "after"):
                    values[column] = _renamed_sessions(values.get(column), ids["sessions"])
            new_id = _insert(model, values, keep)
            table_ids[backed_up["id"]] = new_id
            later += [(model, new_id, column, old) for column, old in deferred.items()]
    for model, new_id, column, old in later:
        target = dict(_references(model))[column]
        db.session.execute(
            update(model.__table__)
            .where(model.__table__.c.id == new_id)
            .values({column: ids[target][old]})
        )
    return ids[Group.__tablename__][group["id"]]


def _renamed_sessions(record: Any, renamed: Mapping[int, int]) -> Any:
    """A change record's ``before`` or ``after`` with the session ids it holds renamed."""
    if not isinstance(record, dict):
        return record
    return {
        k: renamed.get(v, v)
        if k in SESSION_IDS_IN_CHANGES and isinstance(v, int) and not isinstance(v, bool)
        else v
        for k, v in record.items()
    }


def _insert(model: Any, values: Mapping[str, Any], keep_id: bool) -> int:
    table = model.__table__
    if not keep_id:
        values = {k: v for k, v in values.items() if k != "id"}
    # A JSON column's None is SQL NULL, as the row had it, not the JSON text "null".
    row = {
        k: null() if v is None and isinstance(table.c[k].type, JSON) else v
        for k, v in values.items()
    }
    return db.session.execute(insert(table).values(row).returning(table.c.id)).scalar_one()


def _references(model: Any) -> list[tuple[str, str]]:
    """Each column of ``model`` that refers to another row, with the table it refers to."""
    return [
        (column.key, fk.column.table.name)
        for column in model.__table__.columns
        for fk in column.foreign_keys
    ]


def _ids_are_free(group: Mapping[str, Any], rows: Mapping[str, list[dict[str, Any]]]) -> bool:
    """True when no row in the database has any of the backup's ids, table by table."""
    wanted = [(Group, [group["id"]])] + [(m, [r["id"] for r in rows[k]]) for k, m in TABLES]
    for model, ids in wanted:
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            taken = db.session.scalar(select(func.count()).where(model.id.in_(chunk)))
            if taken:
                return False
    return True


def _advance_sequences() -> None:
    """PostgreSQL hands out ids from a sequence that rows inserted with their own ids do not
    move: set each past the largest id, or the next new row would clash."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    models: tuple[type[Any], ...] = (Group, *(m for _, m in TABLES))
    for model in models:
        name = model.__tablename__
        db.session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {name}), false)"
            )
        )


def _check_readable(group: GroupRef) -> None:
    """Every restored session must read back through the services as the API reads it, or
    the restore is refused rather than leaving a group whose pages fail."""
    from ledger import services

    for summary in services.group_view(group).sessions:
        try:
            view = services.session_view(group, summary.id)
            services.list_hands(group, summary.id)
            if view.money:
                services.settlement(group, summary.id)
        except ServiceError:
            raise
        except Exception as e:
            raise BackupError(
                "Session {id} of the backup cannot be read back: it is damaged.", id=summary.id
            ) from e


# --- Checking what a backup holds -------------------------------------------------------------


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BackupError("The backup is damaged: {where} is not a row.", where=where)
    return value


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise BackupError("The backup is damaged: {where} is not a list of rows.", where=where)
    return value


def _values(model: Any, raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A backed-up row as column values, each checked against the column's type.

    Columns the backup does not have take their defaults (a backup made before a column was
    added); keys the model does not know are left out (one made by a later version).
    """
    out: dict[str, Any] = {}
    for column in model.__table__.columns:
        name = column.key
        if name not in raw:
            needed = column.primary_key or (
                not column.nullable and column.default is None and column.server_default is None
            )
            if needed:
                raise BackupError(
                    "The backup is damaged: a row of {where} has no {column}.",
                    where=where,
                    column=name,
                )
            continue
        value = raw[name]
        if value is None:
            if column.primary_key or not column.nullable:
                raise BackupError(
                    "The backup is damaged: a row of {where} has no {column}.",
                    where=where,
                    column=name,
                )
            out[name] = None
            continue
        out[name] = _typed(column, value, f"{where}.{name}")
    return out


def _typed(column: Any, value: Any, where: str) -> Any:
    kind = column.type
    bad = BackupError(
        "The backup is damaged: {where} cannot be {value}.", where=where, value=repr(value)
    )
    if isinstance(kind, Boolean):
        if not isinstance(value, bool):
            raise bad
    elif isinstance(kind, Integer):
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad
    elif isinstance(kind, DateTime):
        if not isinstance(value, str):
            raise bad
        try:
            moment = datetime.fromisoformat(value)
        except ValueError as e:
            raise bad from e
        if moment.tzinfo is not None:  # stored times are naive UTC
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        return moment
    elif isinstance(kind, String):
        if not isinstance(value, str) or (kind.length is not None and len(value) > kind.length):
            raise bad
    elif not isinstance(kind, JSON):
        raise bad
    return value


def _check_references(group: Mapping[str, Any], rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Every row belongs to the backup's group and refers only to rows of the backup, so a
    restore can never attach anything to another group's rows."""
    known: dict[str, set[int]] = {Group.__tablename__: {group["id"]}}
    for key, model in TABLES:
        ids = [r["id"] for r in rows[key]]
        if len(set(ids)) != len(ids):
            raise BackupError("The backup is damaged: two rows of {rows} have one id.", rows=key)
        known[model.__tablename__] = set(ids)
    for key, model in TABLES:
        for column, target in _references(model):
            for row in rows[key]:
                if row.get(column) is not None and row[column] not in known[target]:
                    raise BackupError(
                        "The backup is damaged: a row of {rows} refers to {target} {id}, "
                        "which it does not hold.",
                        rows=key,
                        target=target,
                        id=str(row[column]),
                    )


def _check_hands(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each session holds exactly its hands 1 to ``hands_played``: the number the next hand
    gets is ``hands_played + 1``, so a hand row beyond the count (a backup read while a hand
    was saved, by a version before backups were one snapshot) would make the restored
    session refuse every next hand."""
    numbers: dict[int, list[int]] = {s["id"]: [] for s in rows["sessions"]}
    for hand in rows["hands"]:
        numbers[hand["session_id"]].append(hand["number"])
    for session in rows["sessions"]:
        played = session.get("hands_played", 0)
        held = sorted(numbers[session["id"]])
        if len(held) != played:
            raise BackupError(
                "The backup is damaged: the count of hands played in session {id} ({played}) "
                "does not match the hands it holds ({held}).",
                id=session["id"],
                played=played,
                held=len(held),
            )
        if held != list(range(1, played + 1)):
            raise BackupError(
                "The backup is damaged: the hands of session {id} are not numbered 1 to {played}.",
                id=session["id"],
                played=played,
            )
