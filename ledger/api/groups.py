"""Groups and their players: POST /groups, GET /groups/<slug>, POST /groups/<slug>/players."""

from __future__ import annotations

from flask import jsonify, url_for

from ledger import services
from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.api.parse import json_object, mapping, request_id, text, text_list
from ledger.services.results import GroupRef


@bp.post("/groups")
def create_group():
    body = json_object()
    group = services.create_group(text(body, "name") or "", text(body, "passphrase") or "")
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
