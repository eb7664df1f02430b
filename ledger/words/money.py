"""Money in words: a transfer, a payment made at the table, what the phone's player owes, a
round, the settle-up as text for the group chat, the pot kept, the odd units of a refund and a
pot waiting to be taken up.

"Finn pays Enda €0.38", "Finn, you owe €0.38.", "John paid €18.40 for a round for Enda, John,
Rex and Finn".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from flask_babel import format_date, gettext, ngettext

from ledger.rules import GAMES
from ledger.services.plans import WaitingPot
from ledger.services.views.sessions import SessionView
from ledger.words.display import format_money
from ledger.words.games import text
from ledger.words.hands import join_names
from ledger.words.language import page_language


def transfer_text(transfer: Mapping[str, Any], currency: str) -> str:
    """A transfer in words: "Finn pays Enda €0.38"; the pot (None) pays out or is paid into."""
    money = format_money(Decimal(str(transfer["amount"])), currency)
    source, target = transfer.get("from"), transfer.get("to")
    if source is None:
        return gettext("The pot pays %(to)s %(amount)s", to=target, amount=money)
    if target is None:
        return gettext("%(from)s pays %(amount)s into the pot", **{"from": source, "amount": money})
    return gettext(
        "%(from)s pays %(to)s %(amount)s", **{"from": source, "to": target, "amount": money}
    )


def paid_text(payment: Mapping[str, Any], currency: str) -> str:
    """A payment made at the table in words: "Finn paid Enda €0.38"."""
    money = format_money(Decimal(str(payment["amount"])), currency)
    return gettext(
        "%(from)s paid %(to)s %(amount)s",
        **{"from": payment["from"], "to": payment["to"], "amount": money},
    )


def owed_text(player: str, left: Decimal, currency: str) -> str:
    """What a settle-up leaves the phone's player to pay or to get, said to them (RULES.md
    §20): "Ann, you owe €0.38.", "Ann, you are owed €0.44.", "Ann, you are square.". One
    sentence for every settle-up: a night's, the tab, a season's and a club evening's."""
    if left < 0:
        return gettext(
            "%(player)s, you owe %(amount)s.", player=player, amount=format_money(-left, currency)
        )
    if left > 0:
        return gettext(
            "%(player)s, you are owed %(amount)s.",
            player=player,
            amount=format_money(left, currency),
        )
    return gettext("%(player)s, you are square.", player=player)


def round_text(made: Mapping[str, Any], currency: str) -> str:
    """A round in words (RULES.md §6c), from its answer or its line of history: "John paid
    €18.40 for a round for Enda, John, Rex and Finn", a share above 1 said ("Ann ×2")."""
    shares = made.get("shares") or {}
    people = join_names([f"{p} ×{shares[p]}" if shares.get(p, 1) > 1 else p for p in made["for"]])
    money = format_money(Decimal(str(made["amount"])), currency)
    said = {"payer": made["paid_by"], "amount": money, "people": people}
    if made.get("what"):
        what = made["what"]
        return gettext("%(payer)s paid %(amount)s for %(what)s for %(people)s", what=what, **said)
    return gettext("%(payer)s paid %(amount)s for %(people)s", **said)


# The night in a message to the group chat: "Thursday 26 November 2026"; German puts a comma
# after the day's name and a point after the day's number ("Donnerstag, 26. November 2026").
NIGHT_PATTERN = "EEEE d MMMM y"
NIGHT_PATTERNS = {"de": "EEEE, d. MMMM y"}


def settle_copy_text(
    title: str,
    group: str,
    night: datetime,
    owed: Sequence[str],
    kept: str | None,
    paid: Sequence[str],
) -> str:
    """The settle-up as text for the group chat: which night of which group, what is still to
    pay, the pot kept, and the payments already made (ticked)."""
    pattern = NIGHT_PATTERNS.get(page_language(), NIGHT_PATTERN)
    lines = [title, f"{group} · {format_date(night, pattern)}"]
    if owed:
        lines += owed
    else:
        lines.append(
            gettext("Everything is paid.") if paid else gettext("Nobody owes anybody anything.")
        )
    if kept:
        lines.append(kept)
    if paid:
        lines += ["", gettext("Paid already:"), *(f"✓ {words}" for words in paid)]
    return "\n".join(lines)


def kept_text(
    view: SessionView, keeper: str | None, pot: int, currency: str, money: Any
) -> str | None:
    """ "Enda keeps the pot of €0.81 for the next Spot night" (RULES.md §2), or None."""
    if keeper is None or not pot:
        return None
    return gettext(
        "%(name)s keeps the pot of %(amount)s for the next %(game)s night",
        name=keeper,
        amount=format_money(money, currency),
        game=text(GAMES[view.game].name),
    )


def odd_units_text(view: SessionView, units: int) -> str:
    """Where the units a refund could not share evenly go: into the pot, carried on."""
    return ngettext(
        "The %(num)d unit that could not be shared evenly stays in the pot for the next "
        "%(game)s night.",
        "The %(num)d units that could not be shared evenly stay in the pot for the next "
        "%(game)s night.",
        units,
        game=text(GAMES[view.game].name),
    )


def waiting_text(pot: WaitingPot) -> str:
    """A pot waiting to be taken up, and what for (RULES.md §2): "Mick's €1.60 waits for a
    Spot night at €0.10 a unit with Mick at the table"."""
    words = {
        "amount": format_money(pot.amount, pot.currency),
        "game": text(GAMES[pot.game].name),
        "unit": format_money(pot.unit_value, pot.currency),
    }
    if pot.keeper:
        return gettext(
            "%(name)s's %(amount)s waits for a %(game)s night at %(unit)s a unit with "
            "%(name)s at the table.",
            name=pot.keeper,
            **words,
        )
    return gettext("A pot of %(amount)s waits for a %(game)s night at %(unit)s a unit.", **words)
