"""The downloads: workbooks, a session's hands and payments as CSV, the group's backup.

The workbooks are API.md's "Workbooks". What goes in them is read by the export service
(ledger/services/exports.py); ledger/export/ and ledger/backup/ lay out the files.
"""

from __future__ import annotations

from ledger import backup
from ledger.api import bp
from ledger.api.auth import own_group, with_group
from ledger.downloads import (
    download,
    download_written,
    group_filename,
    session_filename,
    today,
)
from ledger.export import (
    CSV_MIMETYPE,
    XLSX_MIMETYPE,
    export_workbook,
    group_export_workbook,
    hands_csv,
    payments_csv,
    session_data,
)
from ledger.services import exports
from ledger.services.views.groups import GroupRef


@bp.get("/sessions/<int:session_id>/export.xlsx")
@with_group
def session_export(group: GroupRef, session_id: int):
    data = session_data(exports.session_export(group, session_id))
    return download(export_workbook(data), XLSX_MIMETYPE, session_filename(data.session, "xlsx"))


@bp.get("/sessions/<int:session_id>/hands.csv")
@with_group
def session_hands_csv(group: GroupRef, session_id: int):
    data = session_data(exports.session_export(group, session_id))
    text = hands_csv(data.session, data.hands)
    return download(text, CSV_MIMETYPE, session_filename(data.session, "csv", "hands"))


@bp.get("/sessions/<int:session_id>/payments.csv")
@with_group
def session_payments_csv(group: GroupRef, session_id: int):
    data = session_data(exports.session_export(group, session_id))
    text = payments_csv(data.session, data.hands, data.settlement)
    return download(text, CSV_MIMETYPE, session_filename(data.session, "csv", "payments"))


@bp.get("/groups/<slug>/export.xlsx")
@with_group
def group_export(group: GroupRef, slug: str):
    group = own_group(group, slug)
    book = exports.group_book(group)
    return download_written(
        lambda stream: group_export_workbook(book, stream=stream),
        XLSX_MIMETYPE,
        group_filename(group.slug, "xlsx"),
    )


@bp.get("/groups/<slug>/backup.json")
@with_group
def group_backup(group: GroupRef, slug: str):
    group = own_group(group, slug)
    text = backup.dumps(backup.backup_group(group.slug))
    filename = group_filename(group.slug, "json", f"backup-{today()}")
    return download(text, "application/json", filename)
