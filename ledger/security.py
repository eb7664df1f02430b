"""Headers every response carries: a strict Content-Security-Policy and its companions, and
no caching unless a response says otherwise."""

from __future__ import annotations

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
