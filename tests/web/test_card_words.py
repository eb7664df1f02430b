"""A refusal on a Dutch or German page names the cards as that player types and reads them
(RULES.md §1, §20): the engine gives the card, the page writes it in its letters."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from tests.web.pages import HAND_1, Phone, hidden_fields, html
from tests.web.test_new_games_pages import words


def phone_in(client, language: str, game: str, seats: tuple[str, ...], **options: Any) -> Phone:
    client.post("/language", data={"lang": language})
    phone = Phone(client)
    phone.create_group()
    phone.start(game, seats, seats[-1], **options)
    return phone


def post(phone: Phone, data: dict[str, Any]) -> str:
    """A deal posted on the game's own form; the words of the page that refuses it."""
    form = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/new")))}
    form.update({f"results-{i}-player": name for i, name in enumerate(phone.seats)})
    form.update(data)
    response = phone.client.post(f"{phone.board}/hands/new", data=form)
    assert response.status_code == 422, words(html(response))[:2000]
    return words(html(response))


@pytest.mark.parametrize(
    ("language", "typed", "said", "game"),
    [
        ("nl", "11", "Rex: '11' is geen kaart — de waarden zijn A, 2–10, B, V, H.", "jokeren"),
        ("de", "11", "Rex: '11' ist keine Karte – die Werte gehen A, 2–10, B, D, K.", "jokeren"),
        ("nl", "of", "bijv. Vs of V♠.", "jokeren"),
        ("de", "of", "etwa Dpi oder D♠.", "jokeren"),
        ("nl", "hQ", "'hQ' begint met de kleur — schrijf eerst de waarde, bijv. Vh.", "jokeren"),
        ("de", "JK", "Für Bube und König setz ein Leerzeichen dazwischen: B K.", "spot"),
        ("nl", "JK", "Bedoel je een boer en een heer, zet er dan een spatie tussen: B H.", "spot"),
    ],
)
def test_a_refused_card_is_said_in_the_pages_letters(client, language, typed, said, game):
    phone = phone_in(client, language, game, ("Enda", "John", "Rex", "Finn"))
    response = phone.enter(dict(HAND_1, Rex=typed))
    assert response.status_code == 422
    found = re.search(r'id="row-2-error" role="alert">([^<]*)</p>', html(response))
    assert found is not None, words(html(response))[:3000]
    refusal = unescape(found.group(1))
    assert said in refusal
    assert not re.search(r"\b(J, Q, K|QS|Q♠|J K)\b", refusal)


@pytest.mark.parametrize(
    ("language", "starter", "said"),
    [
        ("nl", "V", "Geef de kleur van de vrouw ('V'), bijv. Vh of V♥."),
        ("de", "D", "Bei Dame ('D') fehlt die Farbe, etwa Dhe oder D♥."),
        ("de", "K", "Bei König fehlt die Farbe, etwa Khe oder K♥."),
    ],
)
def test_cribbage_asks_for_the_suit_in_the_pages_letters(client, language, starter, said):
    phone = phone_in(client, language, "cribbage", ("Ann", "Bob"))
    shows = {"results-0-show": "4C 6C 7C 8C", "results-1-show": "5S 5D JH 10C"}
    page = post(phone, {"starter": starter, "crib": "2D 3D KS QC", **shows})
    assert said in page, page[:3000]
    assert "QH" not in page and "KH" not in page


@pytest.mark.parametrize(
    ("language", "cards", "twice"),
    [
        ("de", "Bkr Bhe Ahe 10he Dhe Dhe 7he Api 10pi Kka 8kr 7kr", "D♥"),
        ("nl", "Bk Bh Ah 10h Vh Vh 7h As 10s Hr 8k 7k", "V♥"),
    ],
)
def test_skat_names_a_card_typed_twice_in_the_pages_letters(client, language, cards, twice):
    phone = phone_in(client, language, "skat", ("Ann", "Bob", "Cas"))
    deal = {"declarer": "Ann", "bid": "40", "game": "hearts", "cards": cards}
    page = post(phone, {**deal, "card_points": "70", "tricks": "some"})
    assert twice in page and "Q♥" not in page, page[:3000]


def test_a_skat_deals_cards_are_said_in_the_pages_letters_in_the_history(client):
    phone = phone_in(client, "de", "skat", ("Ann", "Bob", "Cas"))
    cards = "Bkr Bhe Ahe 10he Khe 9he 7he Api 10pi Kka 8kr 7kr"
    deal = {"declarer": "Ann", "bid": "40", "game": "hearts", "cards": cards}
    form = {**hidden_fields(html(phone.client.get(f"{phone.board}/hands/new")))}
    form.update({f"results-{i}-player": name for i, name in enumerate(phone.seats)})
    form.update(deal, card_points="70", tricks="some")
    assert phone.client.post(f"{phone.board}/hands/new", data=form).status_code == 302
    history = words(html(phone.client.get(f"{phone.board}/history")))
    assert cards in history, history[:3000]
    phone.client.post("/language", data={"lang": "en"})
    history = words(html(phone.client.get(f"{phone.board}/history")))
    assert "JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C" in history
