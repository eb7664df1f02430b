"""The unit of work every write goes through: one transaction, tried again on a lost race,
the line of the session's history the change leaves, and the group's nights version it moves."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from ledger.extensions import db
from ledger.models import Change, GameSession, Group, utcnow
from ledger.services.actors import acting
from ledger.services.errors import Conflict
from ledger.services.room import FREE_KINDS, check_room

log = logging.getLogger(__name__)

T = TypeVar("T")

# A write that lost a race (a stale version, a unique key taken a moment ago, SQLite busy) is
# tried again from the start: it reads what the winner wrote and answers accordingly.
ATTEMPTS = 10
# Seconds, times the attempt: the most a writer waits before trying again after a deadlock or
# a busy database (random, so two writers that met do not meet again).
BACKOFF = 0.005
# Where a write keeps the groups whose nights it changed (``record``), until it commits.
_CHANGED_GROUPS = "ledger_changed_groups"


def write(work: Callable[[], T]) -> T:
    """Run ``work`` in a transaction and commit; on a lost race, roll back and run it again.

    ``work`` reads, checks, changes rows and returns its answer; anything it raises rolls
    everything back, so a refused request changes nothing.
    """
    for attempt in range(1, ATTEMPTS + 1):
        db.session.info.pop(_CHANGED_GROUPS, None)  # an attempt rolled back changed nothing
        try:
            result = work()
            _move_nights_versions()
            db.session.commit()
            return result
        except (StaleDataError, IntegrityError) as e:
            db.session.rollback()
            log.info("write attempt %d lost a race: %s", attempt, type(e).__name__)
            if attempt == ATTEMPTS and isinstance(e, IntegrityError):
                raise
        except OperationalError as e:
            db.session.rollback()
            if not _is_contention(e) or attempt == ATTEMPTS:
                raise
            # Two writers that deadlocked would meet again at once: one waits a moment more.
            time.sleep(random.uniform(0, BACKOFF * attempt))
        except BaseException:
            db.session.rollback()
            raise
    raise Conflict("Someone else changed this at the same moment. Please try again.")


def _move_nights_versions() -> None:
    """Each group whose nights this write changed: its nights version one higher (a page that
    shows one night's news on another night's page is kept under it). Last, just before the
    commit, so the group's row is locked after every session's and only for the commit."""
    changed = db.session.info.pop(_CHANGED_GROUPS, None)
    if changed:
        db.session.execute(
            update(Group)
            .where(Group.id.in_(sorted(changed)))
            .values(nights_version=Group.nights_version + 1)
            .execution_options(synchronize_session=False)
        )


def _is_contention(e: OperationalError) -> bool:
    text = str(e.orig).lower()
    return any(s in text for s in ("locked", "busy", "deadlock", "could not serialize"))


def record(
    row: GameSession,
    kind: str,
    *,
    before: Any,
    after: Any,
    hand_number: int | None = None,
) -> None:
    """One line of the session's history, with the version the change made and who made it
    (ledger/services/actors.py: the request's player, on the request's phone); the group's
    nights version moves with it when the write commits.

    Every change that adds to a group goes through here, so here its room is checked
    (ledger/services/room.py): GroupFull (409) once the group is full, but for the lines
    that take back or end something (``FREE_KINDS``).
    """
    if kind not in FREE_KINDS:
        check_room(row.group_id)
    db.session.info.setdefault(_CHANGED_GROUPS, set()).add(row.group_id)
    actor = acting(row.group_id)  # who did it (RULES.md §20): set for the request
    db.session.add(
        Change(
            session_id=row.id,
            hand_number=hand_number,
            kind=kind,
            at=utcnow(),
            version=row.version,
            before=before,
            after=after,
            by_id=actor.by_id,
            phone_id=actor.phone_id,
        )
    )
