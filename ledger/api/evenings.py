"""Club evenings (API.md fifth edition, "Evenings"; RULES.md §19)."""

from __future__ import annotations

from flask import jsonify, url_for

from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.api.parse import json_object, request_id
from ledger.services import evenings
from ledger.services.views.groups import GroupRef


@bp.post("/groups/<slug>/evenings")
@with_group
def create_evening(group: GroupRef, slug: str):
    body = json_object()
    added = evenings.create_evening(own_group(group, slug), body, request_id(body))
    response = jsonify(added.evening.to_json())
    # A repeated request_id answers the evening it made, as for sessions and seasons.
    response.status_code = 201 if added.created else 200
    response.headers["Location"] = url_for("api.evening", slug=slug, evening_id=added.evening.id)
    return response


@bp.get("/groups/<slug>/evenings")
@with_group
def group_evenings(group: GroupRef, slug: str):
    found = evenings.group_evenings(own_group(group, slug))
    return jsonify({"evenings": [e.to_json() for e in found]})


@bp.get("/groups/<slug>/evenings/<int:evening_id>")
@with_group
def evening(group: GroupRef, slug: str, evening_id: int):
    return jsonify(evenings.evening_view(own_group(group, slug), evening_id).to_json())


@bp.post("/groups/<slug>/evenings/<int:evening_id>/players")
@with_group
def check_in(group: GroupRef, slug: str, evening_id: int):
    body = json_object()
    view, _ = evenings.check_in(own_group(group, slug), evening_id, body.get("player"))
    response = jsonify(view.to_json())
    response.status_code = 201
    return response


@bp.delete("/groups/<slug>/evenings/<int:evening_id>/players/<path:name>")
@with_group
def check_out(group: GroupRef, slug: str, evening_id: int, name: str):
    return jsonify(evenings.check_out(own_group(group, slug), evening_id, name).to_json())


@bp.post("/groups/<slug>/evenings/<int:evening_id>/rounds")
@with_group
def draw_round(group: GroupRef, slug: str, evening_id: int):
    json_object()
    drawn = evenings.draw_next_round(own_group(group, slug), evening_id)
    response = jsonify(drawn.to_json())
    response.status_code = 201
    return response


@bp.post("/groups/<slug>/evenings/<int:evening_id>/close")
@with_group
def close_evening(group: GroupRef, slug: str, evening_id: int):
    body = json_object()
    closed = evenings.close_evening(own_group(group, slug), evening_id, body.get("settle"))
    return jsonify(closed.to_json())
