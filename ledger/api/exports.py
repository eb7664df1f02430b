"""The downloads: workbooks, a session's hands and payments as CSV, the group's backup.

The workbooks are API.md's "Workbooks"; ledger/export.py and ledger/backup.py build the files.

Every file is made from the very answers the JSON calls give (the services' views), so a
download never disagrees with what the API and the pages show.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from flask import Response, current_app

from ledger import backup, services
from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.export import (
    CSV_MIMETYPE,
    XLSX_MIMETYPE,
    SessionData,
    group_hands_csv,
    group_workbook,
    hands_csv,
    payments_csv,
    session_workbook,
)
from ledger.extensions import db
from ledger.services.views import GroupRef

# Reads that happen between two writes of someone at the table could mix two versions of a
# session; the session's version before and after tells, and the reads are simply repeated.
SNAPSHOT_ATTEMPTS = 5


def session_data(group: GroupRef, session_id: int) -> SessionData:
    """The session, its hands and its settlement (None in a points game) as the API answers
    them, all of one version of the session."""
    for _ in range(SNAPSHOT_ATTEMPTS):
        view = services.session_view(group, session_id)
        hands = [h.to_json() for h in services.iter_hands(group, session_id)]
        settlement = services.settlement(group, session_id).to_json() if view.money else None
        if services.session_view(group, session_id).version == view.version:
            break
    return SessionData(view.to_json(), hands, settlement)


def group_sessions(group: GroupRef, listing: dict[str, Any]) -> Iterator[SessionData]:
    """Each of the group's sessions in turn, oldest first, read only when it is written.

    The rows read for one session are let go before the next is read, so a long history
    is never all in memory at once (the workbook streams its rows to disk).
    """
    for summary in listing["sessions"]:
        yield session_data(group, summary["id"])
        db.session.expunge_all()


def session_filename(session: Mapping[str, Any], extension: str, what: str = "") -> str:
    """``the-local-spot-7-2024-05-02.xlsx``: the group, the game, the session and its day."""
    day = _day(session.get("started_at"))
    parts = [session.get("group"), session.get("game"), str(session.get("id")), day, what]
    return _filename(parts, extension)


def group_filename(slug: str, extension: str, what: str = "") -> str:
    return _filename([slug, what], extension)


def _day(stamp: Any) -> str:
    try:
        return datetime.fromisoformat(str(stamp)).date().isoformat()
    except ValueError:
        return ""


def _filename(parts: list[Any], extension: str) -> str:
    name = "-".join(str(p) for p in parts if p)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "pub-ledger"
    return f"{name}.{extension}"


def download(data: bytes | str, mimetype: str, filename: str) -> Response:
    """A file the browser saves rather than shows, never cached by a proxy on the way."""
    response = current_app.response_class(data, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    response.headers["Cache-Control"] = "private, no-store"
    return response


# --- The calls ---------------------------------------------------------------------------------


@bp.get("/sessions/<int:session_id>/export.xlsx")
@with_group
def session_export(group: GroupRef, session_id: int):
    data = session_data(group, session_id)
    workbook = session_workbook(data.session, data.hands, data.settlement)
    return download(workbook, XLSX_MIMETYPE, session_filename(data.session, "xlsx"))


@bp.get("/sessions/<int:session_id>/hands.csv")
@with_group
def session_hands_csv(group: GroupRef, session_id: int):
    data = session_data(group, session_id)
    text = hands_csv(data.session, data.hands)
    return download(text, CSV_MIMETYPE, session_filename(data.session, "csv", "hands"))


@bp.get("/sessions/<int:session_id>/payments.csv")
@with_group
def session_payments_csv(group: GroupRef, session_id: int):
    data = session_data(group, session_id)
    text = payments_csv(data.session, data.hands, data.settlement)
    return download(text, CSV_MIMETYPE, session_filename(data.session, "csv", "payments"))


@bp.get("/groups/<slug>/export.xlsx")
@with_group
def group_export(group: GroupRef, slug: str):
    group = own_group(group, slug)
    return download(group_export_bytes(group), XLSX_MIMETYPE, group_filename(group.slug, "xlsx"))


@bp.get("/groups/<slug>/backup.json")
@with_group
def group_backup(group: GroupRef, slug: str):
    group = own_group(group, slug)
    text = backup.dumps(backup.backup_group(group.slug))
    filename = group_filename(group.slug, "json", f"backup-{_today()}")
    return download(text, "application/json", filename)


def group_export_bytes(group: GroupRef) -> bytes:
    """The group's workbook: its listing first, then each session as it is written."""
    listing = services.group_view(group).to_json()
    return group_workbook(listing, group_sessions(group, listing))


def group_csv_text(group: GroupRef) -> str:
    """Every hand of the group as CSV: the workbook's Hands sheet, session after session."""
    listing = services.group_view(group).to_json()
    return group_hands_csv(listing, group_sessions(group, listing))


def _today() -> str:
    return datetime.now().date().isoformat()
