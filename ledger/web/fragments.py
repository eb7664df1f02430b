"""``{% kept key, … %}…{% endkept %}``: parts of a kept page drawn once, not on every build.

A scoreboard is built anew after every hand (ledger/web/pagecache.py), yet most of it does
not change with a hand: the page's head and footer, the seating forms, the links under
"More". Drawing those is half the build. A template marks such a part with ``kept`` and the
values it depends on; the part's text is then kept per process under those values, the place
in the template, the language and the prefix the app is served under, and drawn again only
when one of them changes.

Rules that keep this safe:

- The key must hold everything the part shows (``tests/web/test_fragments.py`` draws every
  page both ways and compares them). A part that shows a score or anything else a hand
  changes is kept only under the session's version, which every change to the session
  raises (as the kept pages are): the scoreboard's status, scores, last hands and chart
  are drawn once per version, for all its addresses (``?saved=N`` and the plain page).
- Parts are kept only while a page is built to be kept (``pagecache.without_form_token``):
  its forms then carry ``TOKEN_SLOT``, never a browser's own token. Any other page draws the
  part as usual.
- Nothing is kept while templates may change under a running server (debug, or
  ``TEMPLATES_AUTO_RELOAD``): an edited template or static file shows at once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import current_app, request
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup, escape

from ledger.web.language import page_language
from ledger.web.pagecache import PageCache, building_kept_page

# Parts kept per process: a few per session and language for every table of a busy server.
KEPT_PARTS = 2048


class KeptParts(Extension):
    """The ``kept`` tag (see the module's docstring)."""

    tags = {"kept"}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        values: list[nodes.Expr] = []
        while parser.stream.current.type != "block_end":
            if values:
                parser.stream.expect("comma")
            values.append(parser.parse_expression())
        body = parser.parse_statements(("name:endkept",), drop_needle=True)
        place = nodes.Const(f"{parser.name}:{lineno}")
        where = nodes.Name(KEPT_WHERE, "load")
        call = self.call_method("_kept", [place, nodes.Tuple(values, "load"), where])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _kept(
        self, place: str, values: tuple[Any, ...], where: Any, caller: Callable[[], str]
    ) -> Markup:
        if not isinstance(where, Where):
            return Markup(caller())  # not a page to keep (or a macro without its context)
        # A list among the values (the players seated) is a key as the tuple of its items.
        held = tuple(tuple(v) if isinstance(v, list) else v for v in values)
        key: Hashable = (place, where.language, where.root, held)
        text = where.parts.get(key)
        if text is None:
            text = str(caller())
            where.parts.put(key, text)
        return Markup(text)


# The name under which a render's context holds its ``Where`` (``kept_where``).
KEPT_WHERE = "_kept_where"


@dataclass(frozen=True)
class Where:
    """What a render's kept parts are kept under beside their place and values, and where."""

    language: str
    root: str  # the prefix the app is served under
    parts: PageCache[str]


def kept_where() -> dict[str, Where | None]:
    """The context processor that lets a render keep its parts: its ``Where`` when the page
    is built to be kept (and templates do not change under the server), else None. Worked
    out once per render, not once per part."""
    app = current_app
    if not building_kept_page() or app.debug or app.config.get("TEMPLATES_AUTO_RELOAD"):
        return {KEPT_WHERE: None}
    parts: PageCache[str] = app.extensions.setdefault("ledger_kept_parts", PageCache(KEPT_PARTS))
    return {KEPT_WHERE: Where(page_language().code, request.root_path, parts)}


class Later:
    """A value only a kept part shows, worked out the first time the template asks for it
    (``{% if x %}``, ``{% for … in x %}``, ``{{ x }}``): when the part is kept already, never.
    The scoreboard's last hands' sentences and its chart are drawn inside the part kept under
    the session's version, so a second look at a version does not make them again."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._made = False
        self._value: Any = None

    def value(self) -> Any:
        if not self._made:
            self._value, self._made = self._make(), True
        return self._value

    def __bool__(self) -> bool:
        return bool(self.value())

    def __iter__(self) -> Iterator[Any]:
        return iter(self.value())

    def __html__(self) -> str:
        return str(escape(self.value()))
