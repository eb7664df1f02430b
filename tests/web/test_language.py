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


@pytest.mark.parametrize("header", ["nl", "en"])
def test_the_templates_texts_escape_what_goes_into_them_in_either_language(app, header):
    """The templates' ``_`` and ``ngettext`` (ledger/web/i18n.py) as Jinja's newstyle
    gettext: the text translated, the names put in escaped, ``%(num)d`` the count."""
    template = app.jinja_env.from_string(
        '{{ _("%(name)s goes out.", name=who) }}|'
        '{{ ngettext("Winner: %(names)s", "Winners: %(names)s", 2, names=who) }}|'
        "{{ gettext('Settle up') }}"
    )
    with app.test_request_context("/", headers={"Accept-Language": header}):
        app.update_template_context(context := {"who": "<b>Rex</b>"})
        out, plural, plain = template.render(context).split("|")
        assert out == flask_babel.gettext("%(name)s goes out.", name="&lt;b&gt;Rex&lt;/b&gt;")
        assert plural == flask_babel.ngettext(
            "Winner: %(names)s", "Winners: %(names)s", 2, names="&lt;b&gt;Rex&lt;/b&gt;"
        )
        assert plain == flask_babel.gettext("Settle up")
        assert "<b>" not in out + plural
