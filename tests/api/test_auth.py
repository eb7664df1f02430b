"""Passphrases: stored only as slow hashes, remembered by a keyed digest, limited when wrong."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from ledger import services
from ledger.extensions import db
from ledger.models import AddressFailure, Credential, Group, utcnow
from ledger.services import auth
from ledger.services.auth import passphrases
from tests.api.helpers import PASSPHRASE, basic, error


def test_the_passphrase_is_kept_only_as_a_scrypt_hash_by_default(app):
    app.config.pop("LEDGER_PASSPHRASE_HASH", None)  # the app's own default, not the tests'
    with app.app_context():
        group = services.create_group("Snug", PASSPHRASE)
        stored = db.session.get(Group, group.id).passphrase_hash
    assert stored.startswith("scrypt:")
    assert PASSPHRASE not in stored


def test_a_stored_hash_that_cannot_be_checked_opens_nothing_and_answers_no_500(table, app):
    """Issue 38: a restore took a hash of `scrypt:2:1:1`, which OpenSSL refuses, and every
    sign-in to that group answered 500. (A restore refuses such a hash now: test_restore_*.)"""
    with app.app_context():
        stored = db.session.scalar(select(Group.passphrase_hash).where(Group.slug == table.slug))
        method = stored.split("$", 1)[0]
        db.session.execute(
            update(Group)
            .where(Group.slug == table.slug)
            .values(passphrase_hash=stored.replace(method, "scrypt:2:1:1", 1))
        )
        db.session.commit()
    assert "wrong" in error(table.get(f"/groups/{table.slug}"), 401)


def test_after_one_check_the_credentials_are_remembered_by_a_digest_not_the_passphrase(
    table, app, monkeypatch
):
    table.ok("GET", f"/groups/{table.slug}")
    with app.app_context():
        [digest] = db.session.scalars(select(Credential.digest)).all()
    assert len(digest) == 64 and PASSPHRASE not in digest

    # The slow check is not made again: the remembered digest is enough.
    monkeypatch.setattr(passphrases, "check_password_hash", lambda *a: False)
    table.ok("GET", f"/groups/{table.slug}")
    error(table.get(f"/groups/{table.slug}", headers=basic(table.slug, "not it at all")), 401)


def test_a_remembered_credential_expires(table, app):
    table.ok("GET", f"/groups/{table.slug}")
    with app.app_context():
        db.session.execute(update(Credential).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    table.ok("GET", f"/groups/{table.slug}")  # checked slowly again, and remembered anew
    with app.app_context():
        assert len(db.session.scalars(select(Credential)).all()) == 1


def test_a_new_passphrase_forgets_the_old_one_and_every_remembered_credential(table, app):
    table.ok("GET", f"/groups/{table.slug}")
    with app.app_context():
        group = services.authenticate(table.slug, PASSPHRASE)
        services.change_passphrase(group, "a brand new one")
        assert db.session.scalars(select(Credential)).all() == []

    error(table.get(f"/groups/{table.slug}"), 401)
    new = basic(table.slug, "a brand new one")
    assert table.get(f"/groups/{table.slug}", headers=new).status_code == 200


def test_a_new_passphrase_needs_eight_characters_too(table, app):
    with app.app_context():
        group = services.authenticate(table.slug, PASSPHRASE)
        with pytest.raises(services.RuleError) as refused:
            services.change_passphrase(group, "short")
    assert refused.value.field == "passphrase"
    table.ok("GET", f"/groups/{table.slug}")


def test_the_limit_lifts_when_the_window_has_passed(table, app):
    wrong = basic(table.slug, "a wrong guess")
    for _ in range(5):
        error(table.get(f"/groups/{table.slug}", headers=wrong), 401)
    error(table.get(f"/groups/{table.slug}"), 429)

    with app.app_context():
        db.session.execute(update(Group).values(failed_since=utcnow() - auth.FAILURE_WINDOW))
        # This client's own count (by its address) has its window too.
        db.session.execute(update(AddressFailure).values(since=utcnow() - auth.ADDRESS_WINDOW))
        db.session.commit()

    table.ok("GET", f"/groups/{table.slug}")
    with app.app_context():
        assert db.session.scalar(select(Group.failed_logins)) == 0


def test_an_unknown_group_costs_the_same_slow_check_as_a_wrong_passphrase(app, monkeypatch):
    # Otherwise a quick 401 would tell a stranger which group addresses exist.
    checked = []
    real = passphrases.check_password_hash
    monkeypatch.setattr(
        passphrases, "check_password_hash", lambda h, p: checked.append(p) or real(h, p)
    )
    with app.app_context(), pytest.raises(services.Unauthorized):
        services.authenticate("no-such-group", "a guess at it")
    assert checked == ["a guess at it"]
