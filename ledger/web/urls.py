"""``url_for`` in the templates, with each address built once per process instead of per page.

A scoreboard draws some 30 links, and Werkzeug's builder costs about as much per link as the
rest of a line of the template: a tenth of a build after a new hand. An address depends on the
endpoint, its values (after the app's ``url_defaults``: a static file's version hash), and the
prefix the app is served under; nothing else while ``SERVER_NAME``, subdomain and host matching
are off (an address is then a path). So those make the key, and the address is built by
Flask's own ``url_for`` the first time. The rest (``_external``, ``_anchor``…, an endpoint
relative to the blueprint, outside a request) goes to Flask's ``url_for`` every time.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from flask import Flask, has_request_context, request

# Distinct addresses kept: every page's links for many groups, sessions and players.
KEPT = 4096
# The endpoints the app's url_defaults add values to (a static file's version, assets.py);
# tests/web/test_page_build.py fails if another url_defaults appears.
STATIC_ENDPOINTS = frozenset({"static"})


class PageUrls:
    """The ``url_for`` of an app's templates: Flask's answer, remembered."""

    def __init__(self, app: Flask, size: int = KEPT) -> None:
        self.app = app
        self._built = lru_cache(maxsize=size)(self._build)

    def __call__(self, endpoint: str, **values: Any) -> str:
        if not self._keyable(endpoint, values):
            return self.app.url_for(endpoint, **values)
        # As Flask's url_for does first: a static file's version goes into the key. The app's
        # only url_defaults (ledger/web/assets.py) adds to no other endpoint's values.
        if endpoint in STATIC_ENDPOINTS:
            self.app.inject_url_defaults(endpoint, values)
        # The type too: True and 1 are equal keys, but not the same text in an address. The
        # values in the order given: another order is another key for the same address.
        key = tuple([(name, value.__class__, value) for name, value in values.items()])
        try:
            return self._built(request.root_path, endpoint, key)
        except TypeError:  # a list of values (several ?a=…&a=…): not kept
            return self.app.url_for(endpoint, **values)

    def _keyable(self, endpoint: str, values: dict[str, Any]) -> bool:
        """Whether the address is a path fixed by the endpoint, the values and the prefix."""
        if endpoint[:1] == "." or not has_request_context():
            return False
        for name in values:
            if name[:1] == "_":  # _external, _anchor, _method, _scheme
                return False
        app = self.app
        return not (
            app.config.get("SERVER_NAME") or app.subdomain_matching or app.url_map.host_matching
        )

    def _build(self, root: str, endpoint: str, key: tuple[tuple[str, type, Hashable], ...]) -> str:
        # ``root`` is in the key only: Flask's url_for reads the same prefix from the request.
        values: dict[str, Any] = {name: value for name, _type, value in key}
        return self.app.url_for(endpoint, **values)
