"""ledger/web/language.py: the request's language looked up once, its texts as Flask-Babel's."""

from __future__ import annotations

import flask_babel
import pytest

from ledger.web import language

TEXTS = ["Scores", "Settle up", "%(name)s goes out.", "No such text in the catalogue"]


@pytest.mark.parametrize(("header", "code"), [("nl-NL,nl;q=0.9", "nl"), ("en-GB", "en")])
def test_the_texts_are_flask_babels_in_the_requests_language(app, header, code):
    with app.test_request_context("/", headers={"Accept-Language": header}):
        assert language.page_language().code == code
        for text in TEXTS:
            assert language.gettext(text, name="Rex") == flask_babel.gettext(text, name="Rex")
        for n in (1, 2):
            ours = language.ngettext("Winner: %(names)s", "Winners: %(names)s", n, names="Rex")
            theirs = flask_babel.ngettext("Winner: %(names)s", "Winners: %(names)s", n, names="Rex")
            assert ours == theirs
    if code == "nl":
        with app.test_request_context("/", headers={"Accept-Language": header}):
            assert language.gettext("Settle up") != "Settle up"  # Dutch, not the English id


def test_each_request_has_its_own_language(app):
    with app.test_request_context("/", headers={"Cookie": "lang=nl"}):
        dutch = language.gettext("Settle up")
    with app.test_request_context("/", headers={"Cookie": "lang=en"}):
        english = language.gettext("Settle up")
    assert english == "Settle up" and dutch != english


def test_outside_a_request_the_texts_are_the_english_ones():
    assert language.gettext("Settle up") == "Settle up"
    assert language.ngettext("%(num)d hand", "%(num)d hands", 3) == "3 hands"
