"""Friendly error pages for the browser (the API answers JSON instead: ledger/api/errors.py)."""

from __future__ import annotations

from flask import Response, render_template
from jinja2 import TemplateNotFound
from werkzeug.exceptions import HTTPException


def http_error_page(e: HTTPException) -> Response:
    """templates/errors/<code>.html if there is one, else the general errors/error.html."""
    response = e.get_response()  # keeps headers such as Allow
    try:
        html = render_template(f"errors/{e.code}.html", error=e)
    except TemplateNotFound:
        html = render_template("errors/error.html", error=e)
    response.set_data(html)
    response.content_type = "text/html; charset=utf-8"
    return response
