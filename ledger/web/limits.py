"""How large a request may be: the app's MAX_CONTENT_LENGTH, and more for a restore."""

from __future__ import annotations

from flask import Flask, request

# A group's whole history can be far larger than any other form the app takes.
RESTORE_LIMIT = 64 * 1024 * 1024
RESTORE_ENDPOINT = "home.restore"


def init_app(app: Flask) -> None:
    """Call before ``csrf.init_app``: CSRFProtect's hook reads the form to find its token, and
    once the body has been read a larger limit set in the view comes too late."""
    app.before_request(allow_larger_body)


def allow_larger_body() -> None:
    if is_restore():
        request.max_content_length = RESTORE_LIMIT


def is_restore() -> bool:
    return request.endpoint == RESTORE_ENDPOINT
