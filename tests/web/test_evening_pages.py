"""A club evening on the pages (RULES.md §19): planned from the form, phones checking in by
the QR code's page, the draw opening each phone's table, the list and the paper."""

from __future__ import annotations

import io
import re
import time
from datetime import UTC, datetime, timedelta
from html import unescape
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from ledger.services.auth import invites
from tests.api.helpers import basic
from tests.web.pages import PASSPHRASE, Phone, html

SEVEN = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus"]


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def phone_auth(phone: Phone) -> dict[str, str]:
    return basic(phone.slug, PASSPHRASE)


def text(page: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def new_evening(phone: Phone, game: str = "cribbage") -> str:
    form = {"name": "Cribbage drive", "game": game, "rounds": "2", "request_id": "e1"}
    response = phone.client.post(f"/g/{phone.slug}/evenings", data=form)
    assert response.status_code == 303, html(response)
    return response.headers["Location"]


def test_phones_check_in_by_the_qr_page_and_the_draw_opens_each_table(phone):
    where = new_evening(phone)
    page = html(phone.client.get(where))
    link = re.search(r'id="check-in-link"[^>]* href="([^"]+)"', page)
    assert link is not None and "<svg" in page
    landed = phone.client.get(link.group(1).replace("http://localhost", ""))
    assert landed.status_code == 302
    check_in = landed.headers["Location"]
    assert check_in.endswith("/check-in")
    mine = {}
    for name in SEVEN[:4]:
        answer = phone.client.post(check_in, data={"player": name})
        assert answer.status_code == 303
        mine[name] = answer.headers["Location"]
        assert "Waiting for the draw" in text(html(phone.client.get(mine[name])))
    twice = phone.client.post(check_in, data={"player": "ann"})
    assert twice.status_code == 303
    assert "4 players checked in" in text(html(phone.client.get(where)))

    drawn = phone.client.post(where, data={"action": "draw"})
    assert drawn.status_code == 303
    shown = text(html(phone.client.get(where)))
    assert "Round 1" in shown and "Cribbage #1, table 1" in shown and "table 2" in shown
    sessions = set()
    for name in SEVEN[:4]:
        opened = phone.client.get(mine[name])
        assert opened.status_code == 302  # the table opens by itself
        assert "/s/" in opened.headers["Location"]
        sessions.add(opened.headers["Location"])
        seat = text(html(phone.client.get(opened.headers["Location"])))
        assert re.search(r"Table [12], seat [12]", seat)
        assert re.search(r"Cribbage #[12] ?, table [12] Cribbage drive · Round 1", seat)
    assert len(sessions) == 2

    late = phone.client.post(check_in, data={"player": "Eve"})
    assert late.status_code == 422
    assert "before the first draw" in text(html(late))


def test_five_at_cribbage_is_refused_on_the_page(phone):
    where = new_evening(phone)
    for name in SEVEN[:5]:
        phone.client.post(where, data={"action": "check_in", "player": name})
    refused = phone.client.post(where, data={"action": "draw"})
    assert refused.status_code == 409
    assert "5 players cannot sit at tables of two: check one more in or one out." in text(
        html(refused)
    )


def test_the_paper_has_a_card_per_table_and_the_list(phone):
    where = new_evening(phone)
    for name in SEVEN[:4]:
        phone.client.post(where, data={"action": "check_in", "player": name})
    phone.client.post(where, data={"action": "draw"})
    pdf = phone.client.get(f"{where}/evening.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    words = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "table 1" in words and "table 2" in words and "The list" in words
    assert all(name in words for name in SEVEN[:4])


def test_the_page_in_dutch(phone):
    where = new_evening(phone)
    page = text(html(phone.client.get(where, headers={"Accept-Language": "nl"})))
    assert "Inchecken" in page


def test_a_players_page_counts_evenings_played_and_won(phone):
    where = new_evening(phone)
    for name in SEVEN[:2]:
        phone.client.post(where, data={"action": "check_in", "player": name})
    phone.client.post(where, data={"action": "draw"})
    evening = phone.client.get(f"/api/v1/groups/{phone.slug}/evenings", headers=phone_auth(phone))
    session = evening.get_json()["evenings"][0]["rounds"][0]["tables"][0]["session"]
    page = text(html(phone.client.get(f"/g/{phone.slug}/p/Ann")))
    assert "1 evening played · 0 won" in page
    finished = phone.client.post(
        f"/api/v1/sessions/{session}/finish", json={}, headers=phone_auth(phone)
    )
    assert finished.status_code == 200
    closed = phone.client.post(where, data={"action": "close", "settle": "now"})
    assert closed.status_code == 303
    ann = text(html(phone.client.get(f"/g/{phone.slug}/p/Ann")))
    bob = text(html(phone.client.get(f"/g/{phone.slug}/p/Bob")))
    # Nothing played: Ann and Bob share first place, and each has won the evening.
    assert "1 evening played · 1 won" in ann and "1 evening played · 1 won" in bob


def test_the_evenings_page_shows_its_form_and_refuses_naming_the_field(phone):
    page = text(html(phone.client.get(f"/g/{phone.slug}/evenings")))
    assert "A new club evening" in page and "Prizes in % for places 1, 2, 3…" in page
    refused = phone.client.post(
        f"/g/{phone.slug}/evenings", data={"name": "Drive", "game": "spot", "prizes": "50, 30"}
    )
    assert refused.status_code == 422
    assert "Prizes must add up to 100 %: these add up to 80 %." in text(html(refused))


def test_the_page_in_german(phone):
    where = new_evening(phone)
    page = text(html(phone.client.get(where, headers={"Accept-Language": "de"})))
    assert "Einchecken" in page and "Scanne den Code mit deinem Handy" in page


def test_a_tables_page_refuses_a_player_of_another_table_naming_them_and_their_table(phone):
    where = new_evening(phone, game="spot")  # seven at Spot: a table of 4 and one of 3
    for name in SEVEN:
        phone.client.post(where, data={"action": "check_in", "player": name})
    assert phone.client.post(where, data={"action": "draw"}).status_code == 303
    evening = phone.client.get(f"/api/v1/groups/{phone.slug}/evenings", headers=phone_auth(phone))
    first, second = evening.get_json()["evenings"][0]["rounds"][0]["tables"]
    board = f"/g/{phone.slug}/s/{second['session']}"
    guest = first["players"][0]
    joined = phone.client.post(
        f"{board}/join", data={"join-name": guest, "after": second["players"][0]}
    )
    assert joined.status_code == 302
    shown = text(html(phone.client.get(joined.headers["Location"])))
    assert f"{guest} is at table {first['table']} in this round: a player sits at one table." in (
        shown
    )
    session = phone.client.get(f"/api/v1/sessions/{second['session']}", headers=phone_auth(phone))
    assert [p["name"] for p in session.get_json()["players"]] == second["players"]
    dutch = phone.client.post(
        f"{board}/join",
        data={"join-name": guest, "after": second["players"][0]},
        headers={"Accept-Language": "nl"},
    )
    assert f"{guest} zit in deze ronde aan tafel {first['table']}" in text(
        html(phone.client.get(dutch.headers["Location"], headers={"Accept-Language": "nl"}))
    )


def _closed_evening(phone: Phone) -> str:
    """Four at an Any game evening, €5 each, one round: Dee wins the €20 pot, closed now."""
    form = {"name": "Drive", "game": "tally", "rounds": "1", "scoring": "points",
            "entry_fee": "500", "prizes": "100", "request_id": "e2"}  # fmt: skip
    where = phone.client.post(f"/g/{phone.slug}/evenings", data=form).headers["Location"]
    for name in SEVEN[:4]:
        phone.client.post(where, data={"action": "check_in", "player": name})
    assert phone.client.post(where, data={"action": "draw"}).status_code == 303
    api = f"/api/v1/groups/{phone.slug}/evenings"
    drawn = phone.client.get(api, headers=phone_auth(phone)).get_json()["evenings"][0]
    session = drawn["rounds"][0]["tables"][0]["session"]
    results = [{"player": p, "points": i} for i, p in enumerate(SEVEN[:4])]
    for call, body in ((f"/api/v1/sessions/{session}/hands", {"results": results}),
                       (f"/api/v1/sessions/{session}/finish", {})):  # fmt: skip
        assert phone.client.post(call, json=body, headers=phone_auth(phone)).status_code < 300
    assert phone.client.post(where, data={"action": "close", "settle": "now"}).status_code == 303
    return where


def test_a_closed_evenings_settle_up_has_a_shared_tick_per_payment(app, phone):
    where = _closed_evening(phone)
    page = html(phone.client.get(where))
    stamp = re.search(r'data-version="([^"]+)"', page).group(1)
    pressed = re.findall(r'aria-pressed="(\w+)"[^>]*>.*?<span class="what">([^<]+)<', page, re.S)
    assert pressed == [("false", f"{p} pays Dee €5.00") for p in ("Ann", "Bob", "Cas")]

    tick = {"from": "Bob", "to": "Dee", "paid": "yes"}
    for _ in range(2):  # a double tap is one tick
        assert phone.client.post(where, data=tick).status_code == 303
    page = html(phone.client.get(where))
    assert "Ticked: Bob paid Dee €5.00." in text(page)
    assert page.count('aria-pressed="true"') == 1
    assert re.search(r'aria-pressed="true"[^>]*>.*?Bob pays Dee €5\.00', page, re.S)
    # Every phone sees it: another browser's page, and the wall screen's poll moves on.
    other = Phone(app.test_client(), slug=phone.slug)
    opened = other.client.post(
        "/open", data={"open-group": phone.slug, "open-passphrase": PASSPHRASE}
    )
    assert opened.status_code == 302
    assert html(other.client.get(where)).count('aria-pressed="true"') == 1
    polled = phone.client.get(f"{where}/version.json").get_json()["version"]
    assert polled != stamp

    wrong = phone.client.post(where, data={"from": "Dee", "to": "Bob", "paid": "yes"})
    page = html(phone.client.get(wrong.headers["Location"]))
    assert "Drive's settle-up has no payment from Dee to Bob." in text(page)
    assert page.count('aria-pressed="true"') == 1

    for payer in ("Ann", "Cas"):
        phone.client.post(where, data={**tick, "from": payer})
    assert "Everything is paid." in text(html(phone.client.get(where)))
    phone.client.post(where, data={**tick, "paid": "no"})
    page = html(phone.client.get(where))
    assert "Taken back: Bob paid Dee €5.00." in text(page)
    assert page.count('aria-pressed="true"') == 2 and "Everything is paid." not in page


def test_an_evenings_ticks_follow_a_rename_and_an_open_evening_has_none(phone):
    where = _closed_evening(phone)
    phone.client.post(where, data={"from": "Bob", "to": "Dee", "paid": "yes"})
    bob = re.search(
        r'action="(/g/[^"]+/players/\d+)"[^>]*>\s*<input[^>]*>\s*<div class="field">\s*'
        r'<label for="rename-\d+">New name for Bob',
        html(phone.client.get(f"/g/{phone.slug}")),
    )
    assert bob, "Bob's rename form"
    assert phone.client.post(bob.group(1), data={"rename-name": "Bobby"}).status_code == 302
    page = html(phone.client.get(where))
    assert re.search(r'aria-pressed="true"[^>]*>.*?Bobby pays Dee €5\.00', page, re.S)
    assert "1 evening played · 0 won" in text(html(phone.client.get(f"/g/{phone.slug}/p/Bobby")))
    assert "1 evening played · 1 won" in text(html(phone.client.get(f"/g/{phone.slug}/p/Dee")))

    opened = new_evening(phone)
    refused = phone.client.post(opened, data={"from": "Bob", "to": "Dee", "paid": "yes"})
    page = html(phone.client.get(refused.headers["Location"]))
    assert "Cribbage drive has no payments of its own to tick." in text(page)


def check_in_code(phone: Phone, where: str) -> str:
    """The path of the check-in QR code's link on the organiser's page."""
    link = re.search(r'id="check-in-link"[^>]* href="([^"]+)"', html(phone.client.get(where)))
    assert link is not None
    return link.group(1).replace("http://localhost", "")


def test_a_fresh_phone_scans_the_check_in_code_and_checks_in_without_the_passphrase(app, phone):
    where = new_evening(phone)
    page = html(phone.client.get(where))
    code = check_in_code(phone, where)
    assert code.startswith("/join/")
    # The page says until when the code lets a phone in: six hours from now.
    until = re.search(r'id="check-in-until">[^<]*<time datetime="([^"]+)"', page)
    assert until is not None
    left = datetime.fromisoformat(until.group(1)) - datetime.now(UTC)
    assert timedelta(hours=5, minutes=59) < left <= timedelta(hours=6)

    stranger = app.test_client()  # no cookies: never signed in to the group
    assert stranger.get(where).status_code == 401
    landed = stranger.get(code)
    assert landed.status_code == 302
    assert landed.headers["Location"] == f"{where}/check-in"
    shown = text(html(stranger.get(landed.headers["Location"])))
    assert "Tap your name to check in" in shown
    checked = stranger.post(landed.headers["Location"], data={"player": "Fay"})
    assert checked.status_code == 303
    assert "Waiting for the draw" in text(html(stranger.get(checked.headers["Location"])))
    assert "1 player checked in" in text(html(phone.client.get(where)))
    # Signed in as an invite signs in: the group's pages open, and this phone is Fay's.
    assert stranger.get(f"/g/{phone.slug}").status_code == 200
    assert "This phone is Fay's." in text(html(stranger.get(f"/g/{phone.slug}")))


def test_the_check_in_code_ends_and_is_void_once_every_phone_is_signed_out(app, phone, monkeypatch):
    where = new_evening(phone)
    code = check_in_code(phone, where)
    later = time.time() + 6 * 3600
    monkeypatch.setattr(invites, "time", SimpleNamespace(time=lambda: later))
    stranger = app.test_client()
    expired = stranger.get(code)
    assert expired.status_code == 410
    assert "This check-in code has expired" in text(html(expired))
    assert stranger.get(where).status_code == 401
    monkeypatch.undo()

    # Within its time, and as every invite: void once every phone is signed out.
    code = check_in_code(phone, where)
    assert phone.client.post(f"/g/{phone.slug}/sign-out-everywhere").status_code in (302, 303)
    void = app.test_client().get(code)
    assert void.status_code == 404


def test_the_check_in_code_opens_no_other_group(app, phone):
    where = new_evening(phone)
    code = check_in_code(phone, where)
    other = Phone(app.test_client())
    other.create_group("Other crowd")
    stranger = app.test_client()
    assert stranger.get(code).status_code == 302
    assert stranger.get(f"/g/{other.slug}").status_code == 401
    assert stranger.get(f"/g/{other.slug}/evenings").status_code == 401


def test_a_check_in_between_the_pages_reads_makes_the_wall_look_again(phone, monkeypatch):
    """The organiser's page follows its stamp: a player checked in while the page is drawn
    (after its list is read) must leave the page's stamp behind the server's, or the wall
    shows one player too few until something else changes."""
    from ledger.services import evenings
    from ledger.web import evenings as pages

    where = new_evening(phone)
    for name in SEVEN[:6]:
        phone.client.post(f"{where}/check-in", data={"player": name})
    drawn = evenings.evening_view

    def then_one_more(group, wanted):
        view = drawn(group, wanted)
        evenings.check_in(group, wanted, SEVEN[6])  # Gus checks in meanwhile
        return view

    monkeypatch.setattr(pages.evenings, "evening_view", then_one_more)
    page = html(phone.client.get(where))
    monkeypatch.undo()
    assert "6 players checked in" in text(page)
    shown = re.search(r'id="evening"[^>]* data-version="([^"]+)"', page)
    assert shown is not None
    now = phone.client.get(f"{where}/version.json").get_json()["version"]
    assert shown.group(1) != now  # the next poll fetches the page with Gus on it
    assert "7 players checked in" in text(html(phone.client.get(where)))
