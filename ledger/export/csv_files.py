"""CSV files: a session's hands and payments, and every hand of a group."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ledger.export.cells import Row, _value
from ledger.export.tables import (
    GroupHands,
    SessionData,
    group_games,
    hands_table,
    payments_table,
    session_data,
)

if TYPE_CHECKING:
    from ledger.services.exports import GroupExport


def _csv(header: Row, rows: Iterable[Row]) -> str:
    """CSV text with a byte-order mark, so Excel reads the names and € as UTF-8."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([_csv_value(v) for v in header])
    for row in rows:
        writer.writerow([_csv_value(v) for v in row])
    return out.getvalue()


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return _value(value)


def hands_csv(session: Mapping[str, Any], hands: Iterable[Mapping[str, Any]]) -> str:
    """hands.csv: the Hands sheet's columns, one row per hand."""
    return _csv(*hands_table(session, list(hands)))


def payments_csv(
    session: Mapping[str, Any],
    hands: Iterable[Mapping[str, Any]],
    settlement: Mapping[str, Any] | None = None,
) -> str:
    """payments.csv: the Payments sheet's columns, one row per movement of money."""
    return _csv(*payments_table(session, list(hands), settlement))


def group_hands_csv(
    group: Mapping[str, Any], sessions: Iterable[SessionData | tuple[Any, ...]]
) -> str:
    """The group's whole history as CSV (`ledger export GROUP FILE.csv`): the rows of the
    group workbook's Hands sheet, every hand of every session, oldest first."""
    layout = GroupHands([str(p["name"]) for p in group.get("players") or []], group_games(group))

    def rows() -> Iterator[Row]:
        for item in sessions:
            session, hands, _settlement = SessionData(*item)
            for hand in hands:
                yield layout.row(session, hand)

    return _csv(layout.header(), rows())


def group_export_csv(export: GroupExport) -> str:
    """Every hand of the group as CSV: the workbook's Hands sheet, session after session."""
    return group_hands_csv(export.group.to_json(), (session_data(s) for s in export.sessions))
