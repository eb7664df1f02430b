"""Signing in with a passphrase: the check, remembered credentials, a guess counted."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import (
    Row,
    String,
    bindparam,
    cast,
    delete,
    literal,
    or_,
    select,
    update,
)

from ledger.extensions import db, quick_read
from ledger.models import (
    AddressFailure,
    Credential,
    Group,
    utcnow,
)
from ledger.services.auth.lockout import (
    _ADDRESS_COUNT,
    _NO_ADDRESS,
    _PER_ADDRESS,
    ADDRESS_MAX_FAILURES,
    ADDRESS_WINDOW,
    WRONG,
    _address_group_key,
    _address_key,
    _Claim,
    _claim,
    _full,
    _give_back,
    _give_back_places,
    _open_to_checks,
    _overall,
    client_of,
    unknown_name,
    unknown_wait,
)
from ledger.services.auth.passphrases import (
    REFUSED,
    UNCHECKED,
    WRONG_FOR_ALL,
    _answer_of,
    _decoy_hash,
    _Flight,
    _flight_key,
    _flight_of,
    _join,
    _land,
    _slow_check,
)
from ledger.services.errors import Busy, ServiceError, TooManyAttempts, Unauthorized
from ledger.services.unit_of_work import write
from ledger.services.views.groups import GroupRef

CREDENTIAL_LIFETIME = timedelta(hours=12)


def _digest(slug: str, passphrase: str, epoch: int) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    message = "\x00".join((slug, passphrase, str(epoch))).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


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
        # No group of the name: counted as one would be, so a 429 tells nothing (lockout.py).
        unknown = unknown_name(slugs) if not rows and slugs and passphrase else None
        if unknown is not None:
            wait = unknown_wait(connection, unknown, address, now)
            if wait is not None:
                raise TooManyAttempts(wait)
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
    return _guess(candidates, passphrase, digests, address, now, waits, unknown)


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
    unknown: str | None = None,
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
                        claim = _claim(ids, address, now, unknown)
                    except BaseException:
                        _land(key, flight, REFUSED)  # those waiting count for themselves
                        raise
                held, claim = claim, None  # _lead gives back what it does not keep
                return _lead(key, flight, held, candidates, hashes, passphrase, digests, now, waits)
            found = _answer_of(flight)
            if found == REFUSED:  # its guesser had no place left: this one may have
                claim = claim or _claim(ids, address, now, unknown)
                continue
            opened = next((r for r in candidates if r.id == found), None)
            if opened is not None:
                return GroupRef(opened.id, opened.slug, opened.name)
            wrong, claim = claim or _claim(ids, address, now, unknown), None  # counted, not checked
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
