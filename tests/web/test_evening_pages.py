"""A club evening on the pages (RULES.md §19): planned from the form, phones checking in by
the QR code's page, the draw opening each phone's table, the list and the paper."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

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
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def new_evening(phone: Phone, game: str = "cribbage") -> str:
    form = {"name": "Cribbage drive", "game": game, "rounds": "2", "request_id": "e1"}
    response = phone.client.post(f"/g/{phone.slug}/evenings", data=form)
    assert response.status_code == 303, html(response)
    return response.headers["Location"]


def test_phones_check_in_by_the_qr_page_and_the_draw_opens_each_table(phone):
    where = new_evening(phone)
    page = html(phone.client.get(where))
    link = re.search(r'id="check-in-link" href="([^"]+)"', page)
    assert link is not None and "<svg" in page
    check_in = link.group(1).replace("http://localhost", "")
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
