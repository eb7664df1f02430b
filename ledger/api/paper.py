"""Paper (API.md fourth edition, "Paper"): a night's sheet, its blank score sheet and a
season's table as PDFs, in any language the pages speak (``?lang=nl``, ``?lang=de``, else the
Accept-Language header)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, request
from flask_babel import force_locale

from ledger import paper
from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.downloads import download
from ledger.services.views.groups import GroupRef
from ledger.words.language import DEFAULT_LANGUAGE, LANGUAGES

PDF = "application/pdf"


def _pdf(make: Callable[[], tuple[bytes, str]]) -> Response:
    chosen = request.args.get("lang")
    language = chosen if chosen in LANGUAGES else request.accept_languages.best_match(LANGUAGES)
    with force_locale(language or DEFAULT_LANGUAGE):
        data, name = make()
    return download(data, PDF, name)


@bp.get("/sessions/<int:session_id>/sheet.pdf")
@with_group
def night_sheet(group: GroupRef, session_id: int):
    return _pdf(lambda: paper.night_file(group, session_id))


@bp.get("/sessions/<int:session_id>/blank.pdf")
@with_group
def blank_sheet(group: GroupRef, session_id: int):
    return _pdf(lambda: paper.blank_file(group, session_id))


@bp.get("/groups/<slug>/seasons/<int:season_id>/table.pdf")
@with_group
def season_table(group: GroupRef, slug: str, season_id: int):
    return _pdf(lambda: paper.season_file(own_group(group, slug), season_id))
