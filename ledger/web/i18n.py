r"""The page's language: English, Dutch or German, from a cookie set by the switch or the
browser's wish.

Translations live in ledger/translations/<lang>/LC_MESSAGES/messages.po beside the compiled
.mo, which is committed so a fresh checkout speaks Dutch and German without a build step.
English is the language the texts are written in (its msgstr stay empty). The engine's and
the services' refusals are translated too: their message ids are the templates given to
RuleError, the service errors and Phrase (see ledger/rules/errors.py), and ``error_text``
shows them; the engine's other texts (game names, descriptions, option help) and the pages'
words about games are marked with ``N_`` (ledger/rules/texts.py). After changing a text,
from the repository's top folder:

    pybabel extract -F ledger/translations/babel.cfg -k _l -k N_ -k Phrase -k RuleError \
        -k ServiceError -k NotFound -k Conflict -k Unauthorized -k BackupError \
        --no-location --sort-output -o ledger/translations/messages.pot .
    pybabel update -i ledger/translations/messages.pot -d ledger/translations \
        --ignore-obsolete --no-fuzzy-matching -w 100
    (translate the new entries in ledger/translations/nl/LC_MESSAGES/messages.po and
    ledger/translations/de/LC_MESSAGES/messages.po)
    pybabel compile -d ledger/translations

tests/web/test_i18n.py fails while a marked text has no Dutch or no German, or a .mo lags
behind its .po. A new language: its catalogue (``pybabel init -l <code>``) and its name in
``LANGUAGES`` (ledger/words/language.py), which every part that chooses a language reads.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request, url_for
from flask_babel import get_locale
from werkzeug.wrappers import Response as BaseResponse

from ledger import hosting
from ledger.security import same_site_path
from ledger.words.language import DEFAULT_LANGUAGE, LANGUAGES

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
