"""Bank accounts players keep with the group (RULES.md §6b), and the QR code's text for a
transfer in euros to such a player.

- ``set_account``, ``delete_account``, ``account_of``: one player's account.
- ``with_epc``: a settle-up's transfers, each in euros to a player with an account carrying
  the EPC QR code's text.

An account never goes into a workbook or a CSV; a backup carries it (ledger/backup/).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import BankAccount, Player
from ledger.rules.epc import epc_payload
from ledger.rules.iban import check_account_name, check_iban
from ledger.services.errors import NotFound
from ledger.services.groups import name_key
from ledger.services.unit_of_work import write
from ledger.services.views.groups import GroupRef
from ledger.services.views.money import AccountView, TransferView


def set_account(group: GroupRef, player: str, iban: Any, name: Any) -> AccountView:
    """Keep ``player``'s bank account (replacing one kept before): the IBAN checked (RuleError
    on ``iban``), the name on the account 1 to 70 characters (on ``name``)."""
    kept_iban = check_iban(iban)
    kept_name = check_account_name(name)

    def work() -> AccountView:
        found = _player(group, player)
        account = _account(found.id)
        if account is None:
            db.session.add(BankAccount(player_id=found.id, iban=kept_iban, name=kept_name))
        else:
            account.iban, account.name = kept_iban, kept_name
        db.session.flush()
        return AccountView(kept_iban, kept_name)

    return write(work)


def delete_account(group: GroupRef, player: str) -> None:
    """Forget ``player``'s bank account (none kept: nothing to do)."""

    def work() -> None:
        found = _player(group, player)
        account = _account(found.id)
        if account is not None:
            db.session.delete(account)
            db.session.flush()

    write(work)


def account_of(group: GroupRef, player: str) -> AccountView | None:
    """The account ``player`` keeps with the group, or None."""
    found = _player(group, player)
    account = _account(found.id)
    return AccountView(account.iban, account.name) if account is not None else None


def group_accounts(group: GroupRef) -> dict[str, AccountView]:
    """Every account kept in the group, by the player's name: one query."""
    rows = db.session.execute(
        select(Player.name, BankAccount.iban, BankAccount.name)
        .join(BankAccount, BankAccount.player_id == Player.id)
        .where(Player.group_id == group.id)
    ).all()
    return {player: AccountView(iban, name) for player, iban, name in rows}


def with_epc(
    group: GroupRef, transfers: Sequence[TransferView], currency: str, reference: str
) -> tuple[TransferView, ...]:
    """The transfers, those in euros to a player with an account carrying the QR code's text
    (``reference`` is its remittance text)."""
    if currency.strip().upper() != "EUR" or not transfers:
        return tuple(transfers)
    accounts = group_accounts(group)

    def coded(t: TransferView) -> TransferView:
        account = accounts.get(t.target) if t.target is not None else None
        if account is None or t.amount < Decimal("0.01"):
            return t
        return replace(t, epc=epc_payload(account.name, account.iban, t.amount, reference))

    return tuple(coded(t) for t in transfers)


def _player(group: GroupRef, name: str) -> Player:
    found = db.session.scalar(
        select(Player).where(Player.group_id == group.id, Player.name_key == name_key(name.strip()))
    )
    if found is None:
        raise NotFound("There is no player {player} in this group.", player=name)
    return found


def _account(player_id: int) -> BankAccount | None:
    return db.session.scalar(select(BankAccount).where(BankAccount.player_id == player_id))
