"""The request's language, its Babel locale and its catalogue, looked up once per request.

Flask-Babel's ``gettext`` and ``get_locale`` find the request's locale and catalogue anew on
every call (through ``g`` three times a call, and the locale's name each time): a scoreboard
asks some forty times. ``page_language`` asks Flask-Babel once and keeps its answer in ``g``
for the rest of the request; ``gettext`` and ``ngettext`` here are Flask-Babel's, with the
same texts and the same ``%`` formatting, read from that kept catalogue. The language is
chosen by Flask-Babel's locale selector (ledger/web/i18n.py) as before.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from babel import Locale
from babel.support import NullTranslations
from flask import g
from flask_babel import get_locale, get_translations

DEFAULT_LANGUAGE = "en"
# Where a request keeps its ``PageLanguage``.
_KEPT = "_ledger_page_language"


class PageLanguage(NamedTuple):
    code: str  # "en", "nl": the locale's name
    locale: Locale
    catalogue: NullTranslations


def page_language() -> PageLanguage:
    """This request's language (outside an app context: what Flask-Babel answers there)."""
    try:
        found: PageLanguage | None = g.get(_KEPT)
    except RuntimeError:  # no app context: nothing to keep it in
        return _asked()
    if found is None:
        found = _asked()
        setattr(g, _KEPT, found)
    return found


def _asked() -> PageLanguage:
    locale = get_locale() or Locale.parse(DEFAULT_LANGUAGE)
    return PageLanguage(str(locale), locale, get_translations())


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext`` from the request's kept catalogue."""
    text = page_language().catalogue.ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext`` from the request's kept catalogue (``%(num)d`` is ``num``)."""
    variables.setdefault("num", num)
    return page_language().catalogue.ungettext(singular, plural, num) % variables
