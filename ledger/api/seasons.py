"""Seasons, ratings and rivals (API.md fourth edition, "Seasons", "Ratings", "Rivals")."""

from __future__ import annotations

from flask import jsonify, request, url_for

from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.api.parse import json_object, request_id
from ledger.services import league, seasons
from ledger.services.views.groups import GroupRef


@bp.post("/groups/<slug>/seasons")
@with_group
def create_season(group: GroupRef, slug: str):
    body = json_object()
    added = seasons.create_season(own_group(group, slug), body, request_id(body))
    response = jsonify(added.season.to_json())
    # A repeated request_id answers the season it made, as for sessions.
    response.status_code = 201 if added.created else 200
    response.headers["Location"] = url_for("api.season", slug=slug, season_id=added.season.id)
    return response


@bp.get("/groups/<slug>/seasons")
@with_group
def group_seasons(group: GroupRef, slug: str):
    found = seasons.group_seasons(own_group(group, slug))
    return jsonify({"seasons": [s.to_json() for s in found]})


@bp.get("/groups/<slug>/seasons/<int:season_id>")
@with_group
def season(group: GroupRef, slug: str, season_id: int):
    return jsonify(seasons.season_view(own_group(group, slug), season_id).to_json())


@bp.put("/groups/<slug>/seasons/<int:season_id>")
@with_group
def update_season(group: GroupRef, slug: str, season_id: int):
    body = json_object()
    return jsonify(seasons.update_season(own_group(group, slug), season_id, body).to_json())


@bp.post("/groups/<slug>/seasons/<int:season_id>/close")
@with_group
def close_season(group: GroupRef, slug: str, season_id: int):
    body = json_object()
    closed = seasons.close_season(own_group(group, slug), season_id, body.get("settle"))
    return jsonify(closed.to_json())


@bp.delete("/groups/<slug>/seasons/<int:season_id>")
@with_group
def delete_season(group: GroupRef, slug: str, season_id: int):
    json_object()
    seasons.delete_season(own_group(group, slug), season_id)
    return "", 204


@bp.get("/groups/<slug>/ratings")
@with_group
def ratings(group: GroupRef, slug: str):
    """Every player's rating at one game (Any game: one name), best first (RULES.md §14)."""
    found = league.group_ratings(
        own_group(group, slug), request.args.get("game"), request.args.get("name")
    )
    return jsonify(found.to_json())


@bp.get("/groups/<slug>/players/<path:name>/rivals")
@with_group
def rivals(group: GroupRef, slug: str, name: str):
    """Each opponent's record against the player, their nemesis and favourite opponent."""
    found = league.player_rivals(
        own_group(group, slug), name, request.args.get("game"), request.args.get("name")
    )
    return jsonify(
        {
            "player": found.player,
            "rivals": [
                {
                    "opponent": r.opponent,
                    "nights": r.nights,
                    "above": r.above,
                    "below": r.below,
                    "tied": r.tied,
                }
                for r in found.rivals
            ],
            "nemesis": found.nemesis,
            "favourite": found.favourite,
        }
    )
