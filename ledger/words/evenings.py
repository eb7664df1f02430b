"""A club evening in words (RULES.md §19): a phone's seat, a table's progress, the QR code."""

from __future__ import annotations

from flask_babel import gettext


def seat_words(table: int, seat: int) -> str:
    """Where a player sits this round: "Table 2, seat 3"."""
    return gettext("Table %(table)d, seat %(seat)d", table=table, seat=seat)


def checkin_title() -> str:
    """The check-in QR code's title (what a screen reader says of it)."""
    return gettext("QR code of the evening's check-in")


def table_title(game: str, number: int, table: int) -> str:
    """A table's night as the evening names it: "Skat #12, table 2"."""
    return gettext("%(game)s #%(number)d, table %(table)d", game=game, number=number, table=table)
