"""A shared phone keeps nothing of a group after "sign out" (issue 32): pages and API answers
that show a group's data are sent with ``Cache-Control: private, no-store`` (a Back button
then asks the server, which asks for the passphrase), and the form-token secret is renewed at
sign-in and sign-out, so a token copied before passes no form after."""

from __future__ import annotations

import re

import pytest

from tests.api.helpers import basic
from tests.web.pages import HAND_1, PASSPHRASE, Phone, html, table_of_four

PRIVATE = "private, no-store"


@pytest.fixture
def phone(client) -> Phone:
    phone = table_of_four(client)
    phone.start()
    phone.enter(HAND_1)
    return phone


def test_every_page_of_a_group_is_kept_by_no_cache(client, phone):
    group = f"/g/{phone.slug}"
    for path in (
        "/",  # the groups this phone has opened
        group,
        f"{group}?to=9999-12-31",
        f"{group}/invite",
        f"{group}/p/John",
        phone.board,
        phone.board,  # a second look: a kept page, answered the same way
        f"{phone.board}/hands",
        f"{phone.board}/hands/1",
        f"{phone.board}/hands/new",
        f"{phone.board}/history",
        f"{phone.board}/settle",
        f"{group}/s/new",
        f"{group}/s/999",  # not found, inside the group: the page names it
    ):
        response = client.get(path)
        assert response.headers["Cache-Control"] == PRIVATE, (path, response.status_code)


def test_pages_answered_to_a_phone_not_signed_in_are_kept_by_no_cache_either(app, phone):
    stranger = app.test_client()
    for path in (f"/g/{phone.slug}", phone.board, "/"):
        response = stranger.get(path)
        assert response.headers["Cache-Control"] == PRIVATE, path


def test_api_answers_are_kept_by_no_cache(client, phone):
    headers = basic(phone.slug, PASSPHRASE)
    for path in (f"/api/v1/groups/{phone.slug}", f"/api/v1/sessions/{phone.session_id}"):
        response = client.get(path, headers=headers)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == PRIVATE, path
    assert client.get(f"/api/v1/groups/{phone.slug}").headers["Cache-Control"] == PRIVATE  # 401


def test_static_files_and_downloads_keep_their_own(client, phone):
    page = html(client.get("/"))
    stylesheet = re.search(r'href="(/static/style\.css\?v=[^"]+)"', page).group(1)
    with client.get(stylesheet) as response:
        assert "max-age" in response.headers["Cache-Control"]
    download = client.get(f"/g/{phone.slug}/export.xlsx")
    assert download.headers["Cache-Control"] == PRIVATE


def test_after_signing_out_the_scoreboard_asks_for_the_passphrase(client, phone):
    assert client.get(phone.board).headers["Cache-Control"] == PRIVATE
    client.post(f"/g/{phone.slug}/sign-out")
    back = client.get(phone.board)  # what a Back button asks for, the page not being kept
    assert back.status_code == 401
    assert "John" not in html(back)


# --- The form-token secret ----------------------------------------------------------------------


def form_secret(client) -> str | None:
    with client.session_transaction() as session:
        return session.get("csrf_token")


def token_on(client, path: str = "/") -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html(client.get(path))).group(1)


@pytest.fixture
def guarded(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def test_signing_in_renews_the_form_token_secret(guarded, client):
    before_token = token_on(client)
    before = form_secret(client)
    made = client.post(
        "/groups",
        data={"create-name": "Pub", "create-passphrase": PASSPHRASE, "csrf_token": before_token},
    )
    assert made.status_code == 302
    slug = made.headers["Location"].split("/g/")[1].split("?")[0]
    after_token = token_on(client, f"/g/{slug}")
    assert form_secret(client) not in (None, before)

    # A token of before the sign-in passes no form now; the page's own does.
    stale = client.post(f"/g/{slug}/players", data={"name": "Enda", "csrf_token": before_token})
    assert stale.status_code == 400
    fresh = client.post(f"/g/{slug}/players", data={"name": "Enda", "csrf_token": after_token})
    assert fresh.status_code == 302


def test_opening_a_group_with_its_passphrase_renews_it_too(guarded, app, client):
    maker = app.test_client()
    made = maker.post(
        "/groups",
        data={"create-name": "Pub", "create-passphrase": PASSPHRASE, "csrf_token": token_on(maker)},
    )
    slug = made.headers["Location"].split("/g/")[1].split("?")[0]

    token = token_on(client)
    before = form_secret(client)
    opened = client.post(
        "/open", data={"open-group": slug, "open-passphrase": PASSPHRASE, "csrf_token": token}
    )
    assert opened.status_code == 302
    token_on(client, f"/g/{slug}")  # the next page makes the new one
    assert form_secret(client) not in (None, before)


def test_signing_out_renews_it(guarded, client):
    made = client.post(
        "/groups",
        data={
            "create-name": "Pub",
            "create-passphrase": PASSPHRASE,
            "csrf_token": token_on(client),
        },
    )
    slug = made.headers["Location"].split("/g/")[1].split("?")[0]
    token = token_on(client, f"/g/{slug}")
    signed_in = form_secret(client)

    out = client.post(f"/g/{slug}/sign-out", data={"csrf_token": token})
    assert out.status_code == 302
    assert form_secret(client) != signed_in
    # Whoever picks the phone up next cannot send a form with the token of before.
    refused = client.post(
        "/groups",
        data={"create-name": "Mine", "create-passphrase": PASSPHRASE, "csrf_token": token},
    )
    assert refused.status_code == 400
