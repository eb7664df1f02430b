"""The group's tab (RULES.md §6a): the nights finished onto it and the payments against it,
per currency; worked out each time from those (ledger/rules/tab.py), never kept as totals.

- ``group_tabs``, ``tab_view``: the tab of each currency with anything on it, or of one.
- ``record_tab_payment``, ``delete_tab_payment``: paying the tab, a tick taken back.
- ``take_off_tab``: a night back off the tab while the tab has no payment.

Writes to the tab lock the group's row, so two phones ticking the same transfer take turns:
the second finds it paid and is refused, naming what is still due.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import aliased

from ledger.extensions import db
from ledger.models import (
    Change,
    Evening,
    GameSession,
    Group,
    Player,
    Season,
    TabPayment,
    utcnow,
)
from ledger.rules.base import State
from ledger.rules.epc import remittance
from ledger.rules.errors import RuleError
from ledger.rules.evening import list_from_dict
from ledger.rules.league import table_from_dict
from ledger.rules.money import minor_units
from ledger.rules.nights import own_name
from ledger.rules.registry import get_game
from ledger.rules.rounds import night_totals
from ledger.rules.tab import Tab, TabNight, TabPaid, check_payment, night_part, tab_cents, work_out
from ledger.services.accounts import with_epc
from ledger.services.building import build_session_view, night_named, night_rounds
from ledger.services.errors import Conflict, NotFound
from ledger.services.groups import name_key
from ledger.services.keepers import keeper_names, settlement_balances
from ledger.services.loading import load_session
from ledger.services.room import check_room
from ledger.services.unit_of_work import record, write
from ledger.services.views.groups import GroupRef
from ledger.services.views.money import TransferView
from ledger.services.views.sessions import SessionView
from ledger.services.views.tab import TabBalanceView, TabNightView, TabPaymentView, TabView

# A night's game, its start, its number, the table's name for its game, and whether its
# hands are correctable.
_Info = tuple[str, datetime, int, str, bool]


def group_tabs(group: GroupRef) -> list[TabView]:
    """The tab of every currency with anything on it, by currency."""
    nights, info = _nights(group)
    paid = _payments(group)
    tabs = [work_out(c, nights.get(c, []), paid.get(c, [])) for c in sorted({*nights, *paid})]
    return [_view(group, tab, info) for tab in tabs if tab is not None]


def tab_view(group: GroupRef, currency: str) -> TabView | None:
    """The tab in ``currency``, or None with nothing on it."""
    return next((t for t in group_tabs(group) if t.currency == currency), None)


def player_on_tab(group: GroupRef, player: str) -> list[tuple[str, TabBalanceView]]:
    """What each currency's tab says for ``player`` (their page), by currency."""
    return [(t.currency, b) for t in group_tabs(group) for b in t.balances if b.player == player]


def record_tab_payment(
    group: GroupRef, payer: Any, payee: Any, paid: Any, currency: Any
) -> TabPaymentView:
    """``payer`` paid ``payee`` ``paid`` (an amount) against the tab in ``currency``: refused,
    naming what is still due, if either would owe or be owed more than before (RULES.md §2)."""
    code = _currency(currency)
    cents = tab_cents(paid, code)

    def work() -> TabPaymentView:
        _lock_group(group)
        nights, _ = _nights(group)
        tab = work_out(code, nights.get(code, []), _payments(group).get(code, []))
        if tab is None:
            raise RuleError("Nothing is on the tab in {currency}.", field="currency", currency=code)
        source = _named(tab, payer, "from")
        target = _named(tab, payee, "to")
        if source == target:
            raise RuleError("{player} cannot pay themselves.", field="to", player=source)
        check_payment(tab, source, target, cents)
        check_room(group.id, adding=1)  # each payment is a row kept: it counts as a hand
        ids = _player_ids(group, (source, target))
        row = TabPayment(
            group_id=group.id,
            currency=code,
            payer_id=ids[source],
            payee_id=ids[target],
            cents=cents,
            at=utcnow(),
        )
        db.session.add(row)
        db.session.flush()
        return TabPaymentView(row.id, source, target, _money(cents, code), code, row.at)

    return write(work)


def delete_tab_payment(group: GroupRef, payment_id: int) -> None:
    """Take back a payment against the tab: what it paid is owed again."""

    def work() -> None:
        _lock_group(group)
        row = db.session.scalar(
            select(TabPayment).where(TabPayment.id == payment_id, TabPayment.group_id == group.id)
        )
        if row is None:
            raise NotFound("There is no payment {id} on the tab.", id=payment_id)
        db.session.delete(row)
        db.session.flush()

    write(work)


def take_off_tab(group: GroupRef, session_id: int) -> SessionView:
    """The night comes off the tab and is settled on its own again: only while its tab has
    no payment (Conflict otherwise)."""

    def work() -> SessionView:
        _lock_group(group)
        row = load_session(group, session_id, lock=True)
        refused = _off_tab_refusal(group, row)
        if refused is not None:
            raise refused
        row.on_tab = False
        row.version += 1
        record(row, "tab.removed", before={"on_tab": True}, after={"on_tab": False})
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def off_tab_refusal(group: GroupRef, session_id: int) -> Conflict | None:
    """Why the night cannot come off the tab now (``take_off_tab`` would refuse with it), or
    None when it can: a page offers the button only then."""
    return _off_tab_refusal(group, load_session(group, session_id))


def _off_tab_refusal(group: GroupRef, row: GameSession) -> Conflict | None:
    if not row.on_tab:
        return Conflict("{night} is not on the tab.", night=night_named(row))
    code = str(row.options["currency"])
    nights, _ = _nights(group)
    tab = work_out(code, nights.get(code, []), _payments(group).get(code, []))
    if tab is None or tab.payments or row.id not in {n.session for n in tab.nights}:
        return Conflict(
            "The tab has been paid since {night} went on it: it stays on the tab.",
            night=night_named(row),
        )
    return None


def night_balances(row: GameSession) -> dict[str, int] | None:
    """A finished night's balances in units as the tab counts them (the pot's keeper paid
    the pot), or None when some of its money belongs to nobody (a pot without a keeper)."""
    game = get_game(row.game)
    state = State.from_dict(row.state)
    _, balances = settlement_balances(row, game, state, keeper_names(row)[0])
    if None in balances:
        return None
    return {p: u for p, u in balances.items() if p is not None}


def _nights(group: GroupRef) -> tuple[dict[str, list[TabNight]], dict[int, _Info]]:
    rows = db.session.scalars(
        select(GameSession)
        .where(
            GameSession.group_id == group.id,
            GameSession.on_tab.is_(True),
            GameSession.status == "finished",
        )
        .order_by(GameSession.finished_at, GameSession.id)
    ).all()
    nights: dict[str, list[TabNight]] = {}
    info: dict[int, _Info] = {}
    added = _put_on_later([row.id for row in rows if row.finish is None])
    for row in rows:
        balances = night_balances(row)
        if balances is None:
            continue
        value = Decimal(row.options["unit_value"])
        game = {p: night_part(u, value) for p, u in balances.items()}
        # RULES.md §6c: a night on the tab carries its rounds, added up as its settle-up does.
        parts = night_totals(str(row.options["currency"]), game, night_rounds(row), list(game))
        at = added.get(row.id) or row.finished_at or row.started_at
        nights.setdefault(str(row.options["currency"]), []).append(TabNight(row.id, at, parts))
        # A game that ended by itself keeps its hands correctable (a finished night does not).
        info[row.id] = (
            row.game,
            row.started_at,
            row.number,
            own_name(row.options),
            row.finish is None,
        )
    for season in _seasons(group):
        balances, value, currency = season_balances(season)
        parts = {p: night_part(u, value) for p, u in balances.items()}
        at = season.closed_at or season.created_at
        nights.setdefault(currency, []).append(TabNight(0, at, parts, season=season.id))
        # A season's line, under minus its id: apart from the sessions' ids.
        info[-season.id] = (season.name, at, 0, "", False)
    for evening in _evenings(group):
        balances, value, currency = evening_balances(evening)
        parts = {p: night_part(u, value) for p, u in balances.items()}
        at = evening.closed_at or evening.created_at
        nights.setdefault(currency, []).append(TabNight(0, at, parts, evening=evening.id))
        # An evening's line under minus its id past every season's (ids fit in 31 bits).
        info[EVENING_LINES - evening.id] = (evening.name, at, 0, "", False)
    return nights, info


# Where an evening's line is kept among the tab's lines (``_nights``' info): apart from the
# sessions' ids (positive) and the seasons' (minus their ids).
EVENING_LINES = -(2**32)


def _evenings(group: GroupRef) -> list[Evening]:
    """The group's club evenings closed onto the tab (RULES.md §19)."""
    return list(
        db.session.scalars(
            select(Evening).where(Evening.group_id == group.id, Evening.on_tab.is_(True))
        )
    )


def evening_balances(row: Evening) -> tuple[dict[str, int], Decimal, str]:
    """A closed evening's balances in units (prizes less fees), unit value and currency."""
    found = list_from_dict(row.closed) if row.closed is not None else None
    balances = found.balances() if found is not None else {}
    return balances, Decimal(str(row.money["unit_value"])), str(row.money["currency"])


def _seasons(group: GroupRef) -> list[Season]:
    """The group's seasons closed onto the tab (RULES.md §13)."""
    return list(
        db.session.scalars(
            select(Season).where(Season.group_id == group.id, Season.on_tab.is_(True))
        )
    )


def season_balances(row: Season) -> tuple[dict[str, int], Decimal, str]:
    """A closed season's balances in units (its prizes less the entry fee), its unit value
    and its currency, as its table closed."""
    table = table_from_dict(row.closed) if row.closed is not None else None
    balances = table.balances() if table is not None else {}
    return balances, Decimal(str(row.options["unit_value"])), str(row.options["currency"])


def season_paid(group: GroupRef, row: Season) -> bool:
    """Whether a payment is recorded against a season on the tab: its tab has been paid
    since it went on (or settled and left behind)."""
    _, currency = season_balances(row)[1:]
    nights, _ = _nights(group)
    tab = work_out(currency, nights.get(currency, []), _payments(group).get(currency, []))
    return tab is None or bool(tab.payments) or row.id not in {n.season for n in tab.nights}


def _put_on_later(ids: list[int]) -> dict[int, datetime]:
    """When games that ended by themselves were put on the tab: a tab counts a night from
    then, so one ended before the tab was last settled still goes on the tab of now."""
    if not ids:
        return {}
    found = db.session.execute(
        select(Change.session_id, func.max(Change.at))
        .where(Change.kind == "tab.added", Change.session_id.in_(ids))
        .group_by(Change.session_id)
    ).all()
    return {session: at for session, at in found}


def _payments(group: GroupRef) -> dict[str, list[TabPaid]]:
    payer, payee = aliased(Player), aliased(Player)
    found = db.session.execute(
        select(TabPayment, payer.name, payee.name)
        .join(payer, payer.id == TabPayment.payer_id)
        .join(payee, payee.id == TabPayment.payee_id)
        .where(TabPayment.group_id == group.id)
        .order_by(TabPayment.at, TabPayment.id)
    ).all()
    paid: dict[str, list[TabPaid]] = {}
    for p, source, target in found:
        paid.setdefault(p.currency, []).append(TabPaid(p.id, p.at, source, target, p.cents))
    return paid


def _view(group: GroupRef, tab: Tab, info: dict[int, _Info]) -> TabView:
    code = tab.currency
    counts = {p: sum(1 for n in tab.nights if p in n.parts) for p in tab.exact}
    transfers = tuple(
        TransferView(t.source, t.target, t.units, money) for t, money in tab.transfers
    )
    return TabView(
        currency=code,
        balances=tuple(
            TabBalanceView(p, tab.amount(p), tab.settled[p], tab.outstanding[p], counts[p])
            for p in tab.players
        ),
        transfers=with_epc(group, transfers, code, remittance(group.name)),
        nights=tuple(_night_view(n, info) for n in tab.nights),
        payments=tuple(
            TabPaymentView(p.id, p.source, p.target, _money(p.cents, code), code, p.at)
            for p in tab.payments
        ),
    )


def _night_view(night: TabNight, info: dict[int, _Info]) -> TabNightView:
    parts = {p: Decimal(v).scaleb(-6) for p, v in night.parts.items()}
    if night.season is not None:
        name, at, *_rest = info[-night.season]
        return TabNightView(0, "season", name, at, parts, season=night.season)
    if night.evening is not None:
        name, at, *_rest = info[EVENING_LINES - night.evening]
        return TabNightView(0, "evening", name, at, parts, evening=night.evening)
    game, started, number, own, correctable = info[night.session]
    return TabNightView(
        night.session,
        game,
        get_game(game).name,
        started,
        parts,
        number=number,
        own_name=own,
        correctable=correctable,
    )


def _money(cents: int, currency: str) -> Decimal:
    return Decimal(cents).scaleb(-minor_units(currency))


def _currency(currency: Any) -> str:
    if not isinstance(currency, str) or not currency.strip() or len(currency.strip()) > 10:
        raise RuleError("Say in which currency the tab was paid, like EUR.", field="currency")
    return currency.strip().upper()


def _named(tab: Tab, name: Any, field: str) -> str:
    """The player on the tab ``name`` means (whatever its case), or a refusal of ``field``."""
    if not isinstance(name, str) or not name.strip():
        if field == "from":
            raise RuleError("Say who paid.", field=field)
        raise RuleError("Say who was paid.", field=field)
    found = next((p for p in tab.exact if name_key(p) == name_key(name.strip())), None)
    if found is None:
        raise RuleError(
            "{player} has nothing on the tab in {currency}.",
            field=field,
            player=name.strip()[:40],
            currency=tab.currency,
        )
    return found


def _player_ids(group: GroupRef, names: tuple[str, str]) -> dict[str, int]:
    found = db.session.execute(
        select(Player.name, Player.id).where(Player.group_id == group.id, Player.name.in_(names))
    ).all()
    return {name: player_id for name, player_id in found}


def _lock_group(group: GroupRef) -> None:
    """The group's row locked for the rest of the transaction: writes to its tab take turns
    (as ``load_session`` locks a session: FOR UPDATE, or SQLite's write lock)."""
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(
            update(Group)
            .where(Group.id == group.id)
            .values(auth_epoch=Group.auth_epoch)
            .execution_options(synchronize_session=False)
        )
    else:
        db.session.execute(select(Group.id).where(Group.id == group.id).with_for_update())
