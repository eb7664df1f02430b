"""A session and its hands: /sessions/<id>, its players, hands, finish and settlement."""

from __future__ import annotations

from flask import jsonify

from ledger import services
from ledger.api import bp
from ledger.api.auth import with_group
from ledger.api.parse import hand_entry, json_object, request_id, text, whole
from ledger.services.results import GroupRef


@bp.get("/sessions/<int:session_id>")
@with_group
def session(group: GroupRef, session_id: int):
    return jsonify(services.session_view(group, session_id).to_json())


@bp.post("/sessions/<int:session_id>/players")
@with_group
def join(group: GroupRef, session_id: int):
    body = json_object()
    view = services.join_session(
        group, session_id, text(body, "name") or "", text(body, "after") or ""
    )
    return jsonify(view.to_json()), 201


@bp.delete("/sessions/<int:session_id>/players/<path:name>")
@with_group
def leave(group: GroupRef, session_id: int, name: str):
    return jsonify(services.leave_session(group, session_id, name).to_json())


@bp.get("/sessions/<int:session_id>/hands")
@with_group
def hands(group: GroupRef, session_id: int):
    return jsonify([h.to_json() for h in services.iter_hands(group, session_id)])


@bp.post("/sessions/<int:session_id>/hands")
@with_group
def add_hand(group: GroupRef, session_id: int):
    body = json_object()
    added = services.add_hand(
        group, session_id, hand_entry(body), request_id(body), whole(body, "version")
    )
    return jsonify(added.hand.to_json()), 201 if added.created else 200


@bp.put("/sessions/<int:session_id>/hands/<int:number>")
@with_group
def correct_hand(group: GroupRef, session_id: int, number: int):
    body = json_object()
    hand = services.correct_hand(
        group, session_id, number, hand_entry(body), whole(body, "version")
    )
    return jsonify(hand.to_json())


@bp.delete("/sessions/<int:session_id>/hands/<int:number>")
@with_group
def undo_hand(group: GroupRef, session_id: int, number: int):
    body = json_object()
    services.undo_hand(group, session_id, number, whole(body, "version"))
    return "", 204


@bp.post("/sessions/<int:session_id>/finish")
@with_group
def finish(group: GroupRef, session_id: int):
    body = json_object()
    view = services.finish_session(
        group, session_id, text(body, "leftover_pot"), pot_keeper=text(body, "pot_keeper")
    )
    return jsonify(view.to_json())


@bp.get("/sessions/<int:session_id>/settlement")
@with_group
def settlement(group: GroupRef, session_id: int):
    return jsonify(services.settlement(group, session_id).to_json())


@bp.get("/sessions/<int:session_id>/history")
@with_group
def history(group: GroupRef, session_id: int):
    return jsonify([c.to_json() for c in services.session_history(group, session_id)])
