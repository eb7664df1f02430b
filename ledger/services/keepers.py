"""Who holds the money outside the scores: a carried pot's keeper (RULES.md §2 "The pot
keeper") and a points game's payout (RULES.md §7), as the session services need them.

- ``checked_keeper``: the keeper a finish names, checked (a player of the session, ``carry``).
- ``keep_pot``: the keeper's balance in the session a pot opens starts at minus that pot.
- ``keeper_names``: who keeps a session's pot, and who brought the one it opened with.
- ``settlement_balances``: the balances a session settles, the keeper's pot and a points
  game's payout counted, adding up to zero with the pot that belongs to nobody as ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Row

from ledger.extensions import db
from ledger.models import GameSession, Payment, Player
from ledger.rules.base import State, in_play_order
from ledger.rules.errors import RuleError
from ledger.rules.game import Game
from ledger.rules.keeper import brought_by, to_settle
from ledger.rules.payout import for_money, game_payout
from ledger.services.building import ordered_players, player_name
from ledger.services.groups import name_key
from ledger.services.views.sessions import SessionView

KEEPER_FIELD = "pot_keeper"


def checked_keeper(
    row: GameSession, game: Game, state: State, choice: str | None, keeper: str | None
) -> Player | None:
    """The player a finish names as the pot's keeper, or None when it names nobody.

    Only a money game finished with ``carry`` has a pot to keep, and its keeper is one of the
    session's players (seated or gone), whatever the case the name is typed in.
    """
    if keeper is None:
        return None
    if not isinstance(keeper, str) or not keeper.strip():
        raise RuleError("Name the player who keeps the pot.", field=KEEPER_FIELD)
    if not game.money:
        raise RuleError(
            "{game} is played for points: there is no pot to keep.",
            field=KEEPER_FIELD,
            game=game.name,
        )
    if choice != "carry":
        raise RuleError(
            "Only a pot that is carried on has a keeper: with a refund it goes back to the "
            "players.",
            field=KEEPER_FIELD,
        )
    who = next((p for p in state.scores if name_key(p) == name_key(keeper)), None)
    if who is None:
        raise RuleError(
            "{player} is not a player in this session, so cannot keep its pot.",
            field=KEEPER_FIELD,
            player=keeper.strip(),
        )
    player = db.session.scalar(
        db.select(Player).where(Player.group_id == row.group_id, Player.name == who)
    )
    assert player is not None, who  # every name in a session's scores is a group's player
    return player


def keep_pot(state: State, keeper_id: int | None) -> tuple[State, int | None]:
    """The new session's first state with the keeper of the pot it takes up (if any) owing
    that pot: every session's balances and pot then add up to zero on their own. The keeper
    sits at this table (a kept pot waits for a session its keeper plays in)."""
    keeper = db.session.get(Player, keeper_id) if keeper_id is not None else None
    if keeper is None:
        return state, None
    return brought_by(state, keeper.name), keeper.id


def keeper_names(row: GameSession | Row[Any]) -> tuple[str | None, str | None]:
    """Who keeps the session's carried-on pot, and who brought the pot it opened with."""
    return (
        player_name(row.pot_keeper_id) if row.pot_keeper_id is not None else None,
        player_name(row.carried_in_keeper_id) if row.carried_in_keeper_id is not None else None,
    )


def settlement_balances(
    row: GameSession | Row[Any], game: Game, state: State, keeper: str | None = None
) -> tuple[list[str], dict[str | None, int]]:
    """The players in order and the balances that settle the session, adding up to zero.

    A money game: each player's balance, the keeper's with the carried pot owed to them (the
    finished session's keeper or, for an open one, the one the finish page proposes);
    a pot nobody keeps is the party ``None``. A points game for a stake that has ended: the
    payout (RULES.md §7). Anything else has no money to settle (RuleError).
    """
    players = ordered_players(state)
    if game.money:
        kept = {keeper: state.pot} if keeper is not None else {}
        balances: dict[str | None, int] = {
            p: to_settle(state.scores.get(p, 0), kept.get(p, 0)) for p in players
        }
        pot_party = -sum(balances.values())
        if pot_party:
            balances[None] = pot_party
        return players, balances
    money = points_money(row, game, state)
    if money is None:
        if for_money(game, row.options):
            raise RuleError("The money of {game} is worked out when the game ends.", game=game.name)
        raise RuleError("{game} is played for points: there is no money to settle.", game=game.name)
    return players, {p: money.get(p, 0) for p in players}


def points_money(row: GameSession | Row[Any], game: Game, state: State) -> dict[str, int] | None:
    """A finished points game's payout by player, or None (not for money, or not ended)."""
    return game_payout(game, state, row.options, State.from_dict(row.start_state))


def keeper_choices(view: SessionView) -> list[str]:
    """Who may keep the pot: the players seated, in playing order from the dealer's left,
    then those who left the table."""
    seated = [p.name for p in view.players if p.active]
    if view.dealer in seated:
        seated = list(in_play_order(seated, view.dealer))
    return seated + [p.name for p in view.players if not p.active]


def tab_keeper(
    row: GameSession,
    game: Game,
    choice: str | None,
    keeper: str | None,
    settle: Any,
    proposed: Callable[[], str | None],
) -> tuple[str | None, bool]:
    """The keeper a finish uses and whether the night goes on the tab (RULES.md §6a):
    ``settle`` is ``now`` (the default) or ``tab``, only for a night that ends in money and has
    no payments of its own (RuleError on ``settle``).

    On the tab every unit belongs to a player, so a pot carried on needs a keeper: the one
    named, else the one the finish page proposes (``proposed``: services/night.py).
    """
    if settle is None or settle == "now":
        return keeper, False
    if settle != "tab":
        raise RuleError('Say "now" to pay tonight or "tab" to put it on the tab.', field="settle")
    if not game.money and not for_money(game, row.options):
        raise RuleError(
            "{game} is not played for money here: there is nothing to put on the tab.",
            field="settle",
            game=game.name,
        )
    if db.session.scalar(db.select(Payment.id).where(Payment.session_id == row.id).limit(1)):
        raise RuleError(
            "Payments were made for this night already: settle it tonight.", field="settle"
        )
    carried = (choice or row.leftover_pot or row.options.get("leftover_pot") or "carry") == "carry"
    if keeper is not None or not game.money or not carried:
        return keeper, True
    return proposed(), True


def put_on_tab(row: GameSession, on_tab: bool) -> dict[str, str]:
    """Mark a night finished onto the tab; what its line of history says of it."""
    row.on_tab = on_tab
    return {"settle": "tab"} if on_tab else {}
