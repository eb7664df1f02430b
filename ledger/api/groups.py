"""Groups and their players: POST /groups, GET /groups/<slug>, POST /groups/<slug>/players."""

from __future__ import annotations

from flask import jsonify, request, url_for

from ledger import services
from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.api.parse import json_object, mapping, request_id, text, text_list
from ledger.services import stats
from ledger.services.views.groups import GroupRef


@bp.post("/groups")
def create_group():
    """A new group: anyone may make one, up to LEDGER_GROUP_LIMIT an hour per address (429)."""
    body = json_object()
    name, passphrase = text(body, "name") or "", text(body, "passphrase") or ""
    group = services.create_group(name, passphrase, request.remote_addr)
    response = jsonify(group.to_json())
    response.status_code = 201
    response.headers["Location"] = url_for("api.group", slug=group.slug)
    return response


@bp.get("/groups/<slug>")
@with_group
def group(group: GroupRef, slug: str):
    return jsonify(services.group_view(own_group(group, slug)).to_json())


@bp.post("/groups/<slug>/players")
@with_group
def add_player(group: GroupRef, slug: str):
    body = json_object()
    player = services.add_player(own_group(group, slug), text(body, "name") or "")
    return jsonify(player.to_json()), 201


@bp.post("/groups/<slug>/sessions")
@with_group
def create_session(group: GroupRef, slug: str):
    body = json_object()
    added = services.create_session(
        own_group(group, slug),
        text(body, "game") or "",
        text_list(body, "players") or [],
        text(body, "dealer"),
        mapping(body, "options"),
        request_id=request_id(body),
    )
    session = added.session
    response = jsonify(session.to_json())
    # A repeated request_id answers the session it started, as for hands.
    response.status_code = 201 if added.created else 200
    response.headers["Location"] = url_for("api.session", session_id=session.id)
    return response


@bp.get("/groups/<slug>/stats")
@with_group
def group_stats(group: GroupRef, slug: str):
    """Every player's totals over the sessions started in ``from`` … ``to`` (UTC dates)."""
    period = stats.period_of(request.args.get("from"), request.args.get("to"))
    return jsonify(stats.group_stats(own_group(group, slug), period).to_json())


@bp.get("/groups/<slug>/players/<path:name>")
@with_group
def player(group: GroupRef, slug: str, name: str):
    """One player's sessions and totals (the same totals as the stats)."""
    return jsonify(stats.player_history(own_group(group, slug), name).to_json())
