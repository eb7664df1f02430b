"""A club evening's page at a noisy table (RULES.md §19): a double tap on the organiser's
buttons does what one tap does, and the page stays the evening's."""

from __future__ import annotations

import re

import pytest

from tests.web.pages import Phone, html
from tests.web.test_evening_pages import SEVEN, new_evening, phone_auth, text


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


ERROR = re.compile(r'id="evening-error"><p>([^<]*)<')


def checked_in(phone: Phone, where: str, names: list[str]) -> None:
    for name in names:
        assert (
            phone.client.post(where, data={"action": "check_in", "player": name}).status_code == 303
        )


def test_a_double_tap_on_check_out_checks_out_once_and_shows_the_evening(phone):
    where = new_evening(phone)
    checked_in(phone, where, SEVEN[:5])
    for _ in range(2):
        tapped = phone.client.post(where, data={"action": "check_out", "player": "Eve"})
        assert tapped.status_code == 303 and tapped.headers["Location"] == where
    assert "4 players checked in" in text(html(phone.client.get(where)))
    elsewhere = phone.client.post(
        f"/g/{phone.slug}/evenings/99", data={"action": "check_out", "player": "Eve"}
    )
    assert elsewhere.status_code == 404


def test_a_double_tap_on_draw_draws_that_round_once(phone):
    where = new_evening(phone)
    checked_in(phone, where, SEVEN[:4])
    page = html(phone.client.get(where))
    assert 'name="round" value="1"' in page
    for _ in range(2):
        tapped = phone.client.post(where, data={"action": "draw", "round": "1"})
        assert tapped.status_code == 303
    shown = text(html(phone.client.get(where)))
    assert "Round 1" in shown and "Round 2" not in shown
    # Round 2 asked for too early is refused as ever, naming the round still playing.
    early = phone.client.post(where, data={"action": "draw", "round": "2"})
    assert early.status_code == 409
    assert ERROR.search(html(early)).group(1) == (
        "Round 2 is drawn when every table of round 1 has finished."
    )
    odd = phone.client.post(where, data={"action": "draw", "round": "²"})
    assert odd.status_code == 409  # not a round: drawn as the next, refused as above


def test_a_double_tap_on_close_closes_once_and_shows_the_settle_up(phone):
    where = new_evening(phone)
    checked_in(phone, where, SEVEN[:2])
    phone.client.post(where, data={"action": "draw", "round": "1"})
    evening = where.rsplit("/", 1)[1]
    got = phone.client.get(
        f"/api/v1/groups/{phone.slug}/evenings/{evening}", headers=phone_auth(phone)
    )
    session = got.get_json()["rounds"][0]["tables"][0]["session"]
    finished = phone.client.post(
        f"/api/v1/sessions/{session}/finish", json={}, headers=phone_auth(phone)
    )
    assert finished.status_code == 200
    for _ in range(2):
        tapped = phone.client.post(where, data={"action": "close", "settle": "now"})
        assert tapped.status_code == 303
    page = text(html(phone.client.get(where)))
    assert "Cribbage · 2 rounds · closed" in page and "Nobody owes anybody anything." in page
