"""GET /healthz: tells a service manager or a load balancer that the app answers."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    # Liveness only: it touches no database, so it stays cheap enough to poll every second.
    return {"status": "ok"}
