"""The text of the QR code a banking app scans to pay a transfer in euros (RULES.md §6b):
the European Payments Council's SEPA credit transfer code, EPC069-12 version 002."""

from __future__ import annotations

from decimal import Decimal

REMITTANCE_LENGTH = 140


def remittance(group: str, night: str | None = None) -> str:
    """``Pub Ledger <group> <game> #<number>`` for a night, ``Pub Ledger <group> tab`` for the
    tab, cut to the 140 characters the code allows."""
    text = f"Pub Ledger {group} {night}" if night is not None else f"Pub Ledger {group} tab"
    return text[:REMITTANCE_LENGTH]


def epc_payload(name: str, iban: str, amount: Decimal, reference: str) -> str:
    """The code's lines joined by ``\\n``: service tag, version, UTF-8, SCT, no BIC, the
    account's name and IBAN, the amount in euros (at least 0.01), no purpose, no structured
    reference, then the remittance text."""
    if amount < Decimal("0.01"):
        raise ValueError(f"A transfer by QR code is at least EUR0.01, not {amount}.")
    lines = (
        "BCD",
        "002",
        "1",
        "SCT",
        "",
        name,
        iban,
        f"EUR{amount.quantize(Decimal('0.01'))}",
        "",
        "",
        reference[:REMITTANCE_LENGTH],
    )
    return "\n".join(lines)
