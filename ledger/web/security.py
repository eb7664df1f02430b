"""Headers every response carries: a strict Content-Security-Policy and its companions."""

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
}


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)


def add_security_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
