"""Counts per client address in the database, so a limit holds across worker processes.

Each count is a row of ``address_failures`` under a key (``a:<address>``, ``g:<group>:<address>``
for wrong passphrases, ledger/services/auth.py; ``n:<address>`` for groups made or restored):
how many in the window that started at ``since``. A count is taken with one conditional
UPDATE (or the row's first INSERT), so however many requests arrive at once, in however many
processes, no more than the limit of them get a place in a window.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import case, delete, or_, select, update

from ledger.extensions import db
from ledger.models import AddressFailure, utcnow
from ledger.services.errors import TooManyNewGroups
from ledger.services.unit_of_work import write

# Groups made (the start page, POST /api/v1/groups) or restored (the restore page) by one
# client address: LEDGER_GROUP_LIMIT of them in this window; 0 turns the limit off.
GROUP_LIMIT_SETTING = "LEDGER_GROUP_LIMIT"
NEW_GROUP_WINDOW = timedelta(hours=1)
# The longest window of any count: a row older than this counts nothing any more.
LONGEST_WINDOW = NEW_GROUP_WINDOW


def wait_seconds(since: datetime, now: datetime, window: timedelta) -> int:
    """Seconds until the window that started at ``since`` is over (at least 1)."""
    return max(1, math.ceil((since + window - now).total_seconds()))


def bump(key: str, most: int, window: timedelta, now: datetime) -> int | None:
    """Take one place in the count under ``key``, inside the caller's transaction; the
    seconds to wait instead when ``most`` places of its window are taken already."""
    fresh = AddressFailure.since <= now - window
    result = db.session.execute(
        update(AddressFailure)
        .where(AddressFailure.key == key, or_(fresh, AddressFailure.failures < most))
        .values(
            failures=case((fresh, 1), else_=AddressFailure.failures + 1),
            since=case((fresh, now), else_=AddressFailure.since),
        )
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 1:  # type: ignore[attr-defined]
        return None
    since = db.session.scalar(select(AddressFailure.since).where(AddressFailure.key == key))
    if since is not None:
        return wait_seconds(since, now, window)
    # A first count under this key: old rows go as a new one comes, so the table stays small.
    # (A race on the same key is an IntegrityError, and write() runs the work again.)
    db.session.execute(
        delete(AddressFailure)
        .where(AddressFailure.since <= now - LONGEST_WINDOW)
        .execution_options(synchronize_session=False)
    )
    db.session.add(AddressFailure(key=key, failures=1, since=now))
    db.session.flush()
    return None


def give_back(key: str) -> None:
    """Give back one place taken under ``key`` (by a request that turned out not to need it),
    inside the caller's transaction."""
    db.session.execute(
        update(AddressFailure)
        .where(AddressFailure.key == key, AddressFailure.failures > 0)
        .values(failures=AddressFailure.failures - 1)
        .execution_options(synchronize_session=False)
    )


def new_group_key(address: str) -> str:
    return f"n:{address}"


def claim_new_group(address: str | None) -> str | None:
    """Count a group about to be made or restored from ``address`` (a client as
    ``auth.client_of`` counts it), before the slow work; TooManyNewGroups (429) when the
    address has made LEDGER_GROUP_LIMIT in the last hour. A refusal that comes later (a
    damaged backup) keeps its place: it cost the server the same work.

    The key of the place taken (for ``give_back`` when nothing was done at all), or None
    when nothing is counted (no address: a script; or no limit set).
    """
    most = int(current_app.config.get(GROUP_LIMIT_SETTING) or 0)
    if address is None or most <= 0:
        return None
    key = new_group_key(address)
    now = utcnow()
    wait = write(lambda: bump(key, most, NEW_GROUP_WINDOW, now))
    if wait is not None:
        raise TooManyNewGroups(wait)
    return key


def release(key: str | None) -> None:
    """``give_back`` in a transaction of its own, for a claim that did nothing (None: none)."""
    if key is not None:
        write(lambda: give_back(key))
