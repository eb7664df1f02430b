"""A game's own options in its own words (issue 41): the new-session page labels an option
and its choices by the game's ``Option`` (its ``label`` and ``choice_labels``) before the words
the games share, in English and in Dutch, and reads a game's own choice typed in Dutch back
as the engine's value, as it does the shared ones. No shared template names a game."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.api.helpers import basic
from tests.web.pages import PASSPHRASE, Phone, html


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    return phone


def label_of(page: str, field: str) -> str:
    found = re.search(rf'<label for="{field}">(.*?)</label>', page, re.S)
    assert found is not None, field
    return " ".join(unescape(found.group(1)).split())


def choices_of(page: str, field: str) -> list[str]:
    select = re.search(rf'<select id="{field}".*?</select>', page, re.S)
    assert select is not None, field
    return [
        " ".join(unescape(o).split())
        for o in re.findall(r"<option[^>]*>(.*?)</option>", select.group(0), re.S)
    ]


@pytest.mark.parametrize(
    ("lang", "klaverjassen", "shared"),
    [
        ("en", "Hands in the game", "Hands in the game (off: none)"),
        ("nl", "Aantal spellen", "Aantal spellen (leeg: geen vast aantal)"),
    ],
)
def test_klaverjassens_hands_have_their_own_label_never_off(phone, lang, klaverjassen, shared):
    """Klaverjassen is 16 hands (RULES.md §16): its hands are never off, so its field does not
    say "(off: none)" as the hands of Any game, which may be off, still do."""
    phone.client.post("/language", data={"lang": lang})
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    assert label_of(page, "opt-klaverjassen-hands") == klaverjassen
    assert label_of(page, "opt-tally-hands") == shared
    assert 'name="opt-klaverjassen-hands" value="16"' in page


def test_a_dutch_page_shows_and_reads_a_games_own_choices_in_dutch(phone):
    phone.client.post("/language", data={"lang": "nl"})
    page = html(phone.client.get(f"/g/{phone.slug}/s/new"))
    # Boerenbridge's own options (rules/boerenbridge.py), in Dutch.
    assert label_of(page, "opt-boerenbridge-order") == "De rondes gaan"
    assert choices_of(page, "opt-boerenbridge-order")[0].startswith(
        "op van 1 kaart naar het meeste, en terug"
    )
    # Jokeren's own word for its hands (rules/jokeren.py): shown in Dutch, and typed in Dutch,
    # in any case, read back as the engine's "twice".
    assert 'name="opt-jokeren-hands" value="twee keer"' in page
    auth = basic(phone.slug, PASSPHRASE)
    for typed in ("Twee keer", "twice"):
        phone.start(game="jokeren", dealer="Enda", hands=typed)
        session = phone.client.get(f"/api/v1/sessions/{phone.session_id}", headers=auth)
        assert session.get_json()["options"]["hands"] == "twice", typed
    # A game's own option chosen in Dutch words, as the select sends them or typed.
    phone.start(
        game="boerenbridge",
        players=("Enda", "John", "Rex"),
        dealer="Rex",
        order="Af van het meeste naar 1 kaart, en terug",
    )
    session = phone.client.get(f"/api/v1/sessions/{phone.session_id}", headers=auth)
    assert session.get_json()["options"]["order"] == "down_up"
