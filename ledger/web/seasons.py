"""Seasons on the pages (RULES.md §13): the group's seasons and a new one, a season's table as
it would hang on the wall, and its close with the settle-up (QR codes, or onto the tab)."""

from __future__ import annotations

import uuid

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug import Response

from ledger.rules import RuleError
from ledger.rules.registry import GAMES
from ledger.services import seasons
from ledger.services.errors import Conflict
from ledger.web import access, i18n
from ledger.web.tab import transfer_rows

bp = Blueprint("seasons", __name__, url_prefix="/g/<slug>/seasons")


@bp.get("")
def index(slug: str, error: RuleError | None = None) -> tuple[str, int]:
    group = access.group_for_page(slug)
    return render_template(
        "seasons/index.html",
        group=group,
        seasons=seasons.group_seasons(group),
        games=list(GAMES),
        form=request.form if error else {"request_id": uuid.uuid4().hex},
        error=i18n.error_text(error) if error else None,
        field=error.field if error else None,
    ), (422 if error else 200)


@bp.post("")
def create(slug: str) -> Response | tuple[str, int]:
    group = access.group_for_page(slug)
    # An empty box leaves the option as it is by default; an empty "best of" counts every night.
    body = {k: v for k, v in request.form.items() if v.strip() or k in ("name", "best_of")}
    try:
        added = seasons.create_season(group, body, body.get("request_id") or None)
    except RuleError as e:
        return index(slug, e)
    return redirect(url_for("seasons.show", slug=slug, season_id=added.season.id), 303)


@bp.get("/<int:season_id>")
def show(slug: str, season_id: int, problem: str | None = None) -> str:
    group = access.group_for_page(slug)
    season = seasons.season_view(group, season_id)
    settled = season.settlement
    return render_template(
        "seasons/show.html",
        group=group,
        season=season,
        transfers=transfer_rows(settled.transfers, settled.currency) if settled else [],
        problem=problem,
    )


@bp.post("/<int:season_id>/close")
def close(slug: str, season_id: int) -> Response | str:
    group = access.group_for_page(slug)
    try:
        seasons.close_season(group, season_id, request.form.get("settle", "now"))
    except Conflict as e:
        return show(slug, season_id, i18n.error_text(e))
    return redirect(url_for("seasons.show", slug=slug, season_id=season_id), 303)
