"""What the pages keep out: other groups, forged forms, scripts in names, framing, sniffing."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

from tests.web.pages import HAND_1, PASSPHRASE, Phone, html, table_of_four

SCRIPT = "<script>alert(1)</script>"


def test_pages_send_a_strict_content_security_policy_and_friends(client):
    for path in ("/", "/no-such-page", "/static/style.css"):
        response = client.get(path)
        policy = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "script-src 'self'" in policy
        assert "style-src 'self'" in policy
        assert "img-src 'self' data:" in policy
        assert "unsafe-inline" not in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        response.close()


def test_no_page_has_an_inline_script_or_style(client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    board = phone.start()
    phone.enter(HAND_1)
    for path in ("/", f"/g/{phone.slug}", board, f"{board}/hands/new", f"{board}/settle"):
        page = html(client.get(path))
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), path
        assert not re.search(r"\son\w+=", page), path  # no onclick= and the like
        assert "<style" not in page and " style=" not in page, path


def test_a_player_called_script_is_shown_as_text_everywhere(client):
    phone = Phone(client)
    phone.create_group(SCRIPT)
    board = phone.start(players=(SCRIPT, "John"), dealer="John")
    phone.seats = [SCRIPT, "John"]
    response = phone.enter({SCRIPT: "J 10", "John": "A 3"})
    assert response.status_code == 302, html(response)
    for path in (
        "/",
        f"/g/{phone.slug}",
        board,
        f"{board}/hands/1",
        f"{board}/hands/1/edit",
        f"{board}/hands/new",
        f"{board}/settle",
        f"/g/{phone.slug}/s/new",
        f"/g/{phone.slug}/invite",
    ):
        page = html(client.get(path))
        assert SCRIPT not in page, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, path


def test_a_form_without_its_csrf_token_is_refused(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    refused = client.post("/groups", data={"create-name": "Pub", "create-passphrase": "pints4all"})
    assert refused.status_code == 400
    assert "reload the page and try again" in html(refused)

    start = html(client.get("/"))
    token = re.search(r'name="csrf_token" value="([^"]+)"', start).group(1)
    accepted = client.post(
        "/groups",
        data={"create-name": "Pub", "create-passphrase": "pints4all", "csrf_token": token},
    )
    assert accepted.status_code == 302


def test_every_form_on_a_page_carries_the_csrf_token(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    phone = Phone(client)
    start = html(client.get("/"))
    token = re.search(r'name="csrf_token" value="([^"]+)"', start).group(1)
    client.post(
        "/groups",
        data={"create-name": "Pub", "create-passphrase": "pints4all", "csrf_token": token},
    )
    phone.slug = html(client.get("/")).split('href="/g/')[1].split('"')[0]
    for path in ("/", f"/g/{phone.slug}", f"/g/{phone.slug}/invite", f"/g/{phone.slug}/s/new"):
        page = html(client.get(path))
        forms = re.findall(r"<form[^>]*method=\"post\".*?</form>", page, re.S)
        assert forms, path
        for form in forms:
            assert 'name="csrf_token"' in form, (path, form[:200])


def test_another_groups_session_is_a_friendly_404_that_shows_nothing_of_it(app):
    ours = Phone(app.test_client())
    ours.create_group("Ours")
    ours.add_players("Enda", "John")
    theirs = Phone(app.test_client())
    theirs.create_group("Theirs")
    their_board = theirs.start(players=("Secretname", "Hidden"), dealer="Hidden")
    theirs.seats = ["Secretname", "Hidden"]
    theirs.enter({"Secretname": "J 10", "Hidden": "A 3"})

    for path in (
        f"/g/{ours.slug}/s/{theirs.session_id}",
        f"/g/{ours.slug}/s/{theirs.session_id}/hands/1",
        f"/g/{ours.slug}/s/{theirs.session_id}/hands/1/edit",
        f"/g/{ours.slug}/s/{theirs.session_id}/hands/new",
        f"/g/{ours.slug}/s/{theirs.session_id}/settle",
        f"/g/{ours.slug}/s/{theirs.session_id}/version.json",
        f"/g/{ours.slug}/s/{theirs.session_id}/export.xlsx",
    ):
        response = ours.client.get(path)
        assert response.status_code == 404, path
        page = html(response)
        assert "Nothing here" in page
        assert "Secretname" not in page and "Theirs" not in page
        assert "Traceback" not in page
        assert theirs.slug not in page
        # The way back is our own group (the address's slug, which this phone opened) only.
        if path.endswith(("/hands/1", "/settle")):
            assert f'href="/g/{ours.slug}"' in page
            assert f'href="/g/{ours.slug}/s/{theirs.session_id}"' not in page

    # Their own address needs their passphrase: 401, still nothing of theirs.
    response = ours.client.get(their_board)
    assert response.status_code == 401
    assert "Secretname" not in html(response) and "Theirs" not in html(response)
    undo = ours.client.post(f"/g/{ours.slug}/s/{theirs.session_id}/undo", data={"number": "1"})
    assert undo.status_code == 404
    assert theirs.client.get(f"{their_board}/version.json").get_json()["hands_played"] == 1


def test_bad_addresses_are_friendly_pages(client):
    phone = Phone(client)
    phone.create_group()
    for path in (
        f"/g/{phone.slug}/s/999999",
        f"/g/{phone.slug}/s/abc",
        f"/g/{phone.slug}/s/1/hands/7",
        "/g/no-such-group-000000/s/1",
        "/join/not-a-token",
    ):
        response = client.get(path)
        assert response.status_code in (401, 404), path
        assert response.content_type.startswith("text/html")
        assert "Traceback" not in html(response)


def test_a_missing_hand_leads_back_to_its_scoreboard_and_group(app, client):
    phone = Phone(client)
    phone.create_group("Ours")
    phone.add_players("Enda", "John")
    board = phone.start(players=("Enda", "John"), dealer="John")
    response = client.get(f"{board}/hands/99")
    assert response.status_code == 404
    page = html(response)
    assert f'href="{board}"' in page and "Back to the scoreboard of Spot #" in page
    assert f'href="/g/{phone.slug}"' in page and "Back to Ours" in page
    # The same address on a phone that has not opened the group: nothing about it.
    stranger = app.test_client().get(f"/g/{phone.slug}/no-such-page")
    assert stranger.status_code == 404
    assert "Ours" not in html(stranger).replace(phone.slug, "")  # the typed address aside
    assert 'href="/g/' not in html(stranger)
    assert "Back to the start" in html(stranger)


def test_an_unknown_group_and_a_signed_out_group_look_the_same(app, client):
    phone = Phone(client)
    phone.create_group()
    stranger = app.test_client()
    known = stranger.get(f"/g/{phone.slug}")
    unknown = stranger.get("/g/nobody-at-all-123456")
    assert known.status_code == unknown.status_code == 401
    assert "Thursday crowd" not in html(known)


def test_an_invite_link_opens_the_group_until_the_passphrase_changes(app, client):
    phone = Phone(client)
    phone.create_group()
    invite = html(client.get(f"/g/{phone.slug}/invite"))
    link = re.search(r'<textarea id="invite-link"[^>]*>([^<]+)</textarea>', invite).group(1)
    assert "<svg" in invite and 'role="img"' in invite  # the QR code, inline

    guest = app.test_client()
    joined = guest.get(urlsplit(link).path)
    assert joined.status_code == 302
    assert guest.get(f"/g/{phone.slug}").status_code == 200

    new = {"new_passphrase": "new-pints-4", "new_passphrase_again": "new-pints-4"}
    changed = client.post(
        f"/g/{phone.slug}/passphrase", data={"current_passphrase": PASSPHRASE, **new}
    )
    assert changed.status_code == 302
    assert client.get(f"/g/{phone.slug}").status_code == 200  # the phone that changed it
    assert guest.get(f"/g/{phone.slug}").status_code == 401  # everyone else is signed out
    latecomer = app.test_client()
    void = latecomer.get(urlsplit(link).path)
    assert void.status_code == 404
    assert "no longer works" in html(void)
    assert latecomer.get(f"/g/{phone.slug}").status_code == 401


def invite_link_of(client, slug: str, **kwargs) -> str:
    page = html(client.get(f"/g/{slug}/invite", **kwargs))
    return unescape(re.search(r'<textarea id="invite-link"[^>]*>([^<]+)</textarea>', page).group(1))


def test_an_invite_made_on_the_laptop_itself_names_an_address_other_phones_can_reach(
    app, client, monkeypatch
):
    phone = Phone(client)
    phone.create_group()
    monkeypatch.setattr("ledger.network.lan_address", lambda: "192.168.1.20")
    app.config["LEDGER_LISTEN_HOST"] = "0.0.0.0"  # ledger serve on every interface
    assert invite_link_of(client, phone.slug).startswith("http://192.168.1.20/join/")
    # Served on this computer only: no phone could follow the LAN address either.
    app.config["LEDGER_LISTEN_HOST"] = "127.0.0.1"
    assert invite_link_of(client, phone.slug).startswith("http://localhost/join/")
    # No network at all: the link stays as the page was opened.
    app.config["LEDGER_LISTEN_HOST"] = "0.0.0.0"
    monkeypatch.setattr("ledger.network.lan_address", lambda: "127.0.0.1")
    assert invite_link_of(client, phone.slug).startswith("http://localhost/join/")


def test_a_forged_invite_token_opens_nothing(app, client):
    from itsdangerous import URLSafeSerializer

    phone = Phone(client)
    phone.create_group()
    forged = URLSafeSerializer("not-the-key", salt="pub-ledger.invite").dumps({"g": 1, "e": 0})
    guest = app.test_client()
    assert guest.get(f"/join/{forged}").status_code == 404
    assert guest.get(f"/g/{phone.slug}").status_code == 401


def test_the_language_switch_only_goes_back_to_this_site(client):
    response = client.post("/language", data={"lang": "nl", "next": "https://evil.example/"})
    assert response.headers["Location"] == "/"
    response = client.post("/language", data={"lang": "nl", "next": "//evil.example/x"})
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("host", ["a..b", "x" * 64 + ".example", "."])
def test_a_host_no_address_can_be_built_on_is_refused_cleanly_everywhere(app, client, host):
    """Issue 38: `a..b` or a label over 63 characters answered 500 on every page and /healthz
    (the error page built its links for that host). Refused with 400, or not found."""
    phone = table_of_four(client)
    board = phone.start()
    paths = ["/", "/healthz", "/static/style.css", "/favicon.ico", f"/g/{phone.slug}", board]
    paths += [f"{board}/settle", f"{board}/hands/new", "/api/v1/games", "/no-such-page"]
    for path in paths:
        response = client.get(path, headers={"Host": host})
        response.close()
        assert response.status_code == 400, (path, response.status_code)
    for path in ("/language", "/open", f"{board}/undo"):
        response = client.post(path, data={"next": "/"}, headers={"Host": host})
        assert response.status_code == 400, (path, response.status_code)


@pytest.mark.parametrize(
    "target", ["/g/x\nLocation: //evil.example", "/a\r\nb", "/\n/evil.example", "/a\x85b"]
)
def test_a_next_address_holding_a_line_break_is_ignored(client, target):
    """Issue 38: a newline in `next` (the language switch, the open form, a crafted link)
    answered 500: a Location header cannot hold one."""
    response = client.post("/language", data={"lang": "nl", "next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    Phone(client).create_group("Snug")
    opened = client.post(
        "/open",
        data={"open-group": "Snug", "open-passphrase": PASSPHRASE, "next": target},
    )
    assert opened.status_code == 302
    assert opened.headers["Location"].startswith("/g/snug-")
