"""Seasons on the pages (RULES.md §13): the group's seasons and a new one, a season's table as
it would hang on the wall, and its close with the settle-up (QR codes, or onto the tab)."""

from __future__ import annotations

import uuid

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from ledger import paper
from ledger.downloads import download
from ledger.rules import RuleError
from ledger.rules.registry import GAMES
from ledger.services import league, seasons
from ledger.web import access, i18n
from ledger.web.tab import transfer_rows

bp = Blueprint("seasons", __name__, url_prefix="/g/<slug>")


@bp.route("/seasons", methods=["GET", "POST"])
def index(slug: str):
    group = access.group_for_page(slug)
    error, form = None, {"request_id": uuid.uuid4().hex}
    if request.method == "POST":
        # An empty box keeps the option's default; an empty "best of" counts every night.
        form = {k: v for k, v in request.form.items() if v.strip() or k in ("name", "best_of")}
        try:
            added = seasons.create_season(group, form, form.get("request_id") or None)
            return redirect(url_for(".show", slug=slug, season_id=added.season.id), 303)
        except RuleError as e:
            error = e
    page = render_template(
        "seasons/index.html",
        group=group,
        seasons=seasons.group_seasons(group),
        ratings=league.all_ratings(group),  # RULES.md §14
        games=list(GAMES),
        form=form,
        error=i18n.error_text(error) if error else None,
        field=error.field if error else None,
    )
    return page, 422 if error else 200


@bp.route("/seasons/<int:season_id>", methods=["GET", "POST"])
def show(slug: str, season_id: int):
    group = access.group_for_page(slug)
    if request.method == "POST":  # the close, settled now or onto the tab (closed: 409)
        seasons.close_season(group, season_id, request.form.get("settle", "now"))
        return redirect(url_for(".show", slug=slug, season_id=season_id), 303)
    season = seasons.season_view(group, season_id)
    settled = season.settlement
    return render_template(
        "seasons/show.html",
        group=group,
        season=season,
        transfers=transfer_rows(settled.transfers, settled.currency) if settled else [],
    )


@bp.get("/<any(s, seasons):kind>/<int:item>/<any(sheet, blank, table):what>.pdf")
def paper_file(slug: str, kind: str, item: int, what: str) -> Response:
    """Paper in the page's language: a night's sheet or blank score sheet, a season's table."""
    group = access.group_for_page(slug)
    made = {"sheet": paper.night_file, "blank": paper.blank_file, "table": paper.season_file}
    if (kind == "seasons") != (what == "table"):
        abort(404)
    data, name = made[what](group, item)
    return download(data, "application/pdf", name)
