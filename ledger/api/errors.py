"""API errors: every one answers ``{"error": {"message": …, "field": …}}`` (shared/API.md)."""

from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from ledger.rules import RuleError
from ledger.services.errors import Busy, ServiceError, TooManyAttempts

# Sent with every 401, so a browser or a client library knows to ask for the passphrase.
AUTHENTICATE = 'Basic realm="Pub Ledger"'

# What a caller reads when the error carries no message of its own.
MESSAGES = {
    400: "The request could not be understood.",
    401: "This needs the group's name and passphrase.",
    403: "That is not allowed.",
    404: "There is nothing at this address.",
    405: "This address does not take a {method} request.",
    409: "That clashes with a change made in the meantime.",
    413: "The request is too large.",
    415: "Send the request body as JSON.",
    422: "That breaks the rules.",
    429: "Too many attempts. Wait a while and try again.",
    500: "Something went wrong on the server. Please try again.",
}


class APIError(Exception):
    """An error an API view raises to answer ``status`` with a sentence for the player.

    ``field`` points at the input it concerns (``results[2].cards``), when there is one.
    """

    def __init__(self, status: int, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field


def is_api_request() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


# The calls that enter a hand or a round: their 422 also lists every problem found (API.md
# "Additions"; a round's refusals, RULES.md §6c).
HAND_ENDPOINTS = frozenset(
    {"api.add_hand", "api.correct_hand", "api.add_round", "api.change_round"}
)


def json_error(
    status: int,
    message: str,
    field: str | None = None,
    response: Response | None = None,
    *,
    problems: list[dict[str, str | None]] | None = None,
) -> Response:
    """The error body with ``status``; ``response`` keeps its headers (Allow, WWW-Authenticate).

    ``problems``, when given, is the body's ``errors``: every problem, the first as ``error``.
    """
    shape: dict[str, object] = {"error": {"message": message, "field": field}}
    if problems is not None:
        shape["errors"] = problems
    body = current_app.json.dumps(shape)
    if response is None:
        response = current_app.response_class()
    response.set_data(body + "\n")
    response.status_code = status
    response.content_type = "application/json"
    return response


def handle_api_error(e: APIError) -> Response:
    return json_error(e.status, e.message, e.field)


def handle_rule_error(e: RuleError) -> Response:
    """A well-formed request that breaks a rule of the game: 422. A hand's (and a round's)
    lists every problem found in it, so a client can mark them all at once; so does any
    refusal of more than one field (a payment given both in units and as an amount)."""
    if request.endpoint not in HAND_ENDPOINTS and len(e.problems) == 1:
        return json_error(422, e.message, e.field)
    problems = [{"message": p.message, "field": p.field} for p in e.problems]
    return json_error(422, e.message, e.field, problems=problems)


def handle_service_error(e: ServiceError) -> Response:
    """A service's refusal: 404, 409, 401 (asking for Basic auth), 429 or 503 (saying when to
    retry)."""
    response = json_error(e.status, e.message, e.field)
    if e.status == 401:
        response.headers["WWW-Authenticate"] = AUTHENTICATE
    if isinstance(e, TooManyAttempts | Busy):
        response.headers["Retry-After"] = str(e.retry_after)
    return response


def http_error_as_json(e: HTTPException) -> Response:
    status = e.code or 500
    # A description given with abort(404, "There is no session 7.") is meant for the caller;
    # werkzeug's stock descriptions speak of browsers and servers, so ours replace them.
    if e.description and e.description != type(e).description:
        message = e.description
    else:
        message = MESSAGES.get(status, f"{e.name}.").format(method=request.method)
    return json_error(status, message, response=e.get_response())
