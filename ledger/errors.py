"""The app-wide handler for HTTP errors: JSON under /api/, a page everywhere else."""

from __future__ import annotations

from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from ledger.api.errors import http_error_as_json, is_api_request
from ledger.web.errors import http_error_page


def handle_http_exception(e: HTTPException) -> Response | HTTPException:
    # Decided by the path, not the blueprint: an unknown /api/ address matches no blueprint,
    # yet the script that called it still expects JSON.
    if e.code is None:
        return e
    if is_api_request():
        return http_error_as_json(e)
    return http_error_page(e)
