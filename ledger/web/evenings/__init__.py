"""A club evening's pages (RULES.md §19): the organiser's page with its check-in QR code (an
invite to the group for a few hours that lands on the check-in, so a phone new to the group
needs no passphrase), every table live and the list (a wall screen or a phone), a phone's
check-in, and a checked-in phone's own page that opens its table by itself after the draw."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from flask import (
    Blueprint,
    Response,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from ledger import evening_paper
from ledger.downloads import download
from ledger.pictures.qr import qr_svg
from ledger.rules import GAMES, RuleError
from ledger.services import Conflict, NotFound, auth, evenings
from ledger.web import access, phone
from ledger.web.display import tick_words, transfer_rows
from ledger.web.group.page import invite_link
from ledger.words.evenings import checkin_title, seat_words
from ledger.words.language import error_text

bp = Blueprint("evenings", __name__, url_prefix="/g/<slug>/evenings")


@bp.route("", methods=["GET", "POST"])
def index(slug: str):
    group = access.group_for_page(slug)
    form = {k: v for k, v in request.form.items() if v.strip() or k == "name"}
    error = None
    if request.method == "POST":
        try:
            added = evenings.create_evening(group, form, form.get("request_id") or None)
            return redirect(url_for(".show", slug=slug, evening_id=added.evening.id), 303)
        except (RuleError, Conflict) as e:  # a field refused; the group full
            error = e
    page = render_template(
        "evenings/index.html",
        group=group,
        evenings=evenings.group_evenings(group),
        games=list(GAMES),
        form=form or {"request_id": uuid.uuid4().hex},
        error=error and (error_text(error), error.field),
    )
    return page, 422 if error else 200


@bp.route("/<int:evening_id>", methods=["GET", "POST"])
def show(slug: str, evening_id: int):
    """The organiser's page: check players in and out, draw, close; every table live; once
    closed, its settle-up with a tick per payment."""
    group = access.group_for_page(slug)
    error = None
    if request.method == "POST" and "from" in request.form:  # a tick of its settle-up
        _tick(group, evening_id, request.form.get("paid") != "no")
        return redirect(url_for(".show", slug=slug, evening_id=evening_id), 303)
    if request.method == "POST" and request.form.get("action") in ACTIONS:
        try:
            _act(group, evening_id, request.form)
            return redirect(url_for(".show", slug=slug, evening_id=evening_id), 303)
        except (RuleError, Conflict) as e:
            error = e
    # The stamp before the view: a check-in or a hand landing between the two reads leaves
    # the page older than its stamp says, so the next poll fetches it anew; read the other
    # way round, the page would show one player too few until the next change.
    stamp = evenings.evening_stamp(group, evening_id)
    view = evenings.evening_view(group, evening_id)
    code = _check_in_code(group, evening_id) if view.checking_in else None
    paid = view.settlement
    page = render_template(
        "evenings/show.html",
        group=group,
        evening=view,
        code=code,
        stamp=stamp,
        transfers=transfer_rows(paid.transfers, paid.currency) if paid else [],
        error=error and error_text(error),
    )
    return page, 409 if error else 200


# How long the check-in code lets a phone into the group: the evening, not the invite's week.
CHECK_IN_CODE = timedelta(hours=6)


def _check_in_code(group: access.GroupRef, evening_id: int) -> tuple[str, Markup, datetime]:
    """The check-in QR code's link (an invite to the group that lands on the evening's
    check-in, ending sooner than an invite: services/auth/invites.py), its picture and the
    moment it stops opening the group. Each showing of the page makes a fresh one."""
    now = datetime.now(UTC).replace(microsecond=0)
    until = now + min(CHECK_IN_CODE, auth.invite_lifetime())
    link = invite_link(group, evening=evening_id, until=int(until.timestamp()))
    return link, qr_svg(link, title=checkin_title()), until


# What the organiser's page's forms send; anything else shows the page (or its 404).
ACTIONS = ("check_in", "check_out", "draw", "close")


def _act(group: access.GroupRef, evening_id: int, form) -> None:
    """What the organiser's page sends: a check-in or out by hand, the draw, the close."""
    action = form.get("action")
    if action == "check_in":
        evenings.check_in(group, evening_id, form.get("player", ""))
    elif action == "check_out":
        try:
            evenings.check_out(group, evening_id, form.get("player", ""))
        except NotFound:  # a double tap: the first tap checked them out
            evenings.evening_view(group, evening_id)  # (another group's evening: not found)
    elif action == "draw":
        # The button says which round it draws: a second tap finds it drawn, and is done.
        wanted = form.get("round", "")
        number = int(wanted) if wanted.isdecimal() and len(wanted) <= 3 else None
        evenings.draw_next_round(group, evening_id, wanted=number)
    elif action == "close":
        try:
            evenings.close_evening(group, evening_id, form.get("settle", "now"))
        except Conflict:
            if evenings.evening_view(group, evening_id).status != "closed":
                raise
            # A double tap: the first tap closed it, and the page shows its settle-up.


def _tick(group: access.GroupRef, evening_id: int, paid: bool) -> None:
    """A transfer of the closed evening's settle-up ticked as paid (or not), as a season's."""
    form = request.form
    try:
        done = evenings.tick_evening(group, evening_id, form.get("from"), form.get("to"), paid)
    except (RuleError, Conflict) as e:
        return flash(error_text(e), "error")
    currency = evenings.evening_view(group, evening_id).currency
    flash(tick_words(done, currency, paid), "success")


@bp.get("/<int:evening_id>/version.json")
def version(slug: str, evening_id: int) -> Response:
    """What the evening's pages poll: one small answer, one query."""
    group = access.group_for_page(slug)
    response = jsonify(version=evenings.evening_stamp(group, evening_id))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/<int:evening_id>/check-in", methods=["GET", "POST"])
def check_in(slug: str, evening_id: int):
    """The QR code's page: tap your player, or add your name; the phone becomes theirs."""
    group = access.group_for_page(slug)
    error = None
    if request.method == "POST":
        try:
            _view, player_id = evenings.check_in(group, evening_id, request.form.get("player"))
        except (RuleError, Conflict) as e:
            error = e
        else:
            response = redirect(
                url_for(".mine", slug=slug, evening_id=evening_id, player_id=player_id), 303
            )
            phone.claim(response, group.id, player_id)  # RULES.md §20: the phone is theirs
            return response
    view = evenings.evening_view(group, evening_id)
    page = render_template(
        "evenings/check_in.html",
        group=group,
        evening=view,
        players=evenings.group_players(group),
        error=error and (error_text(error), error.field),
    )
    return page, 422 if error else 200


@bp.get("/<int:evening_id>/p/<int:player_id>")
def mine(slug: str, evening_id: int, player_id: int):
    """A checked-in phone's page: waiting for the draw, then straight to its table."""
    group = access.group_for_page(slug)
    view = evenings.evening_view(group, evening_id)
    found = evenings.player_table(view, player_id)
    if found is None:
        return redirect(url_for(".check_in", slug=slug, evening_id=evening_id), 303)
    name, table = found
    if table is not None and table.status == "open":
        flash(seat_words(table.table, table.seat_of(name) or 0), "success")
        return redirect(url_for("sessions.show", slug=slug, session_id=table.session))
    return render_template(
        "evenings/mine.html", group=group, evening=view, player=name, table=table
    )


@bp.get("/<int:evening_id>/evening.pdf")
def paper_file(slug: str, evening_id: int) -> Response:
    """A card per table of the round now and the list, in the page's language."""
    data, name = evening_paper.evening_file(access.group_for_page(slug), evening_id)
    return download(data, "application/pdf", name)
