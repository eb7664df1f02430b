"""The tab and bank accounts (API.md "Additions (version 1, third edition)"): a group's tab
and its payments, a night taken off the tab, a player's bank account."""

from __future__ import annotations

from flask import jsonify

from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.api.parse import json_object
from ledger.services import accounts, tab
from ledger.services.views.groups import GroupRef


@bp.get("/groups/<slug>/tab")
@with_group
def group_tab(group: GroupRef, slug: str):
    tabs = tab.group_tabs(own_group(group, slug))
    return jsonify({"tabs": [t.to_json() for t in tabs]})


@bp.post("/groups/<slug>/tab/payments")
@with_group
def pay_tab(group: GroupRef, slug: str):
    body = json_object()
    payment = tab.record_tab_payment(
        own_group(group, slug),
        body.get("from"),
        body.get("to"),
        body.get("amount"),
        body.get("currency"),
    )
    return jsonify(payment.to_json()), 201


@bp.delete("/groups/<slug>/tab/payments/<int:payment_id>")
@with_group
def take_back_tab_payment(group: GroupRef, slug: str, payment_id: int):
    json_object()  # a body, if any, must be JSON like every other call's
    tab.delete_tab_payment(own_group(group, slug), payment_id)
    return "", 204


@bp.delete("/sessions/<int:session_id>/tab")
@with_group
def off_tab(group: GroupRef, session_id: int):
    json_object()
    return jsonify(tab.take_off_tab(group, session_id).to_json())


@bp.put("/groups/<slug>/players/<path:name>/account")
@with_group
def set_account(group: GroupRef, slug: str, name: str):
    body = json_object()
    kept = accounts.set_account(own_group(group, slug), name, body.get("iban"), body.get("name"))
    return jsonify(kept.to_json())


@bp.delete("/groups/<slug>/players/<path:name>/account")
@with_group
def delete_account(group: GroupRef, slug: str, name: str):
    json_object()
    accounts.delete_account(own_group(group, slug), name)
    return "", 204
