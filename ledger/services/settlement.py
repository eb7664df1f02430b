"""The settle-up of one session: who pays whom (RULES.md §6), after the payments made.

- ``settlement`` (a session's, by id) and ``settle_row`` (the same from its row, for the
  night's read model ledger/services/night.py), ``night_epc`` (the bank QR codes' texts on a
  night's transfers, RULES.md §6b).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import Row

from ledger.models import GameSession
from ledger.rules import game as game_rules
from ledger.rules import nights
from ledger.rules.base import State
from ledger.rules.epc import remittance
from ledger.rules.keeper import settled_winnings
from ledger.rules.money import amount, settle_amounts
from ledger.services.accounts import with_epc
from ledger.services.building import payment_views, player_name
from ledger.services.keepers import keeper_names, settlement_balances
from ledger.services.loading import load_session, session_game, table_state
from ledger.services.plans import pot_plan
from ledger.services.views.groups import GroupRef
from ledger.services.views.money import BalanceView, PaymentView, SettlementView, TransferView


def settlement(
    group: GroupRef,
    session_id: int,
    leftover_pot: str | None = None,
    pot_keeper: str | None = None,
) -> SettlementView:
    """Who pays whom to square the session (RULES.md §6), in the session's currency.

    The pot is a party: money that went into a pot carried on is paid into it (``to`` None);
    a carried-in pot that was won is paid out of it (``from`` None).

    ``leftover_pot`` (``carry`` or ``refund``) answers, for an open session, the settlement it
    will have once finished that way: the same transfers ``finish_session`` then leaves. Without
    it an open session is settled as it stands, its pot carried on. A finished session always
    answers its own settlement. ``pot_keeper`` (a player of the session) answers, for an open
    session carried on, the settlement with that player keeping the pot.

    The payments made at the table (ledger/services/payments.py) are counted last: each
    balance's ``outstanding`` is what is left, and the transfers settle only that.
    """
    return settle_row(group, load_session(group, session_id), leftover_pot, pot_keeper)


def settle_row(
    group: GroupRef,
    row: GameSession | Row[Any],
    leftover_pot: str | None = None,
    pot_keeper: str | None = None,
    *,
    epc: bool = True,
) -> SettlementView:
    """``settlement`` of the session ``row`` (its ORM object or its columns), the QR codes'
    texts on its transfers unless ``epc`` is False (ledger/services/night.py adds them when
    it answers: a bank account is the player's, not the night's)."""
    game = session_game(row)
    state, keeper = _settled_state(row, game, leftover_pot, pot_keeper)
    players, balances = settlement_balances(row, game, state, keeper)
    unit_value = Decimal(row.options["unit_value"])
    currency = row.options["currency"]
    # Paying up (RULES.md §2): the payments made lower what is still outstanding.
    paid = payment_views(row, unit_value, currency)
    left = _after_payments(balances, paid)
    settled, _ = settle_amounts(balances, unit_value, currency)
    owed, transfers = settle_amounts(left, unit_value, currency)
    brought = _brought_back(row, state) if game.money else {}
    kept = {keeper: state.pot} if keeper is not None and game.money else {}
    views = tuple(TransferView(t.source, t.target, t.units, m) for t, m in transfers)
    title = nights.night_name(game.name, nights.own_name(row.options), row.number)
    return SettlementView(
        session=row.id,
        status=row.status,
        currency=currency,
        unit_value=unit_value,
        balances=tuple(
            BalanceView(
                p,
                balances[p],
                amount(balances[p], unit_value, currency),
                settled=settled[p],
                outstanding=left[p],
                outstanding_amount=owed[p],
                pot_kept=kept.get(p, 0),
                brought_back=brought.get(p, 0),
                winnings=settled_winnings(balances[p], kept.get(p, 0), brought.get(p, 0)),
            )
            for p in players
        ),
        pot=state.pot if game.money else 0,
        pot_amount=amount(state.pot if game.money else 0, unit_value, currency),
        # A night on the tab has no transfers of its own (RULES.md §6a): the tab pays it.
        transfers=() if row.on_tab else night_epc(group, title, currency, views) if epc else views,
        payments=paid,
        pot_keeper=keeper if keeper in balances else None,
        on_tab=row.on_tab,
    )


def night_epc(
    group: GroupRef, night: str, currency: str, transfers: Sequence[TransferView]
) -> tuple[TransferView, ...]:
    """A night's transfers, a QR code's text on each in euros to a player with a bank account
    (RULES.md §6b), the remittance naming the ``night`` as its pages do ("Spot #2")."""
    return with_epc(group, transfers, currency, remittance(group.name, night))


def _brought_back(row: GameSession | Row[Any], state: State) -> dict[str, int]:
    """The pot the night opened with, by the player who brought it back (RULES.md §2)."""
    if not state.carried_in or row.carried_in_keeper_id is None:
        return {}
    keeper = player_name(row.carried_in_keeper_id)
    return {keeper: state.carried_in} if keeper is not None else {}


def _settled_state(
    row: GameSession | Row[Any],
    game: game_rules.Game,
    leftover_pot: str | None,
    pot_keeper: str | None,
) -> tuple[State, str | None]:
    """The state a settlement pays and who keeps its pot: an open night as it will end under
    ``leftover_pot`` (else the table's plan, services/plans.py: the same on every phone), a
    finished one as it ended. The keeper's pot and a points game's payout are counted by
    ``settlement_balances`` (services/keepers.py)."""
    state = table_state(row)
    if row.status == "finished":
        return state, keeper_names(row)[0]
    if leftover_pot is None:
        plan = pot_plan(row, game)
        leftover_pot, pot_keeper = plan.choice, plan.keeper
    if leftover_pot is not None and game.money:
        state = game.finish(state, row.options, leftover_pot).state
    return state, pot_keeper if leftover_pot == "carry" and state.pot else None


def _after_payments(
    balances: Mapping[str | None, int], paid: Sequence[PaymentView]
) -> dict[str | None, int]:
    """What is still outstanding once the payments made are counted: a payer owes that much
    less, a payee is owed that much less. A payment that a later correction made too large
    turns the other way (the payee now owes the difference back), so none is ever lost."""
    left = dict(balances)
    for p in paid:
        left[p.source] = left.get(p.source, 0) + (p.units or 0)
        left[p.target] = left.get(p.target, 0) - (p.units or 0)
    return left
