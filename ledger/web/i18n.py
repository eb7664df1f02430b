r"""The page's language: English or Dutch, from a cookie set by the switch or the browser's wish.

Translations live in ledger/translations/<lang>/LC_MESSAGES/messages.po beside the compiled
.mo, which is committed so a fresh checkout speaks Dutch without a build step. English is the
language the texts are written in (its msgstr stay empty). The engine's and the services'
refusals are translated too: their message ids are the templates given to RuleError, the
service errors and Phrase (see ledger/rules/errors.py), and ``error_text`` shows them; the
engine's other texts (game names, descriptions, option help) and the pages' words about games
are marked with ``N_`` (ledger/rules/texts.py). After
changing a text, from the repository's top folder:

    pybabel extract -F ledger/translations/babel.cfg -k _l -k N_ -k Phrase -k RuleError \
        -k ServiceError -k NotFound -k Conflict -k Unauthorized -k BackupError \
        --no-location --sort-output -o ledger/translations/messages.pot .
    pybabel update -i ledger/translations/messages.pot -d ledger/translations \
        --ignore-obsolete --no-fuzzy-matching -w 100
    (translate the new entries in ledger/translations/nl/LC_MESSAGES/messages.po)
    pybabel compile -d ledger/translations

tests/web/test_i18n.py fails while a marked text has no Dutch or the .mo lags behind the .po.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request, url_for
from flask_babel import get_locale, get_translations, gettext
from werkzeug.wrappers import Response as BaseResponse

from ledger import hosting
from ledger.rules import CARD_LANGUAGES, Phrase, RuleError, labels
from ledger.security import same_site_path
from ledger.services.errors import ServiceError
from ledger.web.texts import option_label

LANGUAGES = {"en": "English", "nl": "Nederlands"}
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
# A year: the choice is a person's, not a visit's.
COOKIE_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The switch's cookie if it names a language we have, else the browser's best match."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE)


def page_cards_language() -> str:
    """The language a page reads and shows cards in (RULES.md §1): Dutch letters on a Dutch
    page, else English."""
    language = str(get_locale() or DEFAULT_LANGUAGE)
    return language if language in CARD_LANGUAGES else DEFAULT_LANGUAGE


def error_text(error: RuleError | ServiceError, game: str | None = None) -> str:
    """What the engine or a service refused, in the page's language (the API keeps the English).

    Each template is looked up as it is and filled with ``str.format``, never ``%``: a plain
    gettext, with none of Flask-Babel's interpolation, so a "%" in a sentence stays a "%".
    An option of ``game`` is named by the game's own words where it has them.
    """
    return _options_by_label(error, game).render(get_translations().gettext)


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


@bp.app_context_processor
def language_context() -> dict[str, object]:
    """Every page knows its language (for <html lang>) and offers the others."""
    return {"current_language": str(get_locale() or DEFAULT_LANGUAGE), "languages": LANGUAGES}


@bp.post("/language")
def set_language() -> BaseResponse:
    """The language switch: remembers the choice and goes back to the page it was made on."""
    lang = request.form.get("lang", "")
    response = redirect(same_site_path(request.form.get("next")) or url_for("home.index"))
    if lang in LANGUAGES:
        response.set_cookie(
            COOKIE,
            lang,
            max_age=COOKIE_AGE,
            samesite="Lax",
            httponly=True,
            secure=hosting.cookie_secure(current_app),  # https: never sent back over http
        )
    return response
