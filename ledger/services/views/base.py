"""What every view uses: a time written as API.md writes it, the currency a night is paid in."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

# The currency of a night without one of its own (a points game with no stake): its rounds'.
DEFAULT_CURRENCY = "EUR"


def night_currency(options: Mapping[str, Any]) -> str:
    """The currency a night's rounds are paid in: its ``currency`` option (EUR without one)."""
    return str(options.get("currency") or DEFAULT_CURRENCY)


def timestamp(moment: datetime | None) -> str | None:
    """A stored (naive UTC) time as ISO 8601 with a Z: ``2024-05-02T21:14:05Z``."""
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"
