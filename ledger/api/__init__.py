"""The JSON API blueprint, /api/v1 (shared/API.md). Its views live in modules of this package."""

from __future__ import annotations

from flask import Blueprint

from ledger.api.errors import APIError, handle_api_error, handle_rule_error, handle_service_error
from ledger.rules import RuleError
from ledger.services.errors import ServiceError

bp = Blueprint("api", __name__, url_prefix="/api/v1")

bp.register_error_handler(APIError, handle_api_error)
bp.register_error_handler(RuleError, handle_rule_error)
bp.register_error_handler(ServiceError, handle_service_error)

# View modules add their routes to `bp` when imported: import each one here, at the bottom,
# after `bp` exists (they do `from ledger.api import bp`).
from ledger.api import (  # noqa: E402, F401, E501
    evenings,
    exports,
    games,
    groups,
    paper,
    rounds,
    seasons,
    sessions,
    tab,
    tokens,
)
