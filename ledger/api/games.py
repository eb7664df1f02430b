"""GET /games: the games the app knows and their options' defaults."""

from __future__ import annotations

from flask import jsonify

from ledger import services
from ledger.api import bp


@bp.get("/games")
def games():
    return jsonify([g.to_json() for g in services.list_games()])
