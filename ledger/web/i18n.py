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

from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from babel.support import NullTranslations
from flask import Blueprint, current_app, redirect, request, url_for
from flask.blueprints import BlueprintSetupState
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response as BaseResponse

from ledger import hosting
from ledger.rules import CARD_LANGUAGES, Phrase, RuleError
from ledger.services.errors import ServiceError
from ledger.web.language import DEFAULT_LANGUAGE, gettext, page_language
from ledger.web.texts import OPTION_LABELS, option_label

LANGUAGES = {"en": "English", "nl": "Nederlands"}
COOKIE = "lang"
# A year: the choice is a person's, not a visit's.
COOKIE_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The switch's cookie if it names a language we have, else the browser's best match."""
    return locale_for(request.cookies.get(COOKIE), request.headers.get("Accept-Language"))


def locale_for(chosen: str | None, accept_language: str | None) -> str:
    """``select_locale`` from the switch's cookie and the Accept-Language header."""
    if chosen in LANGUAGES:
        return chosen
    return _best_match(accept_language or "")


@lru_cache(maxsize=256)
def _best_match(accept_language: str) -> str:
    # A table's phones send a handful of different headers: each is read once.
    accepted = parse_accept_header(accept_language, LanguageAccept)
    return accepted.best_match(LANGUAGES, default=DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE


def page_cards_language() -> str:
    """The language a page reads and shows cards in (RULES.md §1): Dutch letters on a Dutch
    page, else English."""
    language = page_language().code
    return language if language in CARD_LANGUAGES else DEFAULT_LANGUAGE


def error_text(error: RuleError | ServiceError) -> str:
    """What the engine or a service refused, in the page's language (the API keeps the English).

    Each template is looked up as it is and filled with ``str.format``, never ``%``: a plain
    gettext, with none of Flask-Babel's interpolation, so a "%" in a sentence stays a "%".
    """
    return _options_by_label(error).render(page_language().catalogue.gettext)


def _options_by_label(error: RuleError | ServiceError) -> Phrase:
    """The error's phrase with the option it concerns named as the page names it ("Play to"),
    not by the engine's key ("target"), which a player never sees.

    Only for an option of the game (its field is that option): the list of a game's options
    in "has no option" stays as keys, as the API takes them.
    """
    phrase = error.phrase
    key = phrase.params.get("option")
    if not isinstance(key, str) or error.field != f"options.{key}" or "options" in phrase.params:
        return phrase
    if key not in OPTION_LABELS:
        return phrase
    label = gettext("“%(option)s”", option=option_label(key))
    named = Phrase(phrase.template, **{**phrase.params, "option": label})
    named.case = phrase.case
    return named


# Where a render keeps its language's catalogue (``language_context``).
PAGE_TRANSLATIONS = "_page_translations"


@bp.app_context_processor
def language_context() -> dict[str, object]:
    """Every page knows its language (for <html lang>) and offers the others; and its
    catalogue, looked up once for the template's texts (``page_translations``)."""
    return {
        "current_language": page_language().code,
        "languages": LANGUAGES,
        PAGE_TRANSLATIONS: page_language().catalogue,
    }


def page_translations(context: Context) -> NullTranslations:
    """The catalogue of the page being rendered.

    Flask-Babel's own template gettext looks up the request's locale and catalogue anew for
    every text (three lookups through ``g`` and the locale's name each time), some 35 times a
    scoreboard. The render's context holds the catalogue of its request's language; a
    template rendered without it (a macro imported without context) takes the request's
    (``page_language``).
    """
    found = context.get(PAGE_TRANSLATIONS)
    return found if found is not None else page_language().catalogue


def _filled(context: Context, text: str, variables: dict[str, Any]) -> str:
    """A translated text as Jinja's newstyle gettext leaves it: marked safe where the page
    escapes, then always formatted with ``%``, so the variables put in are escaped."""
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return text % variables


@pass_context
def _page_gettext(context: Context, string: str, **variables: Any) -> str:
    """The templates' gettext in one call from the render's catalogue, instead of Jinja's
    three wrappers around a lookup."""
    return _filled(context, page_translations(context).ugettext(string), variables)


@pass_context
def _page_ngettext(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
    """``_page_gettext``'s plural: ``num`` chooses the form and is ``%(num)d`` in it."""
    text = page_translations(context).ungettext(singular, plural, num)
    return _filled(context, text, {"num": num, **variables})


@pass_context
def _page_pgettext(context: Context, text_context: str, string: str, **variables: Any) -> str:
    text = page_translations(context).upgettext(text_context, string)
    return _filled(context, text, variables)


@pass_context
def _page_npgettext(
    context: Context, text_context: str, singular: str, plural: str, num: int, **variables: Any
) -> str:
    text = page_translations(context).unpgettext(text_context, singular, plural, num)
    return _filled(context, text, {"num": num, **variables})


@bp.record_once
def _install_page_gettext(state: BlueprintSetupState) -> None:
    """Flask-Babel's template callables (installed by its init_app, before the blueprints
    are registered), replaced by the ones reading the render's catalogue: the same texts,
    formatted and escaped as Jinja's newstyle gettext does. Jinja's install sets its flags
    (newstyle); its wrappers are then replaced by the functions themselves."""
    env = state.app.jinja_env
    callables = {
        "gettext": _page_gettext,
        "ngettext": _page_ngettext,
        "pgettext": _page_pgettext,
        "npgettext": _page_npgettext,
    }
    env.install_gettext_callables(newstyle=True, **callables)  # type: ignore[attr-defined]
    env.globals.update(callables, _=_page_gettext)


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


def same_site_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site; never an address elsewhere (an open redirect)."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target:
        return None
    return target
