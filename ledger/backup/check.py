"""Checks that a backup file holds only what Pub Ledger itself could have made, before a restore.

A backup file comes from outside: anyone may craft one, and the restore form needs no sign-in.
So nothing in it is trusted. ``check_backup`` reads the whole file and answers the rows to
insert, or raises BackupError with one sentence saying what is wrong:

- the shape: every key known and present, every value of the type the app stores (seats are
  names, a count is a whole number), no fraction, no integer past the database's 32-bit
  range, no NUL or unpaired surrogate, nothing nested deeper than the app nests;
- the values a person typed, by the app's own rules: names (players' and the group's), the
  slug, the request ids, the timestamps as the backup writes them, the passphrase hash in a
  shape werkzeug makes and at a cost no higher than it makes;
- every session as starting one checks it: its game, its options through the engine's own
  ``check_options`` (kept exactly as starting a session keeps them), its seats and dealer
  through ``new_state``; then every hand played again through the engine from that start, and
  the hands' outcomes and states, the session's state, count, status, end and pot compared
  with the replay: a score bumped by hand is refused;
- the links between sessions: a pot carried on is taken up once, by a later session of the
  same game played for the same money, which opened with exactly that pot and its antes;
- what the database would refuse with an error (a name twice whatever its case, a hand
  number or a request id twice) is refused here with a sentence instead;
- the history: each change of a kind the app records, in its shape, each session's versions
  1, 2, 3…, and each hand's revision and request id as its history says; each round's and
  each buy-in's lines as the rounds and buy-ins it holds (ledger/backup/lines.py);
- a closed season's table worked out again from its nights and options (seasons.py);
- each club evening as making, drawing and closing one checks it, a closed one's list worked
  out again from its points per round and its money (evenings.py).

The file's ids only tell the rows apart and link them: they may be any positive whole number
(the restore gives every row a new id), so they are the one place a number may be large.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from types import MappingProxyType
from typing import Any

from sqlalchemy import JSON, Boolean, Date, DateTime, Integer, String
from werkzeug.security import DEFAULT_PBKDF2_ITERATIONS

from ledger.backup.evenings import _check_evenings
from ledger.backup.lines import _check_lines
from ledger.backup.links import (
    _check_hand_numbers,
    _check_night_numbers,
    _check_payments,
    _check_references,
    _check_rounds,
    _check_tab,
    _check_uniques,
)
from ledger.backup.replay import _check_pots, _check_seats, _replay
from ledger.backup.seasons import _check_seasons
from ledger.backup.shapes import _check_change, _check_history, _check_returned
from ledger.backup.values import _bad, _clean_name, _is_int, _missing, _not_a_name, _shown, _unknown
from ledger.models import (
    GROUP_NAME_LENGTH,
    NAME_LENGTH,
    SLUG_LENGTH,
    Group,
)
from ledger.services.auth.passphrases import hash_checks
from ledger.services.backups import (
    GROUP_COLUMNS_LEFT_OUT,
    SESSION_IDS_IN_CHANGES,
    TABLES,
    BackupError,
)

FORMAT = "pub-ledger-backup"


# Raised only for a file this version could not read as it was made. A table or column added
# since (tab payments, seasons, rounds, club evenings…) keeps the version: a file made before
# it leaves it out and is read as it was then (``ADDED_LATER``).
VERSION = 1


SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


# Tables and columns a backup made before they existed leaves out, read as they were then
# (None: worked out for the restore, as a night's number: links._check_night_numbers).
ADDED_LATER: Mapping[str, Any] = MappingProxyType(
    {
        "tab_payments": [],
        "bank_accounts": [],
        "sessions.on_tab": False,
        "sessions.series": None,
        "sessions.number": None,
        "seasons": [],
        "rounds": [],
        # Club evenings (RULES.md §19): a backup made before they were backed up has none.
        "evenings": [],
        "evening_players": [],
        "evening_tables": [],
        "payments.cents": None,
        # RULES.md §20: a backup made before changes named who made them names nobody.
        "changes.by_id": None,
        "changes.phone_id": None,
    }
)


TOP_KEYS = frozenset({"format", "version", "made_at", "group", *(key for key, _ in TABLES)})


# What the database keeps in an INTEGER column, and what every number in a backup must fit.
LARGEST = 2**31 - 1


# The file's ids are never stored, only matched: any positive whole number of this size.
LARGEST_ID = 10**20


# The deepest a backup nests (a deleted hand's meld in the history is about 10 deep).
DEEPEST = 32


# No text the app keeps is longer: names 40, a hand's cards as typed, a passphrase hash.
LONGEST_TEXT = 1000


# A stored time as the backup writes it (datetime.isoformat of naive UTC).
STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?")


# Passphrase hashes as werkzeug writes them: "method:params$salt$hex". A hash's parameters set
# the work of every passphrase check, so a crafted one could make each sign-in cost seconds
# or gigabytes: none costlier than werkzeug's own defaults is taken.
SCRYPT = re.compile(r"scrypt:(\d{1,7}):(\d{1,2}):(\d{1,2})\$[A-Za-z0-9]{8,64}\$[0-9a-f]{128}")


PBKDF2 = re.compile(r"pbkdf2:(sha256|sha512):(\d{1,7})\$[A-Za-z0-9]{8,64}\$([0-9a-f]+)")


SCRYPT_MOST_N = 2**15


SCRYPT_MOST_WORK = 2**15 * 8  # n × r × p of werkzeug's default


PBKDF2_DIGEST = {"sha256": 64, "sha512": 128}


@dataclass
class Checked:
    """A backup that passed every check: the group's values and each table's rows (ids as in
    the file, rows in the order of their ids, times as datetimes), ready to be inserted."""

    group: dict[str, Any]
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def check_backup(data: Any, slug: str | None = None) -> Checked:
    """The backup's rows, checked as the module's docstring says, or a BackupError.

    ``slug`` replaces the backup's own slug (a restore beside the group itself).
    """
    _check_envelope(data)
    checked = _read_rows(data, slug)
    group, rows = checked.group, checked.rows
    _check_group(group)
    _check_references(group, rows)
    players = _check_players(rows["players"])
    _check_uniques(rows)
    _check_hand_numbers(rows)
    _check_sessions(rows, players)
    _check_night_numbers(rows["sessions"])
    _check_pots(rows["sessions"])
    _check_payments(rows)
    _check_rounds(rows)
    _check_tab(rows)
    _check_lines(rows, players)
    _check_seasons(rows)
    _check_evenings(rows, players)
    return checked


def _check_envelope(data: Any) -> None:
    """What is around the rows: a Pub Ledger backup, of this version, with a date it was made."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("This file is not a Pub Ledger backup.")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise BackupError(
            "This backup is of version {version}; this Pub Ledger reads version {readable}.",
            version=_shown(data.get("version")),
            readable=VERSION,
        )
    for key in data:
        if key not in TOP_KEYS:
            raise _unknown(str(key))
    made_at = data.get("made_at")
    if not isinstance(made_at, str) or len(made_at) > 40:
        raise _missing("the backup", "made_at") if made_at is None else _bad("made_at", made_at)
    try:
        datetime.fromisoformat(made_at)
    except ValueError:
        raise _bad("made_at", made_at) from None


def _read_rows(data: dict[str, Any], slug: str | None) -> Checked:
    """The group's row and every table's rows, each read on its own, sorted by id."""
    raw_group = data.get("group")
    if not isinstance(raw_group, dict):
        raise BackupError("The backup is damaged: {where} is not a row.", where="group")
    group = _row(Group, raw_group, "group", left_out=GROUP_COLUMNS_LEFT_OUT)
    if slug is not None:
        group["slug"] = slug
    rows: dict[str, list[dict[str, Any]]] = {}
    for key, model in TABLES:
        listed = data.get(key, ADDED_LATER.get(key))
        if not isinstance(listed, list):
            raise BackupError(
                "The backup is damaged: {where} is not a list of rows.", where=str(key)
            )
        read = []
        for raw in listed:
            if not isinstance(raw, dict):
                raise BackupError("The backup is damaged: {where} is not a row.", where=key)
            read.append(_row(model, raw, key))
        rows[key] = sorted(read, key=lambda r: r["id"])
    return Checked(group, rows)


def _check_sessions(rows: dict[str, list[dict[str, Any]]], players: dict[int, str]) -> None:
    """Each session with its own hands, changes and seats: replayed, seated and in order."""
    sessions = {s["id"]: s for s in rows["sessions"]}
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for h in rows["hands"]:
        hands[h["session_id"]].append(h)
    changes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for c in rows["changes"]:
        changes[c["session_id"]].append(c)
        _check_change(c, sessions)
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for sp in rows["session_players"]:
        seats[sp["session_id"]].append(sp)
    names = set(players.values())
    for s in rows["sessions"]:
        keeper = players.get(s["carried_in_keeper_id"]) if s["carried_in_keeper_id"] else None
        _replay(s, sorted(hands[s["id"]], key=lambda h: h["number"]), names, keeper)
        kept_by = players.get(s["pot_keeper_id"]) if s["pot_keeper_id"] else None
        if kept_by is not None and kept_by not in s["state"]["scores"]:
            raise BackupError(
                "Session {id} of the backup is refused: its pot keeper did not play in it.",
                id=s["id"],
            )
        _check_seats(s, seats[s["id"]], players)
        _check_history(s, changes[s["id"]], hands[s["id"]])
        _check_returned(changes[s["id"]], sessions)


# The columns that hold a row's id or a link to another row of the file: never stored, so any
# positive whole number (the restore gives new ids).
_IDS = frozenset(
    {
        "id",
        "group_id",
        "session_id",
        "player_id",
        "carried_into_id",
        "payer_id",
        "payee_id",
        "pot_keeper_id",
        "carried_in_keeper_id",
        "by_id",  # who made a change, and on whose phone (RULES.md §20)
        "phone_id",
        "evening_id",  # a club evening's check-ins and tables (RULES.md §19)
    }
)


def _row(
    model: Any, raw: Mapping[str, Any], where: str, left_out: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """A backed-up row as column values: every column the model has (but those left out of a
    backup on purpose), no other key, each value of the column's type."""
    columns = {c.key: c for c in model.__table__.columns if c.key not in left_out}
    for key in raw:
        if key not in columns:
            raise _unknown(f"{where}.{key}")
    out: dict[str, Any] = {}
    for name, column in columns.items():
        if name not in raw and f"{where}.{name}" not in ADDED_LATER:
            raise _missing(where, name)
        value = raw.get(name, ADDED_LATER.get(f"{where}.{name}"))
        if value is None:
            if column.primary_key or not (column.nullable or f"{where}.{name}" in ADDED_LATER):
                raise _missing(where, name)
            out[name] = None
            continue
        out[name] = _typed(column, value, f"{where}.{name}")
    return out


def _typed(column: Any, value: Any, where: str) -> Any:
    kind = column.type
    if column.key in _IDS:
        if not _is_int(value) or not 0 < value < LARGEST_ID:
            raise _bad(where, value)
    elif isinstance(kind, Boolean):
        if not isinstance(value, bool):
            raise _bad(where, value)
    elif isinstance(kind, Integer):
        if not _is_int(value) or not 0 <= value <= LARGEST:
            raise _bad(where, value)
    elif isinstance(kind, DateTime):
        return _stamp(value, where)
    elif isinstance(kind, Date):
        return _day(value, where)
    elif isinstance(kind, String):
        if not isinstance(value, str) or (kind.length is not None and len(value) > kind.length):
            raise _bad(where, value)
        _scan(value, where)
    elif isinstance(kind, JSON):
        ids = SESSION_IDS_IN_CHANGES if column.table.name == "changes" else frozenset()
        _scan(_season_nights_unnamed(value) if where == "seasons.closed" else value, where, ids)
    else:
        raise _bad(where, value)
    return value


def _season_nights_unnamed(closed: Any) -> Any:
    """A closed season's table with its nights' sessions left out: they are ids of the file,
    any size (checked against the file's sessions by ledger/backup/seasons.py)."""
    if not isinstance(closed, dict) or not isinstance(closed.get("nights"), list):
        return closed
    nights = [{**n, "session": 0} if isinstance(n, dict) else n for n in closed["nights"]]
    return {**closed, "nights": nights}


def _stamp(value: Any, where: str) -> datetime:
    """A time as the backup writes it (naive UTC, isoformat), and nothing else: so it comes
    back from the database written the same way."""
    if not isinstance(value, str) or not STAMP.fullmatch(value):
        raise _bad(where, value)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _bad(where, value) from None
    if moment.isoformat() != value:  # ".000000" is written without its microseconds
        raise _bad(where, value)
    return moment


def _day(value: Any, where: str) -> date:
    """A day as the backup writes it (YYYY-MM-DD), and nothing else."""
    try:
        day = date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        day = None
    if day is None or day.isoformat() != value:
        raise _bad(where, value)
    return day


def _scan(value: Any, where: str, ids: frozenset[str] = frozenset()) -> None:
    """Anything JSON holds, as the app stores it: no fraction, every integer in the
    database's range, text without NUL or unpaired surrogates and of a sane length, nothing
    nested deeper than the app nests. ``ids``: keys of this level that hold a session's id.

    A fast pass first, with no paths; only a value it refuses is walked again to say where."""
    if not _sound(value, 0, ids):
        _refuse_where(value, where, 0, ids)
        raise _bad(where, value)  # not reached: the walk raises where the pass refused


# NUL breaks PostgreSQL's text; an unpaired surrogate cannot be written as UTF-8.
_ODD_TEXT = re.compile("[\x00\ud800-\udfff]")


def _sound(value: Any, depth: int, ids: frozenset[str] = frozenset()) -> bool:
    if depth > DEEPEST:
        return False
    kind = type(value)
    if kind is str:
        return len(value) <= LONGEST_TEXT and not _ODD_TEXT.search(value)
    if kind is int:
        return -LARGEST <= value <= LARGEST
    if kind is bool or value is None:
        return True
    if kind is list:
        return all(_sound(item, depth + 1) for item in value)
    if kind is dict:
        for key, item in value.items():
            if not _sound(key, depth + 1):
                return False
            if key in ids:
                if item is not None and not (type(item) is int and 0 < item < LARGEST_ID):
                    return False
            elif not _sound(item, depth + 1):
                return False
        return True
    return False  # a float: the app keeps money and points as whole units


def _refuse_where(value: Any, where: str, depth: int, ids: frozenset[str] = frozenset()) -> None:
    """Raise the refusal of the first part of ``value`` that ``_sound`` refuses, named."""
    if depth > DEEPEST:
        raise BackupError("The backup is damaged: {where} is nested too deep.", where=where)
    if isinstance(value, list):
        for i, item in enumerate(value):
            _refuse_where(item, f"{where}[{i}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_where(key, where, depth + 1)
            if key in ids:
                if item is not None and not (type(item) is int and 0 < item < LARGEST_ID):
                    raise _bad(f"{where}.{key}", item)
            else:
                _refuse_where(item, f"{where}.{key}", depth + 1)
    elif not _sound(value, depth):
        raise _bad(where, value)


def _check_group(group: Mapping[str, Any]) -> None:
    slug = group["slug"]
    if not SLUG.fullmatch(slug) or len(slug) > SLUG_LENGTH:
        raise BackupError(
            "“{slug}” cannot be a group's slug: use small letters, digits and hyphens.",
            slug=_shown(slug).strip('"'),
        )
    if not _clean_name(group["name"], GROUP_NAME_LENGTH):
        raise _not_a_name("group.name", group["name"])
    if not passphrase_hash_is_sound(group["passphrase_hash"]):
        raise BackupError("The backup is refused: its passphrase hash is not one Pub Ledger makes.")


def passphrase_hash_is_sound(hashed: str) -> bool:
    """Whether ``hashed`` is a passphrase hash as werkzeug writes one, costing no more to
    check than werkzeug's defaults (scrypt 2^15·8·1, pbkdf2 at its default iterations), and
    one a sign-in can check (``scrypt:2:1:1`` reads well, but OpenSSL refuses its settings:
    every sign-in to the group answered 500)."""
    return _within_bounds(hashed) and hash_checks(hashed)


def _within_bounds(hashed: str) -> bool:
    scrypt = SCRYPT.fullmatch(hashed)
    if scrypt:
        n, r, p = (int(x) for x in scrypt.groups())
        power_of_two = n >= 2 and n & (n - 1) == 0
        return (
            power_of_two
            and n <= SCRYPT_MOST_N
            and r >= 1
            and p >= 1
            and n * r * p <= (SCRYPT_MOST_WORK)
        )
    pbkdf2 = PBKDF2.fullmatch(hashed)
    if pbkdf2:
        method, rounds, digest = pbkdf2.groups()
        return (
            1 <= int(rounds) <= max(DEFAULT_PBKDF2_ITERATIONS, 1_000_000)
            and len(digest) == PBKDF2_DIGEST[method]
        )
    return False


def _check_players(players: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Each player's name by id: names as the API allows them, none twice whatever the case."""
    seen: dict[str, str] = {}
    names = {}
    for p in players:
        name = p["name"]
        if not _clean_name(name, NAME_LENGTH):
            raise _not_a_name("players.name", name)
        if p["name_key"] != name.casefold():
            raise _bad("players.name_key", p["name_key"])
        if name.casefold() in seen:
            raise BackupError(
                "The backup is refused: two players are called {name} and {other}, and names "
                "are told apart whatever their case.",
                name=seen[name.casefold()],
                other=name,
            )
        seen[name.casefold()] = name
        names[p["id"]] = name
    return names
