"""RULES.md §19 and §20 on the pages a phone reads: every settle-up tells the phone's player what
they owe or are owed in one sentence (a night's, the tab, a season's, a club evening's), a
closed evening marks their balance and their prize, and the evening's page of a phone whose
player is seated says where ("Table 2, seat 3") and opens that table after a draw."""

from __future__ import annotations

import re

import pytest

from tests.api.test_seasons import ORDERS
from tests.web.pages import HAND_1, HAND_2, Phone, html, table_of_four
from tests.web.test_evening_pages import SEVEN, _closed_evening, phone_auth, text
from tests.web.test_season_pages import api_night, new_season
from tests.web.test_this_phone import claim, second_phone


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def yours(page: str, id_: str = "yours") -> str | None:
    """The sentence said to the phone's player, or None where the page has none."""
    found = re.search(rf'<p class="pot mine" id="{id_}">([^<]*)</p>', page)
    return found.group(1) if found else None


def marked_lines(page: str, section: str) -> list[str]:
    """The names on the lines of ``section`` marked as this phone's player's."""
    part = page.split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<li class="row mine"><span>([^<]+?) <span class="you badge">', part)


def test_a_closed_evening_marks_the_phones_player_and_says_what_they_owe(app, phone):
    where = _closed_evening(phone)  # Dee wins the €20 pot; Ann, Bob and Cas pay Dee €5.00
    claim(phone, "Ann")
    page = html(phone.client.get(where))
    assert yours(page) == "Ann, you owe €5.00."
    assert marked_lines(page, "evening-settle") == ["Ann"]
    assert marked_lines(page, "prizes") == []  # Ann won no prize: no prize line is hers
    dee = second_phone(app, phone)
    claim(dee, "Dee")
    page = html(dee.client.get(where))
    assert yours(page) == "Dee, you are owed €15.00."
    assert marked_lines(page, "evening-settle") == ["Dee"]
    assert marked_lines(page, "prizes") == ["Dee"]
    # A tick is a payment made: what is left is said.
    phone.client.post(where, data={"from": "Ann", "to": "Dee", "paid": "yes"})
    assert yours(html(phone.client.get(where))) == "Ann, you are square."
    assert yours(html(dee.client.get(where))) == "Dee, you are owed €10.00."
    german = html(dee.client.get(where, headers={"Accept-Language": "de"}))
    assert yours(german) == "Dee, du bekommst 10,00\xa0€."
    claim(phone, None)  # a phone of nobody's is told nothing
    assert yours(html(phone.client.get(where))) is None


def test_a_seasons_settle_up_says_what_the_phones_player_owes(phone):
    for order in ORDERS:
        api_night(phone, order)
    status, where = new_season(phone)
    assert status == 303
    assert phone.client.post(where, data={"settle": "now"}).status_code == 303
    claim(phone, "Ann")  # first: a €11.40 prize less the €5.00 entry fee
    page = html(phone.client.get(where))
    assert yours(page) == "Ann, you are owed €6.40."
    assert re.search(r'<tr class="mine"><th scope="row">Ann <span class="you badge">', page)
    claim(phone, "Cas")  # a €1.90 prize less the fee: pays Ann €2.40 and Bob €0.70
    assert yours(html(phone.client.get(where))) == "Cas, you owe €3.10."
    phone.client.post(where, data={"from": "Cas", "to": "Ann", "paid": "yes"})
    assert yours(html(phone.client.get(where))) == "Cas, you owe €0.70."
    dutch = html(phone.client.get(where, headers={"Accept-Language": "nl"}))
    assert yours(dutch) == "Cas, jij moet €\xa00,70 betalen."


def test_the_tab_says_what_the_phones_player_owes_until_it_is_paid(client):
    phone = table_of_four(client)
    board = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    done = phone.client.post(f"{board}/finish", data={"leftover_pot": "carry", "settle": "tab"})
    assert done.status_code == 302
    claim(phone, "Finn")
    tab = f"/g/{phone.slug}/tab"
    assert yours(html(phone.client.get(tab)), "yours-EUR") == "Finn, you owe €0.38."
    claim(phone, "Enda")
    assert yours(html(phone.client.get(tab)), "yours-EUR") == "Enda, you are owed €0.44."
    # On the tab the night's own settle-up says nothing of it: the tab does.
    assert yours(html(phone.client.get(f"{board}/settle"))) is None
    paid = {"from": "Finn", "to": "Enda", "amount": "0.38", "currency": "EUR"}
    assert phone.client.post(f"{tab}/payments", data=paid).status_code in (302, 303)
    assert yours(html(phone.client.get(tab)), "yours-EUR") == "Enda, you are owed €0.06."


def spot_evening(phone: Phone) -> str:
    """Seven checked in by hand at a Spot evening of two rounds, not yet drawn."""
    form = {"name": "Spot drive", "game": "spot", "rounds": "2", "request_id": "s1"}
    where = phone.client.post(f"/g/{phone.slug}/evenings", data=form).headers["Location"]
    for name in SEVEN:
        phone.client.post(where, data={"action": "check_in", "player": name})
    return where


def tables(phone: Phone) -> list[dict]:
    api = f"/api/v1/groups/{phone.slug}/evenings"
    evening = phone.client.get(api, headers=phone_auth(phone)).get_json()["evenings"][0]
    return evening["rounds"][-1]["tables"]


def test_the_evenings_page_shows_the_phones_seat_and_opens_its_table(app, phone):
    where = spot_evening(phone)
    claim(phone, "Cas")  # Cas was checked in by hand: this phone never went to the check-in
    waiting = html(phone.client.get(where))
    assert 'id="your-seat"' not in waiting and "data-go=" not in waiting
    assert phone.client.post(where, data={"action": "draw"}).status_code == 303
    drawn = tables(phone)
    table = next(t for t in drawn if "Cas" in t["players"])
    seat = table["players"].index("Cas") + 1
    page = html(phone.client.get(where))
    part = page.split('id="your-seat"', 1)[1].split("</section>", 1)[0]
    assert f"Table {table['table']}, seat {seat}" in text(part)
    link = re.search(r'<a id="your-table" href="([^"]+)">([^<]+)</a>', part)
    assert link.group(1) == f"/g/{phone.slug}/s/{table['session']}"
    assert link.group(2) == f"Spot #{table['number']}, table {table['table']}"
    # The way a checked-in phone is taken to its table (static/live.js follows data-go once a
    # draw is shown): the player's own page, which opens the table and says the seat.
    go = re.search(r'data-go="([^"]+)" data-go-when="(\d+)"', page)
    assert go.group(2) == str(table["session"])
    opened = phone.client.get(go.group(1))
    assert opened.status_code == 302
    assert opened.headers["Location"].endswith(f"/s/{table['session']}")
    seated = text(html(phone.client.get(opened.headers["Location"])))
    assert f"Table {table['table']}, seat {seat}" in seated
    # Another phone reads its own player's seat; a phone of nobody's none.
    gus = second_phone(app, phone)
    claim(gus, "Gus")
    theirs = next(t for t in drawn if "Gus" in t["players"])
    gus_page = text(html(gus.client.get(where)))
    assert f"Table {theirs['table']}, seat {theirs['players'].index('Gus') + 1}" in gus_page
    claim(gus, None)
    assert 'id="your-seat"' not in html(gus.client.get(where))
    german = text(html(phone.client.get(where, headers={"Accept-Language": "de"})))
    assert f"Tisch {table['table']}, Platz {seat}" in german


def test_the_seat_goes_once_the_evening_is_closed(phone):
    where = _closed_evening(phone)
    claim(phone, "Ann")  # Ann sat at the table of its one round
    page = phone.client.get(where)
    assert page.status_code == 200 and "Who pays whom" in html(page)
    assert 'id="your-seat"' not in html(page) and "data-go=" not in html(page)
