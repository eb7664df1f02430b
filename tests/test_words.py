"""The players' words (ledger/words) sit beside the pages, not under the services: the services
and the engine answer facts and never import the words, and the words never import a page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

LEDGER = Path(__file__).resolve().parent.parent / "ledger"


def _imports(package: str) -> dict[str, set[str]]:
    """Every module of ``ledger/<package>`` and the modules it imports, by file."""
    found: dict[str, set[str]] = {}
    for path in sorted((LEDGER / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        found[str(path.relative_to(LEDGER.parent))] = names
    return found


def _reaching(package: str, into: str) -> list[str]:
    return [
        f"{path} imports {name}"
        for path, names in _imports(package).items()
        for name in sorted(names)
        if name == into or name.startswith(into + ".")
    ]


def test_the_services_and_the_engine_never_import_the_words():
    assert _reaching("services", "ledger.words") == []
    assert _reaching("rules", "ledger.words") == []


def test_the_words_never_import_a_page_or_the_api():
    assert _reaching("words", "ledger.web") == []
    assert _reaching("words", "ledger.api") == []


def test_the_check_sees_an_import_of_the_words():
    # The check reads the files themselves: a module that did import the words is seen.
    assert _reaching("web", "ledger.words"), "the pages import the words, so this must see it"


def _strings(package: str) -> list[tuple[str, str]]:
    """Every string in the modules of ``ledger/<package>`` but their docstrings, by file."""
    found = []
    for path in sorted((LEDGER / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in docs:
                    found.append((path.name, node.value))
    return found


def test_the_words_name_no_game_and_write_no_html():
    # As the pages (shared/tools/structure.py): a game's own words are the game's (its
    # module's phrases, its labels), and the pages' HTML is in templates.
    from ledger.rules.registry import GAMES

    strings = _strings("words")
    assert strings, "the check must see the words' strings"
    # "spots" is also a result's field (its spot total), read by name as the API writes it.
    assert [(f, s) for f, s in strings if s in GAMES and s != "spots"] == []
    assert [(f, s) for f, s in strings if re.search(r"<(a|p|div|span|time|input)[\s>/]", s)] == []
