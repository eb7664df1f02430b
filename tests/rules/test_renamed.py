"""A player renamed in what is stored: every name a state, an outcome, an entry or a seating
op holds, found by the stored shapes (ledger/rules/codecs.py)."""

from __future__ import annotations

import json
from dataclasses import fields

from ledger.rules.base import BuyIn, State
from ledger.rules.codecs import (
    STATE,
    renamed_entry,
    renamed_finish,
    renamed_seating,
    renamed_state,
)


def test_every_field_of_the_state_is_in_its_stored_shape():
    # The rename finds names by STATE: a field kept in State and not there would keep the old
    # name (and a backup holding it would be refused).
    assert {f.name for f in fields(State)} == {k.rstrip("?") for k in STATE}


def test_every_name_in_a_state_is_renamed_and_nothing_else():
    state = State(
        seats=("Ann", "Bob"),
        dealer="Bob",
        scores={"Ann": 3, "Bob": -3},
        hands_played=4,
        pot=10,
        carried_in=5,
        pot_antes={"Bob": 5, "Ann": 5},
        finished=True,
        winners=("Bob",),
        totals={"Bob": 140, "Ann": 20},
        wins={"Bob": 2},
        eliminated={"Bob": 4},
        buy_ins={"Bob": (40, 60)},
    ).to_dict()

    renamed = renamed_state(state, "Bob", "Robert")

    assert "Bob" not in json.dumps(renamed)
    assert renamed == json.loads(json.dumps(state).replace('"Bob"', '"Robert"'))


def test_a_kept_buy_in_a_join_a_typed_entry_and_a_refund_are_renamed():
    ops = [{"join": "Cas", "after": "Bob"}, {"leave": "bob"}]
    ops.append({"buy_in": BuyIn("Bob", after_hand=2, units=100, total=40).to_dict()})
    assert renamed_seating(ops, "Bob", "Rob") == [
        {"join": "Cas", "after": "Rob"},
        {"leave": "Rob"},
        {"buy_in": {"player": "Rob", "after_hand": 2, "units": 100, "total": 40}},
    ]
    entry = {"results": [{"player": "BOB ", "cards": "KS"}], "out": "bob", "rummy": False}
    assert renamed_entry(entry, "Bob", "Rob") == {
        "results": [{"player": "Rob", "cards": "KS"}],
        "out": "Rob",
        "rummy": False,
    }
    finish = {"leftover_pot": "refund", "movements": [{"from": None, "to": "Bob", "units": 5}]}
    assert renamed_finish(finish, "Bob", "Rob")["movements"] == [
        {"from": None, "to": "Rob", "units": 5}
    ]
