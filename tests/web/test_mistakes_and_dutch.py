"""The hand form marks every mistake at once, and a Dutch page reads and shows Dutch letters."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from tests.web.pages import HAND_1, Phone, html, table_of_four
from tests.web.test_dutch_errors import row_error


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


def autofocused(page: str) -> list[str]:
    """The ids of the elements the page puts the focus in as it loads."""
    return re.findall(
        r'<[^>]*\bautofocus\b[^>]*\bid="([^"]+)"|<[^>]*\bid="([^"]+)"[^>]*\bautofocus\b', page
    )


def focus_ids(page: str) -> list[str]:
    return [a or b for a, b in autofocused(page)]


def hands_played(phone: Phone) -> int:
    return phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"]


def test_three_bad_rows_are_all_marked_and_the_focus_starts_in_the_first(phone):
    phone.start()
    response = phone.enter(dict(HAND_1, Enda="J 1", Rex="2 11", Finn="Q Q Q Q Q Q Q Q Q"))
    assert response.status_code == 422
    page = html(response)
    assert row_error(page, 0) == "Enda: '1' is not a card — the ace is A."
    assert (row_error(page, 2) or "").startswith("Rex: '11' is not a card")
    assert row_error(page, 3) == "Finn has 9 cards, but a hand of Spot ends with at most 8."
    assert row_error(page, 1) is None
    assert "3 things in this hand do not add up: each is marked below." in page
    # One box has the focus, the first bad one, and its row is where the script scrolls to.
    assert focus_ids(page) == ["results-0-cards"]
    assert re.search(r'id="row-0"[^>]*data-first-error', page)
    for typed in ("J 1", "A 3", "2 11"):
        assert f'value="{typed}"' in page
    assert hands_played(phone) == 0


def test_a_deck_mistake_across_players_is_marked_beside_each_of_them_with_the_others(phone):
    phone.start()
    response = phone.enter(dict(HAND_1, Enda="QS 10", John="A x", Rex="QS 9"))
    page = html(response)
    assert (row_error(page, 1) or "").startswith("John: 'x' is not a card")
    assert row_error(page, 0) == row_error(page, 2) == "Two players both have the Q♠ (Enda, Rex)."
    assert focus_ids(page) == ["results-0-cards"]


def test_who_went_out_is_marked_where_the_out_choice_is_and_has_the_focus(phone):
    phone.start(game="rummy", dealer="Enda")
    response = phone.enter(dict(HAND_1, Enda=""))
    assert response.status_code == 422
    page = html(response)
    assert "Say who went out: see “Who went out?” below." in page
    choice = re.search(
        r'<fieldset class="card has-error" id="out-choice".*?</fieldset>', page, re.S
    )
    assert choice is not None
    assert "say who went out" in choice.group(0)
    assert focus_ids(page) == ["out-error"]
    assert [row_error(page, row) for row in range(4)] == [None] * 4


def test_the_out_choice_and_a_bad_row_are_both_marked_the_row_first(phone):
    phone.start(game="rummy", dealer="Enda")
    page = html(phone.enter(dict(HAND_1, Enda="", Rex="2 Z")))
    assert "2 things in this hand do not add up" in page
    assert (row_error(page, 2) or "").startswith("Rex: 'Z' is not a card")
    assert 'id="out-error"' in page
    assert focus_ids(page) == ["results-2-cards"]


def test_a_total_out_of_range_puts_the_focus_in_the_total_box(phone):
    phone.start(entry="totals")
    page = html(phone.enter(dict(HAND_1, John=81)))
    assert row_error(page, 1) == "John's spot total must be from 1 to 80, not 81."
    assert focus_ids(page) == ["results-1-spots"]


@pytest.fixture
def dutch(phone) -> Phone:
    phone.client.post("/language", data={"lang": "nl"})
    return phone


def test_a_dutch_page_reads_dutch_letters_and_shows_the_hand_in_them(dutch):
    dutch.start()
    response = dutch.enter(dict(HAND_1, Enda="B 10", Finn="Vh Hk"))
    assert response.status_code == 302, html(response)
    hand = html(dutch.client.get(f"{dutch.board}/hands/1"))
    assert "V♥ H♣" in hand and "B 10" in hand
    # Read in English, the same hand is stored in English letters.
    dutch.client.post("/language", data={"lang": "en"})
    hand = html(dutch.client.get(f"{dutch.board}/hands/1"))
    assert "Q♥ K♣" in hand and "J 10" in hand


def test_a_correction_on_a_dutch_page_offers_the_cards_in_dutch_letters(dutch):
    dutch.start()
    dutch.enter(dict(HAND_1, Finn="QH KC"))
    page = html(dutch.client.get(f"{dutch.board}/hands/1/edit"))
    assert 'value="Vh Hk"' in page


def test_the_dutch_card_buttons_type_dutch_letters(dutch):
    dutch.start()
    page = html(dutch.client.get(f"{dutch.board}/hands/new"))
    ranks = re.findall(r'data-rank="([^"]+)"', page)
    assert ranks == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "V", "H"]
    assert re.findall(r'data-suit="([^"]+)"', page) == ["s", "h", "r", "k"]
    # The script that reads the typed cards is given the same letters (static/picker.js).
    letters = json.loads(unescape(re.search(r'data-card-letters="([^"]*)"', page).group(1)))
    assert letters == {
        "ranks": {"J": "B", "Q": "V", "K": "H"},
        "suits": {"S": "s", "H": "h", "D": "r", "C": "k"},
    }


def test_an_english_page_refuses_dutch_letters_saying_they_are_dutch(phone):
    phone.start()
    page = html(phone.enter(dict(HAND_1, Finn="H V")))
    message = row_error(page, 3) or ""
    assert "H is the suit of hearts" in message and "in English write Q" in message
    assert hands_played(phone) == 0
