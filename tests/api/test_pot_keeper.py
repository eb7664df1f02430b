"""The pot keeper over the API (RULES.md §2, API.md "Additions"): who takes a carried pot home,
how the settle-up pays it to them, and how the next session has them bring it back."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from ledger import services
from ledger.extensions import db
from ledger.models import Group
from ledger.services.views.groups import GroupRef
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error


def _night_with_a_pot(table) -> int:
    """Hand 1 of the seed: John wins 51, the pot of 20 stays (Enda -25, John 46, Rex -16,
    Finn -25)."""
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    return sid


def test_the_keeper_is_paid_the_pot_and_the_session_says_who_keeps_it(table):
    sid = _night_with_a_pot(table)

    session = table.ok(
        "POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "john"}
    )

    assert session["pot_keeper"] == "John"  # spelled as the session spells it
    assert session["carried_in_keeper"] is None
    assert session["pot"] == 20
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settled["pot_keeper"] == "John"
    balances = {b["player"]: b["units"] for b in settled["balances"]}
    assert balances == {"Enda": -25, "John": 66, "Rex": -16, "Finn": -25}
    assert sum(balances.values()) == 0
    # No transfer into the pot: the pot's money goes to the keeper like any balance.
    assert all(t["to"] is not None and t["from"] is not None for t in settled["transfers"])
    received = sum(t["units"] for t in settled["transfers"] if t["to"] == "John")
    assert received == 66


def test_the_next_session_opens_with_the_keeper_owing_the_pot(table):
    first = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "John"})

    following = table.session()

    assert following["carried_in_keeper"] == "John"
    assert following["pot_keeper"] is None
    assert (following["pot"], following["carried_in"]) == (20, 20)
    assert following["scores"] == {"Enda": 0, "John": -20, "Rex": 0, "Finn": 0}
    assert sum(following["scores"].values()) + following["pot"] == 0
    # Enda goes out in hand 2 of the seed and takes the pot John brought.
    table.hand(following["id"], SEED_HAND_1)
    table.hand(following["id"], SEED_HAND_2)
    done = table.ok("POST", f"/sessions/{following['id']}/finish", {"leftover_pot": "carry"})
    assert done["pot"] == 0
    assert sum(done["scores"].values()) == 0
    settled = table.ok("GET", f"/sessions/{following['id']}/settlement")
    assert all(t["to"] is not None and t["from"] is not None for t in settled["transfers"])


def test_a_kept_pot_waits_for_a_night_its_keeper_plays(table):
    first = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "Rex"})

    without_rex = table.session(players=["Enda", "John", "Finn"])
    with_rex = table.session()

    assert (without_rex["pot"], without_rex["carried_in_keeper"]) == (0, None)
    assert (with_rex["pot"], with_rex["carried_in_keeper"]) == (20, "Rex")
    assert with_rex["scores"]["Rex"] == -20


def test_without_a_keeper_the_pot_belongs_to_nobody_as_before(table):
    sid = _night_with_a_pot(table)
    session = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})

    assert session["pot_keeper"] is None
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settled["pot_keeper"] is None
    assert sum(t["units"] for t in settled["transfers"] if t["to"] is None) == 20
    following = table.session()
    assert following["carried_in_keeper"] is None
    assert set(following["scores"].values()) == {0}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"leftover_pot": "carry", "pot_keeper": "Nobody"}, 422),
        ({"leftover_pot": "carry", "pot_keeper": " "}, 422),
        ({"leftover_pot": "refund", "pot_keeper": "John"}, 422),
        ({"leftover_pot": "carry", "pot_keeper": 7}, 422),
    ],
)
def test_a_keeper_who_cannot_keep_the_pot_is_refused_and_nothing_changes(table, body, status):
    sid = _night_with_a_pot(table)
    before = table.ok("GET", f"/sessions/{sid}")

    message = error(table.post(f"/sessions/{sid}/finish", body), status, "pot_keeper")

    assert message
    assert table.ok("GET", f"/sessions/{sid}") == before


def test_a_player_who_left_may_keep_the_pot(table):
    sid = _night_with_a_pot(table)
    table.ok("DELETE", f"/sessions/{sid}/players/Rex")

    session = table.ok(
        "POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "Rex"}
    )

    assert session["pot_keeper"] == "Rex"


def test_a_points_game_has_no_pot_to_keep(table):
    sid = table.session(game="rummy")["id"]

    message = error(
        table.post(f"/sessions/{sid}/finish", {"pot_keeper": "Enda"}), 422, "pot_keeper"
    )

    assert "no pot" in message
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "open"


def test_an_empty_pot_has_no_keeper(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)  # Enda takes the pot

    session = table.ok(
        "POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "Enda"}
    )

    assert (session["pot"], session["pot_keeper"]) == (0, None)


def test_a_renamed_keeper_is_named_by_the_new_name(app, table):
    first = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "John"})
    following = table.session()
    group = table.ok("GET", f"/groups/{table.slug}")
    john = next(p["id"] for p in group["players"] if p["name"] == "John")

    with app.app_context():
        row = db.session.scalar(select(Group).where(Group.slug == table.slug))
        services.rename_player(GroupRef(row.id, row.slug, row.name), john, "Johnny")

    assert table.ok("GET", f"/sessions/{first}")["pot_keeper"] == "Johnny"
    assert table.ok("GET", f"/sessions/{following['id']}")["carried_in_keeper"] == "Johnny"


def test_the_history_says_who_keeps_and_who_brought_the_pot(table):
    first = _night_with_a_pot(table)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "Finn"})
    following = table.session()["id"]

    finished = table.ok("GET", f"/sessions/{first}/history")
    started = table.ok("GET", f"/sessions/{following}/history")[0]

    assert [c["after"].get("pot_keeper") for c in finished if c["kind"] == "session.finished"] == [
        "Finn"
    ]
    assert started["kind"] == "session.created"
    assert (started["after"]["carried_in_keeper"], started["after"]["carried_in"]) == ("Finn", 20)
