"""A chain of Spot nights whose pots are kept and brought back (RULES.md §2): money is never
created or lost, hand by hand, and every night's balances add up to zero on their own."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.rules import spot
from ledger.rules.base import State
from ledger.rules.keeper import brought_by, settled_winnings, to_settle, winnings
from ledger.rules.settle import settle
from tests.rules.test_money_conservation import NAMES, between_hands, random_hand

GAME = spot.GAME


def settled_balances(state: State, keeper: str | None) -> dict[str | None, int]:
    """What the night settles (services/keepers.py): the keeper is owed the pot; money that
    belongs to nobody (a pot carried on without a keeper, or carried in without one) is the
    party None."""
    balances: dict[str | None, int] = dict(state.scores)
    if keeper is not None:
        balances[keeper] += state.pot
    if sum(balances.values()):
        balances[None] = -sum(balances.values())
    return balances


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_chain_of_nights_with_keepers_conserves_money_night_by_night(
    data: st.DataObject,
) -> None:
    opts = GAME.check_options(
        {
            "ante": data.draw(st.integers(0, 10), label="ante"),
            "tie_remainder": data.draw(st.sampled_from(["pot", "first_winner"]), label="odd"),
            "entry": "totals",
        }
    )
    pot, antes, keeper = 0, {}, None
    for night in range(data.draw(st.integers(1, 4), label="nights")):
        n = data.draw(st.integers(GAME.min_players, GAME.max_players), label="players")
        seats = list(NAMES[:n])
        if keeper is not None and keeper not in seats:
            seats[-1] = keeper  # a kept pot waits for a night its keeper plays
        dealer = data.draw(st.sampled_from(seats), label="dealer")
        state = GAME.new_state(seats, dealer, opts, pot, carried_antes=antes)
        if keeper is not None:
            state = brought_by(state, keeper)
        # With a keeper the night owes nobody the pot: its balances and pot add up to zero;
        # without one the pot it opened with is the table's, as before.
        owed = 0 if keeper is not None else pot
        assert sum(state.scores.values()) + state.pot == owed

        for _ in range(data.draw(st.integers(0, 6), label="hands")):
            state = between_hands(data, state, opts)
            state = GAME.play(state, random_hand(data, state, opts), opts).state
            assert sum(state.scores.values()) + state.pot == owed, night

        choice = data.draw(st.sampled_from(["carry", "refund"]), label="end")
        state = spot.finish(state, opts, choice).state
        assert sum(state.scores.values()) + state.pot == owed
        keeps = choice == "carry" and state.pot > 0 and data.draw(st.booleans(), label="kept")
        keeper = data.draw(st.sampled_from(sorted(state.scores)), label="keeper") if keeps else None
        balances = settled_balances(state, keeper)
        if keeper is not None and not owed:
            # Kept and brought back: the night's players square it among themselves.
            assert None not in balances
        assert sum(balances.values()) == 0
        for t in settle(balances):
            balances[t.source] += t.units
            balances[t.target] -= t.units
        assert set(balances.values()) <= {0}
        pot, antes = state.pot, dict(state.pot_antes)


def test_the_night_s_winnings_leave_out_the_pot_kept_and_the_pot_brought_back():
    # Rex brought back a pot of 30 (his balance started at -30), ended at +10 and keeps the
    # 25 left in the pot: the settle-up pays him 35, and he won 40 on the night.
    assert to_settle(10, 25) == 35
    assert settled_winnings(35, 25, 30) == 40


@given(st.integers(-(10**6), 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_winnings_read_back_from_the_settle_up_are_the_night_s(
    score: int, kept: int, back: int
) -> None:
    assert settled_winnings(to_settle(score, kept), kept, back) == winnings(score, back)
