"""Money and the engine's option errors on a Dutch page: as a Dutch reader writes them."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest

from ledger.words.display import format_money
from tests.api.helpers import basic
from tests.web.pages import HAND_1, PASSPHRASE, Phone, html

NBSP = "\u00a0"


@pytest.fixture
def phone(client) -> Phone:
    """A phone whose pages are in Dutch (the language switch), with four players."""
    client.post("/language", data={"lang": "nl"})
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    return phone


def text(page: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_dutch_settle_up_writes_euros_with_a_comma_and_the_sign_after_the_euro(phone):
    board = phone.start()
    phone.enter(HAND_1)
    page = text(html(phone.client.get(f"{board}/settle")))
    assert re.search(rf"Finn betaalt John €{NBSP}0,\d\d", page), page
    assert f"€{NBSP}-0,25" in page  # Enda's balance
    assert "-€" not in page and "€0." not in page
    assert f"(€{NBSP}0,20)" in page  # the pot of 20 units


def test_the_dutch_scoreboard_writes_the_pot_in_dutch(phone):
    board = phone.start()
    phone.enter(HAND_1)
    assert f"(€{NBSP}0,20)" in html(phone.client.get(board))


def test_the_english_pages_keep_writing_money_as_before(client):
    phone = Phone(client)
    phone.create_group()
    board = phone.start()
    phone.enter(HAND_1)
    page = text(html(phone.client.get(f"{board}/settle")))
    assert "-€0.25" in page
    assert re.search(r"Finn pays John €0\.\d\d", page)


@pytest.mark.parametrize(
    ("language", "currency", "value", "written"),
    [
        ("nl", "EUR", "-0.46", f"€{NBSP}-0,46"),
        ("en", "EUR", "-0.46", "-€0.46"),
        ("nl", "EUR", "1234.50", f"€{NBSP}1.234,50"),
        ("en", "CHF", "4.50", f"CHF{NBSP}4.50"),
        ("en", "JPY", "120", "¥120"),
        ("nl", "IQD", "1.234", f"IQD{NBSP}1,234"),  # three decimals, as ISO 4217 has them
        ("en", "EUR", "-0.00", "€0.00"),  # nothing owed has no sign
    ],
)
def test_an_amount_is_written_exactly_in_the_pages_language(
    app, language, currency, value, written
):
    with app.test_request_context(headers={"Cookie": f"lang={language}"}):
        assert format_money(Decimal(value), currency) == written


def test_an_option_the_engine_refuses_is_named_by_its_dutch_label(phone):
    response = phone.client.post(
        f"/g/{phone.slug}/s/new",
        data={
            "game": "rummy",
            "order": ["Enda", "John"],
            "seated": ["Enda", "John"],
            "dealer": "Enda",
            "opt-rummy-target": "0",
        },
    )
    assert response.status_code == 422
    found = re.search(r'id="opt-rummy-target-error"[^>]*>([^<]*)<', html(response))
    assert found, html(response)
    message = unescape(found.group(1))
    assert message.startswith("De optie ") and "Spelen tot" in message, message
    assert "target" not in message


def test_the_dutch_new_session_page_says_every_option_word_in_dutch(phone):
    """Issue 37: the Dutch page kept "off" (Kaluki's buy-in, Any game's hands) and "twice"
    (Jokeren's hands) in English. Now a field is left empty to switch an option off, and
    Jokeren's length is "twee keer", shown and read back as the engine's "twice"."""
    page = text(html(phone.client.get(f"/g/{phone.slug}/s/new")))
    assert not re.search(r"\boff\b|\btwice\b", page), re.findall(
        r".{40}\b(?:off|twice)\b.{20}", page
    )
    assert 'name="opt-jokeren-hands" value="twee keer"' in html(
        phone.client.get(f"/g/{phone.slug}/s/new")
    )

    for typed in ("twee keer", "twice"):
        board = phone.start(game="jokeren", dealer="Enda", hands=typed)
        auth = basic(phone.slug, PASSPHRASE)
        session = phone.client.get(f"/api/v1/sessions/{phone.session_id}", headers=auth)
        assert session.get_json()["options"]["hands"] == "twice", (typed, board)
