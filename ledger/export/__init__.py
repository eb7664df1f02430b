"""Workbooks and CSV files of a session or a group's history, built from the JSON API's answers.

Everything here takes the dicts the API answers (shared/API.md: session, hands, settlement,
group), never rows or engine values, so a download always shows what the API shows; what
the export service reads (ledger/services/exports.py) is laid out through session_data(). The
workbooks use openpyxl's write-only mode: rows stream to temporary files, so a long history
does not have to fit in memory as cell objects.

The package: ``cells`` (a cell's value made safe, times, numbers, money), ``tables`` (a
session's hands, payments and settlement as rows), ``sheets`` (write-only worksheets),
``session_book`` and ``group_book`` (the two workbooks), ``csv_files`` (the CSV files).
"""

from __future__ import annotations

from ledger.export.cells import CSV_MIMETYPE, XLSX_MIMETYPE, exact_amount, money_format, safe_text
from ledger.export.csv_files import group_export_csv, group_hands_csv, hands_csv, payments_csv
from ledger.export.group_book import group_export_workbook, group_workbook
from ledger.export.session_book import export_workbook, session_workbook
from ledger.export.tables import (
    SessionData,
    cards_text,
    closing_movements,
    group_hands_header,
    hand_movements,
    hands_table,
    is_money,
    payments_table,
    seated_names,
    session_data,
    session_winners,
    settlement_table,
)

__all__ = [
    "CSV_MIMETYPE",
    "SessionData",
    "XLSX_MIMETYPE",
    "cards_text",
    "closing_movements",
    "exact_amount",
    "export_workbook",
    "group_export_csv",
    "group_export_workbook",
    "group_hands_csv",
    "group_hands_header",
    "group_workbook",
    "hand_movements",
    "hands_csv",
    "hands_table",
    "is_money",
    "money_format",
    "payments_csv",
    "payments_table",
    "safe_text",
    "seated_names",
    "session_data",
    "session_winners",
    "session_workbook",
    "settlement_table",
]
