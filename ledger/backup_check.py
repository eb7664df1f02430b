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
  1, 2, 3…, and each hand's revision and request id as its history says.

The file's ids only tell the rows apart and link them: they may be any positive whole number
(the restore gives every row a new id), so they are the one place a number may be large.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Integer, String
from werkzeug.security import DEFAULT_PBKDF2_ITERATIONS

from ledger.models import (
    GROUP_NAME_LENGTH,
    NAME_LENGTH,
    SLUG_LENGTH,
    BankAccount,
    Change,
    GameSession,
    Group,
    Hand,
    Payment,
    Player,
    SessionPlayer,
    TabPayment,
)
from ledger.rules import payout
from ledger.rules.base import Game, State
from ledger.rules.codecs import entry_from_dict, outcome_to_dict
from ledger.rules.errors import RuleError
from ledger.rules.iban import check_account_name, check_iban
from ledger.rules.keeper import brought_by
from ledger.rules.registry import get_game
from ledger.services.auth import check_group_name
from ledger.services.errors import ServiceError
from ledger.services.groups import check_player_name
from ledger.services.loading import apply_seating

FORMAT = "pub-ledger-backup"
VERSION = 1
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")

# The group's tables in the order they are restored, with the key each has in the backup.
TABLES: tuple[tuple[str, type[Any]], ...] = (
    ("players", Player),
    ("sessions", GameSession),
    ("session_players", SessionPlayer),
    ("hands", Hand),
    ("changes", Change),
    ("payments", Payment),
    ("tab_payments", TabPayment),
    ("bank_accounts", BankAccount),
)
# Tables and columns a backup made before they existed leaves out, read as they were then.
ADDED_LATER: Mapping[str, Any] = MappingProxyType(
    {"tab_payments": [], "bank_accounts": [], "sessions.on_tab": False}
)
TOP_KEYS = frozenset({"format", "version", "made_at", "group", *(key for key, _ in TABLES)})
# Counts of wrong passphrases and the epoch of this server's invite links are this server's
# business: never in a backup.
GROUP_COLUMNS_LEFT_OUT = frozenset({"failed_logins", "failed_since", "invite_epoch"})
# Keys of a change record's ``before`` and ``after`` that hold a session's id (the restore
# renames them with the sessions). Only the top level: deeper are scores keyed by names.
SESSION_IDS_IN_CHANGES = frozenset({"session", "session_id", "carried_from", "carried_into"})

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


class BackupError(ServiceError):
    """A file that is not a backup this app can restore: 422 with a sentence saying why."""

    status = 422


@dataclass
class Checked:
    """A backup that passed every check: the group's values and each table's rows (ids as in
    the file, rows in the order of their ids, times as datetimes), ready to be inserted."""

    group: dict[str, Any]
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


# --- Sentences --------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    """A value for a sentence: as JSON writes it, cut short when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _cut(where: str) -> str:
    """A place in the file for a sentence: a key may be long (up to LONGEST_TEXT)."""
    return where if len(where) <= 80 else where[:77] + "…"


def _bad(where: str, value: Any) -> BackupError:
    return BackupError(
        "The backup is damaged: {where} cannot be {value}.", where=_cut(where), value=_shown(value)
    )


def _missing(where: str, column: str) -> BackupError:
    return BackupError(
        "The backup is damaged: a row of {where} has no {column}.", where=where, column=column
    )


def _unknown(where: str) -> BackupError:
    return BackupError(
        "The backup is damaged: Pub Ledger keeps nothing called {where}.", where=_cut(where)
    )


def _unlike_replay(what: str, session: int, hand: int | None = None) -> BackupError:
    if hand is None:
        return BackupError(
            "Session {id} of the backup cannot be read back: its {what} is not what the rules "
            "make of it.",
            id=session,
            what=what,
        )
    return BackupError(
        "The backup does not add up: in session {id}, the {what} of hand {number} is not what "
        "the rules make of the cards entered.",
        id=session,
        what=what,
        number=hand,
    )


def _refused(session: int, e: RuleError) -> BackupError:
    return BackupError(
        "Session {id} of the backup is refused: {reason}", id=session, reason=e.phrase
    )


# --- The whole file ---------------------------------------------------------------------------


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
    _check_pots(rows["sessions"])
    _check_payments(rows)
    _check_tab(rows)
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


# --- Rows: every column there, of its type ----------------------------------------------------

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
            if column.primary_key or not column.nullable:
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
    elif isinstance(kind, String):
        if not isinstance(value, str) or (kind.length is not None and len(value) > kind.length):
            raise _bad(where, value)
        _scan(value, where)
    elif isinstance(kind, JSON):
        ids = SESSION_IDS_IN_CHANGES if column.table.name == "changes" else frozenset()
        _scan(value, where, ids)
    else:
        raise _bad(where, value)
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


# --- The group and its players ----------------------------------------------------------------


def _clean_name(value: Any, longest: int = NAME_LENGTH) -> bool:
    """A name as the API keeps one: text, spaces tidied, 1 to ``longest`` characters, no
    control character nor unpaired surrogate (API.md "Bounds"); and as the API's own check
    (a player's or the group's) leaves it, so a rule added there holds here too."""
    if not (
        isinstance(value, str)
        and 0 < len(value) <= longest
        and " ".join(value.split()) == value
        and not any(unicodedata.category(c) in ("Cc", "Cs") for c in value)
    ):
        return False
    check = check_player_name if longest == NAME_LENGTH else check_group_name
    try:
        return bool(check(value) == value)
    except RuleError:
        return False


def _not_a_name(where: str, value: Any) -> BackupError:
    return BackupError(
        "The backup is refused: {value} in {where} is not a name Pub Ledger allows.",
        where=where,
        value=_shown(value),
    )


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
    check than werkzeug's defaults (scrypt 2^15·8·1, pbkdf2 at its default iterations)."""
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
        for column, target in references(model):
            for row in rows[key]:
                if row.get(column) is not None and row[column] not in known[target]:
                    raise BackupError(
                        "The backup is damaged: a row of {rows} refers to {target} {id}, "
                        "which it does not hold.",
                        rows=key,
                        target=target,
                        id=str(row[column]),
                    )


def references(model: Any) -> list[tuple[str, str]]:
    """Each column of ``model`` that refers to another row, with the table it refers to."""
    return [
        (column.key, fk.column.table.name)
        for column in model.__table__.columns
        for fk in column.foreign_keys
    ]


def _check_uniques(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """What the database's unique keys would refuse with an error, refused with a sentence."""
    requests = Counter(s["request_id"] for s in rows["sessions"] if s["request_id"] is not None)
    for request_id, count in requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two sessions have the request_id {request_id}.",
                request_id=_shown(request_id),
            )
    hand_requests = Counter(
        (h["session_id"], h["request_id"]) for h in rows["hands"] if h["request_id"] is not None
    )
    for (session, request_id), count in hand_requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two hands of session {id} have the request_id "
                "{request_id}.",
                id=session,
                request_id=_shown(request_id),
            )
    seated = Counter((sp["session_id"], sp["player_id"]) for sp in rows["session_players"])
    for (session, player), count in seated.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: player {player} is listed twice in session {id}.",
                player=player,
                id=session,
            )
    taken = Counter(s["carried_into_id"] for s in rows["sessions"] if s["carried_into_id"])
    for into, count in taken.items():
        if count > 1:
            raise BackupError(
                "The backup does not add up: session {id} takes up the pots of {count} "
                "sessions; a pot is taken up by one session, and a session takes up one pot.",
                id=into,
                count=count,
            )


def _check_hand_numbers(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each session holds exactly its hands 1 to ``hands_played``: the number the next hand
    gets is ``hands_played + 1``, so a hand row beyond the count (a backup read while a hand
    was saved, by a version before backups were one snapshot) would make the restored
    session refuse every next hand."""
    numbers: dict[int, list[int]] = {s["id"]: [] for s in rows["sessions"]}
    for hand in rows["hands"]:
        numbers[hand["session_id"]].append(hand["number"])
    for session in rows["sessions"]:
        played = session["hands_played"]
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


def _check_payments(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each payment as recording one checks it: in a session played for money, from one of
    its players to another, of a whole number of units above 0."""
    sessions = {s["id"]: s for s in rows["sessions"]}
    seated: dict[int, set[int]] = defaultdict(set)
    for sp in rows["session_players"]:
        seated[sp["session_id"]].add(sp["player_id"])
    for p in rows["payments"]:
        players = seated[p["session_id"]]
        money = _money(sessions[p["session_id"]]["options"])[1] is not None
        if not money or p["payer_id"] not in players or p["payee_id"] not in players:
            raise BackupError(
                "The backup is refused: payment {id} is not between two players of a session "
                "played for money.",
                id=str(p["id"]),
            )
        if p["payer_id"] == p["payee_id"] or p["units"] < 1:
            raise BackupError(
                "The backup is refused: payment {id} pays nobody anything.", id=str(p["id"])
            )


def _check_tab(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    """The tab (RULES.md §6a) and bank accounts (§6b) as the app keeps them: a night on the
    tab is a finished night played for money, a payment against it is between two players
    and of a whole number of cents above 0, and an account's IBAN and name pass the checks
    keeping one makes, as kept (no spaces, upper case), one per player."""
    paid = {p["session_id"] for p in rows["payments"]}
    on_tab = _on_tab_by_history(rows["changes"])
    for s in rows["sessions"]:
        if s["on_tab"] and (s["status"] != "finished" or _money(s["options"])[1] is None):
            raise BackupError(
                "The backup is refused: session {id} is on the tab but is not a finished "
                "night played for money.",
                id=s["id"],
            )
        if s["on_tab"] != (s["id"] in on_tab) or (
            s["on_tab"] and s["id"] in paid
        ):
            raise BackupError(
                "The backup does not add up: whether session {id} is on the tab is not as its "
                "history and its payments say.",
                id=s["id"],
            )
    for p in rows["tab_payments"]:
        code = p["currency"]
        if p["payer_id"] == p["payee_id"] or p["cents"] < 1 or code != code.strip().upper():
            raise BackupError(
                "The backup is refused: payment {id} on the tab pays nobody anything.",
                id=str(p["id"]),
            )
    owners = Counter(a["player_id"] for a in rows["bank_accounts"])
    for a in rows["bank_accounts"]:
        if owners[a["player_id"]] > 1:
            raise BackupError("The backup is refused: a player has two bank accounts.")
        try:
            sound = check_iban(a["iban"]) == a["iban"]
            sound = sound and check_account_name(a["name"]) == a["name"]
        except RuleError:
            sound = False
        if not sound:
            raise BackupError(
                "The backup is refused: bank account {id} is not a sound IBAN and name.",
                id=str(a["id"]),
            )


def _on_tab_by_history(changes: Sequence[Mapping[str, Any]]) -> set[int]:
    """The sessions the history leaves on the tab (RULES.md §6a): finished onto it or put on
    it later, and not taken off since. A night goes on the tab only that way, and no payment
    is made for a night while it is on it."""
    on: set[int] = set()
    for c in sorted(changes, key=lambda c: (c["session_id"], c["version"])):
        sid = c["session_id"]
        if c["kind"] == "session.finished" and c["after"].get("settle") == "tab":
            on.add(sid)
        elif c["kind"] == "tab.added":
            on.add(sid)
        elif c["kind"] in ("session.finished", "tab.removed", "session.reopened"):
            on.discard(sid)
    return on


# --- Sessions: started as the app starts one, every hand played again ------------------------


def _same(made: Any, stored: Any) -> bool:
    """Whether ``stored`` (from the file) is ``made`` (by the engine) as JSON values of the
    same types: 1 is not true, and "5" is not 5. The engine's tuples are the file's lists."""
    if isinstance(made, (list, tuple)):
        return (
            type(stored) is list
            and len(made) == len(stored)
            and all(_same(x, y) for x, y in zip(made, stored, strict=True))
        )
    if type(made) is not type(stored):
        return False
    if isinstance(made, dict):
        return made.keys() == stored.keys() and all(_same(made[k], stored[k]) for k in made)
    return bool(made == stored)


def _as_json(value: Any) -> Any:
    """An engine value as the database gives it back (tuples as lists)."""
    return json.loads(json.dumps(value))


def _replay(
    s: dict[str, Any],
    hands: Sequence[Mapping[str, Any]],
    players: set[str],
    keeper: str | None = None,
) -> Game:
    """Start the session as create_session does and play every hand again; refuse the session
    unless each stored result is the replay's. Answers the session's game. ``keeper`` is the
    player who brought the pot the session opened with (RULES.md §2), if anyone did."""
    sid = s["id"]
    try:
        game = get_game(s["game"])
        options = s["options"]
        if not isinstance(options, dict):
            raise _bad("sessions.options", options)
        chosen = game.check_options(options)
        # A points game's money options came later (RULES.md §7): a session started before
        # them keeps its options without them, which are the defaults (not for money).
        made = {
            k: v for k, v in _as_json(chosen).items() if k in options or k not in payout.OPTIONS
        }
        if not _same(made, options):
            raise BackupError(
                "Session {id} of the backup is refused: its options are not kept as starting a "
                "session keeps them.",
                id=sid,
            )
        start = _start_state(s, game, options, players, keeper)
        state = start
        for hand in hands:
            if state.finished:
                raise _unlike_replay("status", sid)
            state = apply_seating(game, state, _seating(hand["seating"], "hands.seating"), options)
            entry = entry_from_dict(_entry(hand["entry"], "hands.entry"))
            outcome = game.play(state, entry, options)
            if not _same(outcome_to_dict(outcome), hand["outcome"]):
                raise _unlike_replay("outcome", sid, hand["number"])
            if not _same(outcome.state.to_dict(), hand["state_after"]):
                raise _unlike_replay("state_after", sid, hand["number"])
            state = outcome.state
        state = apply_seating(game, state, _seating(s["seating"], "sessions.seating"), options)
        _check_end(s, game, state, options)
    except RuleError as e:
        raise _refused(sid, e) from None
    return game


def _start_state(
    s: Mapping[str, Any],
    game: Game,
    options: Mapping[str, Any],
    players: set[str],
    keeper: str | None = None,
) -> State:
    """The session's start, made again by the engine from its own seats, dealer and carried
    pot (``new_state`` checks the seats' count and that the dealer is seated), with the pot's
    keeper owing it (``brought_by`` checks the keeper is seated and there is a pot)."""
    start = s["start_state"]
    where = "sessions.start_state"
    if not isinstance(start, dict):
        raise _bad(where, start)
    seats = start.get("seats")
    if not isinstance(seats, list) or not all(isinstance(p, str) and p in players for p in seats):
        raise _bad(f"{where}.seats", seats)
    dealer = start.get("dealer")
    if not isinstance(dealer, str):
        raise _bad(f"{where}.dealer", dealer)
    carried = start.get("carried_in", 0)
    antes = start.get("pot_antes", {})
    if not _is_int(carried) or carried < 0:
        raise _bad(f"{where}.carried_in", carried)
    if not isinstance(antes, dict):
        raise _bad(f"{where}.pot_antes", antes)
    made = game.new_state(seats, dealer, options, carried, carried_antes=antes)
    if keeper is not None:
        made = brought_by(made, keeper)
    if not _same(_as_json(made.to_dict()), start):
        raise _unlike_replay("start_state", s["id"])
    return made


def _check_end(s: Mapping[str, Any], game: Game, state: State, options: Mapping[str, Any]) -> None:
    """The session's state, count, status, end and pot carried on, as its hands and its end
    at the table (finish_session) make them."""
    sid = s["id"]
    carried = 0
    if s["finish"] is not None:
        if game.money and game.finish is not None:
            choice = s["leftover_pot"]
            if choice not in ("carry", "refund"):
                raise _bad("sessions.leftover_pot", choice)
            ended = game.finish(state, options, choice)
            state = ended.state
            finish: dict[str, Any] = {
                "leftover_pot": choice,
                "movements": [
                    {"from": m.source, "to": m.target, "units": m.units} for m in ended.movements
                ],
            }
            carried = state.pot
        else:
            if s["leftover_pot"] is not None:
                raise _unlike_replay("leftover_pot", sid)
            state = replace(state, finished=True, winners=game.standing_winners(state, options))
            finish = {"leftover_pot": None, "movements": []}
        if not _same(_as_json(finish), s["finish"]):
            raise _unlike_replay("finish", sid)
        status = "finished"
    else:
        status = "finished" if state.finished else "open"
        # An open night may hold the table's plan for its pot (services/plans.py).
        planned = status == "open" and s["leftover_pot"] in game.pot_choices() and game.money
        if s["leftover_pot"] is not None and not planned:
            raise _unlike_replay("leftover_pot", sid)
    if not _same(_as_json(state.to_dict()), s["state"]):
        raise _unlike_replay("state", sid)
    if s["hands_played"] != state.hands_played:
        raise _unlike_replay("hands_played", sid)
    if s["status"] != status:
        raise _unlike_replay("status", sid)
    if (s["finished_at"] is None) != (status == "open"):
        raise _unlike_replay("finished_at", sid)
    if s["carried_pot"] != carried:
        raise _unlike_replay("carried_pot", sid)


def _seating(ops: Any, where: str) -> list[dict[str, Any]]:
    """Joins and leaves between hands: ``{"join": name, "after": name}`` or ``{"leave": name}``."""
    if not isinstance(ops, list):
        raise _bad(where, ops)
    for op in ops:
        _shape(op, SEATING_OP, where)
    return ops


def _entry(entry: Any, where: str) -> dict[str, Any]:
    _shape(entry, ENTRY, where)
    return dict(entry)


def _check_seats(
    s: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], players: Mapping[int, str]
) -> None:
    """The session's players rows mirror its state: everyone who played in it, each seated
    where the state seats them, and active while seated."""
    state = s["state"]
    seats = state["seats"]
    names = [players[r["player_id"]] for r in rows]
    if sorted(names) != sorted(state["scores"]):
        raise _unlike_replay("players", s["id"])
    for r, name in zip(rows, names, strict=True):
        seated = name in seats
        if r["active"] != seated or r["seat"] != (seats.index(name) + 1 if seated else None):
            raise _unlike_replay("players", s["id"])


def _money(options: Mapping[str, Any]) -> tuple[Any, Decimal | None]:
    unit_value = options.get("unit_value")
    try:
        return options.get("currency"), Decimal(unit_value) if unit_value is not None else None
    except (InvalidOperation, TypeError):
        return options.get("currency"), None


def _check_pots(sessions: Sequence[Mapping[str, Any]]) -> None:
    """A pot carried on is taken up by one later session of the same game and money, which
    opened with exactly that pot and its antes; a session opens with no other pot."""
    by_id = {s["id"]: s for s in sessions}
    fed: dict[int, Mapping[str, Any]] = {}
    for source in sessions:
        into = source["carried_into_id"]
        if into is None:
            continue
        sid = source["id"]
        if into == sid:
            raise BackupError(
                "The backup does not add up: session {id} carries its pot into itself.", id=sid
            )
        target = by_id[into]
        if into < sid:
            raise BackupError(
                "The backup does not add up: session {id} carries its pot into session {into}, "
                "which started before it.",
                id=sid,
                into=into,
            )
        if target["game"] != source["game"] or _money(target["options"]) != _money(
            source["options"]
        ):
            raise BackupError(
                "The backup does not add up: session {id} carries its pot into session {into}, "
                "a session of another game or played for other money.",
                id=sid,
                into=into,
            )
        start = target["start_state"]
        _check_brought(source, target)
        if (
            source["carried_pot"] <= 0
            or start["carried_in"] != source["carried_pot"]
            or not _same(start["pot_antes"], source["state"]["pot_antes"])
        ):
            raise BackupError(
                "The backup does not add up: session {into} did not open with the pot of "
                "{pot} units that session {id} carried into it.",
                id=sid,
                into=into,
                pot=source["carried_pot"],
            )
        fed[into] = source
    for s in sessions:
        _check_keeper(s)
        if s["carried_in_keeper_id"] is not None and s["id"] not in fed:
            raise BackupError(
                "The backup does not add up: session {id} names who brought its pot, but no "
                "session of the backup carried a pot into it.",
                id=s["id"],
            )
        if s["start_state"]["carried_in"] and s["id"] not in fed:
            raise BackupError(
                "The backup does not add up: session {id} opened with a pot that no session "
                "of the backup carried into it.",
                id=s["id"],
            )


def _check_brought(source: Mapping[str, Any], target: Mapping[str, Any]) -> None:
    """The session a kept pot opens was brought it by that pot's keeper (RULES.md §2)."""
    if target["carried_in_keeper_id"] != source["pot_keeper_id"]:
        raise BackupError(
            "The backup does not add up: session {into} opened with the pot of session "
            "{id}, but not with that pot's keeper.",
            id=source["id"],
            into=target["id"],
        )


def _check_keeper(s: Mapping[str, Any]) -> None:
    """A pot keeper keeps a pot carried on: a session finished with ``carry`` and a pot, or an
    open one whose plan is to carry its pot (services/plans.py)."""
    kept = s["carried_pot"] > 0 or s["status"] == "open"
    if s["pot_keeper_id"] is not None and (s["leftover_pot"] != "carry" or not kept):
        raise BackupError(
            "The backup does not add up: session {id} names a keeper for a pot it did not "
            "carry on.",
            id=s["id"],
        )


# --- The history ------------------------------------------------------------------------------

# Shapes, as the services write them: a dict names its keys ("?" marks one that may be left
# out, "*" any name), a list its items' shape, a tuple the shapes a value may have; "name",
# "text", "int", "bool", "true" and "id" (a session of the file) are values, None is null.
Shape = Any
NAMED = "name"
MOVE = {"from": (NAMED, None), "to": (NAMED, None), "units": "int"}
# The table's plan for a night's pot (services/plans.py).
PLAN = {"leftover_pot": ("text", None), "pot_keeper": (NAMED, None)}
SEATING = {"seats": [NAMED], "dealer": NAMED}
# A buy-in (Kaluki, services/buy_ins.py): the replay makes it again and compares it.
BUY_IN = {"player": NAMED, "after_hand": "int", "units": "int", "total": "int"}
SEATING_OP = ({"join": NAMED, "after": NAMED}, {"leave": NAMED}, {"buy_in": BUY_IN})
RESULT = {
    "player": "text",
    "cards?": "text",
    "spots?": "int",
    "melds?": ["text"],
    "sitting_out?": "true",
    # The games of RULES.md §8–§12, where given.
    "melded?": "text",
    "low_aces?": "int",
    "melded_points?": "int",
    "points?": "int",
}
ENTRY = {"results": [RESULT], "out": ("text", None), "rummy": "bool", "ending?": "text"}
OUTCOME = {
    "number": "int",
    "dealer": NAMED,
    "leader": NAMED,
    "results": [
        {
            "player": NAMED,
            "cards": ["text"],
            "spots": ("int", None),
            "points": ("int", None),
            "sitting_out": "bool",
            "melds": [["text"]],
            "melded?": "int",
            "melded_cards?": ["text"],
        }
    ],
    "out": (NAMED, None),
    "winners": [NAMED],
    "movements": [MOVE],
    "pot_before": ("int", None),
    "pot_after": ("int", None),
    "ending?": "text",
}
SCORES = {"*": "int"}
STATE = {
    "seats": [NAMED],
    "dealer": NAMED,
    "scores": SCORES,
    "hands_played": "int",
    "pot": "int",
    "carried_in": "int",
    "pot_antes": SCORES,
    "finished": "bool",
    "winners": [NAMED],
    "totals?": SCORES,
    "wins?": SCORES,
    "eliminated?": SCORES,
    "buy_ins?": {"*": ["int"]},
}
OPTIONS = {"*": ("text", "int", "bool", None)}  # null: an option left off (a tally's target)
# A session deleted since (an id not of the file, null after a restore).
GONE = ("gone", None)
# Each kind of change: (hand_number, before, after). hand_number: "hand" a hand's number,
# "count" the hands played then, None none.
CHANGES: dict[str, tuple[str | None, Shape, Shape]] = {
    "session.created": (
        None,
        None,
        {
            "game": "text",
            "players": [NAMED],
            "dealer": NAMED,
            "options": OPTIONS,
            "carried_in": "int",
            "carried_from": ("id", None),
            "carried_in_keeper?": NAMED,  # who brought the pot (RULES.md §2)
        },
    ),
    # A pot carried into a session deleted before its first hand names a session no longer
    # there ("gone", null once restored): _check_history wants its pot.returned after it.
    "pot.carried": (None, {"carried_into": ("id", None)}, {"session": ("id", GONE), "pot": "int"}),
    "pot.returned": (None, {"carried_into": GONE}, {"carried_into": None, "pot": "int"}),
    "hand.created": ("hand", None, {"entry": ENTRY, "request_id": ("text", None)}),
    "hand.corrected": (
        "hand",
        {"entry": ENTRY, "outcome": OUTCOME, "scores_after": SCORES, "revision": "int"},
        {"entry": ENTRY, "recomputed": ["int"], "request_id?": "text"},
    ),
    "hand.deleted": (
        "hand",
        {
            "entry": ENTRY,
            "outcome": OUTCOME,
            "scores_after": SCORES,
            "request_id": ("text", None),
            "revision": "int",
        },
        None,
    ),
    "player.joined": ("count", SEATING, {"player": NAMED, "after": NAMED}),
    "player.left": ("count", SEATING, {"player": NAMED}),
    "player.bought_in": ("count", None, {**BUY_IN, "request_id?": "text"}),
    "player.renamed": (None, {"player": NAMED}, {"player": NAMED}),
    "session.finished": (
        None,
        {"state": STATE},
        {
            "leftover_pot": ("text", None),
            "movements": [MOVE],
            "pot_keeper?": NAMED,
            "settle?": "text",  # "tab": finished onto the tab (RULES.md §6a)
        },
    ),
    "pot.planned": (None, PLAN, PLAN),
    "session.reopened": (
        None,
        {"finish": {"leftover_pot": ("text", None), "movements": [MOVE]}},
        PLAN,
    ),
    # A points game for money that ended by itself, put on the tab; a night taken off it.
    "tab.added": (None, None, {"settle": "text"}),
    "tab.removed": (None, {"on_tab": "bool"}, {"on_tab": "bool"}),
    "payment.recorded": (None, None, {"from": NAMED, "to": NAMED, "units": "int"}),
    "payment.deleted": (None, {"from": NAMED, "to": NAMED, "units": "int", "at": "text"}, None),
}


def _shape(value: Any, shape: Shape, where: str, sessions: Mapping[int, Any] | None = None) -> None:
    """Refuse ``value`` unless it has ``shape`` (see the shapes above)."""
    if isinstance(shape, tuple):
        for option in shape:
            try:
                _shape(value, option, where, sessions)
                return
            except BackupError:
                continue
        raise _bad(where, value)
    if shape is None:
        ok = value is None
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise _bad(where, value)
        for i, item in enumerate(value):
            _shape(item, shape[0], f"{where}[{i}]", sessions)
        return
    elif isinstance(shape, dict):
        if not isinstance(value, dict):
            raise _bad(where, value)
        if "*" in shape:
            for key, item in value.items():
                if not _clean_name(key, NAME_LENGTH):
                    raise _not_a_name(where, key)
                _shape(item, shape["*"], f"{where}.{key}", sessions)
            return
        keys = {k.rstrip("?"): k for k in shape}
        for key in value:
            if key not in keys:
                raise _unknown(f"{where}.{key}")
        for key, spelled in keys.items():
            if key in value:
                _shape(value[key], shape[spelled], f"{where}.{key}", sessions)
            elif not spelled.endswith("?"):
                raise _missing(where, key)
        return
    elif shape == NAMED:
        if not _clean_name(value, NAME_LENGTH):
            raise _not_a_name(where, value)
        return
    elif shape == "text":
        ok = isinstance(value, str)
    elif shape == "int":
        ok = _is_int(value)
    elif shape == "bool":
        ok = isinstance(value, bool)
    elif shape == "true":
        ok = value is True
    elif shape == "id":
        ok = _is_int(value) and (sessions is None or value in sessions)
    elif shape == "gone":
        ok = _is_int(value) and (sessions is None or value not in sessions)
    else:  # pragma: no cover - a shape above misspelled
        raise AssertionError(shape)
    if not ok:
        raise _bad(where, value)


def _check_change(c: Mapping[str, Any], sessions: Mapping[int, Any]) -> None:
    kind = c["kind"]
    if kind not in CHANGES:
        raise _bad("changes.kind", kind)
    number, before, after = CHANGES[kind]
    hand_number = c["hand_number"]
    if (number is None) != (hand_number is None) or (number == "hand" and hand_number == 0):
        raise _bad("changes.hand_number", hand_number)
    if c["version"] < 1:
        raise _bad("changes.version", c["version"])
    _shape(c["before"], before, f"changes.before ({kind})", sessions)
    _shape(c["after"], after, f"changes.after ({kind})", sessions)


def _check_returned(changes: Sequence[Mapping[str, Any]], sessions: Mapping[int, Any]) -> None:
    """A pot carried into a session that is gone came back: a pot.returned naming that session
    follows its pot.carried, and a pot comes back only from where it went."""
    gone: Any = ()  # the deleted session the pot went into, while it is away
    for c in changes:
        if c["kind"] == "pot.carried" and c["after"]["session"] not in sessions:
            gone = c["after"]["session"]
        elif c["kind"] == "pot.carried":
            gone = ()
        elif c["kind"] == "pot.returned":
            if c["before"]["carried_into"] != gone:
                raise _bad(
                    "changes.before (pot.returned).carried_into", c["before"]["carried_into"]
                )
            gone = ()
    if gone != ():
        raise _bad("changes.after (pot.carried).session", gone)


def _check_history(
    s: Mapping[str, Any], changes: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]]
) -> None:
    """The session's changes count its versions 1, 2, 3… up to its version (each change made
    one), and each hand's revision and request id are as its history says."""
    sid = s["id"]
    versions = [c["version"] for c in changes]
    if versions != list(range(1, s["version"] + 1)) or not changes:
        raise BackupError(
            "The backup does not add up: the history of session {id} does not count its "
            "versions 1 to {version}.",
            id=sid,
            version=s["version"],
        )
    if changes[0]["kind"] != "session.created":
        raise _bad("changes.kind", changes[0]["kind"])
    # A session's game and options are chosen when it starts and never change after.
    started = changes[0]["after"]
    if started["game"] != s["game"] or not _same(started["options"], s["options"]):
        raise BackupError(
            "The backup does not add up: session {id} holds another game or other options "
            "than its history says it was started with.",
            id=sid,
        )
    revision: dict[int, int] = {}
    request: dict[int, Any] = {}
    for c in changes:
        n = c["hand_number"]
        if c["kind"] == "hand.created":
            revision[n], request[n] = 1, c["after"]["request_id"]
        elif c["kind"] == "hand.corrected" and n in revision:
            revision[n] += 1
        elif c["kind"] == "hand.deleted":
            revision.pop(n, None)
    for h in hands:
        n = h["number"]
        if revision.get(n) != h["revision"] or request.get(n) != h["request_id"]:
            raise BackupError(
                "The backup does not add up: hand {number} of session {id} is not as its "
                "history says (its revision or request_id).",
                number=n,
                id=sid,
            )
