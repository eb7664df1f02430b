"""Points games played for money (RULES.md §7): the stake options and the payout at the end.

Spots, Rummy and Spin Rummy (two players) may be played for a stake per point. The money is
worked out once the game ends, from the final scores and the winners: with ``winner`` every
player who is not a winner pays the stake times the gap to the winners' score, shared among
equal winners; with ``everyone`` each pair of players settles the gap between them. The
balances this gives add up to zero and are settled like a money game's (rules/settle.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.rules import spot
from ledger.rules.base import State, in_play_order
from ledger.rules.errors import RuleError
from ledger.rules.game import Game, Option
from ledger.rules.texts import N_

# The largest stake (API.md "Bounds"): units per point. With scores in the thousands a night
# stays far inside what the database and the pages hold.
MAX_STAKE = 1_000

STAKE = "stake"
PAYOUT = "payout"

# The options every points game that may be played for money declares, defaults first: a
# stake of 0 means the game is not played for money. The unit's worth and the currency are
# Spot's own options, read and checked the same way.
OPTIONS: Mapping[str, Option] = {
    STAKE: Option(
        0,
        minimum=0,
        maximum=MAX_STAKE,
        help=N_("Units one point is worth; 0: not played for money."),
    ),
    "unit_value": spot.GAME.options["unit_value"],
    "currency": spot.GAME.options["currency"],
    PAYOUT: Option(
        "winner",
        choices=("winner", "everyone"),
        help=N_(
            "Everyone else pays the winner the gap to the winner's score, or every pair of "
            "players settles the gap between them."
        ),
    ),
}


def stake(options: Mapping[str, Any]) -> int:
    """The units one point is worth in a session with these options (0: not for money)."""
    value = options.get(STAKE, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def check_stake_seats(players: Sequence[str], options: Mapping[str, Any]) -> None:
    """A game played alone (Spin Rummy solo) has nobody to pay: a stake is refused."""
    if stake(options) and len(players) < 2:
        raise RuleError(
            "A game played alone has no money: leave the stake at 0.", field=f"options.{STAKE}"
        )


def payout(
    scores: Mapping[str, int],
    winners: Sequence[str],
    order: Sequence[str],
    options: Mapping[str, Any],
    *,
    highest_wins: bool,
) -> dict[str, int]:
    """Each player's balance in units once the game has ended (positive: is owed).

    ``scores`` are the final points of every player of the game, ``winners`` its winners,
    ``order`` the players in playing order from the first dealer's left (the odd units of a
    share go one each to the winners in that order; players not in it come after, by name).
    ``highest_wins`` says which way the game counts (Rummy with ``winner`` scoring and Spin
    Rummy: the highest; Spots and Rummy with ``penalty``: the lowest). No stake, no winner or
    fewer than two players: nobody pays anything.
    """
    per_point = stake(options)
    players = list(scores)
    balances = dict.fromkeys(players, 0)
    if not per_point or len(players) < 2:
        return balances
    sign = 1 if highest_wins else -1
    if options.get(PAYOUT, "winner") == "everyone":
        total = sum(scores.values())
        # Each pair settles its gap: player i receives stake × Σ_j (s_i − s_j).
        return {p: sign * per_point * (len(players) * scores[p] - total) for p in players}
    won = [p for p in winners if p in scores]
    if not won:
        return balances
    best = scores[won[0]]
    for p in players:
        if p not in won:
            # The gap as it stands, even below zero: in Gin Rummy the boxes can put the game's
            # loser ahead on the final totals, and then the winner of the game pays the loser
            # (RULES.md §8: stake × the margin of the final totals).
            balances[p] = -per_point * sign * (best - scores[p])
    share, odd = divmod(-sum(balances.values()), len(won))
    ranked = sorted(won, key=lambda p: (order.index(p) if p in order else len(order), p))
    for k, p in enumerate(ranked):
        balances[p] = share + (1 if k < odd else 0)
    return balances


def for_money(game: Game, options: Mapping[str, Any]) -> bool:
    """Whether a session of this points game with these options is played for money."""
    return not game.money and STAKE in game.options and stake(options) > 0


def highest_wins(game: Game, options: Mapping[str, Any]) -> bool:
    """Which way the game counts under these options, as its own ``leaders`` judge it: asked
    about two players one point apart, does it name the one ahead?"""
    if not game.has_leaders():
        return True
    probe = State(seats=("a", "b"), dealer="a", scores={"a": 1, "b": 0})
    return game.leaders(probe, {**game.defaults(), **options}) == ("a",)


def game_payout(
    game: Game, state: State, options: Mapping[str, Any], first: State
) -> dict[str, int] | None:
    """The money of a finished points game played for a stake, by player; None while the
    game goes on or when it is not played for money. A game with money of its own
    (``Game.stake_money``: Cribbage's stake a game) answers it as it stands. ``first`` is the
    state before hand 1: its seats and dealer give the playing order from the first dealer's
    left. The money is
    worked out on the game's final totals (Gin Rummy's include its bonuses)."""
    if not for_money(game, options):
        return None
    own = game.stake_money(state, options)
    if own is not None:
        return own
    if not state.finished:
        return None
    order = in_play_order(first.seats, first.dealer) if first.seats else ()
    return payout(
        game.final_totals(state, options),
        state.winners,
        order,
        options,
        highest_wins=highest_wins(game, options),
    )
