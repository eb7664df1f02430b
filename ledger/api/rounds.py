"""A night's rounds of drinks and food (API.md "Additions", fourth edition, "Rounds";
RULES.md §6c): listed, recorded, changed and taken back."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from ledger.api import bp
from ledger.api.auth import with_group
from ledger.api.parse import json_object, request_id
from ledger.services import rounds
from ledger.services.views.groups import GroupRef

# What a round's body may say; the engine checks each (422 naming the field).
FIELDS = ("what", "amount", "paid_by", "for", "shares")


def _typed(body: dict[str, Any]) -> dict[str, Any]:
    return {key: body.get(key) for key in FIELDS}


@bp.get("/sessions/<int:session_id>/rounds")
@with_group
def list_rounds(group: GroupRef, session_id: int):
    return jsonify([r.to_json() for r in rounds.list_rounds(group, session_id)])


@bp.post("/sessions/<int:session_id>/rounds")
@with_group
def add_round(group: GroupRef, session_id: int):
    """``201`` the round; a ``request_id`` sent again answers the round it recorded (``200``)."""
    body = json_object()
    added = rounds.add_round(group, session_id, _typed(body), request_id(body))
    return jsonify(added.round.to_json()), 201 if added.created else 200


@bp.put("/sessions/<int:session_id>/rounds/<int:round_id>")
@with_group
def change_round(group: GroupRef, session_id: int, round_id: int):
    body = json_object()
    return jsonify(rounds.change_round(group, session_id, round_id, _typed(body)).to_json())


@bp.delete("/sessions/<int:session_id>/rounds/<int:round_id>")
@with_group
def delete_round(group: GroupRef, session_id: int, round_id: int):
    json_object()  # a body, if any, must be JSON like every other call's
    rounds.delete_round(group, session_id, round_id)
    return "", 204
