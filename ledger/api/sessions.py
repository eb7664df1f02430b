"""A session and its hands: /sessions/<id>, its players, hands, finish and settlement."""

from __future__ import annotations

from flask import jsonify, request

from ledger import services
from ledger.api import bp
from ledger.api.auth import with_group
from ledger.api.errors import APIError
from ledger.api.parse import WRONG_TYPE, hand_entry, json_object, request_id, text, whole
from ledger.ids import MAX_ID
from ledger.rules import ShapeError
from ledger.services.views.groups import GroupRef


@bp.get("/sessions/<int:session_id>")
@with_group
def session(group: GroupRef, session_id: int):
    """The night now (API.md "Session"), with each player's figures as the pages show them."""
    return jsonify(services.night_view(group, session_id).to_json())


@bp.delete("/sessions/<int:session_id>")
@with_group
def delete_session(group: GroupRef, session_id: int):
    services.delete_session(group, session_id)
    return "", 204


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
    """Every hand, or with ``?after=<number>&limit=<n>`` a page of a long night (API.md
    "Additions"): the hands numbered above ``after``, at most ``limit`` of them."""
    after = _query_whole("after", 0, MAX_ID) or 0
    limit = _query_whole("limit", 1, MAX_HANDS_PAGE)
    page = services.iter_hands(group, session_id, after=after, limit=limit)
    return jsonify([h.to_json() for h in page])


# The most hands one GET …/hands?limit= answers (API.md "Additions").
MAX_HANDS_PAGE = 500


def _query_whole(name: str, low: int, high: int) -> int | None:
    """The query string's ``name`` as a whole number from ``low`` to ``high``; None when it
    is not given. Anything else answers 422 naming it, before the session is read."""
    text = request.args.get(name)
    if text is None:
        return None
    digits = text.strip()
    number = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 10 else None
    if number is None or not low <= number <= high:
        raise APIError(
            422,
            f"{name} must be a whole number from {low} to {high}.",
            field=name,
        )
    return number


@bp.post("/sessions/<int:session_id>/hands")
@with_group
def add_hand(group: GroupRef, session_id: int):
    body = json_object()
    entry = hand_entry(services.game_of(group, session_id), body)
    added = services.add_hand(group, session_id, entry, request_id(body), whole(body, "version"))
    return jsonify(added.hand.to_json()), 201 if added.created else 200


@bp.put("/sessions/<int:session_id>/hands/<int:number>")
@with_group
def correct_hand(group: GroupRef, session_id: int, number: int):
    body = json_object()
    entry = hand_entry(services.game_of(group, session_id), body)
    hand = services.correct_hand(group, session_id, number, entry, whole(body, "version"))
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
        group,
        session_id,
        text(body, "leftover_pot"),
        pot_keeper=text(body, "pot_keeper"),
        settle=body.get("settle"),
    )
    return jsonify(view.to_json())


@bp.put("/sessions/<int:session_id>/pot")
@with_group
def pot_plan(group: GroupRef, session_id: int):
    """The table's plan for an open money night's pot (API.md "Additions", third edition)."""
    body = json_object()
    view = services.set_pot_plan(
        group, session_id, text(body, "leftover_pot"), text(body, "pot_keeper")
    )
    return jsonify(view.to_json())


@bp.put("/sessions/<int:session_id>/<call>")
@with_group
def game_call(group: GroupRef, session_id: int, call: str):
    """One of the game's own calls between hands (Boerenbridge's bids: API.md fourth
    edition). A call the game does not have answers 404."""
    body = json_object()
    try:
        view = services.game_call(group, session_id, call, body, whole(body, "version"))
    except ShapeError as e:
        raise APIError(WRONG_TYPE, e.message, field=e.field) from None
    return jsonify(view.to_json())


@bp.post("/sessions/<int:session_id>/buy_in")
@with_group
def buy_in(group: GroupRef, session_id: int):
    """Kaluki: a player eliminated in the last hand buys back in (API.md, third edition)."""
    body = json_object()
    view = services.buy_in(
        group, session_id, text(body, "player"), request_id(body), whole(body, "version")
    )
    return jsonify(view.to_json())


@bp.post("/sessions/<int:session_id>/buy_in/take_back")
@with_group
def take_back_buy_in(group: GroupRef, session_id: int):
    """Kaluki: a buy-in since the last hand taken back on its own (issue 37)."""
    body = json_object()
    view = services.take_back_buy_in(
        group, session_id, text(body, "player"), whole(body, "version")
    )
    return jsonify(view.to_json())


@bp.post("/sessions/<int:session_id>/reopen")
@with_group
def reopen(group: GroupRef, session_id: int):
    json_object()  # a body, if any, must be JSON like every other call's
    return jsonify(services.reopen_session(group, session_id).to_json())


@bp.get("/sessions/<int:session_id>/settlement")
@with_group
def settlement(group: GroupRef, session_id: int):
    return jsonify(services.night_settlement(group, session_id).to_json())


@bp.get("/sessions/<int:session_id>/payments")
@with_group
def payments(group: GroupRef, session_id: int):
    return jsonify([p.to_json() for p in services.list_payments(group, session_id)])


@bp.post("/sessions/<int:session_id>/payments")
@with_group
def record_payment(group: GroupRef, session_id: int):
    body = json_object()
    # A night with rounds may be paid in the currency: {from, to, amount} (RULES.md §6c).
    payment = services.record_payment(
        group,
        session_id,
        text(body, "from"),
        text(body, "to"),
        whole(body, "units"),
        money=body.get("amount"),
    )
    return jsonify(payment.to_json()), 201


@bp.delete("/sessions/<int:session_id>/payments/<int:payment_id>")
@with_group
def delete_payment(group: GroupRef, session_id: int, payment_id: int):
    json_object()  # a body, if any, must be JSON like every other call's
    services.delete_payment(group, session_id, payment_id)
    return "", 204


@bp.get("/sessions/<int:session_id>/history")
@with_group
def history(group: GroupRef, session_id: int):
    return jsonify([c.to_json() for c in services.session_history(group, session_id)])
