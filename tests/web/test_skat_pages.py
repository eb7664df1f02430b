"""Skat's deal form and its list, driven through the pages as a phone posts them: the worked
example of RULES.md §18 deal by deal, the value shown before saving, refusals above the form,
the dealer sitting out at four, a correction, German cards on the form (tests/e2e plays it in
Chromium with the script on)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.pages import Phone, hidden_fields, html
from tests.web.test_new_games_pages import board, words

SEATS = ["Ann", "Bob", "Cas"]

# RULES.md §18's worked example as the form posts it.
WORKED: list[dict[str, str]] = [
    {"declarer": "Ann", "bid": "36", "game": "clubs", "with": "with", "matadors": "2",
     "card_points": "78", "tricks": "some"},
    {"declarer": "Bob", "bid": "48", "game": "grand", "with": "without", "matadors": "1",
     "hand": "1", "card_points": "92", "tricks": "some"},
    {"declarer": "Cas", "bid": "40", "game": "hearts", "with": "with", "matadors": "1",
     "hand": "1", "card_points": "70", "tricks": "some"},
    {"declarer": "Ann", "bid": "23", "game": "null", "tricks": "some"},
    {"declarer": ""},
]  # fmt: skip


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.start("skat", SEATS, "Cas")
    return phone


def post(phone: Phone, deal: dict[str, str], status: int = 302, path: str = "new", **more: Any):
    data: dict[str, Any] = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/{path}")))}
    for i, name in enumerate(SEATS):
        data[f"results-{i}-player"] = name
    data.update(deal)
    data.update(more)
    response = phone.client.post(f"{phone.board}/hands/{path}", data=data)
    assert response.status_code == status, words(html(response))[:2000]
    return response


def test_the_worked_example_on_the_list(phone):
    for deal in WORKED:
        post(phone, deal)
    seen = board(phone)
    assert "5 of 36 deals played" in seen
    assert "Ann: ♣ clubs 36 won" in seen and "Cas: ♥ hearts 40 overbid" in seen
    assert "all passed" in seen
    table = words(html(phone.client.get(phone.board)).split('id="skat-list"')[1])
    assert "Games won 1 1 0" in table and "Games lost 1 0 1" in table
    assert "5 all passed 30 226 −90" in table or "5 all passed 30 226 -90" in table
    assert "Cas played ♥ hearts after a bid of 40 and took 70 card points." in seen
    assert "With 1, game 2, hand 3 × 10 = 30: overbid at 40." in seen
    history = words(html(phone.client.get(f"/g/{phone.slug}/s/{phone.session_id}/history")))
    assert "A phone entered hand 3: Cas: ♥ hearts, bid 40, with 1, hand, 70 card points." in history
    assert "A phone entered hand 4: Ann: Null, bid 23, a trick." in history
    assert "A phone entered hand 5: all passed." in history


def test_the_value_shows_before_saving_and_nothing_is_saved(phone):
    response = post(phone, WORKED[2], status=200, preview="1")
    said = words(html(response))
    assert "With 1, game 2, hand 3 × 10 = 30: overbid at 40" in said
    assert "0 of 36 deals played" in board(phone)


def test_a_preview_of_a_deal_that_cannot_be_valued_says_why(phone):
    response = post(phone, {**WORKED[0], "bid": "19"}, status=422, preview="1")
    assert "18 is the lowest bid; 19 is no game's value." in words(html(response))


def test_a_refused_deal_says_why_above_the_form_and_keeps_what_was_typed(phone):
    response = post(phone, {**WORKED[0], "card_points": "121"}, status=422)
    page = html(response)
    assert "Card points are 0 to 120: 121 is not." in words(page)
    assert 'value="121"' in page and 'id="game-clubs" value="clubs" checked' in page
    response = post(phone, {"bid": "18"}, status=422)
    assert "Say who declared, or that all passed." in words(html(response))
    assert "0 of 36 deals played" in board(phone)


def test_a_correction_shows_the_deal_as_entered_and_recomputes(phone):
    for deal in WORKED[:2]:
        post(phone, deal)
    form = html(phone.client.get(f"{phone.board}/hands/2/edit"))
    assert 'id="with-without" value="without" checked' in form
    assert 'id="game-grand" value="grand" checked' in form and 'id="hand" value="1" checked' in form
    post(phone, {**WORKED[1], "card_points": "50"}, path="2/edit")
    seen = board(phone)
    assert "Bob: Grand 72 lost" in seen  # without 1, game 2, hand 3 × 24, lost twice
    history = words(html(phone.client.get(f"/g/{phone.slug}/s/{phone.session_id}/history")))
    assert (
        "A phone corrected hand 2: Bob: Grand, bid 48, without 1, hand, 92 card points → "
        "Bob: Grand, bid 48, without 1, hand, 50 card points."
    ) in history


def test_at_four_the_dealer_sits_out(client):
    phone = Phone(client)
    phone.create_group()
    phone.start("skat", [*SEATS, "Dee"], "Dee")
    form = words(html(phone.client.get(f"{phone.board}/hands/new")))
    assert "Dee deals and sits out this deal." in form
    seen = board(phone)
    assert "Sits out: Dee" in seen and "Dee deals and sits out" in seen  # beside Dee's score


def test_the_declarers_cards_are_read_in_the_pages_letters_and_shown_in_them(phone):
    # A Dutch page reads the Dutch letters (a German page the German ones, once German is
    # offered: its catalogue is another change; the engine's German is tested in tests/rules).
    cards = "Bk Bh Ah 10h Hh 9h 7h As 10s Hr 8k 7k"
    deal = {**WORKED[2], "matadors": "", "cards": cards}
    phone.client.set_cookie("lang", "nl")
    response = post(phone, deal, status=200, preview="1")
    assert "10 = 30" in words(html(response)) and "40" in words(html(response))
    post(phone, deal)
    form = html(phone.client.get(f"{phone.board}/hands/1/edit"))
    assert f'value="{cards}"' in form
    phone.client.set_cookie("lang", "en")
    form = html(phone.client.get(f"{phone.board}/hands/1/edit"))
    assert 'value="JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C"' in form


def test_a_deals_page_says_it_in_words(phone):
    for deal in WORKED[:3]:
        post(phone, deal)
    page = words(html(phone.client.get(f"{phone.board}/hands/3")))
    assert "Cas played ♥ hearts after a bid of 40 and took 70 card points." in page
    assert "The list: Ann +40, Bob +40, Cas −130." in page


def test_a_corrections_value_is_worked_out_where_that_deal_stood(client):
    # At four the dealer sits out: deal 2 was Ann's to deal, so Ann cannot have declared it,
    # though Ann may declare the deal to come.
    phone = Phone(client)
    phone.create_group()
    phone.start("skat", [*SEATS, "Dee"], "Dee")
    seats = [*SEATS, "Dee"]
    for declarer in ("Ann", "Bob"):
        data = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/new")))}
        data.update({f"results-{i}-player": n for i, n in enumerate(seats)})
        data.update({**WORKED[0], "declarer": declarer})
        assert phone.client.post(f"{phone.board}/hands/new", data=data).status_code == 302
    data = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/2/edit")))}
    data.update({f"results-{i}-player": n for i, n in enumerate(seats)})
    data.update({**WORKED[0], "declarer": "Ann", "preview": "1"})
    refused = phone.client.post(f"{phone.board}/hands/2/edit", data=data)
    assert refused.status_code == 422
    assert "Ann deals and sits out this deal." in words(html(refused))
    data["declarer"] = "Cas"
    shown = words(html(phone.client.post(f"{phone.board}/hands/2/edit", data=data)))
    assert "With 2, game 3 × 12 = 36: won" in shown
