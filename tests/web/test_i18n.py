"""English, Dutch and German: chosen by the browser or the switch, and the catalogs shipped
complete."""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from ledger.rules.registry import GAMES
from ledger.words.language import LANGUAGES
from tests.web.pages import HAND_1, HAND_2, Phone, html

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "ledger" / "translations"


def test_a_dutch_browser_gets_dutch_pages(client):
    response = client.get("/", headers={"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5"})
    page = html(response)
    assert '<html lang="nl">' in page
    assert "Een groep openen" in page
    assert "Open a group" not in page


def test_an_english_or_unknown_browser_gets_english(client):
    for wish in ("en-GB,en;q=0.9", "fr-FR", ""):
        page = html(client.get("/", headers={"Accept-Language": wish}))
        assert '<html lang="en">' in page
        assert "Open a group" in page


def test_the_switch_keeps_the_language_in_a_cookie_over_the_browsers_wish(client):
    response = client.post("/language", data={"lang": "nl", "next": "/?x=1"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/?x=1"
    assert "lang=nl" in response.headers["Set-Cookie"]
    page = html(client.get("/", headers={"Accept-Language": "en"}))
    assert "Een groep openen" in page
    client.post("/language", data={"lang": "en"})
    assert "Open a group" in html(client.get("/", headers={"Accept-Language": "nl"}))


def test_a_night_in_dutch(client):
    client.post("/language", data={"lang": "nl"})
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    saved = phone.enter(HAND_1)
    page = html(client.get(saved.headers["Location"]))
    assert "Spel 1 opgeslagen." in page
    assert (
        "Niemand ging uit. John wint 51: Enda betaalt 20, Rex 11, Finn 20. "
        "Met de inleg staat de pot op 20."
    ) in page
    assert "Spel invoeren" in page
    saved = phone.enter(HAND_2, out="Enda")
    page = html(client.get(saved.headers["Location"]))
    assert "Enda gaat uit en krijgt 74: de pot van 40, en John betaalt 16, Rex 10, Finn 8." in page
    new = html(client.get(f"/g/{phone.slug}/s/new"))
    assert "Iers kroegrummy om geld" in new  # the engine's description, translated
    assert "Inleg" in new
    assert "Finn betaalt Enda" in html(client.get(f"{phone.board}/settle"))


def test_a_dutch_error_page(client):
    response = client.get("/no-such-page", headers={"Accept-Language": "nl"})
    assert response.status_code == 404
    assert "Op dit adres staat geen pagina." in html(response)


def compiled_messages(catalog: Catalog) -> dict[tuple[str | None, Any], Any]:
    """What a compiled catalogue answers: each message's translation by its context and id.
    Not its bytes: the header a .mo carries (the Babel that wrote it, the date) differs from
    one Babel to the next, and README's test command installs whichever pip picks."""

    def plain(text: Any) -> Any:  # a plural's forms: a tuple from a .po, a list from a .mo
        return tuple(text) if isinstance(text, (list, tuple)) else text

    def answer(m: Any) -> Any:  # a plural left untranslated is written as its English
        forms = plain(m.string)
        return plain(m.id) if isinstance(forms, tuple) and not any(forms) else forms

    return {
        (m.context, plain(m.id)): answer(m) for m in catalog if m.id and m.string and not m.fuzzy
    }


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_compiled_catalog_is_the_one_the_po_file_makes(language):
    """The .mo is committed so a fresh checkout needs no build step; it must not lag behind."""
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as f:
        catalog = read_po(f, locale=language)
    with open(folder / "messages.mo", "rb") as f:
        committed = read_mo(f)
    assert compiled_messages(committed) == compiled_messages(catalog), (
        f"Run: pybabel compile -d ledger/translations ({language} .mo is out of date)"
    )


def test_the_comparison_sees_a_lagging_catalog_and_not_another_babels_header():
    """A .mo another Babel writes (another header) is the same catalogue; one without a
    translation the .po has is not."""
    with open(TRANSLATIONS / "nl" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f, locale="nl")

    def written(changed: Catalog) -> Catalog:
        raw = io.BytesIO()
        write_mo(raw, changed)
        raw.seek(0)
        return read_mo(raw)

    other = copy.deepcopy(catalog)
    other.version, other.fuzzy = "9.9", False
    other.project, other.msgid_bugs_address = "Pub Ledger (another Babel)", "x@example.org"
    assert compiled_messages(written(other)) == compiled_messages(catalog)
    lagging = copy.deepcopy(catalog)
    message = next(m for m in lagging if m.id and isinstance(m.id, str) and m.string)
    message.string = ""
    assert compiled_messages(written(lagging)) != compiled_messages(catalog)


# The sentences the engine and the services refuse with (ledger/rules/errors.py): the first
# argument of each of these is a message id, as the extract command in ledger/web/i18n.py says.
ERROR_KEYWORDS = (
    "Phrase",
    "RuleError",
    "ServiceError",
    "NotFound",
    "Conflict",
    "Unauthorized",
    "BackupError",
)


def texts_in_the_source() -> set[str | tuple[str, ...]]:
    """Every text the code and templates mark, read as `pybabel extract` reads them: with
    ledger/translations/babel.cfg and the keywords ledger/web/i18n.py's command names."""
    with open(TRANSLATIONS / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "N_": None, **dict.fromkeys(ERROR_KEYWORDS)}
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords)
    return {message for _file, _line, message, _comments, _context in found}


def test_the_texts_of_every_page_are_read_for_translation():
    """A template that pybabel cannot read (a tag it does not know) is left out whole, so the
    texts of the pages every phone shows are looked for by name: the scoreboard's are found."""
    texts = texts_in_the_source()
    for text in (
        "Export spreadsheet",  # templates/sessions/show.html
        "Skip to the content",  # templates/base.html
        "Pot:",
        "Running scores",
        "End the game here",
        ("All hands (%(num)d more)", "All hands (%(num)d more)"),
    ):
        assert text in texts, text


def test_every_language_of_the_switch_is_english_or_has_a_catalog():
    """The switch offers only what is translated: each language but English has its .po."""
    assert "de" in LANGUAGES and "nl" in LANGUAGES
    for language in LANGUAGES:
        if language != "en":
            assert (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").is_file(), language


def test_the_papers_languages_in_the_api_reference_are_the_apps():
    """docs/openapi.yaml's ``lang`` offers the languages the app reads, no fewer or more."""
    spec = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text(encoding="utf-8"))
    assert spec["components"]["parameters"]["lang"]["schema"]["enum"] == list(LANGUAGES)


@pytest.mark.parametrize("language", [code for code in sorted(LANGUAGES) if code != "en"])
def test_every_text_has_its_translation(language):
    """Fails when a text was added without `pybabel extract`/`update` and a Dutch and a German
    entry (a fuzzy one, which pybabel does not use, counts as missing)."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f, locale=language)
    missing = []
    for text in texts_in_the_source():
        key = text[0] if isinstance(text, tuple) else text
        translated = catalog.get(key)
        strings = translated.string if translated is not None else None
        if isinstance(strings, tuple):
            complete = all(strings)
        else:
            complete = bool(strings)
        if not complete or (translated is not None and translated.fuzzy):
            missing.append(key)
    assert missing == []


def test_every_game_text_the_engine_shows_is_marked_for_translation():
    """The engine marks its texts with N_ where it writes them (ledger/rules/texts.py)."""
    shown = set()
    for game in GAMES.values():
        shown |= {game.name, game.description}
        shown |= {opt.help for opt in game.options.values() if opt.help}
    marked = {text[0] if isinstance(text, tuple) else text for text in texts_in_the_source()}
    assert shown - marked == set()


def test_the_english_catalog_keeps_the_texts_as_written():
    with open(TRANSLATIONS / "en" / "LC_MESSAGES" / "messages.po", "rb") as f:
        english = read_po(f, locale="en")
    changed = [
        m.id
        for m in english
        if m.id and any(m.string if isinstance(m.string, tuple) else [m.string])
    ]
    assert changed == []
