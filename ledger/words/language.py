"""The language the words are in: the page's cards' letters, and a refusal in the page's
language (the engine's and the services' refusals are translated: ledger/web/i18n.py says how
the catalogues are made)."""

from __future__ import annotations

from flask_babel import get_locale, get_translations, gettext

from ledger.rules import CARD_LANGUAGES, Phrase, RuleError, labels
from ledger.services.errors import ServiceError
from ledger.words.games import option_label

DEFAULT_LANGUAGE = "en"


# The languages the pages, the PDFs and the workbooks are written in, each named in its own
# words for the footer's switch: the one list every part that chooses a language reads
# (ledger/web/i18n.py, ledger/api/paper.py). A catalogue of each is in ledger/translations.
LANGUAGES: dict[str, str] = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}


def page_language() -> str:
    """The language this page (or PDF) is written in: "en", "nl", "de"."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def page_cards_language() -> str:
    """The language a page reads and shows cards in (RULES.md §1, §20): Dutch letters on a
    Dutch page, German on a German page (once the engine reads them), else English."""
    language = page_language()
    return language if language in CARD_LANGUAGES else DEFAULT_LANGUAGE


def said(phrase: Phrase) -> str:
    """An engine's sentence as this page says it: in its language, the cards it names in the
    page's letters (RULES.md §1, §20), as the player typed them or reads them here."""
    return phrase.render(get_translations().gettext, page_cards_language())


def error_text(error: RuleError | ServiceError, game: str | None = None) -> str:
    """What the engine or a service refused, in the page's language (the API keeps the English).

    Each template is looked up as it is and filled with ``str.format``, never ``%``: a plain
    gettext, with none of Flask-Babel's interpolation, so a "%" in a sentence stays a "%".
    An option of ``game`` is named by the game's own words where it has them.
    """
    return said(_options_by_label(error, game))


def _options_by_label(error: RuleError | ServiceError, game: str | None = None) -> Phrase:
    """The error's phrase with the option it concerns named as the page names it ("Play to"),
    not by the engine's key ("target"), which a player never sees.

    Only for an option of the game (its field is that option): the list of a game's options
    in "has no option" stays as keys, as the API takes them.
    """
    phrase = error.phrase
    key = phrase.params.get("option")
    if not isinstance(key, str) or error.field != f"options.{key}" or "options" in phrase.params:
        return phrase
    if labels.option_label(key, game) is None:
        return phrase
    label = gettext("“%(option)s”", option=option_label(key, game))
    named = Phrase(phrase.template, **{**phrase.params, "option": label})
    named.case = phrase.case
    return named
