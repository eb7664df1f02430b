"""Friendly error pages for the browser (the API answers JSON instead: ledger/api/errors.py)."""

from __future__ import annotations

from flask import Response, render_template
from jinja2 import TemplateNotFound
from werkzeug.exceptions import HTTPException, default_exceptions

from ledger.services.errors import NotFound, ServiceError


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


def service_error_page(e: ServiceError) -> Response:
    """A service's refusal that a page did not handle itself, as the page for its status.

    A NotFound keeps the stock wording: "There is no session 7" from another group's address
    would say no more, but the friendly page is the same for every missing thing.
    """
    exception_class = default_exceptions.get(e.status, HTTPException)
    description = None if isinstance(e, NotFound) else e.message
    error = exception_class(description=description)
    error.code = e.status
    return http_error_page(error)
