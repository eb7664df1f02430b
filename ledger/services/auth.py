"""Who may do what: the one place that decides whether a request may act for a group.

The rules (tests/api/test_access_rules.py reads them back one by one):

- **Passphrase** (API Basic auth, the web's open form, a passphrase change): stored only as
  a slow hash (werkzeug's scrypt). After one successful check its HMAC-SHA256 digest, keyed
  with the app's secret over the slug, the passphrase and the group's auth epoch, is
  remembered in the database for ``CREDENTIAL_LIFETIME``, so every worker accepts the same
  credentials with one indexed lookup. A passphrase change bumps the epoch and forgets them.
- **Lockout**: wrong passphrases are counted per group in the database. After
  ``MAX_FAILURES`` within ``FAILURE_WINDOW`` (from the first of them) every passphrase for the
  group is answered 429 with Retry-After until the window has passed, *before* anything is
  looked up or checked: a right passphrase, remembered or not, looks exactly like a wrong one.
- **Address throttle**: wrong guesses are counted per client address too (any group, made-up
  slugs, bad tokens: ``ADDRESS_MAX_FAILURES`` in ``ADDRESS_WINDOW``) and per address and
  group (``ADDRESS_GROUP_MAX_FAILURES`` in ``FAILURE_WINDOW``, fewer than a lockout takes), so
  one address is refused before it alone can lock a table out. Refused like a lockout: 429.
- **Slow checks** run at most ``hash_slots`` at once per process; as many requests again
  may wait for a slot, up to ``LEDGER_HASH_WAIT`` seconds; any other, or one that finds no
  slot in time, is answered 503 with Retry-After, not queued.
- **Grants** (``AccessGrant``): a browser's sign-in (the cookie holds a random token) and an
  API access token (``Authorization: Bearer``) are random tokens of which only the SHA-256 is
  stored. They keep working during a lockout and an address throttle (holding one is proof
  enough), until revoked (sign-out, "sign out every phone", DELETE tokens/current) or the
  passphrase changes. A wrong bearer token is 401 and counts against its address.
- **Invite links** carry the group, its auth and invite epochs and the time they were made,
  signed with the app's secret; they open the group for ``LEDGER_INVITE_LIFETIME_DAYS`` unless
  the passphrase changed or every phone was signed out since.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import (
    Row,
    String,
    bindparam,
    case,
    cast,
    delete,
    func,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.orm import aliased
from werkzeug.security import check_password_hash, generate_password_hash

from ledger.extensions import db, quick_read
from ledger.models import (
    GROUP_NAME_LENGTH,
    AccessGrant,
    AddressFailure,
    Credential,
    Group,
    utcnow,
)
from ledger.rules.errors import RuleError
from ledger.services import throttle
from ledger.services.errors import Busy, Conflict, ServiceError, TooManyAttempts, Unauthorized
from ledger.services.groups import check_name_characters
from ledger.services.results import GroupRef
from ledger.services.unit_of_work import write

MIN_PASSPHRASE = 8
MAX_PASSPHRASE = 200
CREDENTIAL_LIFETIME = timedelta(hours=12)
# A whole group is locked only after this many wrong passphrases in the window: more than one
# address may make (ADDRESS_GROUP_MAX_FAILURES each), so one guesser never locks a table out.
MAX_FAILURES = 10
FAILURE_WINDOW = timedelta(minutes=5)
# One client address (an IPv6 one by its /64, what one household or host is given): as many
# mistakes per group as a single client always had (5 in the group's window), and across all
# groups and made-up slugs 60 in 15 minutes: room for a pub's tables behind one NAT mistyping
# now and then, while one address tries at most ~5,800 passphrases a day over every group.
ADDRESS_GROUP_MAX_FAILURES = 5
ADDRESS_MAX_FAILURES = 60
ADDRESS_WINDOW = timedelta(minutes=15)
# Slow checks at once per process (default: one per core) and how long a request may wait
# for a slot before it is answered 503 (seconds).
HASH_SLOTS_SETTING = "LEDGER_HASH_SLOTS"
HASH_WAIT_SETTING = "LEDGER_HASH_WAIT"
HASH_WAIT = 0.25
# werkzeug's default (scrypt) unless the app says otherwise: tests choose a quicker one.
HASH_METHOD_SETTING = "LEDGER_PASSPHRASE_HASH"


def _decoy_hash() -> str:
    """A hash of a random passphrase, made with the app's method, checked against unknown slugs."""
    cache = current_app.extensions.setdefault("ledger_decoy_hash", {})
    method = current_app.config.get(HASH_METHOD_SETTING) or "scrypt"
    if method not in cache:
        cache[method] = _make_hash(secrets.token_urlsafe(16))
    return str(cache[method])


def _make_hash(passphrase: str) -> str:
    method = current_app.config.get(HASH_METHOD_SETTING)
    if method:
        return generate_password_hash(passphrase, method=method)
    return generate_password_hash(passphrase)


def hash_slots() -> threading.BoundedSemaphore:
    """The process's slots for slow hash work (one per core unless LEDGER_HASH_SLOTS says)."""
    slots = current_app.extensions.get("ledger_hash_slots")
    if slots is None:
        size = int(current_app.config.get(HASH_SLOTS_SETTING) or os.cpu_count() or 2)
        slots = current_app.extensions.setdefault(
            "ledger_hash_slots", threading.BoundedSemaphore(max(1, size))
        )
    return slots


class _Waiting:
    """How many requests wait for a slot now; at most as many as there are slots."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0


def _waiting() -> _Waiting:
    found = current_app.extensions.get("ledger_hash_waiting")
    if found is None:
        found = current_app.extensions.setdefault("ledger_hash_waiting", _Waiting())
    return found


def _wait_for_slot(slots: threading.BoundedSemaphore, wait: float) -> bool:
    """Wait up to ``wait`` seconds for a slot, unless as many requests as there are slots
    wait already: then give up at once. A thread that waits is one of the server's few
    (`ledger serve --threads`), and a flood of guesses must not hold them all, or the phones
    already signed in queue behind it for a page that needs no slow check at all."""
    if wait <= 0:
        return False
    waiting = _waiting()
    most = int(current_app.config.get(HASH_SLOTS_SETTING) or os.cpu_count() or 2)
    with waiting.lock:
        if waiting.count >= max(1, most):
            return False
        waiting.count += 1
    try:
        return slots.acquire(timeout=wait)
    finally:
        with waiting.lock:
            waiting.count -= 1


@contextmanager
def _hash_slot() -> Iterator[None]:
    """Hold a slot for one slow hash, or answer Busy (503) when none frees up quickly.

    A flood of guesses would otherwise queue every thread behind scrypt, and the phones that
    are already signed in (a cookie or a token, no hash at all) would wait with them.
    """
    slots = hash_slots()
    wait = float(current_app.config.get(HASH_WAIT_SETTING, HASH_WAIT))
    if not (slots.acquire(blocking=False) or _wait_for_slot(slots, wait)):
        raise Busy(1)
    try:
        yield
    finally:
        slots.release()


def _hash(passphrase: str) -> str:
    with _hash_slot():
        return _make_hash(passphrase)


class _Flight:
    """One guess being checked, which requests making the very same guess wait for.

    ``result`` is the id of the group it opened, ``WRONG_FOR_ALL`` when it opened none,
    ``REFUSED`` when its request had no place in the counts, or ``UNCHECKED`` (no slot was
    free, or the check failed).
    """

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: int = UNCHECKED


UNCHECKED = -1
REFUSED = -2  # its guesser had no place in the counts: nothing was checked
WRONG_FOR_ALL = 0  # no group has the id 0
_flights: dict[str, _Flight] = {}
_flights_lock = threading.Lock()
# How long a request waits for the same check made by another (one check takes ~0.1 s).
FLIGHT_WAIT = 10.0


def _flight_key(hashes: Sequence[str], passphrase: str) -> str:
    text = "\x00".join((*hashes, passphrase))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _flight_of(key: str) -> _Flight | None:
    with _flights_lock:
        return _flights.get(key)


def _join(key: str) -> tuple[_Flight, bool]:
    """The flight of ``key``, and whether this request leads it (it was not under way)."""
    with _flights_lock:
        flight = _flights.get(key)
        if flight is not None:
            return flight, False
        flight = _flights[key] = _Flight()
        return flight, True


def _land(key: str, flight: _Flight, result: int) -> None:
    flight.result = result
    with _flights_lock:
        _flights.pop(key, None)
    flight.done.set()


def _answer_of(flight: _Flight) -> int:
    """What the request leading ``flight`` found; Busy when it could not check."""
    if flight.done.wait(FLIGHT_WAIT) and flight.result != UNCHECKED:
        return flight.result
    raise Busy(1)


def _slow_check(stored_hash: str, passphrase: str) -> bool:
    with _hash_slot():
        return check_password_hash(stored_hash, passphrase)


def check_group_name(name: str) -> str:
    """A group's name as it will be kept: spaces tidied, 1 to 80 characters, nothing hidden."""
    check_name_characters(name or "", "name")
    name = " ".join((name or "").split())
    if not name:
        raise RuleError("Give the group a name.", field="name")
    if len(name) > GROUP_NAME_LENGTH:
        raise RuleError(
            "A group's name has at most {most} characters.", field="name", most=GROUP_NAME_LENGTH
        )
    return name


def check_passphrase(passphrase: str, field: str = "passphrase") -> str:
    if len(passphrase or "") < MIN_PASSPHRASE:
        raise RuleError(
            "The passphrase needs at least {least} characters.", field=field, least=MIN_PASSPHRASE
        )
    if len(passphrase) > MAX_PASSPHRASE:
        raise RuleError(
            "The passphrase can have at most {most} characters.", field=field, most=MAX_PASSPHRASE
        )
    return passphrase


def slugify(name: str) -> str:
    """The URL-safe part of a slug made from the name: ``Thursday Crowd!`` → ``thursday-crowd``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return words[:40].rstrip("-") or "group"


def create_group(name: str, passphrase: str, address: str | None = None) -> GroupRef:
    """A new group with a slug made from its name and a random suffix, so it cannot be guessed
    from the name alone and two groups of one name never clash.

    ``address`` is the client's (request.remote_addr): one address makes at most
    LEDGER_GROUP_LIMIT groups an hour (TooManyNewGroups, 429), counted before the slow hash.
    None outside a request (scripts, tests): not counted.
    """
    name = check_group_name(name)
    check_passphrase(passphrase)
    place = throttle.claim_new_group(client_of(address))
    try:
        hashed = _hash(passphrase)  # slow on purpose: outside the transaction
    except Busy:
        throttle.release(place)  # nothing was made, nor hashed
        raise

    def work() -> GroupRef:
        slug = f"{slugify(name)}-{secrets.token_hex(3)}"
        group = Group(
            slug=slug,
            name=name,
            passphrase_hash=hashed,
            auth_epoch=0,
            failed_logins=0,
            created_at=utcnow(),
        )
        db.session.add(group)
        db.session.flush()
        return GroupRef(group.id, group.slug, group.name)

    return write(work)


def _digest(slug: str, passphrase: str, epoch: int) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    message = "\x00".join((slug, passphrase, str(epoch))).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


# Built once: every API call reads these, so they skip the ORM (plain rows are enough).
_PER_ADDRESS = aliased(AddressFailure)
_NO_ADDRESS = "-"  # matches no key: keys start with "a:" or "g:"


def _overall(column: Any) -> Any:
    return select(column).where(AddressFailure.key == bindparam("address_key")).scalar_subquery()


# The groups, each with this address's count for it and the address's count overall: the
# throttle costs no query of its own on the way to a remembered credential.
_GROUPS_FOR_AUTH = (
    select(
        Group.id,
        Group.slug,
        Group.name,
        Group.auth_epoch,
        Group.passphrase_hash,
        Group.failed_logins,
        Group.failed_since,
        _PER_ADDRESS.failures.label("address_failures"),
        _PER_ADDRESS.since.label("address_since"),
        _overall(AddressFailure.failures).label("overall_failures"),
        _overall(AddressFailure.since).label("overall_since"),
    )
    .outerjoin(
        _PER_ADDRESS,
        _PER_ADDRESS.key
        == literal("g:", String)
        + cast(Group.id, String)
        + ":"
        + bindparam("address", type_=String),
    )
    .where(Group.slug.in_(bindparam("slugs", expanding=True)))
)
_REMEMBERED = select(Credential.group_id).where(
    Credential.digest.in_(bindparam("digests", expanding=True)),
    Credential.expires_at > bindparam("now"),
)
_ADDRESS_COUNT = select(AddressFailure.failures, AddressFailure.since).where(
    AddressFailure.key == bindparam("address_key")
)
WRONG = "The group's name or passphrase is wrong."


def client_of(address: str | None) -> str | None:
    """Who is counted for an address: an IPv4 address itself, an IPv6 address by its /64."""
    if address is None:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _address_key(address: str) -> str:
    return f"a:{address}"


def _address_group_key(address: str, group_id: int) -> str:
    # As _GROUPS_FOR_AUTH builds it in SQL.
    return f"g:{group_id}:{address}"


def _full(
    count: tuple[int, datetime] | None, most: int, window: timedelta, now: datetime
) -> int | None:
    """Seconds to wait if this count has reached ``most`` within ``window``, else None."""
    if count is None:
        return None
    failures, since = count
    if failures >= most and since > now - window:
        return _wait(since, now, window)
    return None


def authenticate(slug: str, passphrase: str, address: str | None = None) -> GroupRef:
    """The group whose slug and passphrase these are, or Unauthorized / TooManyAttempts / Busy.

    ``address`` is the client's address (request.remote_addr), counted for the throttle;
    None outside a request (scripts, tests), which is then not limited by address.
    """
    return authenticate_any([slug], passphrase, address)


def authenticate_any(slugs: Sequence[str], passphrase: str, address: str | None = None) -> GroupRef:
    """The first group of ``slugs`` this passphrase opens (the web opens a group by name, and
    several groups may share one): a wrong passphrase counts against each group it was
    checked for, never against one of them when it opened another."""
    now = utcnow()
    address = client_of(address)
    slugs = list(dict.fromkeys(s for s in slugs if s))
    # One pooled connection for the reads, given back before any slow check or write.
    with quick_read() as connection:
        params: dict[str, Any] = {
            "slugs": slugs,
            "address": address if address is not None else _NO_ADDRESS,
            "address_key": _address_key(address) if address is not None else _NO_ADDRESS,
        }
        rows = list(connection.execute(_GROUPS_FOR_AUTH, params).all()) if slugs else []
        rows.sort(key=lambda r: slugs.index(r.slug))
        if rows:
            overall = rows[0].overall_failures, rows[0].overall_since
        elif address is not None:  # no such group: read the address's count alone
            overall = connection.execute(_ADDRESS_COUNT, params).first() or (None, None)
        else:
            overall = (None, None)
        # An address past its limit is refused before anything is looked up or checked.
        if overall[0] is not None:
            wait = _full(overall, ADDRESS_MAX_FAILURES, ADDRESS_WINDOW, now)
            if wait is not None:
                raise TooManyAttempts(wait)
        candidates, waits = _open_to_checks(rows, now)
        locked = not candidates and bool(waits)
        if not locked:
            digests = {r.id: _digest(r.slug, passphrase, r.auth_epoch) for r in candidates}
            remembered = None
            if candidates and passphrase:
                params = {"digests": list(digests.values()), "now": now}
                remembered = connection.execute(_REMEMBERED, params).scalar()
    if locked:
        # No digest looked up, no hash checked, so right and wrong look the same.
        return _while_locked(rows, passphrase, waits)
    refs = {r.id: GroupRef(r.id, r.slug, r.name) for r in candidates}
    if remembered in refs:
        return refs[remembered]

    if not passphrase:
        candidates = []  # nothing to check: the same slow check as a wrong guess
    return _guess(candidates, passphrase, digests, address, now, waits)


def _while_locked(rows: list[Row[Any]], passphrase: str, waits: list[int]) -> GroupRef:
    """A guess while every group of ``rows`` is locked for it: 429, unless this very guess
    is being checked in this process at this moment, by a request that took the last place
    in the count (twelve phones opening the group at once, near the limit): its answer is
    this one's if it was right. Nothing is checked, nor counted, for this request."""
    flight = _flight_of(_flight_key([r.passphrase_hash for r in rows], passphrase))
    if flight is not None and passphrase:
        try:
            found = _answer_of(flight)
        except Busy:
            found = UNCHECKED
        opened = next((r for r in rows if r.id == found), None)
        if opened is not None:
            return GroupRef(opened.id, opened.slug, opened.name)
    raise TooManyAttempts(max(waits))


def _guess(
    candidates: list[Row[Any]],
    passphrase: str,
    digests: dict[int, str],
    address: str | None,
    now: datetime,
    waits: list[int],
) -> GroupRef:
    """Check the passphrase against the groups, each guess in the counts before its check.

    The very same guess made by several requests at one moment (twelve phones opening their
    group at once) is checked once (``_Flight``): the first leads, takes its places in the
    counts (``_claim``) and only then checks; however many guesses arrive together, no more
    than the limit are checked. The others wait for its answer: right for all of them, or
    wrong for all, each then counted as a wrong guess like any other without a check of its
    own; if it had no place, they try for themselves.
    """
    ids = [r.id for r in candidates]
    # No such group: a decoy hash is checked, so timing does not tell which slugs exist.
    hashes = [r.passphrase_hash for r in candidates] or [_decoy_hash()]
    key = _flight_key(hashes, passphrase)
    claim: _Claim | None = None
    try:
        for _attempt in range(3):
            flight, leading = _join(key)
            if leading:
                if claim is None:
                    try:
                        claim = _claim(ids, address, now)
                    except BaseException:
                        _land(key, flight, REFUSED)  # those waiting count for themselves
                        raise
                held, claim = claim, None  # _lead gives back what it does not keep
                return _lead(key, flight, held, candidates, hashes, passphrase, digests, now, waits)
            found = _answer_of(flight)
            if found == REFUSED:  # its guesser had no place left: this one may have
                claim = claim or _claim(ids, address, now)
                continue
            opened = next((r for r in candidates if r.id == found), None)
            if opened is not None:
                return GroupRef(opened.id, opened.slug, opened.name)
            wrong, claim = claim or _claim(ids, address, now), None  # counted, not checked
            raise _wrong(waits + wrong.waits)
        raise Busy(1)
    finally:
        if claim is not None:  # a place taken for a check this request did not make
            _give_back(claim, claim.group_ids, whole=True)


def _lead(
    key: str,
    flight: _Flight,
    claim: _Claim,
    candidates: list[Row[Any]],
    hashes: list[str],
    passphrase: str,
    digests: dict[int, str],
    now: datetime,
    waits: list[int],
) -> GroupRef:
    """Check the guess against each group it has its places for, in order. Right for one:
    every place is given back (``_remember``; a wrong passphrase counts against each group it
    was checked for, never when it opened another). Wrong for all: the places stay, as its
    failures. Not checked (no slot free): given back."""
    found = UNCHECKED
    try:
        if not candidates:
            try:
                _slow_check(hashes[0], passphrase)
            except Busy:
                _give_back(claim, [], whole=True)
                raise
        rows = [r for r in candidates if r.id in claim.group_ids]
        for n, row in enumerate(rows):
            try:
                right = _slow_check(row.passphrase_hash, passphrase)
            except Busy:
                _give_back(claim, [r.id for r in rows[n:]], whole=n == 0)
                raise
            if right:
                others = [r.id for r in rows if r.id != row.id]
                _remember(row.id, digests[row.id], row.auth_epoch, now, claim.address, others)
                found = row.id
                return GroupRef(row.id, row.slug, row.name)
        found = WRONG_FOR_ALL
        raise _wrong(waits + claim.waits)
    finally:
        _land(key, flight, found)


def _wrong(waits: list[int]) -> ServiceError:
    """A wrong guess's answer: 429 while another group of the name is locked (the passphrase
    may have been its), else 401."""
    return TooManyAttempts(max(waits)) if waits else Unauthorized(WRONG)


def _open_to_checks(rows: list[Row[Any]], now: datetime) -> tuple[list[Row[Any]], list[int]]:
    """The groups a passphrase may be checked against now, and the waits of those locked
    (for the whole group, or for this address)."""
    candidates: list[Row[Any]] = []
    waits: list[int] = []
    for row in rows:
        wait = _locked(row, now)
        if wait is None and row.address_failures is not None:
            per = (row.address_failures, row.address_since)
            wait = _full(per, ADDRESS_GROUP_MAX_FAILURES, FAILURE_WINDOW, now)
        if wait is None:
            candidates.append(row)
        else:
            waits.append(wait)
    return candidates, waits


def _locked(row: Row[Any], now: datetime) -> int | None:
    if row.failed_since is None:
        return None
    return _full((row.failed_logins, row.failed_since), MAX_FAILURES, FAILURE_WINDOW, now)


def _wait(since: datetime, now: datetime, window: timedelta = FAILURE_WINDOW) -> int:
    return throttle.wait_seconds(since, now, window)


@dataclass(frozen=True)
class _Claim:
    """The places a guess took before its slow check: in the count of its ``address`` (None:
    not counted by address) and of each group of ``group_ids`` (and the address's count for
    that group); ``waits`` are those of the groups whose counts were full."""

    address: str | None
    group_ids: list[int]
    waits: list[int]


def _claim(group_ids: Sequence[int], address: str | None, now: datetime) -> _Claim:
    """Take a place for one guess in every count it falls under, before it is checked, or
    answer 429 (TooManyAttempts) when the address's count, or every group's, is full.

    Each place is one conditional UPDATE in the database (ledger/services/throttle.py), so
    however many guesses arrive at once, in however many worker processes, no more than the
    limit of them get a place, and only a guess with a place is checked: the count is taken
    before the slow check, not after it. A refused guess takes no place at all.
    """

    def work() -> _Claim:
        if address is not None:
            wait = throttle.bump(_address_key(address), ADDRESS_MAX_FAILURES, ADDRESS_WINDOW, now)
            if wait is not None:
                raise TooManyAttempts(wait)
        claimed: list[int] = []
        waits: list[int] = []
        for group_id in group_ids:
            wait = _claim_group(group_id, address, now)
            if wait is None:
                claimed.append(group_id)
            else:
                waits.append(wait)
        if group_ids and not claimed:
            raise TooManyAttempts(max(waits))  # rolls back the address's place too
        return _Claim(address, claimed, waits)

    return write(work)


def _claim_group(group_id: int, address: str | None, now: datetime) -> int | None:
    """A place in the address's count for the group, then in the group's; the seconds to
    wait (and no place in either) when one of them is full."""
    if address is not None:
        key = _address_group_key(address, group_id)
        wait = throttle.bump(key, ADDRESS_GROUP_MAX_FAILURES, FAILURE_WINDOW, now)
        if wait is not None:
            return wait
    wait = _bump_group(group_id, now)
    if wait is not None and address is not None:
        throttle.give_back(_address_group_key(address, group_id))
    return wait


def _give_back(claim: _Claim, group_ids: Sequence[int], *, whole: bool) -> None:
    """Give back the places of ``group_ids`` (guesses never checked), and with ``whole`` the
    address's own place too."""

    def work() -> None:
        _give_back_places(claim.address, group_ids, whole=whole)

    write(work)


def _give_back_places(address: str | None, group_ids: Sequence[int], *, whole: bool) -> None:
    if address is not None and whole:
        throttle.give_back(_address_key(address))
    for group_id in group_ids:
        if address is not None:
            throttle.give_back(_address_group_key(address, group_id))
        db.session.execute(
            update(Group)
            .where(Group.id == group_id, Group.failed_logins > 0)
            .values(failed_logins=Group.failed_logins - 1)
            .execution_options(synchronize_session=False)
        )


def _count_failure(address: str | None, now: datetime) -> None:
    """Count a failure that needed no slow check (a made-up access token) against the
    address, or answer 429 when its count is full already."""
    if address is None:
        return
    key = _address_key(address)
    wait = write(lambda: throttle.bump(key, ADDRESS_MAX_FAILURES, ADDRESS_WINDOW, now))
    if wait is not None:
        raise TooManyAttempts(wait)


def _bump_group(group_id: int, now: datetime) -> int | None:
    cutoff = now - FAILURE_WINDOW
    fresh = or_(Group.failed_since.is_(None), Group.failed_since <= cutoff)
    result = db.session.execute(
        update(Group)
        .where(Group.id == group_id, or_(fresh, Group.failed_logins < MAX_FAILURES))
        .values(
            failed_logins=case((fresh, 1), else_=Group.failed_logins + 1),
            failed_since=case((fresh, now), else_=Group.failed_since),
        )
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 1:  # type: ignore[attr-defined]
        return None
    since = db.session.scalar(select(Group.failed_since).where(Group.id == group_id))
    return _wait(since, now) if since is not None else 1


def _remember(
    group_id: int,
    digest: str,
    epoch: int,
    now: datetime,
    address: str | None = None,
    others: Sequence[int] = (),
) -> None:
    """A passphrase passed: clear the group's failures (and this address's for the group: it
    was someone at the table mistyping), give back the places it took in the address's count
    across groups and in those of the ``others`` groups of the name, and remember the
    digest."""

    def work() -> None:
        _give_back_places(address, others, whole=True)
        db.session.execute(
            update(Group)
            .where(Group.id == group_id)
            .values(failed_logins=0, failed_since=None)
            .execution_options(synchronize_session=False)
        )
        if address is not None:
            db.session.execute(
                delete(AddressFailure)
                .where(AddressFailure.key == _address_group_key(address, group_id))
                .execution_options(synchronize_session=False)
            )
        current = db.session.scalar(select(Group.auth_epoch).where(Group.id == group_id))
        if current != epoch:
            return  # the passphrase changed during the check: remember nothing
        db.session.execute(
            delete(Credential)
            .where(
                Credential.group_id == group_id,
                or_(Credential.expires_at <= now, Credential.digest == digest),
            )
            .execution_options(synchronize_session=False)
        )
        db.session.add(
            Credential(group_id=group_id, digest=digest, expires_at=now + CREDENTIAL_LIFETIME)
        )

    write(work)


def change_passphrase(group: GroupRef, new: str) -> None:
    """Set a new passphrase: every remembered credential of the old one is forgotten at once."""
    check_passphrase(new)
    hashed = _hash(new)

    def work() -> None:
        db.session.execute(
            update(Group)
            .where(Group.id == group.id)
            .values(
                passphrase_hash=hashed,
                auth_epoch=Group.auth_epoch + 1,
                failed_logins=0,
                failed_since=None,
            )
            .execution_options(synchronize_session=False)
        )
        db.session.execute(
            delete(Credential)
            .where(Credential.group_id == group.id)
            .execution_options(synchronize_session=False)
        )
        # Every sign-in and token ends with it (their epoch no longer matches either).
        db.session.execute(
            delete(AccessGrant)
            .where(AccessGrant.group_id == group.id)
            .execution_options(synchronize_session=False)
        )

    write(work)


# --- Grants: browsers' sign-ins and API access tokens ------------------------------------------

WEB = "web"
API = "api"
INVITE_SALT = "pub-ledger.invite.2"  # invites made before lifetimes (no time in them) are void
INVITE_LIFETIME_SETTING = "LEDGER_INVITE_LIFETIME_DAYS"
INVITE_LIFETIME_DAYS = 7


def token_hash(token: str) -> str:
    """What is stored of a grant's token: its SHA-256 (the token is 256 random bits, so a
    fast hash is enough; no passphrase is involved)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def web_grant_holds(hashes: Any) -> Any:
    """The SQL condition under which one of a browser's grants (``hashes``, an expanding
    bind parameter of token hashes) opens the group it is joined to: a web grant of that
    group, made since the last passphrase change. Folded into the page's own read of the
    group (ledger/services/pages.py), so checking it costs no query."""
    return (
        (AccessGrant.group_id == Group.id)
        & (AccessGrant.kind == WEB)
        & (AccessGrant.auth_epoch == Group.auth_epoch)
        & AccessGrant.token_hash.in_(hashes)
    )


def _idle_limit() -> timedelta:
    lifetime = current_app.config.get("PERMANENT_SESSION_LIFETIME", timedelta(days=31))
    if not isinstance(lifetime, timedelta):
        lifetime = timedelta(seconds=int(lifetime))
    return lifetime + timedelta(days=1)


def grant(group_id: int, kind: str) -> str:
    """A new random token that opens the group (``kind`` web: a browser; api: a client).

    Old grants of the group go on the way: those of an earlier passphrase, browsers' unused
    for longer than a cookie lives, and past ``MOST_SIGN_INS`` the browser unused longest.
    A group holds at most ``MOST_TOKENS`` API tokens (Conflict, 409, past them): grants are
    rows of the group too, and a group's size is bounded (ledger/services/room.py).
    """
    token = secrets.token_urlsafe(32)
    now = utcnow()

    def work() -> None:
        epoch = db.session.scalar(select(Group.auth_epoch).where(Group.id == group_id))
        if epoch is None:
            raise Unauthorized(WRONG)
        db.session.execute(
            delete(AccessGrant)
            .where(
                AccessGrant.group_id == group_id,
                or_(
                    AccessGrant.auth_epoch != epoch,
                    (AccessGrant.kind == WEB) & (AccessGrant.seen_at < now - _idle_limit()),
                ),
            )
            .execution_options(synchronize_session=False)
        )
        _make_room_for_grant(group_id, kind)
        db.session.add(
            AccessGrant(
                group_id=group_id,
                kind=kind,
                token_hash=token_hash(token),
                auth_epoch=epoch,
                created_at=now,
                seen_at=now,
            )
        )

    write(work)
    return token


# Grants a group keeps: sign-ins of browsers (the least recently used goes past this) and API
# access tokens (a new one is refused past this: revoke one, or change the passphrase).
MOST_SIGN_INS = 1000
MOST_TOKENS = 100


def _make_room_for_grant(group_id: int, kind: str) -> None:
    of_kind = (AccessGrant.group_id == group_id) & (AccessGrant.kind == kind)
    if kind == API:
        held = db.session.scalar(select(func.count(AccessGrant.id)).where(of_kind)) or 0
        if held >= MOST_TOKENS:
            raise Conflict(
                "This group has {most} access tokens, the most it may have: revoke one that is "
                "no longer used, or change the passphrase to end them all.",
                most=MOST_TOKENS,
            )
        return
    oldest = (
        select(AccessGrant.id)
        .where(of_kind)
        .order_by(AccessGrant.seen_at.desc(), AccessGrant.id.desc())
        .offset(MOST_SIGN_INS - 1)
    )
    db.session.execute(
        delete(AccessGrant)
        .where(AccessGrant.id.in_(oldest))
        .execution_options(synchronize_session=False)
    )


_BEARER = (
    select(Group.id, Group.slug, Group.name)
    .join(AccessGrant, AccessGrant.group_id == Group.id)
    .where(
        AccessGrant.token_hash == bindparam("hash"),
        AccessGrant.kind == API,
        AccessGrant.auth_epoch == Group.auth_epoch,
    )
)


def group_for_token(token: str, address: str | None = None) -> GroupRef:
    """The group an API access token opens: one indexed read, no lockout, no slow check.

    A wrong or revoked token is 401 and counts against the address like a wrong passphrase.
    """
    row = None
    if token:
        with quick_read() as connection:
            row = connection.execute(_BEARER, {"hash": token_hash(token)}).first()
    if row is None:
        _count_failure(client_of(address), utcnow())
        raise Unauthorized("This access token does not open any group (revoked, or made up).")
    return GroupRef(row.id, row.slug, row.name)


def revoke(token: str) -> None:
    """This grant stops working at once, in every worker (its row is gone)."""

    def work() -> None:
        db.session.execute(
            delete(AccessGrant)
            .where(AccessGrant.token_hash == token_hash(token))
            .execution_options(synchronize_session=False)
        )

    write(work)


def sign_out_everywhere(group: GroupRef) -> None:
    """Every browser's sign-in of the group ends and every invite link made so far is void.

    The API's access tokens stay (a script's token is revoked on its own, or by a new
    passphrase), so does the passphrase.
    """

    def work() -> None:
        db.session.execute(
            delete(AccessGrant)
            .where(AccessGrant.group_id == group.id, AccessGrant.kind == WEB)
            .execution_options(synchronize_session=False)
        )
        db.session.execute(
            update(Group)
            .where(Group.id == group.id)
            .values(invite_epoch=Group.invite_epoch + 1)
            .execution_options(synchronize_session=False)
        )

    write(work)


def touch(tokens: Sequence[str]) -> None:
    """These browsers' grants are in use today: unused ones are pruned, these are kept."""
    hashes = [token_hash(t) for t in tokens]
    if not hashes:
        return

    def work() -> None:
        db.session.execute(
            update(AccessGrant)
            .where(AccessGrant.token_hash.in_(hashes), AccessGrant.kind == WEB)
            .values(seen_at=utcnow())
            .execution_options(synchronize_session=False)
        )

    write(work)


# --- Invite links ------------------------------------------------------------------------------


def invite_lifetime() -> timedelta:
    return timedelta(
        days=float(current_app.config.get(INVITE_LIFETIME_SETTING, INVITE_LIFETIME_DAYS))
    )


def _invites() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=INVITE_SALT)


def invite_token(group_id: int, epoch: int, invite_epoch: int) -> str:
    """A token for the invite link: the group, its epochs and the time, signed with the secret."""
    return _invites().dumps({"g": int(group_id), "e": int(epoch), "i": int(invite_epoch)})


class InviteExpired(Exception):
    """The invite link is genuine but older than the invite lifetime."""


def read_invite(token: str) -> tuple[int, int, int] | None:
    """The (group id, auth epoch, invite epoch) the token was made for; None for a forged or
    mangled token; InviteExpired past its lifetime.

    The caller still compares the epochs with the group's current ones: a passphrase change
    and "sign out every phone" revoke every older link.
    """
    try:
        data: Any = _invites().loads(token, max_age=int(invite_lifetime().total_seconds()))
    except SignatureExpired as e:
        raise InviteExpired from e
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    found = (data.get("g"), data.get("e"), data.get("i"))
    if not all(isinstance(n, int) for n in found):
        return None
    return found  # type: ignore[return-value]
