"""Rounds of drinks and food on a phone (RULES.md §6c): "Add drinks or food" from the
scoreboard, one changed or taken back while the night is open. The scoreboard and the
settle-up list them (templates/sessions/_rounds.html)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ledger import services
from ledger.ids import form_number
from ledger.services import rounds
from ledger.services.request_ids import minted_request_id, new_request_id
from ledger.services.views.rounds import RoundView
from ledger.web import access
from ledger.web.forms import ConfirmForm
from ledger.words.language import error_text
from ledger.words.money import round_text

bp = Blueprint("rounds", __name__, url_prefix="/g/<slug>/s/<int:session_id>/rounds")


@bp.app_template_filter("round_words")
def said(made: RoundView) -> str:
    """A round in words on any page: "John paid €18.40 for a round for Enda, …"."""
    return round_text(made.to_json(), made.currency)


def _typed() -> dict[str, object]:
    """The form as the service takes it: a share typed as a number is a number."""
    people = request.form.getlist("for")
    shares = {p: request.form.get(f"share-{p}", "1").strip() for p in people}
    return {
        "paid_by": request.form.get("paid_by"),
        "amount": request.form.get("amount", ""),
        "for": people,
        "shares": {p: form_number(s) if s.isdigit() else s for p, s in shares.items()},
        "what": request.form.get("what"),
    }


@bp.route("/new", methods=["GET", "POST"], defaults={"round_id": None})
@bp.route("/<int:round_id>", methods=["GET", "POST"])
def form(slug: str, session_id: int, round_id: int | None):
    """The round's form: new, or one of the night's to change. Saved, back to the scoreboard."""
    group = access.group_for_page(slug)
    view = services.session_view(group, session_id)
    shown = next((r for r in view.rounds if r.id == round_id), None)
    if round_id is not None and shown is None:
        abort(404)
    if view.status != "open":
        flash(_("The night is finished: open it again to change its rounds."), "error")
        return redirect(url_for("sessions.show", slug=slug, session_id=session_id))
    errors: dict[str, str] = {}
    if request.method == "POST" and ConfirmForm().validate_on_submit():
        try:
            if shown is None:
                once = minted_request_id(request.form.get("once"))
                made = rounds.add_round(group, session_id, _typed(), once).round
            else:
                made = rounds.change_round(group, session_id, shown.id, _typed())
        except services.RuleError as e:
            errors = {(p.field or "").split("[")[0]: error_text(p) for p in reversed(e.problems)}
        except services.Conflict as e:
            flash(error_text(e), "error")
        else:
            flash(_("Saved: %(round)s.", round=said(made)), "success")
            return redirect(url_for("sessions.show", slug=slug, session_id=session_id))
    html = render_template(
        "sessions/round.html",
        group=group,
        session=view,
        shown=shown,
        typed=_typed() if request.method == "POST" else None,
        errors=errors,
        once=request.form.get("once") or new_request_id(),
    )
    return (html, 422) if errors else html


@bp.post("/<int:round_id>/delete")
def delete(slug: str, session_id: int, round_id: int) -> Response:
    """A round taken back (after the page's confirm step)."""
    group = access.group_for_page(slug)
    services.session_view(group, session_id)  # another group's night: not found
    if ConfirmForm().validate_on_submit():
        try:
            gone = rounds.delete_round(group, session_id, round_id)
        except services.NotFound:
            flash(_("That was taken back already."), "success")
        except services.Conflict as e:
            flash(error_text(e), "error")
        else:
            flash(_("Taken back: %(round)s.", round=said(gone)), "success")
    return redirect(url_for("sessions.show", slug=slug, session_id=session_id))
