"""Headers every response carries: a strict Content-Security-Policy and its companions, and
no caching unless a response says otherwise; and where a redirect asked for may go."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import Flask, Response

# No inline script or style anywhere: the pages load static/*.js and static/style.css only,
# and SVG is drawn with presentation attributes and classes. data: images cover the QR code
# if it is ever offered as an <img>.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Invite links carry a token in the path: never send a path to another site.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    # Pages and API answers show a group's data: kept by no cache, not even the browser's,
    # so a shared phone's Back button after "sign out" shows nothing of it. Static files
    # (ledger/web/assets.py) and downloads say their own, which this leaves alone.
    "Cache-Control": "private, no-store",
}


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)


def add_security_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def same_site_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site; never an address elsewhere (an open redirect),
    nor one holding a control character: a line break cannot go in the Location header (it
    answered 500), and urlsplit drops tabs and line breaks, so "/\n/elsewhere" reads as a path
    yet is an address elsewhere once they are gone."""
    if not target or any(unicodedata.category(c) == "Cc" for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target:
        return None
    return target
