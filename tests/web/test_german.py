"""German pages (RULES.md §20): chosen by the browser or the switch, the night's words and
money as a German reader writes them (1.234,50 €), the bank QR called GiroCode, the PDFs."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal
from html import unescape

import pytest
from pypdf import PdfReader

from ledger.words.display import format_money
from tests.web.pages import HAND_1, HAND_2, Phone, html

NBSP = "\u00a0"
GERMAN = "de-DE,de;q=0.9,en;q=0.5"


def text(page: str) -> str:
    """A page's words as a reader sees them: no tags, entities read, spaces tidied (a no-break
    space kept: it is part of how an amount is written)."""
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", page))).strip()


@pytest.fixture
def german(client) -> Phone:
    """A phone whose browser asks for German, with four players."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = GERMAN
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    return phone


def test_a_german_browser_gets_german_pages(client):
    page = html(client.get("/", headers={"Accept-Language": GERMAN}))
    assert '<html lang="de">' in page
    assert "Eine Gruppe öffnen" in page and "Eine neue Gruppe gründen" in page
    assert "Open a group" not in page and "Een groep openen" not in page


def test_the_footer_offers_german_and_the_switch_keeps_it_over_the_browsers_wish(client):
    page = html(client.get("/", headers={"Accept-Language": "en"}))
    assert re.search(r'value="de"[^>]*>\s*Deutsch', page), "the switch offers Deutsch"
    response = client.post("/language", data={"lang": "de", "next": "/"})
    assert "lang=de" in response.headers["Set-Cookie"]
    assert "Eine Gruppe öffnen" in html(client.get("/", headers={"Accept-Language": "nl"}))


def test_a_night_in_german(german):
    board = german.start()
    saved = german.enter(HAND_1)
    page = text(html(german.client.get(saved.headers["Location"])))
    assert "Runde 1 gespeichert." in page
    assert "Runde eintragen" in page and "Zwischenstand" in page
    assert "Niemand ist rausgegangen." in page
    saved = german.enter(HAND_2, out="Enda")
    page = text(html(german.client.get(saved.headers["Location"])))
    assert "Enda geht raus und kassiert" in page
    new = text(html(german.client.get(f"/g/{german.slug}/s/new")))
    # The engine's words too: the game's description and its options.
    assert "Irisches Kneipen-Rommé um Geld" in new and "Einsatz" in new
    assert "Rommé" in new and "Kaluki" in new
    settle = text(html(german.client.get(f"{board}/settle")))
    assert "Wer zahlt wem" in settle and "Finn zahlt Enda" in settle
    # The night in the group chat's text, as a German writes a date: "Sonntag, 29. November".
    assert re.search(r"Thursday crowd · [A-Z][a-z]+, \d{1,2}\. [A-Z][a-zä]+ \d{4}", settle)


def test_the_german_settle_up_writes_euros_with_a_comma_and_the_euro_after(german):
    board = german.start()
    german.enter(HAND_1)
    page = text(html(german.client.get(f"{board}/settle")))
    assert re.search(rf"Finn zahlt John 0,\d\d{NBSP}€", page), page
    assert f"-0,25{NBSP}€" in page  # Enda's balance
    assert "€0." not in page and "-€" not in page
    assert f"(0,20{NBSP}€)" in html(german.client.get(board))  # the pot of 20 units


@pytest.mark.parametrize(
    ("currency", "value", "written"),
    [
        ("EUR", "1234.50", f"1.234,50{NBSP}€"),
        ("EUR", "-0.46", f"-0,46{NBSP}€"),
        ("CHF", "4.50", f"4,50{NBSP}CHF"),
        ("EUR", "-0.00", f"0,00{NBSP}€"),  # nothing owed has no sign
    ],
)
def test_an_amount_is_written_as_german_writes_it(app, currency, value, written):
    with app.test_request_context(headers={"Accept-Language": GERMAN}):
        assert format_money(Decimal(value), currency) == written


def test_the_bank_qr_is_called_girocode_on_a_german_page(german):
    board = german.start()
    german.enter(HAND_1)
    german.client.post(
        f"/g/{german.slug}/players/John/account",
        data={"iban": "DE89 3704 0044 0532 0130 00", "account_name": "John Murphy"},
    )
    page = text(html(german.client.get(f"{board}/settle")))
    assert "GiroCode scannen und bezahlen" in page


def pdf_text(response) -> str:
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.get_data()))
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def test_the_nights_paper_is_in_german_on_a_german_phone(german):
    board = german.start()
    german.enter(HAND_1)
    sheet = pdf_text(german.client.get(f"{board}/sheet.pdf"))
    assert "Spot #1" in sheet and "Wer zahlt wem" in sheet and "Summe" in sheet
    assert re.search(r"0,\d\d €", sheet), sheet
    blank = pdf_text(german.client.get(f"{board}/blank.pdf"))
    assert "Augen" in blank


def test_a_german_page_reads_and_shows_the_german_card_letters(german):
    """RULES.md §20: Dame, Bube and the suits kr, pi, he, ka typed on a German page; the hand
    shows them back as D♥ K♣, its correction offers them as typed, the buttons type them."""
    german.start()
    form = html(german.client.get(f"{german.board}/hands/new"))
    ranks = re.findall(r'data-rank="([^"]+)"', form)
    assert ranks[-3:] == ["B", "D", "K"] and ranks[0] == "A"
    assert re.findall(r'data-suit="([^"]+)"', form)[:4] == ["pi", "he", "ka", "kr"]
    letters = json.loads(unescape(re.search(r'data-card-letters="([^"]*)"', form).group(1)))
    assert letters == {
        "ranks": {"J": "B", "Q": "D"},
        "suits": {"S": "pi", "H": "he", "D": "ka", "C": "kr"},
    }
    saved = german.enter(dict(HAND_1, Enda="B 10", Finn="Dhe Kkr"))
    assert "Runde 1 gespeichert." in text(html(german.client.get(saved.headers["Location"])))
    hand = text(html(german.client.get(f"{german.board}/hands/1")))
    assert "D♥ K♣" in hand and "B 10" in hand
    edit = html(german.client.get(f"{german.board}/hands/1/edit"))
    assert 'value="Dhe Kkr"' in edit and 'value="B 10"' in edit


def test_a_german_letter_typed_on_an_english_page_is_named_as_german(client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    page = text(html(phone.enter(dict(HAND_1, Finn="Dhe K"))))
    assert "German" in page
    assert "Runde 1" not in page


def test_the_history_of_a_german_night_writes_the_cards_in_german_letters(german):
    """The history says what was typed as a German player types it: "Dhe Kkr", not "QH KC"."""
    board = german.start()
    german.enter(dict(HAND_1, Finn="Dhe Kkr"))
    page = text(html(german.client.get(f"{board}/history")))
    assert "Ein Handy trug Runde 1 ein: Enda B 10, John A 3, Rex 2 9, Finn Dhe Kkr." in page
    german.client.post("/language", data={"lang": "en"})
    english = text(html(german.client.get(f"{board}/history")))
    assert "A phone entered hand 1: Enda J 10, John A 3, Rex 2 9, Finn QH KC." in english
