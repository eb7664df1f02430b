"""Phones that tap at the same moment: `ledger serve` keeps one story of the session.

Every test lines its threads up on a barrier so their requests leave together, and the
server runs several request threads, so the requests really meet in the app and the database.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.live.api import Api, hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
# Enda 3 spots, John 7, Rex 11, Finn 15: nobody out, Enda is lowest and is paid 33.
LOW_ENDA = {"Enda": "A 2", "John": "3 4", "Rex": "5 6", "Finn": "7 8"}


def all_at_once(count: int, call: Callable[[int], Any]) -> list[Any]:
    """``call(0)`` … ``call(count - 1)``, each in a thread of its own, released together."""
    barrier = threading.Barrier(count, timeout=30)

    def run(i: int) -> Any:
        barrier.wait()
        return call(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


@pytest.fixture
def table(live_server) -> tuple[Api, int]:
    api = new_group(live_server)
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    return api, session["id"]


def test_ten_taps_of_the_same_hand_make_one_hand(table):
    api, sid = table
    entry = hand_entry(LOW_ENDA, request_id=str(uuid.uuid4()))

    answers = all_at_once(10, lambda i: api.post(f"/sessions/{sid}/hands", entry))

    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] * 9 + [201], [a.text for a in answers]
    assert {a.json()["number"] for a in answers} == {1}
    same = {(str(a.json()["scores_after"]), str(a.json()["payments"])) for a in answers}
    assert len(same) == 1  # the same hand, answered again
    assert [h["number"] for h in api.ok("GET", f"/sessions/{sid}/hands")] == [1]
    session = api.ok("GET", f"/sessions/{sid}")
    assert session["hands_played"] == 1
    assert session["pot"] == 20
    assert session["scores"] == {"Enda": 28, "John": -12, "Rex": -16, "Finn": -20}


def test_eight_different_hands_at_once_are_numbered_1_to_8_and_no_money_is_lost(table):
    api, sid = table

    answers = all_at_once(
        8,
        lambda i: api.post(f"/sessions/{sid}/hands", hand_entry(LOW_ENDA, request_id=f"h{i}")),
    )

    assert [a.status_code for a in answers] == [201] * 8, [a.text for a in answers]
    assert sorted(a.json()["number"] for a in answers) == list(range(1, 9))
    hands = api.ok("GET", f"/sessions/{sid}/hands")
    assert [h["number"] for h in hands] == list(range(1, 9))
    # Each hand carries on from the one before: 20 more in the pot, Enda 28 up each time.
    assert [h["pot_after"] for h in hands] == [20 * n for n in range(1, 9)]
    assert [h["scores_after"]["Enda"] for h in hands] == [28 * n for n in range(1, 9)]
    session = api.ok("GET", f"/sessions/{sid}")
    assert session["hands_played"] == 8
    assert session["scores"] == {"Enda": 224, "John": -96, "Rex": -128, "Finn": -160}
    assert sum(session["scores"].values()) + session["pot"] == 0


def test_two_corrections_from_the_same_version_one_wins_the_other_is_told(table):
    api, sid = table
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(LOW_ENDA), 201)
    version = api.ok("GET", f"/sessions/{sid}")["version"]
    # Two phones correct hand 1 differently: Rex lowest in one, Finn lowest in the other.
    corrections = [
        hand_entry({"Enda": "9 8", "John": "3 4", "Rex": "A", "Finn": "7 8"}, version=version),
        hand_entry({"Enda": "9 8", "John": "3 4", "Rex": "5 6", "Finn": "2"}, version=version),
    ]

    answers = all_at_once(2, lambda i: api.put(f"/sessions/{sid}/hands/1", corrections[i]))

    assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
    winner = next(a.json() for a in answers if a.status_code == 200)
    loser = next(a.json() for a in answers if a.status_code == 409)
    assert loser["error"]["message"]
    assert winner["winners"] in (["Rex"], ["Finn"])
    assert api.ok("GET", f"/sessions/{sid}/hands") == [winner]
    assert api.ok("GET", f"/sessions/{sid}")["version"] > version


# Rex lowest instead of Enda: what a correction of hand 1 or 2 types.
LOW_REX = {"Enda": "9 8", "John": "3 4", "Rex": "A", "Finn": "7 8"}


def test_a_correction_and_an_undo_of_the_same_hand_at_once_one_wins_the_other_is_told(table):
    api, sid = table
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(LOW_ENDA), 201)
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(LOW_ENDA), 201)
    version = api.ok("GET", f"/sessions/{sid}")["version"]
    requests = [
        lambda: api.put(f"/sessions/{sid}/hands/2", hand_entry(LOW_REX, version=version)),
        lambda: api.call("DELETE", f"/sessions/{sid}/hands/2", {"version": version}),
    ]

    corrected, undone = all_at_once(2, lambda i: requests[i]())

    statuses = (corrected.status_code, undone.status_code)
    assert statuses in ((200, 409), (409, 204)), [corrected.text, undone.text]
    loser = undone if undone.status_code == 409 else corrected
    assert loser.json()["error"]["message"]
    hands = api.ok("GET", f"/sessions/{sid}/hands")
    history = api.ok("GET", f"/sessions/{sid}/history")
    session = api.ok("GET", f"/sessions/{sid}")
    assert session["version"] == version + 1
    if corrected.status_code == 200:
        assert [h["number"] for h in hands] == [1, 2]
        assert hands[1] == corrected.json()
        assert hands[1]["winners"] == ["Rex"]
        assert history[-1]["kind"] == "hand.corrected"
    else:
        assert [h["number"] for h in hands] == [1]
        assert history[-1]["kind"] == "hand.deleted"  # the hand typed stays in the history
        assert history[-1]["before"]["entry"]["results"][0]["cards"] == LOW_ENDA["Enda"]
    assert sum(session["scores"].values()) + session["pot"] == 0


def test_a_correction_and_a_new_hand_from_the_same_version_one_wins_the_other_is_told(table):
    api, sid = table
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(LOW_ENDA), 201)
    version = api.ok("GET", f"/sessions/{sid}")["version"]
    requests = [
        lambda: api.put(f"/sessions/{sid}/hands/1", hand_entry(LOW_REX, version=version)),
        lambda: api.post(
            f"/sessions/{sid}/hands", hand_entry(LOW_ENDA, request_id="new", version=version)
        ),
    ]

    corrected, added = all_at_once(2, lambda i: requests[i]())

    statuses = (corrected.status_code, added.status_code)
    assert statuses in ((200, 409), (409, 201)), [corrected.text, added.text]
    loser = added if added.status_code == 409 else corrected
    assert loser.json()["error"]["message"]
    hands = api.ok("GET", f"/sessions/{sid}/hands")
    session = api.ok("GET", f"/sessions/{sid}")
    assert session["version"] == version + 1
    if corrected.status_code == 200:
        assert hands == [corrected.json()]
        assert hands[0]["winners"] == ["Rex"]
    else:
        assert [h["number"] for h in hands] == [1, 2]
        assert [h["winners"] for h in hands] == [["Enda"], ["Enda"]]  # hand 1 as it was
        assert hands[1] == added.json()
    assert session["hands_played"] == len(hands)
    assert sum(session["scores"].values()) + session["pot"] == 0
