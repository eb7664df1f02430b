"""Spot, the Irish pub rummy for money: antes into a pot, and a unit per spot to the winner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ledger.rules.base import (
    Finish,
    HandEntry,
    HandOutcome,
    Movement,
    State,
    in_play_order,
    next_seat,
)
from ledger.rules.errors import RuleError
from ledger.rules.game import Game, Option
from ledger.rules.leftovers import read_leftovers
from ledger.rules.money import parse_unit_value
from ledger.rules.texts import N_

# The largest ante (API.md "Bounds"): far beyond any table's, and it keeps a night's pot and
# balances well inside what the database and the pages hold.
MAX_ANTE = 10_000


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One hand of Spot (RULES.md §2), checked whole before anything is scored."""
    if state.finished:
        raise RuleError("The session is finished: no more hands can be added.")
    opts = {**GAME.defaults(), **options}
    results, out = read_leftovers(state, entry, entry_mode=opts["entry"], game_name=GAME.name)
    dealt = [p for p in in_play_order(state.seats, state.dealer) if not results[p].sitting_out]
    if len(dealt) < 2:
        raise RuleError("At least two players must be dealt in to a hand of Spot.", field="results")
    spots = {p: results[p].spots or 0 for p in dealt}

    ante = int(opts["ante"])
    moves = [Movement(p, None, ante) for p in dealt if ante]
    pot_antes = dict(state.pot_antes)
    for p in dealt if ante else ():
        pot_antes[p] = pot_antes.get(p, 0) + ante
    pot_before = state.pot + ante * len(dealt)

    if out is not None:
        # Going out wins the whole pot, this hand's antes included, and every spot left.
        winners = [out]
        moves += [Movement(None, out, pot_before)] if pot_before else []
        moves += [Movement(p, out, spots[p]) for p in dealt if p != out]
        pot_after, pot_antes = 0, {}
    else:
        # The stock ran out: the lowest total wins the others' spots and the pot stays.
        low = min(spots.values())
        winners = [p for p in dealt if spots[p] == low]
        losers = [p for p in dealt if spots[p] != low]
        share, odd = divmod(sum(spots[p] for p in losers), len(winners))
        first = opts["tie_remainder"] == "first_winner"
        due = [share + (1 if first and k < odd else 0) for k in range(len(winners))]
        moves += _flows([(p, spots[p]) for p in losers], winners, due)
        pot_after = pot_before + (0 if first else odd)

    return HandOutcome(
        number=state.hands_played + 1,
        dealer=state.dealer,
        leader=dealt[0],
        results=tuple(results[p] for p in state.seats),
        out=out,
        winners=tuple(winners),
        movements=tuple(moves),
        pot_before=pot_before,
        pot_after=pot_after,
        state=replace(
            state,
            scores=_apply(state.scores, moves),
            pot=pot_after,
            pot_antes=pot_antes,
            hands_played=state.hands_played + 1,
            dealer=next_seat(state.seats, state.dealer, deal_step(opts)),
        ),
    )


def finish(state: State, options: Mapping[str, Any], leftover_pot: str | None) -> Finish:
    """The end of the night: the pot is carried to the group's next Spot session, or refunded.

    ``refund`` gives every player back the antes they paid since the pot was last won
    (``pot_antes``, which a carried pot brings with it from the sessions before), if they have a
    score in this session, seated or gone. Antes of players who were not at this session stay
    in the pot with their ``pot_antes`` entries, so the pot carried on still knows whose they
    are. Whatever is in the pot beyond all the recorded antes (tie remainders, a pot carried in
    with no record of its antes) is shared equally among the players refunded, in whole units;
    the odd units are treated as in a tie: with ``tie_remainder`` ``pot`` they stay in the pot
    and are carried on, with ``first_winner`` they go one each in playing order from the left of
    the next dealer (players who have left the table after those seated, by name). With nobody
    here to refund (ante 0, or only absent players' antes) the pot is carried whole.
    """
    opts = {**GAME.defaults(), **options}
    choice = leftover_pot or opts["leftover_pot"]
    if choice not in ("carry", "refund"):
        raise RuleError(
            "The pot left at the end can be carried or refunded, not '{choice}'.",
            field="leftover_pot",
            choice=str(choice),
        )
    if state.finished:
        raise RuleError("The session is already finished.")
    if choice == "carry" or not state.pot:
        return Finish(movements=(), state=replace(state, finished=True))

    seated = in_play_order(state.seats, state.dealer)
    gone = sorted(p for p in state.scores if p not in seated)
    antes = {p: units for p, units in state.pot_antes.items() if units > 0}
    payers = [p for p in (*seated, *gone) if p in antes]
    back = {p: antes[p] for p in payers}
    if payers:
        share, odd = divmod(max(0, state.pot - sum(antes.values())), len(payers))
        first = opts["tie_remainder"] == "first_winner"
        for k, p in enumerate(payers):
            back[p] += share + (1 if first and k < odd else 0)
    moves = [Movement(None, p, units) for p, units in back.items() if units]
    return Finish(
        movements=tuple(moves),
        state=replace(
            state,
            scores=_apply(state.scores, moves),
            pot=state.pot - sum(back.values()),
            # Absent players' antes are still in the pot: they go on with it.
            pot_antes={p: units for p, units in antes.items() if p not in back},
            finished=True,
        ),
    )


def deal_step(options: Mapping[str, Any]) -> int:
    """The seats the deal moves after each hand: -1 to the right (as the seed), +1 to the left.

    ``Game.pass_direction`` answers it, so ``base.leave`` moves the deal on the right way.
    """
    return 1 if options.get("dealer_rotation") == "left" else -1


def _flows(
    owing: Sequence[tuple[str, int]], winners: Sequence[str], due: Sequence[int]
) -> list[Movement]:
    """Payers in playing order fill each winner's due in turn; what is left goes to the pot.

    A fixed order gives the same payments for the same hand, and pays each winner from as few
    players as it can.
    """
    flows: list[Movement] = []
    need = list(due)
    w = 0
    for payer, units in owing:
        while units:
            while w < len(winners) and need[w] == 0:
                w += 1
            if w == len(winners):
                flows.append(Movement(payer, None, units))
                break
            paid = min(units, need[w])
            flows.append(Movement(payer, winners[w], paid))
            need[w] -= paid
            units -= paid
    return flows


def _apply(scores: Mapping[str, int], moves: Sequence[Movement]) -> dict[str, int]:
    """The balances after ``moves``: a player's balance counts antes and the pot too."""
    after = dict(scores)
    for m in moves:
        if m.source is not None:
            after[m.source] = after.get(m.source, 0) - m.units
        if m.target is not None:
            after[m.target] = after.get(m.target, 0) + m.units
    return after


# --- The game and its options ------------------------------------------------------------------


def _unit_value(value: Any) -> str:
    # Kept as text so that 0.01 stays exactly 0.01 in the database and in JSON.
    return str(parse_unit_value(value))


def _currency(value: Any) -> str:
    code = str(value).strip().upper()
    if len(code) != 3 or not code.isascii() or not code.isalpha():
        raise RuleError(
            "The currency must be a three-letter code like EUR or GBP, not '{value}'.",
            field="options.currency",
            value=str(value),
        )
    return code


class Spot(Game):
    key = "spot"
    name = N_("Spot")
    description = N_(
        "Irish pub rummy for money: everyone antes, going out takes the pot, "
        "and every spot left in hand is paid to the winner."
    )
    min_players = 2
    max_players = 6
    money = True
    options = {
        "ante": Option(
            5, minimum=0, maximum=MAX_ANTE, help=N_("Units each player dealt in puts into the pot.")
        ),
        "unit_value": Option("0.01", parse=_unit_value, help=N_("The money one unit is worth.")),
        "currency": Option(
            "EUR", parse=_currency, help=N_("The currency, as a three-letter code.")
        ),
        "dealer_rotation": Option(
            "right", choices=("right", "left"), help=N_("The direction the deal passes.")
        ),
        "tie_remainder": Option(
            "pot",
            choices=("pot", "first_winner"),
            help=N_("Where the units go that joint winners cannot share evenly."),
        ),
        "entry": Option(
            "cards", choices=("cards", "totals"), help=N_("Enter every player's cards, or totals.")
        ),
        "leftover_pot": Option(
            "carry",
            choices=("carry", "refund"),
            help=N_("At the end of the night the pot is carried to the next session or refunded."),
        ),
    }
    open_seating = True
    sitting_out = True

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def finish(self, state: State, options: Mapping[str, Any], leftover_pot: str | None) -> Finish:
        return finish(state, options, leftover_pot)

    def deal_step(self, options: Mapping[str, Any]) -> int:
        return deal_step(options)


GAME = Spot()
