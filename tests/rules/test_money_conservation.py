"""Random Spot sessions never create or lose a unit, and their movements explain every balance."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ledger.rules import spot
from ledger.rules.base import HandEntry, Movement, ResultEntry, State
from ledger.rules.cards import RANKS, SUITS
from ledger.rules.game import join, leave

GAME = spot.GAME
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fin", "Gus", "Hal", "Ivy")
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)


def net(movements: Sequence[Movement]) -> tuple[Counter[str], int]:
    """Each player's gain from ``movements``, and the pot's."""
    players: Counter[str] = Counter()
    pot = 0
    for m in movements:
        assert m.units > 0, m
        if m.source is None:
            pot -= m.units
        else:
            players[m.source] -= m.units
        if m.target is None:
            pot += m.units
        else:
            players[m.target] += m.units
    return players, pot


def assert_explained(before: State, after: State, movements: Sequence[Movement]) -> None:
    """The movements account exactly for every balance and the pot; nothing is created."""
    players, pot = net(movements)
    for p in set(before.scores) | set(after.scores):
        assert after.scores[p] - before.scores.get(p, 0) == players[p], p
    assert after.pot - before.pot == pot
    assert after.pot >= 0
    assert sum(after.scores.values()) + after.pot == after.carried_in
    # The antes recorded since the pot was last won are all still in it.
    assert all(units > 0 for units in after.pot_antes.values())
    assert sum(after.pot_antes.values()) <= after.pot


def random_hand(data: st.DataObject, state: State, opts: Mapping[str, Any]) -> HandEntry:
    seats = state.seats
    sitting = {p for p in seats if data.draw(st.integers(0, 5), label=f"{p} sits") == 0}
    if len(seats) - len(sitting) < 2:
        sitting = set()
    dealt = [p for p in seats if p not in sitting]
    out = data.draw(st.sampled_from([None, *dealt]), label="out")
    deck = data.draw(st.permutations(DECK), label="deck")
    results: list[ResultEntry] = []
    for p in seats:
        if p in sitting:
            results.append(ResultEntry(p, sitting_out=True))
        elif p == out:
            if data.draw(st.booleans(), label="out gives a result"):
                results.append(ResultEntry(p, cards=""))
        elif opts["entry"] == "totals" and data.draw(st.booleans(), label="total"):
            # Small totals make ties (and odd units) common.
            results.append(ResultEntry(p, spots=data.draw(st.integers(1, 6), label="spots")))
        else:
            n = data.draw(st.integers(1, 8), label="cards")
            results.append(ResultEntry(p, cards=" ".join(deck[:n])))
            deck = deck[n:]
    order = data.draw(st.permutations(results), label="entry order")
    return HandEntry(results=tuple(order), out=out)


def between_hands(data: st.DataObject, state: State, opts: Mapping[str, Any]) -> State:
    move = data.draw(st.sampled_from(["stay", "stay", "join", "leave"]), label="seating")
    if move == "join" and len(state.seats) < GAME.max_players:
        free = [n for n in NAMES if n not in state.seats]
        name = data.draw(st.sampled_from(free), label="joins")  # may be someone who left
        after = data.draw(st.sampled_from(state.seats), label="after")
        event("a player joins")
        return join(GAME, state, name, after)
    if move == "leave" and len(state.seats) > GAME.min_players:
        name = data.draw(st.sampled_from(state.seats), label="leaves")
        event("a player leaves")
        return leave(GAME, state, name, pass_deal=spot.deal_step(opts))
    return state


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_spot_sessions_conserve_money_hand_by_hand_and_at_the_end(
    data: st.DataObject,
) -> None:
    opts = GAME.check_options(
        {
            "ante": data.draw(st.integers(0, 10), label="ante"),
            "dealer_rotation": data.draw(st.sampled_from(["right", "left"]), label="rotation"),
            "tie_remainder": data.draw(st.sampled_from(["pot", "first_winner"]), label="odd"),
            "entry": data.draw(st.sampled_from(["cards", "totals"]), label="entry"),
        }
    )
    n = data.draw(st.integers(GAME.min_players, GAME.max_players), label="players")
    seats = NAMES[:n]
    dealer = data.draw(st.sampled_from(seats), label="dealer")
    carried = data.draw(st.integers(0, 40), label="carried pot")
    # Antes carried with the pot, by players who may or may not be at the table tonight; the
    # rest of the pot has no record (tie remainders, or a pot carried before antes were kept).
    antes: dict[str, int] = {}
    for name in data.draw(st.lists(st.sampled_from(NAMES), unique=True), label="paid antes"):
        units = data.draw(st.integers(0, carried - sum(antes.values())), label=f"{name} paid")
        antes[name] = units
    state = GAME.new_state(seats, dealer, opts, carried, carried_antes=antes)
    assert state.pot_antes == {p: units for p, units in antes.items() if units}
    assert_explained(state, state, ())

    for number in range(1, data.draw(st.integers(0, 8), label="hands") + 1):
        state = between_hands(data, state, opts)
        outcome = GAME.play(state, random_hand(data, state, opts), opts)
        dealt = [r.player for r in outcome.results if not r.sitting_out]

        assert outcome.number == number
        pot_before, pot_after = outcome.pot_before, outcome.pot_after
        assert pot_before is not None and pot_after is not None
        assert pot_before == state.pot + opts["ante"] * len(dealt)
        assert pot_after == outcome.state.pot
        assert set(outcome.winners) <= set(dealt)
        if len(outcome.winners) > 1:
            event("a tie" if len(outcome.winners) < len(dealt) else "everyone ties")
        if len(dealt) < len(outcome.results):
            event("someone sits out")
        if outcome.out is not None:
            assert pot_after == 0 and outcome.winners == (outcome.out,)
        else:
            # A tie's odd units are fewer than the winners, and only "pot" keeps them.
            extra = pot_after - pot_before
            limit = len(outcome.winners) if opts["tie_remainder"] == "pot" else 1
            assert 0 <= extra < limit
        assert_explained(state, outcome.state, outcome.movements)
        state = outcome.state

    for choice in ("carry", "refund"):
        end = spot.finish(state, opts, choice)
        assert end.state.finished
        assert_explained(state, end.state, end.movements)
        if choice == "carry":
            assert end.movements == () and end.state.pot == state.pot
        else:
            # Players here get their antes back, and no more than a fair share besides; the
            # antes of players not here stay in the pot, kept as theirs.
            payers = [p for p in state.pot_antes if p in state.scores]
            absent = {p: units for p, units in state.pot_antes.items() if p not in payers}
            for p in payers:
                assert end.state.scores[p] - state.scores[p] >= state.pot_antes[p]
            assert end.state.pot_antes == (absent if payers else state.pot_antes)
            if payers:
                unrecorded = end.state.pot - sum(absent.values())
                assert 0 <= unrecorded < (len(payers) if opts["tie_remainder"] == "pot" else 1)
            else:
                assert end.movements == () and end.state.pot == state.pot
            if absent:
                event("a refund leaves absent players' antes in the pot")
