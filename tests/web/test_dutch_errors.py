"""What the engine and the services refuse, on a Dutch page: in Dutch, where the English was."""

from __future__ import annotations

import ast
import re
import string
from html import unescape

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from ledger.rules.cards import parse_cards
from ledger.rules.errors import RuleError
from ledger.services.errors import TooManyAttempts
from ledger.services.hands import rule_error_for_hand
from ledger.words.language import error_text
from tests.api.helpers import Table
from tests.web.pages import HAND_1, Phone, html
from tests.web.test_i18n import ERROR_KEYWORDS, ROOT, TRANSLATIONS


@pytest.fixture
def phone(client) -> Phone:
    """A phone whose pages are in Dutch (the language switch), with four players."""
    client.post("/language", data={"lang": "nl"})
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    return phone


def row_error(page: str, row: int) -> str | None:
    """The message beside row ``row`` of the hand form, as a player reads it."""
    found = re.search(rf'id="row-{row}-error" role="alert">([^<]*)</p>', page)
    return unescape(found.group(1)) if found else None


def test_a_bad_card_is_refused_in_dutch_beside_its_player_and_what_was_typed_stays(phone):
    phone.start()
    response = phone.enter(dict(HAND_1, Rex="2 QX"))
    assert response.status_code == 422
    page = html(response)
    assert row_error(page, 2) == (
        # A Dutch page reads the Dutch suit letters, and says so (RULES.md §1).
        "Rex: 'QX' is geen kaart — 'X' is geen kleur; de kleuren zijn h, r, k, s "
        "(harten, ruiten, klaveren, schoppen) of ♠ ♥ ♦ ♣."
    )
    assert [row_error(page, row) for row in (0, 1, 3)] == [None, None, None]
    assert "is not a card" not in page
    for typed in ("J 10", "A 3", "2 QX", "Q K"):
        assert f'value="{typed}"' in page


@pytest.mark.parametrize(
    ("cards", "rows", "message"),
    [
        (
            {"Rex": "QS 9 QS"},
            (2,),
            # A Dutch page names the card with the Dutch letters: the vrouw.
            "Rex heeft de V♠ twee keer, maar er zit er maar één in het kaartspel.",
        ),
        (
            {"Enda": "QS 10", "John": "QS 3"},
            (0, 1),
            "Twee spelers hebben allebei de V♠ (Enda, John).",
        ),
    ],
)
def test_a_card_held_twice_is_named_in_dutch_beside_who_holds_it(phone, cards, rows, message):
    phone.start()
    response = phone.enter(dict(HAND_1, **cards))
    assert response.status_code == 422
    page = html(response)
    for row in rows:
        assert row_error(page, row) == message
    assert "in the deck" not in page
    assert phone.client.get(f"{phone.board}/version.json").get_json()["hands_played"] == 0


def test_a_name_the_group_has_already_is_refused_in_dutch(phone):
    response = phone.client.post(f"/g/{phone.slug}/players", data={"name": "rex"})
    assert response.status_code == 422
    page = unescape(html(response))
    assert "Deze groep heeft al een speler die Rex heet." in page
    assert "There is already a player" not in page


def test_a_refused_undo_is_flashed_in_dutch(phone):
    phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_1)
    response = phone.client.post(f"{phone.board}/undo", data={"number": "1"}, follow_redirects=True)
    page = unescape(html(response))
    assert (
        "Alleen het laatste spel kan ongedaan gemaakt worden, en dat is spel 2. "
        "Wil je spel 1 wijzigen, corrigeer het dan." in page
    )


def test_the_api_keeps_answering_in_english(client):
    client.post("/language", data={"lang": "nl"})
    table = Table(client)
    table.post(f"/groups/{table.slug}/players", {"name": "Rex"})
    headers = {**table.headers, "Accept-Language": "nl"}
    response = table.post(f"/groups/{table.slug}/players", {"name": "rex"}, headers=headers)
    assert response.status_code == 409
    assert response.get_json()["error"]["message"] == (
        "There is already a player called Rex in this group."
    )


def test_a_wrapped_refusal_and_its_pieces_are_translated(app):
    inner = RuleError("{player} is seated twice.", player="Rex")
    with pytest.raises(RuleError) as refused:
        parse_cards("Q", suits_required=True, player="Rex")
    with app.test_request_context(headers={"Accept-Language": "nl"}):
        assert error_text(rule_error_for_hand(3, inner)) == (
            "Door deze correctie wordt spel 3 onmogelijk: Rex zit twee keer aan tafel."
        )
        # The page writes the example in its own letters (RULES.md §1), whatever it was typed in.
        assert error_text(refused.value) == "Rex: geef de kleur van de vrouw, bijv. Vh of V♥."
        assert error_text(TooManyAttempts(30)) == (
            "Te veel verkeerde wachtzinnen voor deze groep; probeer het over 30 seconden opnieuw."
        )
        # Not in the catalog: the English, and a "%" is only a character.
        assert error_text(RuleError("{share}% of {player}'s pot", share=50, player="Rex")) == (
            "50% of Rex's pot"
        )
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert error_text(refused.value) == refused.value.message


def refusal_templates() -> set[str]:
    """Every template the engine and the services refuse with, read as `pybabel extract` does."""
    keywords = dict.fromkeys(ERROR_KEYWORDS)
    found = extract_from_dir(str(ROOT), [("ledger/**.py", "python")], keywords=keywords)
    return {message for _file, _line, message, _comments, _context in found}


def blanks(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_refusal_has_a_dutch_translation_with_the_same_blanks():
    with open(TRANSLATIONS / "nl" / "LC_MESSAGES" / "messages.po", "rb") as f:
        dutch = read_po(f, locale="nl")
    templates = refusal_templates()
    assert len(templates) > 150  # the engine's, the services' and the backup's sentences
    problems = []
    for template in sorted(templates):
        entry = dutch.get(template)
        if entry is None or not entry.string or entry.fuzzy:
            problems.append(f"no Dutch for: {template}")
        elif blanks(entry.string) != blanks(template):
            problems.append(f"other blanks in the Dutch for: {template}")
    assert problems == []


def test_refusals_are_templates_the_catalog_can_find():
    """A refusal written as an f-string would stay English: `pybabel extract` cannot read it."""
    written_in = []
    for path in sorted((ROOT / "ledger").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ERROR_KEYWORDS and isinstance(node.args[0], ast.JoinedStr | ast.BinOp):
                written_in.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert written_in == []
