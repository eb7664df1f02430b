"""A group's every row, read for its backup and written back by a restore: the tables a backup
holds (``TABLES``) and those it leaves out, the rows read in one snapshot, and a checked
backup's rows inserted under new ids in one transaction (ledger/backup/ lays out the file
and checks it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import date
from typing import Any

from sqlalchemy import JSON, insert, null, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Session

from ledger.extensions import db
from ledger.models import (
    AccessGrant,
    AddressFailure,
    BankAccount,
    Change,
    Credential,
    Evening,
    EveningPlayer,
    EveningTable,
    GameSession,
    Group,
    Hand,
    Payment,
    Player,
    Round,
    Season,
    SessionChart,
    SessionPlayer,
    TabPayment,
)
from ledger.rules.evening import list_to_dict
from ledger.services import room
from ledger.services.errors import Conflict, NotFound, ServiceError
from ledger.services.evenings import evening_list_now, group_evenings
from ledger.services.seasons import group_seasons
from ledger.services.tab import group_tabs
from ledger.services.views.groups import GroupRef

# The group's tables in the order they are restored, with the key each has in the backup.
# A club evening (RULES.md §19) comes before the sessions, as its tables' nights' request ids
# name it (``_insert_all`` renames them with it); its check-ins and tables come last.
TABLES: tuple[tuple[str, type[Any]], ...] = (
    ("players", Player),
    ("evenings", Evening),
    ("sessions", GameSession),
    ("session_players", SessionPlayer),
    ("hands", Hand),
    ("changes", Change),
    ("payments", Payment),
    ("rounds", Round),
    ("tab_payments", TabPayment),
    ("bank_accounts", BankAccount),
    ("seasons", Season),
    ("evening_players", EveningPlayer),
    ("evening_tables", EveningTable),
)


# Counts of wrong passphrases and the epoch of this server's invite links are this server's
# business: never in a backup; nor the nights version, which only tells this server's kept
# pages apart.
GROUP_COLUMNS_LEFT_OUT = frozenset(
    {"failed_logins", "failed_since", "invite_epoch", "nights_version"}
)


# Keys of a change record's ``before`` and ``after`` that hold a session's id (the restore
# renames them with the sessions). Only the top level: deeper are scores keyed by names.
SESSION_IDS_IN_CHANGES = frozenset({"session", "session_id", "carried_from", "carried_into"})


class BackupError(ServiceError):
    """A file that is not a backup this app can restore: 422 with a sentence saying why."""

    status = 422


def references(model: Any) -> list[tuple[str, str]]:
    """Each column of ``model`` that refers to another row, with the table it refers to."""
    return [
        (column.key, fk.column.table.name)
        for column in model.__table__.columns
        for fk in column.foreign_keys
    ]


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


def find_group(slug: str) -> GroupRef:
    """The group with this slug, for the command line (which needs no passphrase)."""
    row = db.session.scalar(select(Group).where(Group.slug == slug))
    if row is None:
        raise NotFound("There is no group {slug}.", slug=slug)
    return GroupRef(row.id, row.slug, row.name)


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


def _row_dict(row: DeclarativeBase) -> dict[str, Any]:
    out = {}
    for column in row.__table__.columns:
        value = getattr(row, column.key)
        out[column.key] = _iso(value) if isinstance(value, date) else value
    return out


def _iso(moment: date) -> str:
    return moment.isoformat()  # a time (datetime) or a season's day (date)


def _insert_all(
    group: dict[str, Any], rows: Mapping[str, list[dict[str, Any]]]
) -> dict[str, dict[int, int]]:
    """Insert every row under a new id, in the order of the file's ids (so the restored rows
        keep their order), every link renamed to the new ids. The file's ids are never written:
        a crafted file cannot take ids another group will need, nor push an id sequence. Answers
    each table's new ids by the file's."""
    ids: dict[str, dict[int, int]] = {"groups": {group["id"]: _insert_one(Group, group)}}
    late: list[tuple[int, int]] = []  # (a session's new id, the backed-up id it carried into)
    tables = {t["session_id"]: t for t in rows["evening_tables"]}
    for key, model in TABLES:
        renamed: list[dict[str, Any]] = []
        for backed_up in rows[key]:
            values = {k: v for k, v in backed_up.items() if k != "id"}
            if model is GameSession and backed_up["id"] in tables:
                # A table's night is its evening's, never a client's retry: a file from
                # before holds the id the draw once gave it (evening-<id>-round-…), which a
                # client's request could otherwise reach.
                values["request_id"] = None
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
            if model is Round:  # its shares name players by id (RULES.md §6c)
                values["shares"] = [[ids["players"][p], n] for p, n in values["shares"]]
            if model is Season and values.get("closed"):
                values["closed"] = _renamed_nights(values["closed"], ids["sessions"])
            renamed.append(values)
        new_ids = _insert_many(model, renamed, need_ids=key in ("players", "sessions", "evenings"))
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
    return ids


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


def _renamed_nights(closed: dict[str, Any], renamed: Mapping[int, int]) -> dict[str, Any]:
    """A closed season's table with its nights' sessions renamed (the check made sure each
    is a session of the file)."""
    nights = [{**n, "session": renamed[n["session"]]} for n in closed["nights"]]
    return {**closed, "nights": nights}


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
            if view.money or view.payout is not None or view.rounds:
                services.night_settlement(group, summary.id)
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
    try:
        group_seasons(group)
    except Exception as e:
        raise BackupError("A season of the backup cannot be worked out: it is damaged.") from e
    try:
        group_evenings(group)
    except Exception as e:
        raise BackupError(
            "A club evening of the backup cannot be worked out: it is damaged."
        ) from e


# A night's lines that leave its result as it was: a closed evening's list still holds what
# its tables' nights give after them.
SAME_RESULT = frozenset(
    {"player.renamed", "payment.recorded", "payment.deleted", "tab.added", "tab.removed"}
)


def _check_evening_lists(
    restored: GroupRef, rows: Mapping[str, list[dict[str, Any]]], ids: Mapping[int, int]
) -> None:
    """A closed club evening keeps its list as it closed (RULES.md §19). Where no table's
    night has changed its result since the close, that list is what the nights give now,
    worked out by the evening's own read model (services/evenings.py), or the file is
    refused; a night reopened since leaves the list as it closed (its rounds' points are
    then facts of the file, ledger/backup/evenings.py derives the rest from them)."""
    last: dict[int, Any] = {}  # each night's latest line that could change its result
    for c in rows["changes"]:
        if c["kind"] not in SAME_RESULT:
            last[c["session_id"]] = max(c["at"], last.get(c["session_id"], c["at"]))
    latest: dict[int, Any] = {}  # each evening's tables' latest such line
    for t in rows["evening_tables"]:
        if t["session_id"] in last:
            at = last[t["session_id"]]
            latest[t["evening_id"]] = max(at, latest.get(t["evening_id"], at))
    for e in rows["evenings"]:
        if e["closed"] is None:
            continue
        if e["id"] in latest and latest[e["id"]] > e["closed_at"]:
            continue  # a table's night changed since the close
        kept = {k: v for k, v in e["closed"].items() if k != "paid"}
        row = db.session.get(Evening, ids[e["id"]])  # restored a moment ago, of this group
        assert row is not None, e["id"]
        if list_to_dict(evening_list_now(restored, row)) != kept:
            raise BackupError(
                "Club evening {id} of the backup is refused: its list is not what its "
                "tables' nights make.",
                id=e["id"],
            )


def group_rows(slug: str) -> dict[str, Any]:
    """The group ``slug`` (``group``, less the columns left out) and its rows of every table
    of ``TABLES``, each a JSON-ready dict, oldest first, all read in one snapshot."""
    with _snapshot() as session:
        group = session.scalar(select(Group).where(Group.slug == slug))
        if group is None:
            raise NotFound("There is no group {slug}.", slug=slug)
        session_ids = select(GameSession.id).where(GameSession.group_id == group.id)
        evenings = select(Evening.id).where(Evening.group_id == group.id)
        queries = {
            "players": select(Player).where(Player.group_id == group.id),
            "sessions": select(GameSession).where(GameSession.group_id == group.id),
            "session_players": select(SessionPlayer).where(
                SessionPlayer.session_id.in_(session_ids)
            ),
            "hands": select(Hand).where(Hand.session_id.in_(session_ids)),
            "changes": select(Change).where(Change.session_id.in_(session_ids)),
            "payments": select(Payment).where(Payment.session_id.in_(session_ids)),
            "rounds": select(Round).where(Round.session_id.in_(session_ids)),
            "tab_payments": select(TabPayment).where(TabPayment.group_id == group.id),
            "bank_accounts": select(BankAccount).where(
                BankAccount.player_id.in_(select(Player.id).where(Player.group_id == group.id))
            ),
            "seasons": select(Season).where(Season.group_id == group.id),
            "evenings": select(Evening).where(Evening.group_id == group.id),
            "evening_players": select(EveningPlayer).where(EveningPlayer.evening_id.in_(evenings)),
            "evening_tables": select(EveningTable).where(EveningTable.evening_id.in_(evenings)),
        }
        data: dict[str, Any] = {
            "group": {k: v for k, v in _row_dict(group).items() if k not in GROUP_COLUMNS_LEFT_OUT}
        }
        for key, model in TABLES:
            rows = session.scalars(queries[key].order_by(model.id)).all()
            data[key] = [_row_dict(row) for row in rows]
    return data


def insert_group(
    group: dict[str, Any], rows: Mapping[str, list[dict[str, Any]]], *, most_hands: int = 0
) -> GroupRef:
    """A checked backup's group and rows (ledger/backup/check.py) put back in one transaction,
    every row under a new id: all of it or, on any error, nothing. ``most_hands`` (when
    above 0) refuses a group larger than that, counted as ledger/services/room.py counts."""
    size = room.backup_size(rows)
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
        ids = _insert_all(group, rows)
        restored = GroupRef(ids["groups"][group["id"]], group["slug"], group["name"])
        _check_readable(restored)
        _check_evening_lists(restored, rows, ids["evenings"])
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
