"""The German pages' words held to what the app does and to each other (RULES.md §19, §20): the
check-in's phone is kept until changed (in all three languages), one word for a phone
(Handy) and one for the group's secret (Passphrase), a Skat table's deals called "Spiele"
wherever they are counted, and a check-in after the draw refused in one sentence."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from ledger.web.phone import MAX_AGE
from tests.web.pages import Phone, html
from tests.web.test_german import GERMAN, text

CATALOGUE = "ledger/translations/{}/LC_MESSAGES/messages.po"


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


def evening(phone: Phone) -> str:
    form = {"name": "Preisskat", "game": "skat", "rounds": "2", "request_id": "p1"}
    response = phone.client.post(f"/g/{phone.slug}/evenings", data=form)
    assert response.status_code == 303, html(response)
    return response.headers["Location"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "this phone is then yours, until it is changed on the group page."),
        ("nl", "dan is deze telefoon van jou, tot dat op de pagina van de groep veranderd wordt."),
        ("de", "Dann gehört dieses Handy dir, bis es auf der Seite der Gruppe geändert wird."),
    ],
)
def test_the_check_in_says_the_phone_stays_its_players_until_changed(phone, language, said):
    where = evening(phone)
    page = text(html(phone.client.get(f"{where}/check-in", headers={"Accept-Language": language})))
    assert said in page
    assert not re.search(r"for the evening|voor de avond|für den Abend", page)
    # What the words say is what the phone does: the choice outlives the evening.
    checked_in = phone.client.post(f"{where}/check-in", data={"player": "Ann"})
    cookie = next(c for c in checked_in.headers.getlist("Set-Cookie") if c.startswith("phone-"))
    assert f"Max-Age={int(MAX_AGE.total_seconds())}" in cookie and MAX_AGE.days == 400


def test_german_says_handy_and_passphrase_on_the_group_page(phone):
    phone.add_players("Ann", "Bob")
    page = text(html(phone.client.get(f"/g/{phone.slug}", headers={"Accept-Language": GERMAN})))
    assert "Dieses Handy" in page and "Wem gehört dieses Handy?" in page
    assert "Niemandes (ein Handy)" in page
    assert "Es öffnet nichts: Das tut weiterhin die Passphrase oder eine Einladung." in page
    assert "Telefon" not in page and "Passwort" not in page


def test_the_german_catalogue_has_one_word_for_a_phone_and_one_for_the_passphrase():
    with open(CATALOGUE.format("de"), "rb") as f:
        said = [m.string for m in read_po(f) if m.id]
    words = " ".join(s if isinstance(s, str) else " ".join(s) for s in said)
    assert "Handy" in words and "Passphrase" in words
    assert not re.search(r"Telefon|Passwort", words)


def test_a_german_skat_table_counts_its_deals_in_one_word(client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = GERMAN
    phone = Phone(client)
    phone.create_group()
    phone.start("skat", ["Ann", "Bob", "Cas"], "Cas")
    page = text(html(phone.client.get(phone.board)))
    assert page.count("0 von 36 Spielen gespielt") == 2  # the status line and the list's
    assert "Runden gespielt" not in page
    english = text(html(phone.client.get(phone.board, headers={"Accept-Language": "en"})))
    assert english.count("0 of 36 deals played") == 2 and "hands played" not in english


def test_a_check_in_after_the_draw_is_refused_in_one_sentence(phone):
    where = evening(phone)
    for name in ("Ann", "Bob", "Cas"):
        phone.client.post(where, data={"action": "check_in", "player": name})
    assert phone.client.post(where, data={"action": "draw"}).status_code == 303
    for language, sentence in (
        ("de", "Die Tische sind ausgelost"),
        ("nl", "De tafels zijn geloot"),
        ("en", "The tables are drawn"),
    ):
        late = phone.client.post(
            f"{where}/check-in", data={"player": "Dee"}, headers={"Accept-Language": language}
        )
        assert late.status_code == 422
        page = text(html(late))
        assert page.count(sentence) == 1, page
        asked = {"Accept-Language": language}
        shown = text(html(phone.client.get(f"{where}/check-in", headers=asked)))
        assert shown.count(sentence) == 1  # the page alone still says why nobody checks in
