"""A group's name and passphrase: making a group, changing its passphrase."""

from __future__ import annotations

import re
import secrets
import unicodedata

from sqlalchemy import (
    delete,
    update,
)

from ledger.extensions import db
from ledger.models import (
    GROUP_NAME_LENGTH,
    AccessGrant,
    Credential,
    Group,
    utcnow,
)
from ledger.rules.errors import RuleError
from ledger.services import throttle
from ledger.services.auth.lockout import client_of
from ledger.services.auth.passphrases import _hash, check_passphrase
from ledger.services.errors import Busy
from ledger.services.groups import check_name_characters
from ledger.services.unit_of_work import write
from ledger.services.views.groups import GroupRef


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
