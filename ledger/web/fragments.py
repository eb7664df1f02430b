"""``{% kept key, … %}…{% endkept %}``: parts of a kept page drawn once, not on every build;
and a page's frame, kept whole around the slots a new hand changes.

A scoreboard is built anew after every hand (ledger/web/pagecache.py), yet most of it does
not change with a hand: the page's head and footer, the seating forms, the links under
"More". Drawing those is half the build. A template marks such a part with ``kept`` and the
values it depends on; the part's text is then kept per process under those values, the place
in the template, the language and the prefix the app is served under, and drawn again only
when one of them changes.

Going further, ``Where.framed`` keeps the whole page per address, cut at its slots (values
the template shows as ``{{ slots.name }}``, made in Python): a build whose frame is kept
makes the slots' values and puts them in, and runs no template at all. Its key, like a kept
part's, holds everything the page shows outside the slots.

Rules that keep this safe:

- The key must hold everything the part shows (``tests/web/test_fragments.py`` draws every
  page both ways and compares them). A part that shows a score or anything else a hand
  changes is kept only under the session's version, which every change to the session
  raises (as the kept pages are): the scoreboard's status, scores, last hands and chart
  are drawn once per version, for all its addresses (``?saved=N`` and the plain page).
- Parts and frames are kept only while a page is built to be kept
  (``pagecache.without_form_token``): its forms then carry ``TOKEN_SLOT``, never a browser's
  own token. Any other page draws the part as usual.
- Nothing is kept while templates may change under a running server (debug, or
  ``TEMPLATES_AUTO_RELOAD``): an edited template or static file shows at once.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app, request
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup, escape

from ledger.web.language import page_language
from ledger.web.pagecache import PageCache, app_keep, building_kept_page

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
        return where.kept(place, held, caller)


# The name under which a render's context holds its ``Where`` (``kept_where``).
KEPT_WHERE = "_kept_where"
# Frames kept per process (``Where.framed``): one per scoreboard address and language a busy
# server's phones look at, and the seats and state the frame shows.
KEPT_FRAMES = 1024
# What marks a slot in a frame's first drawing: a NUL, which no page text holds (names and
# texts are refused with control characters, and Jinja writes none), and a mark of this
# process's own, so that not even a crafted value could pass for a slot.
_SLOT_MARK = f"\x00{secrets.token_hex(8)}:"
_SLOT = re.compile(re.escape(_SLOT_MARK) + r"(\w+)\x00")


@dataclass(frozen=True)
class Frame:
    """A page cut at its slots: the texts between them, and which slot goes after each."""

    pieces: tuple[str, ...]
    slots: tuple[str, ...]

    @classmethod
    def cut(cls, page: str) -> Frame:
        """The frame of a page drawn with the slots' marks (``slot_marks``) as their values."""
        split = _SLOT.split(page)  # text, slot name, text, slot name, …, text
        return cls(tuple(split[0::2]), tuple(split[1::2]))

    def fill(self, values: Mapping[str, str]) -> str:
        """The page with each slot's value put in."""
        out = [self.pieces[0]]
        for name, piece in zip(self.slots, self.pieces[1:], strict=True):
            out.append(values[name])
            out.append(piece)
        return "".join(out)


def slot_marks(names: Iterable[str]) -> dict[str, Markup]:
    """The values a frame's first drawing gives its slots: marks that ``Frame.cut`` finds."""
    return {name: Markup(f"{_SLOT_MARK}{name}\x00") for name in names}


@dataclass(frozen=True)
class Where:
    """What a render's kept parts are kept under beside their place and values, and where."""

    language: str
    root: str  # the prefix the app is served under
    parts: PageCache[str]
    frames: PageCache[Frame]

    def kept(self, place: str, values: Hashable, make: Callable[[], str]) -> Markup:
        """The part ``make`` draws (a template's ``kept`` part, or one drawn in Python), kept
        under its place and ``values``, which must hold everything it shows but the language
        and the prefix."""
        key = (place, self.language, self.root, values)
        text = self.parts.get(key)
        if text is None:
            text = str(make())
            self.parts.put(key, text)
        return Markup(text)

    def framed(
        self,
        key: Hashable,
        render: Callable[[Mapping[str, Any]], str],
        slots: Mapping[str, Callable[[], Any]],
    ) -> str:
        """The page ``render(values)`` draws, with ``slots`` made and put into it.

        Drawn once per ``key`` with marks in the slots, which cut it into a frame; every other
        build under ``key`` only makes the slots' values and puts them in: no template runs.
        ``key`` must hold everything the page shows outside its slots (but the language and
        the prefix), as a kept part's values do; tests/web/test_fragments.py draws pages both
        ways and compares them. The template shows a slot as it is (``{{ slots.name }}``),
        never tests or filters it: in the first drawing it is a mark, not its value.
        """
        full = (self.language, self.root, key)
        frame = self.frames.get(full)
        if frame is None:
            frame = Frame.cut(render(slot_marks(slots)))
            self.frames.put(full, frame)
        # Escaped as the template would show each value (a value that is markup as it is).
        return frame.fill({name: str(escape(make())) for name, make in slots.items()})


def page_where() -> Where | None:
    """Where a page's parts and frame are kept, if it is built to be kept (and templates do
    not change under the server); else None, and the page is drawn whole."""
    app = current_app
    if not building_kept_page() or app.debug or app.config.get("TEMPLATES_AUTO_RELOAD"):
        return None
    parts: PageCache[str] = app_keep("ledger_kept_parts", lambda: PageCache(KEPT_PARTS))
    frames: PageCache[Frame] = app_keep("ledger_kept_frames", lambda: PageCache(KEPT_FRAMES))
    return Where(page_language().code, request.root_path, parts, frames)


def kept_where() -> dict[str, Where | None]:
    """The context processor that lets a render keep its parts: its ``Where`` when the page
    is built to be kept (``page_where``), else None. Worked out once per render, not once per
    part; a render given its ``Where`` (``KEPT_WHERE``) uses that."""
    return {KEPT_WHERE: page_where()}


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
