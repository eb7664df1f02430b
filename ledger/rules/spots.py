"""Spots, Dutch house rules: penalty points for the spots left in hand over a fixed game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ledger.rules import payout
from ledger.rules.base import HandEntry, HandOutcome, ResultEntry, State, canonical, left_of
from ledger.rules.errors import RuleError
from ledger.rules.game import Game, Option, Progress
from ledger.rules.leftovers import read_leftovers
from ledger.rules.texts import N_

# Players: (rounds, hands per round). Three players deal a dead fourth hand that is never
# entered; with five the dealer sits each hand out (RULES.md §3).
LENGTH: Mapping[int, tuple[int, int]] = {3: (3, 3), 4: (2, 4), 5: (2, 5)}


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One hand of Spots: everyone adds the spots left in hand to their total, the player out 0.

    A *dubbel* (eight cards of a suit in sequence laid down at once) ends the hand with that
    player out, so it is entered as going out: no separate mark is needed.
    """
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    opts = {**GAME.defaults(), **options}
    entry = _seat_the_dealer_out(state, entry)
    read, out = read_leftovers(state, entry, entry_mode=opts["entry"], game_name=GAME.name)
    results = tuple(
        r if r.sitting_out else replace(r, points=r.spots) for r in (read[p] for p in state.seats)
    )
    points = {r.player: r.points or 0 for r in results if not r.sitting_out}
    scores = dict(state.scores)
    for p, added in points.items():
        scores[p] = scores.get(p, 0) + added

    number = state.hands_played + 1
    rounds, per_round = LENGTH[len(state.seats)]
    finished = number >= rounds * per_round
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=results,
        out=out,
        winners=_lowest(points, state.seats),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=replace(
            state,
            scores=scores,
            hands_played=number,
            dealer=left_of(state.seats, state.dealer),
            finished=finished,
            winners=_lowest(scores, state.seats) if finished else (),
        ),
    )


def progress(state: State, options: Mapping[str, Any]) -> Progress | None:
    """Where the next hand falls ("round 2, hand 3 of 4"), or None once the game is over."""
    rounds, per_round = LENGTH[len(state.seats)]
    if state.finished or state.hands_played >= rounds * per_round:
        return None
    return Progress(
        round=state.hands_played // per_round + 1,
        hand=state.hands_played % per_round + 1,
        hands_in_round=per_round,
        rounds=rounds,
    )


def _seat_the_dealer_out(state: State, entry: HandEntry) -> HandEntry:
    """With five players the dealer sits each hand out; nobody else ever sits out.

    The dealer's result may be left out, or given as sitting out or with nothing in it; it is
    entered as sitting out so the shared checks treat the dealer like anyone sitting out.
    """
    five = len(state.seats) == 5
    results = list(entry.results)
    dealer_at = None
    for i, r in enumerate(results):
        p = canonical(state, r.player)
        if five and p == state.dealer:
            dealer_at = i
            if (r.cards or "").strip() or r.spots:
                raise RuleError(
                    "{player} deals this hand, and with five players the dealer sits it out: "
                    "{player} has no cards to enter.",
                    field=f"results[{i}].{'spots' if r.spots is not None else 'cards'}",
                    players=(p,),
                    player=p,
                )
        elif p is not None and r.sitting_out:
            if five:
                raise RuleError(
                    "{player} cannot sit out: in Spots only the dealer sits out, "
                    "so give {player}'s cards.",
                    field=f"results[{i}].sitting_out",
                    players=(p,),
                    player=p,
                )
            raise RuleError(
                "{player} cannot sit out: in Spots everyone plays every hand, "
                "so give {player}'s cards.",
                field=f"results[{i}].sitting_out",
                players=(p,),
                player=p,
            )
    if not five:
        return entry
    if canonical(state, entry.out) == state.dealer:
        raise RuleError(
            "{player} deals this hand and sits it out, so {player} cannot go out.",
            field="out",
            players=(state.dealer,),
            player=state.dealer,
        )
    sitting = ResultEntry(player=state.dealer, sitting_out=True)
    if dealer_at is None:
        results.append(sitting)
    else:
        results[dealer_at] = sitting
    return replace(entry, results=tuple(results))


def _lowest(totals: Mapping[str, int], seats: Sequence[str]) -> tuple[str, ...]:
    """The seated players with the lowest total, in seat order: equal lowest share the win."""
    scored = [p for p in seats if p in totals]
    low = min(totals[p] for p in scored)
    return tuple(p for p in scored if totals[p] == low)


class Spots(Game):
    key = "spots"
    name = N_("Spots")
    description = N_(
        "Dutch house rules: the spots left in hand are penalty points over a fixed "
        "number of hands, and the lowest total wins."
    )
    min_players = 3
    max_players = 5
    money = False
    options = {
        "entry": Option(
            "cards", choices=("cards", "totals"), help=N_("Enter every player's cards, or totals.")
        ),
        **payout.OPTIONS,  # RULES.md §7: played for money
    }
    open_seating = False
    dealer_sits_out_with = 5

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        return progress(state, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return _lowest(state.scores, state.seats)

    def penalties(self, options: Mapping[str, Any]) -> bool:
        return True


GAME = Spots()
