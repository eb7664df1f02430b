"""Players between hands on the pages: joining and leaving (games with open seating), and
Kaluki's buy-ins, made and taken back (RULES.md §10). Each answers with the scoreboard."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ledger import services
from ledger.ids import form_number
from ledger.web import access
from ledger.web.forms import ConfirmForm, PlayerForm
from ledger.words.language import error_text

bp = Blueprint("seats", __name__, url_prefix="/g/<slug>/s")


@bp.post("/<int:session_id>/join")
def join(slug: str, session_id: int) -> Response:
    group = access.group_for_page(slug)
    form = PlayerForm(prefix="join")
    if form.validate_on_submit():
        try:
            services.join_session(
                group, session_id, form.name.data or "", request.form.get("after", "")
            )
        except (services.RuleError, services.Conflict) as e:
            flash(error_text(e), "error")
        else:
            flash(_("%(name)s sits down.", name=form.name.data), "success")
    else:
        for message in form.name.errors:
            flash(str(message), "error")
    return redirect(url_for("sessions.show", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/buy_in")
def buy_in(slug: str, session_id: int) -> Response:
    """A player eliminated in the last hand buys back in (Kaluki): the version the page showed
    is sent back, so a double tap is refused rather than made twice."""
    group = access.group_for_page(slug)
    name = request.form.get("player", "")
    if ConfirmForm().validate_on_submit():
        try:
            view = services.buy_in(
                group, session_id, name, version=form_number(request.form.get("version"))
            )
        except (services.RuleError, services.Conflict) as e:
            flash(error_text(e), "error")
        else:
            total = view.totals.get(name, 0) if view.totals else 0
            flash(_("%(name)s buys back in at %(total)d.", name=name, total=total), "success")
    return redirect(url_for("sessions.show", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/buy_in/take_back")
def take_back_buy_in(slug: str, session_id: int) -> Response:
    """A buy-in made by mistake is taken back before the next hand (Kaluki)."""
    group = access.group_for_page(slug)
    name = request.form.get("player", "")
    if ConfirmForm().validate_on_submit():
        version = form_number(request.form.get("version"))
        try:
            services.take_back_buy_in(group, session_id, name, version)
        except (services.RuleError, services.Conflict) as e:
            flash(error_text(e), "error")
        else:
            flash(_("%(name)s's buy-in is taken back: out again.", name=name), "success")
    return redirect(url_for("sessions.show", slug=slug, session_id=session_id))


@bp.post("/<int:session_id>/leave")
def leave(slug: str, session_id: int) -> Response:
    group = access.group_for_page(slug)
    name = request.form.get("name", "")
    if ConfirmForm().validate_on_submit():
        try:
            services.leave_session(group, session_id, name)
        except (services.RuleError, services.Conflict) as e:
            flash(error_text(e), "error")
        else:
            flash(_("%(name)s leaves the table; their score stays.", name=name), "success")
    return redirect(url_for("sessions.show", slug=slug, session_id=session_id))
