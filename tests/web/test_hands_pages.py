"""The all-hands page of a long night, a page at a time, with links to newer and older hands."""

from __future__ import annotations

import re

import pytest

from ledger.web.nights import scoreboard as session_pages
from tests.api.helpers import SEED_HAND_1, basic
from tests.web.pages import PASSPHRASE, Phone, html, table_of_four


@pytest.fixture
def night(client, monkeypatch) -> Phone:
    """Seven hands, three to a page."""
    monkeypatch.setattr(session_pages, "HANDS_PAGE", 3)
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    for _ in range(7):
        answer = client.post(
            f"/api/v1/sessions/{phone.session_id}/hands",
            json=SEED_HAND_1,
            headers=basic(phone.slug, PASSPHRASE),
        )
        assert answer.status_code == 201
    return phone


def shown(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="num">#(\d+)</span>', page)]


def link(page: str, rel: str) -> str | None:
    found = re.search(rf'<a rel="{rel}" href="([^"]+)"', page)
    return found.group(1).replace("&amp;", "&") if found else None


def test_a_long_night_is_read_a_page_at_a_time_newest_first(night):
    first = html(night.client.get(f"{night.board}/hands"))
    assert shown(first) == [7, 6, 5]
    assert link(first, "prev") is None  # nothing newer than the last hand
    older = link(first, "next")
    assert older == f"{night.board}/hands?to=4"
    second = html(night.client.get(older))
    assert shown(second) == [4, 3, 2]
    third = html(night.client.get(link(second, "next")))
    assert shown(third) == [1]
    assert link(third, "next") is None
    back = link(third, "prev")
    assert shown(html(night.client.get(back))) == [4, 3, 2]
    # The newest page has one address, without ?to=.
    assert link(second, "prev") == f"{night.board}/hands"


def test_an_address_past_the_last_hand_or_not_a_number_shows_the_newest(night):
    for query in ("?to=99", "?to=x", "?to=", "?to=0"):
        assert shown(html(night.client.get(f"{night.board}/hands{query}"))) == [7, 6, 5]
    assert night.client.get(f"{night.board}/hands?to=99999999999999").status_code == 404


def test_a_short_night_has_one_page_and_no_links(client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    page = html(client.get(f"{phone.board}/hands"))
    assert 'class="pager"' not in page


def test_the_card_hint_names_every_separator_the_reader_takes(client):
    """Issue 37: the hint named spaces only; commas and hyphens separate cards too."""
    phone = table_of_four(client)
    board = phone.start()
    form = html(phone.client.get(f"{board}/hands/new"))
    assert "Separate cards with spaces, commas or hyphens." in form
    typed = {"Enda": "J,10", "John": "A-3", "Rex": "2, 9", "Finn": "Q - K"}
    assert phone.enter(typed).status_code == 302
    page = html(phone.client.get(board))
    assert "John wins 51: Enda pays 20, Rex 11, Finn 20." in page  # as HAND_1 with spaces
