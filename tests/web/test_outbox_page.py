"""What the pages give static/outbox.js, keys.js and live.js: their words in the page's
language, the addresses they need, scripts the Content-Security-Policy lets run, and CSRF
tokens a hand kept on the phone can be sent again with (tests/e2e/test_outbox.py drives them)."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from tests.web.pages import HAND_1, Phone, hidden_fields, html

TEXTS = {"offline", "sending", "waiting", "refused", "show", "saved", "draft", "restore", "discard"}


class Scripts(HTMLParser):
    """Each <script>'s attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.found.append(dict(attrs))


def scripts(page: str) -> list[dict[str, str | None]]:
    parser = Scripts()
    parser.feed(page)
    return parser.found


def phone_texts(page: str) -> dict[str, str]:
    blocks = re.findall(r'<div id="phone-texts" hidden data-texts="([^"]*)"></div>', page)
    assert len(blocks) == 1
    texts = json.loads(unescape(blocks[0]))
    assert isinstance(texts, dict)
    return texts


def token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, page
    return found.group(1)


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.start()
    return phone


def test_the_hand_form_loads_its_scripts_from_the_site_and_runs_no_inline_script(phone):
    response = phone.client.get(f"{phone.board}/hands/new")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    found = scripts(html(response))
    sources = [attrs["src"] for attrs in found if attrs.get("src")]
    for name in ("app.js", "outbox.js", "live.js", "picker.js", "keys.js"):
        assert any(re.match(rf"^/static/{name}\?v=[0-9a-f]+$", s or "") for s in sources), name
    assert all(attrs.get("src") for attrs in found)


def test_the_words_of_the_scripts_come_in_the_pages_language(phone):
    english = phone_texts(html(phone.client.get(phone.board)))
    assert set(english) == TEXTS
    assert english["offline"] == (
        "No connection to the server. Last update at {time}: what you see may be out of date."
    )
    assert english["saved"] == "{hand} is saved."
    phone.client.set_cookie("lang", "nl")
    dutch = phone_texts(html(phone.client.get(f"{phone.board}/hands/new")))
    assert set(dutch) == TEXTS
    assert dutch["offline"] == (
        "Geen verbinding met de server. Laatst bijgewerkt om {time}: "
        "wat je ziet kan verouderd zijn."
    )
    assert dutch["waiting"].startswith("Nog niet verstuurd: geen verbinding.")
    assert all(dutch[key] != english[key] for key in TEXTS)


def test_a_sessions_pages_say_where_the_server_is_asked_and_others_do_not(phone):
    version = f"{phone.board}/version.json"
    for path in (phone.board, f"{phone.board}/hands/new", f"{phone.board}/settle"):
        page = html(phone.client.get(path))
        assert f'id="connection" role="status" data-ping-url="{version}" hidden' in page, path
    group_page = html(phone.client.get(f"/g/{phone.slug}"))
    assert 'id="connection"' not in group_page
    assert "live.js" not in group_page
    # Every page lists hands kept on the phone: one may wait for any session.
    assert 'id="outbox"' in group_page and 'id="outbox"' in html(phone.client.get("/"))


def test_the_hand_forms_boxes_ask_for_the_right_keyboard(client):
    phone = Phone(client)
    phone.create_group()
    phone.start(game="spots", dealer="Enda", entry="totals")
    page = html(phone.client.get(f"{phone.board}/hands/new"))
    cards = re.findall(r'<input[^>]*name="results-\d-cards"[^>]*>', page)
    spots = re.findall(r'<input[^>]*name="results-\d-spots"[^>]*>', page)
    assert len(cards) == len(spots) == 4
    assert all('inputmode="text"' in box for box in cards)
    assert all('inputmode="numeric"' in box for box in spots)
    assert f'data-board="{phone.board}"' in page


def test_a_kept_hand_is_sent_again_with_a_token_from_the_scoreboard(app, phone):
    """outbox.js sends a hand it kept with a fresh token from the scoreboard, not the form's
    old one: the server takes it, once, and a second send of it is the same hand."""
    app.config["WTF_CSRF_ENABLED"] = True
    form = hidden_fields(html(phone.client.get(f"{phone.board}/hands/new")))
    fresh = token(html(phone.client.get(phone.board)))
    data = phone.hand_form(HAND_1) | {k: form[k] for k in ("request_id", "version", "number")}
    stale = phone.client.post(f"{phone.board}/hands/new", data=data | {"csrf_token": "old"})
    assert stale.status_code == 400  # the plain form's answer to a token gone bad
    for _send in range(2):
        sent = phone.client.post(f"{phone.board}/hands/new", data=data | {"csrf_token": fresh})
        assert sent.status_code == 302
        assert sent.headers["Location"].endswith(f"{phone.board}?saved=1#saved")
    assert "Hand 2" in html(phone.client.get(phone.board))
