"""Wrong guesses counted: the lockout per group, the throttle per address and per address and
group (the package's docstring gives the rules).

A name no group has (a made-up slug, or a group's name nobody uses) is counted as a group
would be, under keys of its own in ``address_failures`` (``u:`` for the name, ``v:`` for an
address and the name, each a digest: any text may be typed): its sixth wrong guess from one
address, or its eleventh from all, answers 429 as a group's does, so the answers never tell
which groups exist (a 401 for ever to a made-up slug did).
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    Row,
    bindparam,
    case,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from ledger.extensions import db
from ledger.models import (
    AddressFailure,
    Group,
)
from ledger.services import throttle
from ledger.services.errors import TooManyAttempts
from ledger.services.unit_of_work import write

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


# Built once: every API call reads these, so they skip the ORM (plain rows are enough).
_PER_ADDRESS = aliased(AddressFailure)


_NO_ADDRESS = "-"  # matches no key: keys start with "a:" or "g:"


def _overall(column: Any) -> Any:
    return select(column).where(AddressFailure.key == bindparam("address_key")).scalar_subquery()


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


def unknown_name(slugs: Sequence[str]) -> str:
    """What the counts of a name no group has are kept under: the first name asked for, its
    case and spaces aside, as a digest (no text typed goes into a key)."""
    name = " ".join(slugs[0].split()).casefold() if slugs else ""
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def _unknown_key(name: str) -> str:
    return f"u:{name}"


def _unknown_address_key(address: str, name: str) -> str:
    digest = hashlib.sha256(f"{name}\x00{address}".encode()).hexdigest()[:40]
    return f"v:{digest}"


def unknown_wait(
    connection: Connection, name: str, address: str | None, now: datetime
) -> int | None:
    """The seconds to wait if a name no group has is "locked" as a group of that name would
    be (its own count full, or this address's count for it), else None; read on the
    caller's ``connection``."""
    keys = {_unknown_key(name): MAX_FAILURES}
    if address is not None:
        keys[_unknown_address_key(address, name)] = ADDRESS_GROUP_MAX_FAILURES
    rows = connection.execute(
        select(AddressFailure.key, AddressFailure.failures, AddressFailure.since).where(
            AddressFailure.key.in_(list(keys))
        )
    ).all()
    waits = [_full((n, since), keys[key], FAILURE_WINDOW, now) for key, n, since in rows]
    return max((w for w in waits if w is not None), default=None)


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
    unknown: str | None = None  # a name no group has, counted as a group would be


def _claim(
    group_ids: Sequence[int], address: str | None, now: datetime, unknown: str | None = None
) -> _Claim:
    """Take a place for one guess in every count it falls under, before it is checked, or
    answer 429 (TooManyAttempts) when the address's count, or every group's, is full.

    Each place is one conditional UPDATE in the database (ledger/services/throttle.py), so
    however many guesses arrive at once, in however many worker processes, no more than the
    limit of them get a place, and only a guess with a place is checked: the count is taken
    before the slow check, not after it. A refused guess takes no place at all. ``unknown``
    (``unknown_name``: no group has the name) takes its places as a group's would.
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
        if unknown is not None:
            wait = _claim_unknown(unknown, address, now)
            if wait is not None:
                raise TooManyAttempts(wait)  # as a group's full count: nothing kept
        return _Claim(address, claimed, waits, unknown)

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


def _claim_unknown(name: str, address: str | None, now: datetime) -> int | None:
    """``_claim_group`` for a name no group has: the address's place for it, then the name's."""
    if address is not None:
        key = _unknown_address_key(address, name)
        wait = throttle.bump(key, ADDRESS_GROUP_MAX_FAILURES, FAILURE_WINDOW, now)
        if wait is not None:
            return wait
    wait = throttle.bump(_unknown_key(name), MAX_FAILURES, FAILURE_WINDOW, now)
    if wait is not None and address is not None:
        throttle.give_back(_unknown_address_key(address, name))
    return wait


def _give_back(claim: _Claim, group_ids: Sequence[int], *, whole: bool) -> None:
    """Give back the places of ``group_ids`` (guesses never checked), and with ``whole`` the
    address's own place too (and those of a name no group has)."""

    def work() -> None:
        _give_back_places(claim.address, group_ids, whole=whole, unknown=claim.unknown)

    write(work)


def _give_back_places(
    address: str | None, group_ids: Sequence[int], *, whole: bool, unknown: str | None = None
) -> None:
    if address is not None and whole:
        throttle.give_back(_address_key(address))
    if unknown is not None and whole:
        throttle.give_back(_unknown_key(unknown))
        if address is not None:
            throttle.give_back(_unknown_address_key(address, unknown))
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
