"""Who may do what, as a security reviewer would read it (issue 11; ledger/services/auth.py).

Each test is one rule, tried the way an attacker or a player would notice it: by status
codes, headers, pages and what is stored. Requests come from addresses of their own
(``REMOTE_ADDR``) where the rule is about addresses.
"""

from __future__ import annotations

import hashlib
import re
import time
from contextlib import contextmanager
from html import unescape

import pytest
from itsdangerous import TimestampSigner
from sqlalchemy import select, text, update

from ledger.extensions import db
from ledger.models import AccessGrant, Group, utcnow
from ledger.services import auth
from ledger.services.auth import grants
from tests.api.helpers import PASSPHRASE, Table, basic

GUESSER = "203.0.113.7"
ANOTHER_GUESSER = "203.0.113.8"
PUB = "198.51.100.20"  # the table's phones, behind the pub's NAT


def at(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guess(table: Table, address: str, slug: str | None = None, passphrase="a wrong guess"):
    slug = slug or table.slug
    return table.get(f"/groups/{slug}", headers=basic(slug, passphrase), **at(address))


def lock(table: Table) -> None:
    """Lock the group: wrong guesses from two addresses, each up to its own limit."""
    for address in (GUESSER, ANOTHER_GUESSER):
        for _ in range(auth.ADDRESS_GROUP_MAX_FAILURES):
            assert guess(table, address).status_code == 401
    assert auth.ADDRESS_GROUP_MAX_FAILURES * 2 >= auth.MAX_FAILURES


def token_of(table: Table, address: str = PUB) -> str:
    response = table.post(f"/groups/{table.slug}/tokens", {}, **at(address))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def open_form(client, group: str, passphrase: str, address: str = PUB):
    data = {"open-group": group, "open-passphrase": passphrase}
    return client.post("/open", data=data, **at(address))


def page_text(response) -> str:
    """What a person reads on the page, numbers (seconds to wait) aside."""
    body = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return re.sub(r"\d+", "#", " ".join(unescape(body).split()))


def web_phone(app, table: Table, address: str = PUB):
    """A browser signed in to the table's group with its passphrase, on the open form."""
    phone = app.test_client()
    assert open_form(phone, table.slug, PASSPHRASE, address).status_code == 302
    assert phone.get(f"/g/{table.slug}", **at(address)).status_code == 200
    return phone


# --- The lockout is not an oracle -------------------------------------------------------------


def test_a_right_passphrase_during_a_lockout_looks_like_a_wrong_one(table):
    table.ok("GET", f"/groups/{table.slug}")  # a phone's credentials, remembered
    lock(table)

    right = guess(table, PUB, passphrase=PASSPHRASE)
    wrong = guess(table, PUB)
    assert right.status_code == wrong.status_code == 429
    assert int(right.headers["Retry-After"]) > 0 and int(wrong.headers["Retry-After"]) > 0
    assert right.get_json() == wrong.get_json()


def test_a_right_passphrase_from_an_address_that_guessed_too_often_looks_like_a_wrong_one(table):
    table.ok("GET", f"/groups/{table.slug}", **{})  # remembered for every address
    for _ in range(auth.ADDRESS_GROUP_MAX_FAILURES):
        assert guess(table, GUESSER).status_code == 401

    right = guess(table, GUESSER, passphrase=PASSPHRASE)
    wrong = guess(table, GUESSER)
    assert right.status_code == wrong.status_code == 429
    assert right.get_json() == wrong.get_json()


def test_a_right_passphrase_during_a_lockout_looks_like_a_wrong_one_on_the_open_form(app, table):
    web_phone(app, table)  # remembered: the quick way in, were it looked up first
    lock(table)

    right = open_form(app.test_client(), table.slug, PASSPHRASE)
    wrong = open_form(app.test_client(), table.slug, "a wrong guess")
    assert right.status_code == wrong.status_code == 429
    assert right.headers["Retry-After"] and wrong.headers["Retry-After"]
    assert page_text(right) == page_text(wrong)
    assert "Too many wrong passphrases for this group" in page_text(right)


def test_signed_in_phones_and_tokens_keep_working_during_a_lockout(app, table):
    phone = web_phone(app, table)
    token = token_of(table)
    lock(table)

    assert phone.get(f"/g/{table.slug}", **at(PUB)).status_code == 200
    assert table.get(f"/groups/{table.slug}", headers=bearer(token), **at(PUB)).status_code == 200
    added = table.post(
        f"/groups/{table.slug}/players", {"name": "Enda"}, headers=bearer(token), **at(GUESSER)
    )
    assert added.status_code == 201


def test_wrong_guesses_for_a_made_up_group_are_answered_as_for_a_real_one(table):
    """Issue 38: the sixth wrong guess from one address answered 429 for a real group and 401
    for a made-up slug, and a locked group 429 where a made-up one went on answering 401."""

    def answers(slug: str, addresses: tuple[str, ...]) -> list[tuple[int, bool]]:
        seen = []
        for address in addresses:
            for _ in range(auth.ADDRESS_GROUP_MAX_FAILURES + 1):
                response = guess(table, address, slug=slug)
                seen.append((response.status_code, "Retry-After" in response.headers))
        return seen

    addresses = (GUESSER, ANOTHER_GUESSER, PUB)
    real = answers(table.slug, addresses)
    made_up = answers("thursday-crowd-0a1b2c", addresses)
    assert made_up == real
    tries = auth.ADDRESS_GROUP_MAX_FAILURES
    assert real[:tries] == [(401, False)] * tries and real[tries] == (429, True)
    assert real[-1] == (429, True)  # the third address: the group (or the name) is locked


def test_on_the_open_form_a_name_no_group_has_is_answered_as_a_groups_name(app, client):
    Table(client, name="Thursday Crowd", passphrase="the right one")

    def answers(name: str) -> list[int]:
        browser = app.test_client()
        tries = auth.ADDRESS_GROUP_MAX_FAILURES + 2
        return [
            open_form(browser, name, "a wrong guess", GUESSER).status_code for _ in range(tries)
        ]

    real = answers("Thursday Crowd")
    assert answers("Friday Crowd") == real
    assert real[-1] == 429


# --- One address is slowed before it can lock a table out --------------------------------------


def test_one_address_is_refused_before_it_can_lock_the_group_out(table):
    statuses = [guess(table, GUESSER).status_code for _ in range(auth.MAX_FAILURES + 3)]
    tries = auth.ADDRESS_GROUP_MAX_FAILURES
    assert statuses == [401] * tries + [429] * (len(statuses) - tries)
    assert tries < auth.MAX_FAILURES

    # The table's phones, elsewhere, still get in with the passphrase.
    assert guess(table, PUB, passphrase=PASSPHRASE).status_code == 200


def test_one_address_guessing_across_groups_and_made_up_slugs_is_refused_with_a_time_to_wait(
    table,
):
    for n in range(auth.ADDRESS_MAX_FAILURES):
        assert guess(table, GUESSER, slug=f"made-up-{n}").status_code == 401
    refused = guess(table, GUESSER, slug="made-up-again")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= auth.ADDRESS_WINDOW.total_seconds()
    # Refused before any check: the right passphrase of a real group waits as well.
    assert guess(table, GUESSER, passphrase=PASSPHRASE).status_code == 429
    # Another address is not slowed by it.
    assert guess(table, PUB, slug="made-up-0").status_code == 401
    assert guess(table, PUB, passphrase=PASSPHRASE).status_code == 200


def test_the_address_count_holds_across_worker_processes_because_it_is_in_the_database(app, table):
    for _ in range(auth.ADDRESS_GROUP_MAX_FAILURES):
        guess(table, GUESSER)
    with app.app_context():
        keys = db.session.scalars(text("SELECT key FROM address_failures")).all()
    assert any(GUESSER in key for key in keys)


def test_a_right_passphrase_clears_the_addresss_count_for_that_group(table):
    for _ in range(auth.ADDRESS_GROUP_MAX_FAILURES - 1):
        assert guess(table, PUB).status_code == 401
    assert guess(table, PUB, passphrase=PASSPHRASE).status_code == 200
    for _ in range(auth.ADDRESS_GROUP_MAX_FAILURES - 1):
        assert guess(table, PUB).status_code == 401


# --- Opening by name ----------------------------------------------------------------------------


def test_opening_by_name_counts_no_failure_against_another_group_of_that_name(app, client):
    first = Table(client, name="Same Name", passphrase="first passphrase")
    second = Table(client, name="Same Name", passphrase="second passphrase")

    for _ in range(3):
        opened = open_form(app.test_client(), "Same Name", "second passphrase")
        assert opened.status_code == 302
        assert f"/g/{second.slug}" in opened.headers["Location"]
    with app.app_context():
        failures = dict(db.session.execute(select(Group.slug, Group.failed_logins)).all())
    assert failures[first.slug] == 0
    assert first.get(f"/groups/{first.slug}").status_code == 200


# --- Access tokens -----------------------------------------------------------------------------


def test_a_token_is_made_with_the_passphrase_and_stored_only_as_its_sha256(app, table):
    token = token_of(table)
    with app.app_context():
        stored = db.session.scalars(select(AccessGrant.token_hash)).all()
    assert stored == [hashlib.sha256(token.encode()).hexdigest()]
    assert len(token) >= 40


def test_a_token_opens_every_call_of_its_group_and_nothing_of_another(table, other):
    token = token_of(table)
    session = table.session()
    headers = bearer(token)
    assert table.get(f"/groups/{table.slug}", headers=headers).status_code == 200
    assert table.get(f"/sessions/{session['id']}", headers=headers).status_code == 200
    assert table.get(f"/groups/{other.slug}", headers=headers).status_code == 404
    other_session = other.session()
    assert table.get(f"/sessions/{other_session['id']}", headers=headers).status_code == 404


def test_a_token_cannot_make_another_token(table):
    token = token_of(table)
    again = table.post(f"/groups/{table.slug}/tokens", {}, headers=bearer(token))
    assert again.status_code == 401


def test_a_revoked_token_is_refused_at_once(table):
    token = token_of(table)
    keep = token_of(table)
    revoked = table.delete(f"/groups/{table.slug}/tokens/current", headers=bearer(token))
    assert revoked.status_code == 204
    assert table.get(f"/groups/{table.slug}", headers=bearer(token)).status_code == 401
    assert table.get(f"/groups/{table.slug}", headers=bearer(keep)).status_code == 200


def test_a_new_passphrase_ends_every_token(app, table):
    token = token_of(table)
    with app.app_context():
        auth.change_passphrase(auth.authenticate(table.slug, PASSPHRASE), "a brand new one")
    assert table.get(f"/groups/{table.slug}", headers=bearer(token)).status_code == 401


def test_made_up_tokens_are_401_and_count_against_their_address(table):
    for n in range(auth.ADDRESS_MAX_FAILURES):
        response = table.get(f"/groups/{table.slug}", headers=bearer(f"made-up-{n}"), **at(GUESSER))
        assert response.status_code == 401
    refused = table.get(f"/groups/{table.slug}", headers=bearer("one more"), **at(GUESSER))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0


# --- Slow checks cannot starve the phones ------------------------------------------------------


@contextmanager
def every_slot_taken(app):
    with app.app_context():
        slots = auth.hash_slots()
    taken = 0
    while slots.acquire(blocking=False):
        taken += 1
    try:
        yield
    finally:
        for _ in range(taken):
            slots.release()


def test_when_every_slow_check_is_busy_a_guess_is_refused_at_once_and_phones_still_answer(
    app, table
):
    token = token_of(table)
    phone = web_phone(app, table)
    table.ok("GET", f"/groups/{table.slug}")  # remembered

    with every_slot_taken(app):
        started = time.monotonic()
        refused = guess(table, GUESSER, slug="made-up-slug")
        assert time.monotonic() - started < 2
        assert refused.status_code == 503
        assert int(refused.headers["Retry-After"]) > 0
        assert refused.get_json()["error"]["message"]
        assert open_form(app.test_client(), "made-up-slug", "a guess").status_code == 503

        assert phone.get(f"/g/{table.slug}").status_code == 200
        assert table.get(f"/groups/{table.slug}", headers=bearer(token)).status_code == 200
        table.ok("GET", f"/groups/{table.slug}")  # remembered: no slow check needed

    assert guess(table, GUESSER, slug="made-up-slug").status_code == 401  # a slot again


def test_slow_checks_at_once_are_as_many_as_the_cores_unless_set(app):
    import os

    with app.app_context():
        slots = auth.hash_slots()
    taken = 0
    while slots.acquire(blocking=False):
        taken += 1
    for _ in range(taken):
        slots.release()
    assert taken == (os.cpu_count() or 2)


# --- Browsers: signing out, every phone, invite links ------------------------------------------


def test_signing_out_revokes_the_cookie_so_a_copy_of_it_opens_nothing(app, table):
    phone = web_phone(app, table)
    copy = app.test_client()
    copy.set_cookie("session", phone.get_cookie("session").value)
    assert copy.get(f"/g/{table.slug}").status_code == 200

    phone.post(f"/g/{table.slug}/sign-out")
    assert phone.get(f"/g/{table.slug}").status_code == 401
    assert copy.get(f"/g/{table.slug}").status_code == 401


def invite_path(phone, slug: str) -> str:
    page = phone.get(f"/g/{slug}/invite").get_data(as_text=True)
    link = re.search(r'<textarea id="invite-link"[^>]*>([^<]+)</textarea>', page).group(1)
    return "/join/" + unescape(link).split("/join/", 1)[1]


def test_sign_out_every_phone_ends_every_sign_in_and_every_invite_link(app, table):
    host = web_phone(app, table)
    other = web_phone(app, table)
    link = invite_path(host, table.slug)
    token = token_of(table)

    page = host.get(f"/g/{table.slug}").get_data(as_text=True)
    assert f'action="/g/{table.slug}/sign-out-everywhere"' in page
    signed_out = host.post(f"/g/{table.slug}/sign-out-everywhere")
    assert signed_out.status_code == 302

    assert other.get(f"/g/{table.slug}").status_code == 401
    late = app.test_client()
    assert late.get(link).status_code == 404
    assert late.get(f"/g/{table.slug}").status_code == 401
    assert host.get(f"/g/{table.slug}").status_code == 200  # who pressed it stays in
    assert table.get(f"/groups/{table.slug}", headers=bearer(token)).status_code == 200
    # A new link works again.
    newcomer = app.test_client()
    assert newcomer.get(invite_path(host, table.slug)).status_code == 302
    assert newcomer.get(f"/g/{table.slug}").status_code == 200


def invite_made_ago(app, slug: str, seconds: int, monkeypatch) -> str:
    """The invite link the invite page would have shown ``seconds`` ago."""
    real = TimestampSigner.get_timestamp
    with app.app_context(), monkeypatch.context() as m:
        m.setattr(TimestampSigner, "get_timestamp", lambda self: real(self) - seconds)
        group = db.session.scalars(select(Group).where(Group.slug == slug)).one()
        return "/join/" + auth.invite_token(group.id, group.auth_epoch, group.invite_epoch)


def test_an_invite_link_expires_after_its_lifetime_and_says_so(app, table, monkeypatch):
    host = web_phone(app, table)
    week = 7 * 24 * 3600
    assert app.config["LEDGER_INVITE_LIFETIME_DAYS"] == 7
    shown = invite_path(host, table.slug)
    assert app.test_client().get(shown).status_code == 302
    old = invite_made_ago(app, table.slug, week + 60, monkeypatch)
    young = invite_made_ago(app, table.slug, week - 60, monkeypatch)

    guest = app.test_client()
    expired = guest.get(old)
    assert expired.status_code == 410
    assert "This invite link has expired" in page_text(expired)
    assert "works for # days" in page_text(expired)
    assert guest.get(f"/g/{table.slug}").status_code == 401
    assert guest.get(young).status_code == 302


def test_the_invite_lifetime_is_a_setting(app, table, monkeypatch):
    app.config["LEDGER_INVITE_LIFETIME_DAYS"] = 1
    old = invite_made_ago(app, table.slug, 2 * 86400, monkeypatch)
    assert app.test_client().get(old).status_code == 410


def test_the_invite_lifetime_comes_from_the_environment(tmp_path, monkeypatch):
    from ledger import create_app
    from ledger.config import ConfigError

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("LEDGER_INVITE_LIFETIME_DAYS", "2")
    made = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert made.config["LEDGER_INVITE_LIFETIME_DAYS"] == 2
    monkeypatch.setenv("LEDGER_INVITE_LIFETIME_DAYS", "a week")
    with pytest.raises(ConfigError, match="LEDGER_INVITE_LIFETIME_DAYS"):
        create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def test_pages_that_show_an_invite_link_are_not_cached(app, table):
    host = web_phone(app, table)
    assert host.get(f"/g/{table.slug}/invite").headers["Cache-Control"] == "private, no-store"
    refused = host.post(f"/g/{table.slug}/passphrase", data={"current_passphrase": "x"})
    assert refused.status_code == 422
    assert refused.headers["Cache-Control"] == "private, no-store"


def test_browsers_unused_for_longer_than_a_cookie_lives_lose_their_grant(app, table):
    web_phone(app, table)
    with app.app_context():
        db.session.execute(update(AccessGrant).values(seen_at=utcnow() - grants._idle_limit()))
        db.session.commit()
    web_phone(app, table)  # a new sign-in prunes the unused one
    with app.app_context():
        assert len(db.session.scalars(select(AccessGrant)).all()) == 1


def test_an_ipv6_address_is_counted_by_its_64_so_changing_the_last_bits_does_not_escape(table):
    for n in range(auth.ADDRESS_GROUP_MAX_FAILURES):
        assert guess(table, f"2001:db8:1:2::{n + 1}").status_code == 401
    assert guess(table, "2001:db8:1:2:ffff::9").status_code == 429
    assert guess(table, "2001:db8:1:3::1", passphrase=PASSPHRASE).status_code == 200


def test_signing_in_again_replaces_the_earlier_sign_in_so_an_old_copy_dies_with_it(app, table):
    phone = web_phone(app, table)
    copy = app.test_client()
    copy.set_cookie("session", phone.get_cookie("session").value)
    assert open_form(phone, table.slug, PASSPHRASE).status_code == 302  # signed in again
    phone.post(f"/g/{table.slug}/sign-out")
    assert copy.get(f"/g/{table.slug}").status_code == 401
