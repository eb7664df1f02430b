"""A kept scoreboard answered in front of Flask (ledger/web/kept.py) is exactly Flask's answer,
and only ever the answer a phone may have: never stale, never another browser's, never past
a sign-out."""

from __future__ import annotations

import gzip
import re
import time

import pytest

from ledger.web.pagecache import scoreboards
from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html, table_of_four

GZIP = {"Accept-Encoding": "gzip", "Sec-Fetch-Site": "same-origin"}


@pytest.fixture
def phone(client) -> Phone:
    phone = table_of_four(client)
    phone.start()
    phone.enter(HAND_1)
    return phone


class Counted:
    """Counts the requests that reach Flask behind the layer."""

    def __init__(self, app) -> None:
        self.layer = app.extensions["ledger_kept_pages"]
        self.inner = self.layer.wsgi_app
        self.calls = 0
        self.layer.wsgi_app = self

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.inner(environ, start_response)


def open_group(app, slug: str):
    other = app.test_client()
    response = other.post("/open", data={"open-group": slug, "open-passphrase": PASSPHRASE})
    assert response.status_code == 302
    return other


def both_ways(app, browser, path: str, **kwargs):
    """The answer with the layer, then Flask's own for the same request."""
    layer = app.extensions["ledger_kept_pages"]
    kept = browser.get(path, **kwargs)
    layer.enabled = False
    try:
        flask = browser.get(path, **kwargs)
    finally:
        layer.enabled = True
    return kept, flask


def same_answer(kept, flask) -> None:
    assert kept.status_code == flask.status_code == 200
    assert kept.get_data() == flask.get_data()
    assert sorted(kept.headers.items()) == sorted(flask.headers.items())


@pytest.mark.parametrize(
    "headers",
    [
        {},
        GZIP,
        {"Accept-Encoding": "gzip", "Sec-Fetch-Site": "cross-site"},  # never compressed
        {"Accept-Encoding": "gzip;q=0, br", "Sec-Fetch-Site": "none"},
        {"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5"},
        {"Accept-Language": "de, fr;q=0.5"},
    ],
)
def test_a_kept_page_is_the_answer_flask_gives(app, phone, headers):
    other = open_group(app, phone.slug)
    other.get(phone.board, headers=headers)  # built and kept
    counted = Counted(app)
    kept, flask = both_ways(app, other, phone.board, headers=headers)
    assert counted.calls == 1  # the first of the two never reached Flask
    same_answer(kept, flask)


def test_the_language_switch_cookie_picks_the_kept_page_in_that_language(app, phone):
    other = open_group(app, phone.slug)
    other.set_cookie("lang", "nl")
    other.get(phone.board)
    counted = Counted(app)
    kept, flask = both_ways(app, other, phone.board, headers={"Accept-Language": "en"})
    assert counted.calls == 1
    same_answer(kept, flask)
    assert "Saldi" in html(kept)  # Dutch, as the cookie says, not the header


def test_a_compressed_kept_page_is_the_page_with_this_phones_own_token(app, phone):
    first, second = open_group(app, phone.slug), open_group(app, phone.slug)
    app.config["WTF_CSRF_ENABLED"] = True  # the test config leaves tokens out of forms
    for browser in (first, second):
        browser.get(phone.board)
    counted = Counted(app)
    mine = gzip.decompress(first.get(phone.board, headers=GZIP).get_data()).decode()
    theirs = gzip.decompress(second.get(phone.board, headers=GZIP).get_data()).decode()
    assert counted.calls == 0
    token = re.compile(r'name="csrf_token" value="([^"]+)"')
    assert set(token.findall(mine)).isdisjoint(token.findall(theirs))
    # The token a kept page carries is one the forms accept: undo the hand from this page.
    undo = {"csrf_token": token.findall(mine)[0], "number": "1"}
    assert first.post(f"{phone.board}/undo", data=undo).status_code == 302
    assert "Hand 1 is undone." in html(first.get(phone.board))


def test_a_new_hand_is_built_in_front_of_flask_and_then_kept(app, phone):
    other = open_group(app, phone.slug)
    before = html(other.get(phone.board))
    counted = Counted(app)
    assert phone.enter(HAND_2, out="Enda").status_code == 302  # through Flask: one call
    after = html(other.get(phone.board))  # a new version: built by the layer
    again = html(other.get(phone.board))  # kept
    assert counted.calls == 1
    assert after != before and again == after
    assert "Hand 3" in after  # the next hand to play, after hands 1 and 2


@pytest.mark.parametrize(
    "headers",
    [{}, GZIP, {"Accept-Language": "nl-NL,nl;q=0.9"}, {"Accept-Encoding": "gzip"}],
)
def test_a_page_built_in_front_of_flask_is_the_page_flask_builds(app, phone, headers):
    other = open_group(app, phone.slug)
    other.get(phone.board, headers=headers)
    assert phone.enter(HAND_2, out="Enda").status_code == 302
    counted = Counted(app)
    built = other.get(phone.board, headers=headers)
    assert counted.calls == 0
    with app.app_context():
        scoreboards()._pages.clear()  # so that Flask builds the same version again
    layer = app.extensions["ledger_kept_pages"]
    layer.enabled = False
    try:
        flask = other.get(phone.board, headers=headers)
    finally:
        layer.enabled = True
    assert counted.calls == 1
    same_answer(built, flask)


@pytest.mark.parametrize(
    "path", ["{board}?saved=1", "{board}/", "/g/{slug}/s/0{session}", "{board}/hands"]
)
def test_other_addresses_are_flasks(app, phone, path):
    other = open_group(app, phone.slug)
    address = path.format(board=phone.board, slug=phone.slug, session=phone.session_id)
    other.get(address)
    counted = Counted(app)
    other.get(address)
    assert counted.calls == 1


def test_a_head_request_and_a_post_are_flasks(app, phone):
    other = open_group(app, phone.slug)
    other.get(phone.board)
    counted = Counted(app)
    other.head(phone.board)
    other.post(phone.board)
    assert counted.calls == 2


def test_a_phone_not_signed_in_is_never_served_a_kept_page(app, phone):
    phone.client.get(phone.board)  # kept for the table
    stranger = app.test_client()
    assert stranger.get(phone.board).status_code == 401
    # A cookie copied from a signed-in phone, then re-signed with another key: refused.
    cookie = phone.client.get_cookie("session")
    assert cookie is not None
    forged = app.test_client()
    forged.set_cookie("session", cookie.value[:-2] + ("AA" if cookie.value[-2:] != "AA" else "BB"))
    assert forged.get(phone.board).status_code == 401


def test_signing_out_every_phone_stops_the_kept_page_at_once(app, phone):
    other = open_group(app, phone.slug)
    assert other.get(phone.board).status_code == 200
    assert other.get(phone.board).status_code == 200  # kept
    response = phone.client.post(f"/g/{phone.slug}/sign-out-everywhere")
    assert response.status_code in (302, 303), html(response)
    assert other.get(phone.board).status_code == 401


def test_another_groups_session_is_not_found_not_a_kept_page(app, phone):
    other = Phone(app.test_client())
    other.create_group("Other crowd")
    phone.client.get(phone.board)
    assert other.client.get(f"/g/{other.slug}/s/{phone.session_id}").status_code == 404
    assert other.client.get(phone.board).status_code == 401


def test_a_message_waiting_for_the_phone_is_shown_by_flask_on_the_page(app, phone):
    other = open_group(app, phone.slug)
    other.get(phone.board)
    # Undoing a hand that is no longer the last: refused, with a message for the next page.
    phone.enter(HAND_2, out="Enda")
    other.get(phone.board)
    refused = other.post(f"{phone.board}/undo", data={"number": "1"})
    assert refused.status_code == 302
    counted = Counted(app)
    page = html(other.get(phone.board))
    assert counted.calls == 1
    assert "flash" in page and 'role="status"' in page


def test_an_expired_cookie_is_not_read(app, phone):
    other = open_group(app, phone.slug)
    other.get(phone.board)
    other.get(phone.board)
    app.permanent_session_lifetime = 0  # any cookie signed a second ago is too old
    time.sleep(1.1)
    counted = Counted(app)
    assert other.get(phone.board).status_code == 401
    assert counted.calls == 1


def test_trouble_in_front_of_flask_leaves_the_answer_to_flask(app, phone, monkeypatch, caplog):
    from ledger.web import access

    other = open_group(app, phone.slug)
    expected = html(other.get(phone.board))

    def broken(*args, **kwargs):
        raise RuntimeError("the read failed")

    monkeypatch.setattr(access, "page_access", broken)
    counted = Counted(app)
    assert html(other.get(phone.board)) == expected
    assert counted.calls == 1
    assert "a kept page could not be answered" in caplog.text


def test_a_page_kept_under_one_prefix_is_never_sent_under_another(app, phone):
    other = open_group(app, phone.slug)
    other.get(phone.board)
    plain = html(other.get(phone.board))  # kept, links without a prefix
    counted = Counted(app)
    prefixed = html(other.get(phone.board, base_url="http://localhost/ledger"))
    assert counted.calls == 0  # not the page kept for the other prefix: built for it
    assert 'href="/ledger/static/style.css' in prefixed
    assert 'href="/static/style.css' in plain
    kept, flask = both_ways(app, other, phone.board, base_url="http://localhost/ledger")
    assert counted.calls == 1
    same_answer(kept, flask)


@pytest.mark.parametrize(
    "setting", [{"SERVER_NAME": "localhost"}, {"SESSION_REFRESH_EACH_REQUEST": True}]
)
def test_settings_the_layer_does_not_follow_leave_every_page_to_flask(app, phone, setting):
    other = open_group(app, phone.slug)
    other.get(phone.board)
    app.config.update(setting)
    counted = Counted(app)
    assert other.get(phone.board).status_code == 200
    assert counted.calls == 1


def test_a_build_that_changes_the_phones_cookie_is_left_to_flask(app, phone, monkeypatch):
    """The layer sends no cookie: a build that writes to the phone's session (none does
    today) is answered by Flask, which sends the cookie with the page."""
    from flask import session

    from ledger.web import sessions

    other = open_group(app, phone.slug)
    other.get(phone.board)
    assert phone.enter(HAND_2, out="Enda").status_code == 302
    drawn = sessions._scoreboard

    def writes(*args, **kwargs):
        session["seen_by_the_build"] = True
        return drawn(*args, **kwargs)

    monkeypatch.setattr(sessions, "_scoreboard", writes)
    counted = Counted(app)
    answer = other.get(phone.board)
    assert counted.calls == 1  # built in front of Flask, then by Flask for the cookie
    assert answer.status_code == 200 and "Hand 3" in html(answer)
    assert "Set-Cookie" in answer.headers
