"""The tests' shared template code (tests/shared_templates.py) changes no page a test sees.

Every test's app takes a template's compiled code from the process-wide cache; these hold it
to what it promises: a page drawn from shared code is the page drawn from the source, each app
with its own words; a template changed on disk, or an environment that compiles differently,
is compiled anew.
"""

from __future__ import annotations

import re
from pathlib import Path

from jinja2 import DictLoader, Environment

from ledger import create_app
from ledger.extensions import db
from tests.conftest import TEST_CONFIG, close_connections
from tests.shared_templates import SHARED_TEMPLATES, SharedTemplates


def test_a_page_drawn_from_shared_code_is_the_page_drawn_from_its_source(
    app, client, tmp_path, monkeypatch
):
    assert app.jinja_env.bytecode_cache is SHARED_TEMPLATES
    pages = [client.get(PAGE, headers=DUTCH).get_data(as_text=True)]

    # An app of its own, without the cache: every template compiled from its source.
    pages.append(_page_of_a_new_app(tmp_path / "own", None))

    # And one with the cache, that may compile nothing: every template's code is shared.
    def compile_again(*args, **kwargs):
        raise AssertionError(f"a template was compiled again: {args[1:3]}")

    monkeypatch.setattr(Environment, "compile", compile_again)
    pages.append(_page_of_a_new_app(tmp_path / "shared", SHARED_TEMPLATES))

    assert 'lang="nl"' in pages[0]
    # Each browser's form token is its own; everything else is the same page.
    pages = [TOKEN.sub("", page) for page in pages]
    assert pages[0] == pages[1] == pages[2]


def test_a_changed_template_and_other_settings_are_compiled_anew():
    cache = SharedTemplates()
    templates = {"page.html": "{% if x %}\n{{ x }}\n{% endif %}"}
    plain = Environment(loader=DictLoader(templates), bytecode_cache=cache)
    assert plain.get_template("page.html").render(x=1) == "\n1\n"
    assert len(cache.kept) == 1

    # Another environment alike takes the code; one that trims blocks may not.
    alike = Environment(loader=DictLoader(templates), bytecode_cache=cache)
    assert alike.get_template("page.html").render(x=2) == "\n2\n"
    assert len(cache.kept) == 1
    trimmed = Environment(loader=DictLoader(templates), bytecode_cache=cache, trim_blocks=True)
    assert trimmed.get_template("page.html").render(x=3) == "3\n"
    assert len(cache.kept) == 2

    # The same name with other text: compiled from the new text.
    changed = Environment(loader=DictLoader({"page.html": "[{{ x }}]"}), bytecode_cache=cache)
    assert changed.get_template("page.html").render(x=4) == "[4]"


PAGE = "/"
TOKEN = re.compile(r'name="csrf_token" value="[^"]*"')
DUTCH = {"Accept-Language": "nl"}


def _page_of_a_new_app(folder: Path, cache: SharedTemplates | None) -> str:
    """The start page in Dutch, from an app made here with its own empty database."""
    folder.mkdir()
    app = create_app(TEST_CONFIG | {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/db.sqlite"})
    app.jinja_env.bytecode_cache = cache
    try:
        with app.app_context():
            db.create_all()
        return app.test_client().get(PAGE, headers=DUTCH).get_data(as_text=True)
    finally:
        close_connections(app)
