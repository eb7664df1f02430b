"""The group's tab (RULES.md §6a) and the players' bank accounts (§6b) on the pages: the tab's
settle-up with the same shared ticks as a night's and its history; the QR code beside each
euro transfer to a player with an account is drawn by web/display.py's transfer rows."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug import Response

from ledger import services
from ledger.services import accounts
from ledger.services import tab as tabs_service
from ledger.services.views.tab import TabView
from ledger.web import access
from ledger.web.display import transfer_rows
from ledger.web.forms import AccountForm, ConfirmForm, add_error
from ledger.web.group.history import player
from ledger.words.language import error_text
from ledger.words.money import paid_text

bp = Blueprint("tab", __name__, url_prefix="/g/<slug>")


def _stamp(tabs: Sequence[TabView]) -> str:
    """What the tab's page polls: changes with every night, correction and payment."""
    text = json.dumps([t.to_json() for t in tabs], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@bp.get("/tab")
def show(slug: str) -> str:
    group = access.group_for_page(slug)
    tabs = tabs_service.group_tabs(group)
    shown = []
    for t in tabs:
        rows = transfer_rows(t.transfers, t.currency)
        title = _("%(group)s: the tab in %(currency)s", group=group.name, currency=t.currency)
        shown.append(
            {
                "tab": t,
                "transfers": rows,
                "payments": [(p, paid_text(p.to_json(), t.currency)) for p in t.payments],
                "copy_text": "\n".join([title, *(line for *_rest, line in rows)]),
            }
        )
    return render_template("groups/tab.html", group=group, tabs=shown, stamp=_stamp(tabs))


@bp.get("/tab/version.json")
def version(slug: str) -> Response:
    group = access.group_for_page(slug)
    response = jsonify(version=_stamp(tabs_service.group_tabs(group)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/tab/payments")
def pay(slug: str) -> Response:
    """A transfer of the tab ticked as paid, shared by every phone."""
    group = access.group_for_page(slug)
    if ConfirmForm().validate_on_submit():
        form = request.form
        try:
            paid = tabs_service.record_tab_payment(
                group, form.get("from"), form.get("to"), form.get("amount"), form.get("currency")
            )
        except services.RuleError as e:
            flash(error_text(e), "error")
        else:
            what = paid_text(paid.to_json(), paid.currency)
            flash(_("Ticked: %(what)s.", what=what), "success")
    return redirect(url_for(".show", slug=slug))


@bp.post("/tab/payments/<int:payment_id>/delete")
def unpay(slug: str, payment_id: int) -> Response:
    group = access.group_for_page(slug)
    if ConfirmForm().validate_on_submit():
        try:
            tabs_service.delete_tab_payment(group, payment_id)
        except services.NotFound:
            flash(_("That payment was taken back already."), "success")
        else:
            flash(_("The tick is taken back."), "success")
    return redirect(url_for(".show", slug=slug))


@bp.post("/s/<int:session_id>/off-tab")
def off_tab(slug: str, session_id: int) -> Response:
    """The night comes off the tab and is settled on its own (only while the tab is unpaid)."""
    group = access.group_for_page(slug)
    services.session_view(group, session_id)  # another group's session: not found
    if ConfirmForm().validate_on_submit():
        try:
            tabs_service.take_off_tab(group, session_id)
        except services.Conflict as e:
            flash(error_text(e), "error")
        else:
            flash(_("The night is off the tab: it is settled on its own."), "success")
    return redirect(url_for("sessions.settle", slug=slug, session_id=session_id))


@bp.post("/players/<path:name>/account")
def account(slug: str, name: str) -> Response | tuple[str, int]:
    """Keep a player's bank account, or forget it (the "Remove" button)."""
    group = access.group_for_page(slug)
    accounts.account_of(group, name)  # a player of another group, or none: not found
    form = AccountForm()
    if form.validate_on_submit():
        try:
            if request.form.get("remove"):
                accounts.delete_account(group, name)
                flash(_("The bank account is removed."), "success")
            else:
                accounts.set_account(group, name, form.iban.data, form.account_name.data)
                flash(_("The bank account is kept."), "success")
        except services.RuleError as e:
            # Refused: the page again as typed, the message beside its box (which has the focus).
            add_error(form, "account_name" if e.field == "name" else e.field, error_text(e))
            return player(slug, name, form), 422
    return redirect(url_for("history.player", slug=slug, name=name, _anchor="account"))
