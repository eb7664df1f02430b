"""Issue 37, without script: a refused form comes back as typed with its message beside the
field it is about (and the focus there, so the phone scrolls to it); a dealer whose seat is
unticked gives the deal to the first player ticked, in seat order, and the page says so."""

from __future__ import annotations

import re

import pytest

from tests.web.pages import Phone, html, table_of_four

TYPED = {"iban": "NL91 ABNA 0417 1643 01", "account_name": "E. Byrne"}


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


def test_an_unticked_dealer_is_replaced_by_the_first_player_ticked_in_seat_order(phone):
    seats = ["Enda", "John", "Rex", "Finn"]
    data = {"game": "spot", "order": seats, "seated": ["John", "Rex", "Finn"], "dealer": "Enda"}
    response = phone.client.post(f"/g/{phone.slug}/s/new", data=data)

    assert response.status_code == 302, html(response)
    board = html(phone.client.get(response.headers["Location"]))
    assert "Enda is not playing, so John deals first." in board
    assert re.search(r'id="dealer">John<', board)
    assert "Enda" not in board.split('id="scores"')[1].split("</ul>")[0]


def test_a_dealer_ticked_to_play_is_kept_and_nothing_is_said(phone):
    seats = ["Enda", "John", "Rex", "Finn"]
    data = {"game": "spot", "order": seats, "seated": seats, "dealer": "Rex"}
    response = phone.client.post(f"/g/{phone.slug}/s/new", data=data)
    board = html(phone.client.get(response.headers["Location"]))
    assert re.search(r'id="dealer">Rex<', board)
    assert "is not playing" not in board


def test_a_refused_bank_account_comes_back_as_typed_with_the_message_at_its_box(phone):
    response = phone.client.post(f"/g/{phone.slug}/players/Enda/account", data=TYPED)

    assert response.status_code == 422
    page = html(response)
    iban = re.search(r"<input[^>]*id=\"iban\"[^>]*>", page)
    assert iban, page
    assert 'value="NL91 ABNA 0417 1643 01"' in iban.group(0)
    assert "autofocus" in iban.group(0) and 'aria-invalid="true"' in iban.group(0)
    assert 'value="E. Byrne"' in page
    error = page.index('id="iban-error"')
    assert "check digits" in page[error : error + 300]
    assert page.index('id="iban"') < error < page.index('id="account_name"')
    assert "No bank account is kept for Enda" in page


def test_a_wrong_name_on_the_account_is_marked_at_the_name(phone):
    response = phone.client.post(
        f"/g/{phone.slug}/players/Enda/account",
        data={"iban": "NL91 ABNA 0417 1643 00", "account_name": " "},
    )
    assert response.status_code == 422
    page = html(response)
    assert 'value="NL91 ABNA 0417 1643 00"' in page
    name = re.search(r"<input[^>]*id=\"account_name\"[^>]*>", page)
    assert name and "autofocus" in name.group(0)
    assert 'id="account_name-error"' in page


def test_a_refused_new_session_lands_on_its_mistake(phone):
    seats = ["Enda", "John", "Rex", "Finn"]
    data = {"game": "spot", "order": seats, "seated": seats, "dealer": "Enda", "opt-spot-ante": "x"}
    response = phone.client.post(f"/g/{phone.slug}/s/new", data=data)

    assert response.status_code == 422
    page = html(response)
    mistake = re.search(r'<p class="field-error" id="opt-spot-ante-error"[^>]*>', page)
    assert mistake and "autofocus" in mistake.group(0), page
    assert page.count("autofocus") == 1
    assert 'value="x"' in page
