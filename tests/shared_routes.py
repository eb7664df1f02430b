"""The tests' URL rules: each address's builder (what url_for runs) compiled once per process.

werkzeug compiles two small Python functions for every rule when the rule is added (one
builds the address with the query string, one without): about a quarter of a millisecond a
rule, 30 ms of the ~35 ms the app factory takes. A process that makes one app pays it once
either way; the test suite makes a fresh app for every test (some 2,500 apps in a run), and
paid it each time. The functions depend on the rule alone, so a process compiles each once
and every app's rule of the same shape reuses it. tests/conftest.py makes it the rule class
of every app the tests make; the app itself keeps werkzeug's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule as WerkzeugRule

# (the rule as written, its parts as parsed, its defaults' names, with the query string or
# not) -> the builder. Two entries a route of the app's: the routes are the app's own, not
# anything a user sends, so the dictionary stays as small as the app.
_BUILDERS: dict[tuple[Any, ...], Callable[..., Any]] = {}


class Rule(WerkzeugRule):
    """A werkzeug Rule whose builders are shared by every rule of the same shape.

    What werkzeug's ``_compile_builder`` makes of a rule depends on the rule's text (the
    function's name), its parsed parts (``_trace``: each fixed piece of text and each
    variable's name, the host or subdomain part included) and the names of its defaults
    (each an argument of the function). The converters are looked up through the rule the
    function is bound to each time it runs, so two apps' rules with the same parts share a
    function safely. A default for one of the rule's own variables is written into the
    function as text, so such a rule is compiled as werkzeug does, every time.
    tests/web/test_routing.py checks every route's shared builder against werkzeug's own.
    """

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., Any]:
        defaults = tuple(self.defaults or ())
        if any(dynamic and part in defaults for dynamic, part in self._trace):
            return super()._compile_builder(append_unknown)
        key = (self.rule, tuple(self._trace), defaults, append_unknown)
        builder = _BUILDERS.get(key)
        if builder is None:
            builder = _BUILDERS[key] = super()._compile_builder(append_unknown)
        return builder
