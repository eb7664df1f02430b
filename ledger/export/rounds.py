"""Rounds of drinks and food in the workbooks and the CSV (RULES.md §6c): the Rounds sheet of
a night's and of the group's workbook (what, paid by, amount, each person's part), and each
part as a movement of money on the Payments sheet and in payments.csv."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any

from openpyxl import Workbook

from ledger.export.cells import Row, _when, money_format
from ledger.export.sheets import _Sheet, _write_table

ROUND_NOTE = "round"  # a part of a round on the Payments sheet: "round: crisps"


def night_currency(session: Mapping[str, Any]) -> str:
    """The currency a night's rounds are paid in (its option; EUR without one)."""
    return str((session.get("options") or {}).get("currency") or "EUR")


def rounds_of(session: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(session.get("rounds") or ())


def rounds_header(names: Sequence[str], currency: str) -> Row:
    """The Rounds sheet's header: a column per player for their part."""
    return ["Round", "At (UTC)", "What", "Paid by", f"Amount ({currency})", *names]


def rounds_sheet(
    wb: Workbook, session: Mapping[str, Any], names: Sequence[str], width: float
) -> None:
    """The night's Rounds sheet (RULES.md §6c): what, paid by, the amount and each person's
    part, in the night's currency."""
    everyone = round_names(session, names)
    currency = night_currency(session)
    widths = [7, 17, 20, width, 12] + [width] * len(everyone)
    formats = {i: money_format(currency) for i in range(4, 5 + len(everyone))}
    sheet = _Sheet(wb, "Rounds", widths, formats=formats)
    _write_table(sheet, rounds_header(everyone, currency), rounds_rows(session, everyone))


def rounds_rows(session: Mapping[str, Any], names: Sequence[str]) -> Iterator[Row]:
    """One row per round of the night, oldest first: its number in the night, when, what,
    who paid, the amount and each player's part (empty for a player it was not for)."""
    for number, made in enumerate(rounds_of(session), start=1):
        parts = made.get("parts") or {}
        yield [
            number,
            _when(made.get("at")),
            made.get("what"),
            made.get("paid_by"),
            Decimal(str(made["amount"])),
            *(Decimal(str(parts[p])) if p in parts else None for p in names),
        ]


def group_rounds_header(names: Sequence[str]) -> Row:
    """The group workbook's Rounds sheet: the night (as the pages name it, "Spot #2", and its
    id beside it) before each round."""
    return ["Session", "Id", "Round", "At (UTC)", "What", "Paid by", "Amount", "Currency"] + [
        *names
    ]


def group_rounds_rows(
    session: Mapping[str, Any], night: str, names: Sequence[str]
) -> Iterator[Row]:
    """A night's rounds on the group's Rounds sheet: the night, then the round as the night's
    own sheet has it, with its currency."""
    currency = night_currency(session)
    for row in rounds_rows(session, names):
        yield [night, session.get("id"), *row[:5], currency, *row[5:]]


def round_names(session: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The players a night's rounds name, those of ``names`` first in their order."""
    more = [p for r in rounds_of(session) for p in (r.get("paid_by"), *(r.get("parts") or {}))]
    return list(dict.fromkeys([*names, *(str(p) for p in more if p)]))


def round_movements(session: Mapping[str, Any]) -> Iterator[tuple[str, str, Decimal, str]]:
    """Each part of each round as money moving: ``(from, to, amount, note)``, the person it
    was for paying the payer (the payer's own part moves nowhere)."""
    for made in rounds_of(session):
        what = made.get("what")
        note = f"{ROUND_NOTE}: {what}" if what else ROUND_NOTE
        for person, part in (made.get("parts") or {}).items():
            if person != made.get("paid_by"):
                yield person, str(made["paid_by"]), Decimal(str(part)), note


def totals_columns(session: Mapping[str, Any], currency: str) -> Row:
    """The Summary's rounds and total columns, where the night has rounds; with the pot
    brought back or kept before them where there is one, so that the row adds up: Amount
    (the night's winnings, the pot left out) plus Pot plus Rounds is the Total, as the
    settle-up shows Money, Pot, Rounds and Total."""
    if not _with_rounds(session):
        return []
    pot = [f"Pot ({currency})"] if _with_pot(session) else []
    return [*pot, f"Rounds ({currency})", f"Total ({currency})"]


def totals_cells(session: Mapping[str, Any], name: str) -> Row:
    """A player's pot (where there is one), rounds and total on the Summary: the night's
    figures (its standings, as every page shows them: ledger/services/night.py). The pot is
    what the settle-up settles less what was won: the pot kept less the pot brought back."""
    if not _with_rounds(session):
        return []
    standings = session.get("standings") or []
    found: Mapping[str, Any] = next((s for s in standings if s["player"] == name), {})
    pot: Row = []
    if _with_pot(session):
        settled = _decimal(found.get("balance_amount"))
        pot = [settled - _decimal(found.get("winnings_amount"))]
    return [*pot, _decimal(found.get("rounds")), _decimal(found.get("total"))]


def _with_pot(session: Mapping[str, Any]) -> bool:
    """Whether a player of the night brought a pot back or keeps one (RULES.md §2)."""
    return any(s.get("brought_back") or s.get("pot_kept") for s in session.get("standings") or [])


def _decimal(value: Any) -> Decimal:
    return Decimal(str(value or 0))


def _with_rounds(session: Mapping[str, Any]) -> bool:
    return any(s.get("total") is not None for s in session.get("standings") or [])
