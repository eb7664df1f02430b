"""Friendly error pages for the browser (the API answers JSON instead: ledger/api/errors.py)."""

from __future__ import annotations

import re
from typing import Any

from flask import render_template, request, url_for
from flask.globals import request_ctx
from flask_babel import format_decimal
from jinja2 import TemplateNotFound
from werkzeug.exceptions import HTTPException, default_exceptions
from werkzeug.wrappers import Response

from ledger import services
from ledger.ids import row_number
from ledger.services.errors import NotFound, ServiceError
from ledger.web import access, limits, unsaved_hand
from ledger.words.language import error_text

# An address inside a group, and inside one of its sessions: /g/<slug>/s/<id>/…
_IN_A_GROUP = re.compile(r"^/g/(?P<slug>[^/]+)(?:/s/(?P<session>\d+)(?:/|$))?")

MEGABYTE = 1024 * 1024


def http_error_page(e: HTTPException) -> Response:
    """templates/errors/<code>.html if there is one, else the general errors/error.html; for a
    Host no address can be built on (``a..b``), whose pages' links cannot be, werkzeug's own."""
    response = e.get_response()  # keeps headers such as Allow
    if request_ctx.url_adapter is None:
        return response
    if e.code == 404:
        context = way_back()
    elif e.code == 401:
        context = resume()
    elif e.code == 413:
        context = too_large()
    else:
        context = {}
    try:
        html = render_template(f"errors/{e.code}.html", error=e, **context)
    except TemplateNotFound:
        html = render_template("errors/error.html", error=e, **context)
    response.set_data(html)
    response.content_type = "text/html; charset=utf-8"
    return response


def way_back() -> dict[str, Any]:
    """Where a page not found inside a group leads: the group, and the session's scoreboard
    when the group has that session.

    Only for a group this browser has opened: for any other slug the page is the same as for
    a group that does not exist, so it says nothing about other groups (not even their names).
    """
    match = _IN_A_GROUP.match(request.path)
    if match is None or "\x00" in match["slug"]:
        return {}  # (no slug holds NUL, and PostgreSQL cannot be asked about one)
    group = access.signed_in_group(match["slug"])
    if group is None:
        return {}
    back: dict[str, Any] = {"group": group}
    # An id no row can have (past the database's integer) is not looked up: it is not there.
    session_id = row_number(match["session"])
    if session_id is not None:
        try:
            back["back_session"] = services.session_view(group, session_id)
        except ServiceError:
            pass  # not a session of this group: the group's page is the way back
    return back


def resume() -> dict[str, Any]:
    """Where the passphrase page goes once the group is open (``resume``): the page itself, or
    for a form sent to an address that only takes forms (undo, join, finish…), the scoreboard
    of its session, else the group's page: never an address that answers GET with 405.

    A hand form sent while signed out also hands on what was typed (``kept``): the page sends
    it with the passphrase, and the form opens with it again (ledger/web/unsaved_hand.py).
    """
    if request.method in ("GET", "HEAD"):
        return {"resume": request.full_path.rstrip("?")}
    rule = request.url_rule
    kept: list[tuple[str, str]] = []
    if rule is not None and "GET" in (rule.methods or ()):
        target = request.path
        kept = unsaved_hand.carried_fields()
    else:
        match = _IN_A_GROUP.match(request.path)
        if match is None:
            return {}
        slug, session_id = match["slug"], match["session"]
        if session_id:
            target = url_for("sessions.show", slug=slug, session_id=int(session_id))
        else:
            target = url_for("groups.show", slug=slug)
    return {"resume": target, "kept": kept}


def too_large() -> dict[str, Any]:
    """Whether a restore was too large, and the most that address takes (in MB) when that limit
    is the one it broke: a body within it broke one of the form's own (a field or part count).
    """
    limit = request.max_content_length  # the restore's own (ledger/web/limits.py) or the app's
    length = request.content_length
    over = limit is not None and (length is None or length > limit)
    return {
        "restoring": limits.is_restore(),
        "limit_mb": format_decimal(round(limit / MEGABYTE, 1)) if over and limit else None,
    }


def service_error_page(e: ServiceError) -> Response:
    """A service's refusal that a page did not handle itself, as the page for its status.

    A NotFound keeps the stock wording: "There is no session 7" from another group's address
    would say no more, but the friendly page is the same for every missing thing.
    """
    exception_class = default_exceptions.get(e.status, HTTPException)
    description = None if isinstance(e, NotFound) else error_text(e)
    error = exception_class(description=description)
    error.code = e.status
    return http_error_page(error)
