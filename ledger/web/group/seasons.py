"""Seasons, ratings and paper on the pages (RULES.md §13, §14): the wall's table, its PDFs."""

from __future__ import annotations

import uuid

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for

from ledger import paper
from ledger.downloads import download
from ledger.rules import GAMES, RuleError
from ledger.services import Conflict, league, seasons
from ledger.web import access
from ledger.web.display import tick_words, transfer_rows
from ledger.words.language import error_text

bp = Blueprint("seasons", __name__, url_prefix="/g/<slug>")


@bp.route("/seasons", methods=["GET", "POST"])
def index(slug: str):
    group = access.group_for_page(slug)
    # An empty box keeps the option's default; an empty "best of" counts every night.
    form = {k: v for k, v in request.form.items() if v.strip() or k in ("name", "best_of")}
    error = None
    try:
        if request.method == "POST":
            added = seasons.create_season(group, form, form.get("request_id") or None)
            return redirect(url_for(".show", slug=slug, season_id=added.season.id), 303)
    except (RuleError, Conflict) as e:  # a field refused; the group full
        error = e
    page = render_template(
        "seasons/index.html",
        group=group,
        seasons=seasons.group_seasons(group),
        ratings=league.all_ratings(group),  # RULES.md §14
        games=list(GAMES),
        form=form or {"request_id": uuid.uuid4().hex},
        error=error and (error_text(error), error.field),
    )
    return page, 422 if error else 200


@bp.route("/seasons/<int:season_id>", methods=["GET", "POST"])
def show(slug: str, season_id: int):
    group = access.group_for_page(slug)
    error: RuleError | Conflict | None = None
    if request.method == "POST":  # a tick of its settle-up (or not), else the close
        if "from" in request.form:
            _tick(group, season_id, request.form.get("paid") != "no")
            return redirect(url_for(".show", slug=slug, season_id=season_id), 303)
        try:  # settled now or onto the tab; refused: the season's page, saying why
            seasons.close_season(group, season_id, request.form.get("settle", "now"))
            return redirect(url_for(".show", slug=slug, season_id=season_id), 303)
        except (RuleError, Conflict) as e:
            error = e
    season = seasons.season_view(group, season_id)
    paid = season.settlement
    rows = transfer_rows(paid.transfers, paid.currency) if paid else []
    said = error and error_text(error)
    page = render_template(
        "seasons/show.html", group=group, season=season, transfers=rows, error=said
    )
    return page, (409 if isinstance(error, Conflict) else 422) if error else 200


def _tick(group: access.GroupRef, season_id: int, paid: bool) -> None:
    form = request.form
    try:
        done = seasons.tick_season(group, season_id, form.get("from"), form.get("to"), paid)
    except (RuleError, Conflict) as e:
        return flash(error_text(e), "error")
    flash(tick_words(done, seasons.season_view(group, season_id).currency, paid), "success")


@bp.get("/s/<int:session_id>/<any(sheet, blank):what>.pdf")
@bp.get("/seasons/<int:season_id>/table.pdf", defaults={"what": "table"})
def paper_file(slug: str, what: str, session_id: int = 0, season_id: int = 0) -> Response:
    """Paper in the page's language: a night's sheet or blank score sheet, a season's table."""
    made = {"sheet": paper.night_file, "blank": paper.blank_file, "table": paper.season_file}
    data, name = made[what](access.group_for_page(slug), session_id or season_id)
    return download(data, "application/pdf", name)
