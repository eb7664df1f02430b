"""Paying up at the table (RULES.md §2 "Paying up"): recording a payment, listing them, taking
one back.

- ``record_payment``: ``from`` handed ``to`` ``units``. It changes no score; it lowers what is
  still owed, which the night's settlement (services/night.py) then settles. A payment that
  would make either player owe or be owed more than before is refused, naming what is still
  due: so two phones ticking the same transfer at once record it once (the session is locked
  for the write, and the second sees the first's payment and finds nothing left to pay).
- ``list_payments``: the payments made, oldest first.
- ``delete_payment``: a tick taken back.

Every payment and every one taken back raises the session's version (every phone's page
follows) and leaves a line of history.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from math import ceil
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.ids import MAX_ID
from ledger.models import Change, GameSession, Payment, Player, SessionPlayer, utcnow
from ledger.rules.errors import RuleError, every_problem
from ledger.rules.money import amount, format_amount, minor_units, smallest_coin
from ledger.rules.payout import for_money
from ledger.rules.tab import check_paid, tab_cents
from ledger.services.building import cents_amount, payment_views
from ledger.services.errors import Conflict, NotFound
from ledger.services.groups import name_key
from ledger.services.loading import load_session, session_game
from ledger.services.night import settled_now
from ledger.services.plans import fix_plan, pot_plan
from ledger.services.unit_of_work import record, write
from ledger.services.views.base import timestamp
from ledger.services.views.groups import GroupRef
from ledger.services.views.money import PaymentView, SettlementView

# The kinds of history a payment leaves: changes that move no score.
PAYMENT_CHANGES = frozenset({"payment.recorded", "payment.deleted"})
# The most a payment may be: the databases' integer (PostgreSQL's INTEGER is 32 bits).
MAX_UNITS = 2**31 - 1


def list_payments(group: GroupRef, session_id: int) -> list[PaymentView]:
    """The payments made in the session, oldest first (none in a game not played for money)."""
    row = load_session(group, session_id)
    money = _money(row.options)
    return list(payment_views(row, *money)) if money is not None else []


def record_payment(
    group: GroupRef,
    session_id: int,
    payer: str | None,
    payee: str | None,
    units: Any,
    *,
    money: Any = None,
    leftover_pot: str | None = None,
    pot_keeper: str | None = None,
) -> PaymentView:
    """``payer`` paid ``payee`` ``units`` to settle up.

    Checked against what is outstanding in the session's settlement now, under the table's
    plan for the pot (for an open session ``leftover_pot`` and ``pot_keeper`` are the plan the
    paying page showed: it becomes the table's if none was chosen, and a page that showed
    another than the one chosen is refused). Raises RuleError naming the field: an unknown
    player, a player paying themselves, units not a whole number above 0, more than is still
    due between the two, or both units and ``money``.

    On a night with rounds (RULES.md §6c) the payment may be given in the currency instead:
    ``money`` as typed (``"7.50"``), checked against the totals still outstanding.
    """
    units = _units_given(units, money)

    def work() -> PaymentView:
        row = load_session(group, session_id, lock=True)
        if row.on_tab:
            raise Conflict("This night is on the tab: pay it on the tab's settle-up.")
        # The plan for the pot the paying page showed becomes the table's (services/plans.py).
        fix_plan(row, leftover_pot, pot_keeper)
        # Read after the lock: a payment another phone made a moment ago is counted.
        now = settled_now(group, row)
        _check_paid_in(row, units)
        source = _named(now, payer, "from")
        target = _named(now, payee, "to")
        if source == target:
            raise RuleError("{player} cannot pay themselves.", field="to", player=source)
        ids = _player_ids(row.id, (source, target))
        payment = Payment(session_id=row.id, payer_id=ids[source], payee_id=ids[target])
        paid: dict[str, Any] = {"from": source, "to": target}
        if units is None or now.with_rounds:
            cents = _checked_cents(now, source, target, units, money)
            if units is None:
                payment.cents = cents
            paid["amount"] = str(cents_amount(cents, now.currency))
        else:
            _check_due(now, source, target, units)
        payment.units, payment.at = units or 0, utcnow()
        if units is not None:
            paid["units"] = units
        db.session.add(payment)
        row.version += 1
        record(row, "payment.recorded", before=None, after=paid)
        db.session.flush()
        given = Decimal(paid["amount"]) if units is None else amount(units, *_money_of(now))
        return PaymentView(payment.id, source, target, units, given, payment.at)

    return write(work)


def delete_payment(group: GroupRef, session_id: int, payment_id: int) -> PaymentView:
    """Take back a payment (its tick was a mistake): what it paid is owed again."""

    def work() -> PaymentView:
        row = load_session(group, session_id, lock=True)
        payment = db.session.scalar(
            select(Payment).where(Payment.id == payment_id, Payment.session_id == row.id)
        )
        money = _money(row.options)
        if payment is None or money is None:
            raise NotFound("There is no payment {id} in this session.", id=payment_id)
        (view,) = (p for p in payment_views(row, *money) if p.id == payment.id)
        db.session.delete(payment)
        row.version += 1
        paid = {"units": view.units} if view.units is not None else {"amount": str(view.amount)}
        before = {"from": view.source, "to": view.target, **paid, "at": timestamp(view.at)}
        record(row, "payment.deleted", before=before, after=None)
        db.session.flush()
        return view

    return write(work)


def past_payments(
    group: GroupRef, session_id: int, version: int | None, plan: tuple[str | None, str | None]
) -> int | None:
    """``version`` moved on past the payments recorded or taken back since: a page drawn at
    ``version`` still shows the scores of the session now if only payments came after it (a
    payment changes no score), or a plan for the pot that is the one the page showed
    (``plan``: a tick fixes the plan its page showed). Any other change since keeps
    ``version`` as it was."""
    if version is None or version > MAX_ID:
        return version
    row = load_session(group, session_id)
    kinds = db.session.scalars(
        select(Change.kind).where(Change.session_id == row.id, Change.version > version)
    ).all()
    now = pot_plan(row, session_game(row))
    harmless = PAYMENT_CHANGES | ({"pot.planned"} if plan == (now.choice, now.keeper) else set())
    if kinds and all(kind in harmless for kind in kinds):
        return row.version
    return version


def _money(options: dict[str, Any]) -> tuple[Decimal, str] | None:
    """What a unit is worth and in what currency, for a session played for money."""
    if "unit_value" not in options or "currency" not in options:
        return None
    return Decimal(options["unit_value"]), str(options["currency"])


def _units_given(units: Any, money: Any) -> int | None:
    """The units a payment gives, checked; None for one given as an amount. A payment is given
    in units or as an amount, never both: which one was meant cannot be told, so it is refused
    naming both (``units`` first), and nothing is recorded."""
    if units is not None and money is not None:
        raise every_problem(
            RuleError("Give the payment in units or as an amount, not both.", field=field)
            for field in ("units", "amount")
        )
    return _checked_units(units) if money is None or units is not None else None


def _check_paid_in(row: GameSession, units: int | None) -> None:
    """A payment in units needs a game with money of its own (a money game, or a points game
    for a stake): a points game with no stake settles its rounds alone, in the currency
    (RULES.md §6c)."""
    game = session_game(row)
    if units is not None and not (game.money or for_money(game, row.options)):
        raise RuleError(
            "This night settles its drinks and food alone: give the payment as an amount, "
            "like 1.50.",
            field="units",
        )


def _money_of(now: SettlementView) -> tuple[Decimal, str]:
    return now.unit_value, now.currency


def _checked_units(units: Any) -> int:
    if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
        raise RuleError("Give the units paid as a whole number above 0.", field="units")
    if units > MAX_UNITS:
        raise RuleError(
            "A payment of {units} units is more than the app can keep.", field="units", units=units
        )
    return units


def _named(now: SettlementView, name: str | None, field: str) -> str:
    """The player of the session ``name`` means (whatever its case), or a refusal of ``field``."""
    if not isinstance(name, str) or not name.strip():
        if field == "from":
            raise RuleError("Say who paid.", field=field)
        raise RuleError("Say who was paid.", field=field)
    wanted = name_key(name.strip())
    found = next((b.player for b in now.balances if name_key(b.player) == wanted), None)
    if found is None:
        raise RuleError("{player} is not a player in this session.", field=field, player=name)
    return found


def _check_due(now: SettlementView, source: str, target: str, units: int) -> None:
    """Refuse a payment that would make either player owe or be owed more than before.

    Where a unit is worth less than the smallest coin (0.01 in francs, whose smallest coin is
    0.05), the transfers are whole coins, so paying one may pass what is owed by less than a
    coin: that much is allowed, or the table could not tick what the page tells it to pay.
    """
    left = {b.player: b.outstanding for b in now.balances}
    owes, owed = -(left[source] or 0), left[target] or 0
    slack = _within_a_coin(now.unit_value, now.currency)
    if owes > 0 and owed > 0 and units <= owes + slack and units <= owed + slack:
        return
    due = max(0, min(owes, owed))
    params: dict[str, Any] = {
        "payer": source,
        "payee": target,
        "due": format_amount(amount(due, now.unit_value, now.currency), now.currency),
        "paid": format_amount(amount(units, now.unit_value, now.currency), now.currency),
    }
    if due == 0:
        raise RuleError(
            "Nothing is still due from {payer} to {payee}: a payment of {paid} would make one "
            "of them owe or be owed more than before.",
            field="units",
            **params,
        )
    raise RuleError(
        "Only {due} is still due from {payer} to {payee}: a payment of {paid} would make one "
        "of them owe or be owed more than before.",
        field="units",
        **params,
    )


def _checked_cents(
    now: SettlementView, source: str, target: str, units: int | None, money: Any
) -> int:
    """A payment on a night settled in the currency (RULES.md §6c), in its cents, checked
    against the totals outstanding; ``money`` as typed when ``units`` is None. A night without
    rounds is paid in units."""
    if units is not None:
        cents = int(amount(units, now.unit_value, now.currency).scaleb(minor_units(now.currency)))
    elif not now.with_rounds:
        raise RuleError(
            "This night has no drinks or food: give the payment in units.", field="amount"
        )
    else:
        cents = tab_cents(money, now.currency)
    outstanding = {b.player: b.outstanding_amount or Decimal(0) for b in now.balances}
    check_paid(outstanding, now.currency, source, target, cents)
    return cents


def _within_a_coin(unit_value: Decimal, currency: str) -> int:
    """The most units worth less than the currency's smallest coin: 4 at 0.01 CHF (coin
    0.05), 0 where a unit is a coin or more."""
    per_coin = Fraction(smallest_coin(currency)) / Fraction(unit_value)
    return max(0, ceil(per_coin) - 1)


def _player_ids(session_id: int, names: tuple[str, str]) -> dict[str, int]:
    """The group's player ids of the session's players ``names`` (one query)."""
    found = db.session.execute(
        select(Player.name, Player.id)
        .join(SessionPlayer, SessionPlayer.player_id == Player.id)
        .where(SessionPlayer.session_id == session_id, Player.name.in_(names))
    ).all()
    return {name: player_id for name, player_id in found}
