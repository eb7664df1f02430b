"""The pot's plan and a night taken back up (RULES.md §2, API.md "Additions", third edition).

- ``pot_plan``: what an open money night will do with its pot (``carry`` or ``refund``) and
  who keeps a carried pot: the table's choice stored on the session, else the game's option
  and nobody named.
- ``set_pot_plan``: the table chooses, from any phone; every phone follows the version.
- ``fix_plan``: a payment ticked on a page fixes the plan that page showed, so a later change
  is refused (``check_unpaid``) rather than leaving anyone paid more than owed.
- ``reopen_session``: a finished night open again while nothing depends on its end.
- ``waiting_pots`` (the pots carried on that wait, and for what) and ``remembered_options``
  (each game's stakes as its last session had them): what a new night starts from.

While a night is open ``leftover_pot`` NULL means nothing was chosen yet; once chosen (or
fixed by a payment) it and ``pot_keeper_id`` are the plan, NULL keeper then: nobody keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Row, func, select

from ledger.extensions import db
from ledger.models import Change, GameSession, Payment, Player
from ledger.rules.base import State
from ledger.rules.errors import RuleError
from ledger.rules.game import Game
from ledger.rules.money import amount, format_amount
from ledger.services.building import (
    build_session_view,
    night_named,
    night_named_by_id,
    player_name,
)
from ledger.services.errors import Conflict
from ledger.services.keepers import checked_keeper
from ledger.services.loading import load_session, session_game
from ledger.services.renames import renamed_since
from ledger.services.unit_of_work import record, write
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import SessionView

CHOICE_FIELD = "leftover_pot"
# The words a finish may use for the pot (API.md): a game whose pot has no choice (Kaluki
# shares it among the players still in) or that has no pot takes them too, and ignores them.
POT_WORDS = ("carry", "refund")


@dataclass(frozen=True)
class Plan:
    """What happens to the pot at the end: ``choice`` (None: the game has no pot to plan for),
    ``keeper`` (a name; None: nobody), ``chosen`` (stored on the session, not the default)."""

    choice: str | None
    keeper: str | None = None
    keeper_id: int | None = None
    chosen: bool = False


def pot_plan(row: GameSession | Row[Any], game: Game) -> Plan:
    """The open night's plan for its pot (see the module's docstring)."""
    choice = planned_choice(row, game)
    if choice is None:
        return Plan(None)
    keeper_id = row.pot_keeper_id if choice == "carry" else None
    keeper = player_name(keeper_id) if keeper_id is not None else None
    return Plan(choice, keeper, keeper_id, chosen=row.leftover_pot is not None)


def planned_choice(row: GameSession | Row[Any], game: Game) -> str | None:
    """What the plan does with the pot (``carry`` or ``refund``; None: the game has no pot to
    plan for), from the row alone: the table's choice, else the game's option."""
    if not game.money or not game.pot_choices():
        return None
    return row.leftover_pot or game.pot_choice(row.options)


def checked_choice(game: Game, choice: Any) -> str | None:
    """A finish's choice for the pot (None or "" when none is given): one the game allows,
    else RuleError naming ``leftover_pot``, so nothing else is ever stored or replayed."""
    if choice is None or choice == "":
        return None
    if choice not in (game.pot_choices() or POT_WORDS):
        raise RuleError(
            "The pot left at the end can be carried or refunded, not '{choice}'.",
            field=CHOICE_FIELD,
            choice=str(choice)[:40],
        )
    return str(choice)


def set_pot_plan(
    group: GroupRef, session_id: int, leftover_pot: str | None, pot_keeper: str | None
) -> SessionView:
    """The table's plan for the open night's pot. The same plan again changes nothing; a plan
    that would change who is paid what after a payment was ticked is refused (Conflict)."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)
        game = session_game(row)
        choice, keeper_id = _checked(row, game, leftover_pot, pot_keeper)
        if row.status != "open":
            raise Conflict(
                "{night} is finished: what happened to its pot can no longer change.",
                night=night_named(row),
            )
        _store(row, game, choice, keeper_id)
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def fix_plan(row: GameSession, leftover_pot: str | None, pot_keeper: str | None) -> None:
    """Before a payment ticked on a page of the open night ``row``: the plan that page showed
    (``leftover_pot`` and ``pot_keeper``; None: an API call, the plan as it is) becomes the
    session's if none was chosen yet, or names the keeper of a carried pot that had none. A
    page that showed another plan than the one chosen meanwhile on another phone is refused:
    its transfers were for that other plan."""
    game = session_game(row)
    plan = pot_plan(row, game)
    if row.status != "open" or plan.choice is None or leftover_pot is None:
        return
    keeper = pot_keeper if leftover_pot == "carry" else None
    if plan.chosen and (leftover_pot, keeper) == (plan.choice, plan.keeper):
        return
    naming = leftover_pot == plan.choice == "carry" and plan.keeper is None
    if plan.chosen and not naming:
        raise Conflict(
            "The plan for the pot was changed on another phone: look at the payments again "
            "before ticking one.",
            field=CHOICE_FIELD,
        )
    choice, keeper_id = _checked(row, game, leftover_pot, keeper)
    _store(row, game, choice, keeper_id)


def check_unpaid(row: GameSession, choice: str | None, keeper_id: int | None) -> None:
    """Refuse a plan other than the one the payments ticked were made under (Conflict naming
    the first payment): a change then could leave somebody paid more than owed."""
    plan = pot_plan(row, session_game(row))
    if plan.choice is None or (choice, keeper_id) == (plan.choice, plan.keeper_id):
        return
    first = db.session.scalar(
        select(Payment).where(Payment.session_id == row.id).order_by(Payment.at, Payment.id)
    )
    if first is None:
        return
    money = amount(first.units, Decimal(row.options["unit_value"]), row.options["currency"])
    raise Conflict(
        "{payer} paid {payee} {paid} under the plan for the pot: take that tick back before "
        "changing what happens to the pot.",
        field=CHOICE_FIELD,
        payer=str(player_name(first.payer_id)),
        payee=str(player_name(first.payee_id)),
        paid=format_amount(money, row.options["currency"]),
    )


def reopen_session(group: GroupRef, session_id: int) -> SessionView:
    """A night finished at the table open again, as it was before its finish, its plan for the
    pot kept. Refused (Conflict naming it) once something depends on its end: a payment
    recorded, or its pot taken up by a later session."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)
        refused = _reopen_refusal(row)
        if refused is not None:
            raise refused
        finished = db.session.scalar(
            select(Change)
            .where(Change.session_id == row.id, Change.kind == "session.finished")
            .order_by(Change.id.desc())
            .limit(1)
        )
        # Every finish leaves its line of history, with the state it ended.
        assert finished is not None and finished.before is not None, row.id
        before = {"finish": row.finish, "state": row.state, "finished_at": row.finished_at}
        # The history keeps the state with the names of its day: a player renamed since is
        # called as the rest of the night now calls them.
        row.state = renamed_since(row.id, finished.before["state"], finished)
        row.status, row.finished_at, row.finish, row.carried_pot = "open", None, None, 0
        if row.leftover_pot != "carry":
            row.pot_keeper_id = None
        row.version += 1
        record(
            row,
            "session.reopened",
            before={"finish": before["finish"]},
            after={"leftover_pot": row.leftover_pot, "pot_keeper": _keeper_name(row)},
        )
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def reopen_refusal(group: GroupRef, session_id: int) -> Conflict | None:
    """Why the night cannot be opened again now (``reopen_session`` would refuse with it), or
    None when it can: a page offers the button only then."""
    return _reopen_refusal(load_session(group, session_id))


def _reopen_refusal(row: GameSession) -> Conflict | None:
    # The night by its name, as its pages name it ("Spot #2"), never by its id.
    night = night_named(row)
    if row.status == "open":
        return Conflict("{night} is open already.", night=night)
    if row.finish is None:
        return Conflict(
            "{night} ended by its own rules: undo its last hand to play on.", night=night
        )
    if row.on_tab:
        return Conflict(
            "{night} is on the tab: take it off the tab before reopening it.", night=night
        )
    if row.carried_into_id is not None:
        return Conflict(
            "The pot of {night} opened {into}: it can no longer be reopened.",
            night=night,
            into=night_named_by_id(row.carried_into_id),
        )
    if db.session.scalar(select(Payment.id).where(Payment.session_id == row.id).limit(1)):
        return Conflict(
            "Payments were ticked for {night}: take them back before reopening it.", night=night
        )
    return None


def _checked(
    row: GameSession, game: Game, leftover_pot: str | None, pot_keeper: str | None
) -> tuple[str, int | None]:
    """The plan asked for, checked: the choice one the game allows, the keeper a player of the
    session (only for a pot carried on)."""
    if not game.money:
        raise RuleError(
            "{game} is played for points: there is no pot to plan for.",
            field=CHOICE_FIELD,
            game=game.name,
        )
    choices = game.pot_choices()
    if leftover_pot not in choices:
        raise RuleError(
            "The pot left at the end can be carried or refunded, not '{choice}'.",
            field=CHOICE_FIELD,
            choice=str(leftover_pot)[:40],
        )
    keeper = checked_keeper(row, game, State.from_dict(row.state), leftover_pot, pot_keeper)
    return leftover_pot, keeper.id if keeper is not None else None


def _store(row: GameSession, game: Game, choice: str, keeper_id: int | None) -> None:
    """The plan stored as the session's (a new version, a line of history) unless it is the
    plan already chosen."""
    plan = pot_plan(row, game)
    if plan.chosen and (plan.choice, plan.keeper_id) == (choice, keeper_id):
        return
    check_unpaid(row, choice, keeper_id)
    before = {"leftover_pot": plan.choice, "pot_keeper": plan.keeper}
    row.leftover_pot, row.pot_keeper_id = choice, keeper_id
    row.version += 1
    after = {"leftover_pot": choice, "pot_keeper": _keeper_name(row)}
    record(row, "pot.planned", before=before, after=after)


def _keeper_name(row: GameSession) -> str | None:
    if row.pot_keeper_id is None:
        return None
    return db.session.scalar(select(Player.name).where(Player.id == row.pot_keeper_id))


@dataclass(frozen=True)
class WaitingPot:
    """A pot carried on that no session has taken up yet (RULES.md §2): it waits for a night
    of ``game`` played at ``unit_value`` ``currency`` a unit, with ``keeper`` at the table."""

    session: int
    game: str
    units: int
    amount: Decimal
    currency: str
    unit_value: Decimal
    keeper: str | None


def waiting_pots(group: GroupRef, game: str | None = None) -> list[WaitingPot]:
    """The group's pots waiting to be taken up (of ``game`` only, if given), newest first:
    one query (a handful at most)."""
    where = [
        GameSession.group_id == group.id,
        GameSession.status == "finished",
        GameSession.carried_pot > 0,
        GameSession.carried_into_id.is_(None),
    ]
    if game is not None:
        where.append(GameSession.game == game)
    rows = db.session.execute(
        select(GameSession, Player.name)
        .outerjoin(Player, Player.id == GameSession.pot_keeper_id)
        .where(*where)
        .order_by(GameSession.finished_at.desc(), GameSession.id.desc())
    ).all()
    pots = []
    for row, keeper in rows:
        unit_value, currency = Decimal(row.options["unit_value"]), row.options["currency"]
        money = amount(row.carried_pot, unit_value, currency)
        pots.append(
            WaitingPot(row.id, row.game, row.carried_pot, money, currency, unit_value, keeper)
        )
    return pots


def remembered_options(group: GroupRef) -> dict[str, dict[str, Any]]:
    """Each game's options as the group's last session of it had them (the stakes a new
    session of that game starts from): one query."""
    latest = (
        select(func.max(GameSession.id))
        .where(GameSession.group_id == group.id)
        .group_by(GameSession.game)
    )
    rows = db.session.execute(
        select(GameSession.game, GameSession.options).where(GameSession.id.in_(latest))
    ).all()
    return {game: dict(options or {}) for game, options in rows}
