"""Groups and their passphrase: creating a group, checking a passphrase fast and safely.

A passphrase is stored only as a slow hash (werkzeug's scrypt). After one successful check
its HMAC-SHA256 digest, keyed with the app's secret over the slug, the passphrase and the
group's auth epoch, is remembered in the database for ``CREDENTIAL_LIFETIME``: every worker
process then accepts the same credentials with one indexed lookup. Changing the passphrase
bumps the epoch and deletes the digests. Wrong passphrases are counted per group in the
database: after ``MAX_FAILURES`` within ``FAILURE_WINDOW`` (counted from the first of them)
every call that would need a slow check is answered 429 with Retry-After until the window
has passed, the right passphrase included, or guessing could go on. Clients holding
remembered credentials keep working meanwhile, so someone guessing cannot lock the table's
phones out; a right passphrase clears the count.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import unicodedata
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from flask import current_app
from sqlalchemy import bindparam, case, delete, or_, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from ledger.extensions import db, quick_read
from ledger.models import GROUP_NAME_LENGTH, Credential, Group, utcnow
from ledger.rules.errors import RuleError
from ledger.services.common import write
from ledger.services.errors import TooManyAttempts, Unauthorized
from ledger.services.views import GroupRef

if TYPE_CHECKING:
    from sqlalchemy.engine import CursorResult

MIN_PASSPHRASE = 8
MAX_PASSPHRASE = 200
CREDENTIAL_LIFETIME = timedelta(hours=12)
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=5)
# werkzeug's default (scrypt) unless the app says otherwise: tests choose a quicker one.
HASH_METHOD_SETTING = "LEDGER_PASSPHRASE_HASH"


def _decoy_hash() -> str:
    """A hash of a random passphrase, made with the app's method, checked against unknown slugs."""
    cache = current_app.extensions.setdefault("ledger_decoy_hash", {})
    method = current_app.config.get(HASH_METHOD_SETTING) or "scrypt"
    if method not in cache:
        cache[method] = _hash(secrets.token_urlsafe(16))
    return str(cache[method])


def _hash(passphrase: str) -> str:
    method = current_app.config.get(HASH_METHOD_SETTING)
    if method:
        return generate_password_hash(passphrase, method=method)
    return generate_password_hash(passphrase)


def check_group_name(name: str) -> str:
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


def create_group(name: str, passphrase: str) -> GroupRef:
    """A new group with a slug made from its name and a random suffix, so it cannot be guessed
    from the name alone and two groups of one name never clash."""
    name = check_group_name(name)
    check_passphrase(passphrase)
    hashed = _hash(passphrase)  # slow on purpose: outside the transaction

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


# Built once: every API call reads these two, so they skip the ORM (plain rows are enough).
_GROUP_FOR_AUTH = select(
    Group.id,
    Group.slug,
    Group.name,
    Group.auth_epoch,
    Group.passphrase_hash,
    Group.failed_logins,
    Group.failed_since,
).where(Group.slug == bindparam("slug"))
_REMEMBERED = select(Credential.id).where(
    Credential.digest == bindparam("digest"),
    Credential.group_id == bindparam("group_id"),
    Credential.expires_at > bindparam("now"),
)


def authenticate(slug: str, passphrase: str) -> GroupRef:
    """The group whose slug and passphrase these are, or Unauthorized / TooManyAttempts."""
    now = utcnow()
    # One pooled connection for both reads, given back before any slow check or write.
    with quick_read() as connection:
        group = connection.execute(_GROUP_FOR_AUTH, {"slug": slug}).first()
        if group is not None and passphrase:
            digest = _digest(group.slug, passphrase, group.auth_epoch)
            params = {"digest": digest, "group_id": group.id, "now": now}
            remembered = connection.execute(_REMEMBERED, params).first()
    if group is None or not passphrase:
        # The same slow check as a wrong passphrase, so timing does not tell which slugs exist.
        check_password_hash(_decoy_hash(), passphrase)
        raise Unauthorized("The group's name or passphrase is wrong.")
    ref = GroupRef(group.id, group.slug, group.name)
    if remembered is not None:
        return ref

    failures, since = group.failed_logins, group.failed_since
    if failures >= MAX_FAILURES and since is not None and since > now - FAILURE_WINDOW:
        raise TooManyAttempts(_wait(since, now))
    if not check_password_hash(group.passphrase_hash, passphrase):
        _count_failure(group.id, now)
        raise Unauthorized("The group's name or passphrase is wrong.")
    _remember(group.id, digest, group.auth_epoch, now)
    return ref


def _wait(since: datetime, now: datetime) -> int:
    return max(1, math.ceil((since + FAILURE_WINDOW - now).total_seconds()))


def _count_failure(group_id: int, now: datetime) -> None:
    """Count a wrong passphrase, or, when the group's count is already full, answer 429.

    The count is taken with one conditional UPDATE, so however many wrong guesses arrive at
    once, in however many processes, exactly MAX_FAILURES of them are told 401 in a window.
    """
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
    # An UPDATE's result is a CursorResult (Session.execute is typed for any statement).
    if cast("CursorResult[Any]", result).rowcount == 1:
        db.session.commit()
        return
    since = db.session.scalar(select(Group.failed_since).where(Group.id == group_id))
    db.session.rollback()
    raise TooManyAttempts(_wait(since, now) if since is not None else 1)


def _remember(group_id: int, digest: str, epoch: int, now: datetime) -> None:
    """A passphrase passed: clear the group's failures and remember the digest."""

    def work() -> None:
        db.session.execute(
            update(Group)
            .where(Group.id == group_id)
            .values(failed_logins=0, failed_since=None)
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

    write(work)
