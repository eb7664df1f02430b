"""Two phones at the same moment: threads on the test client, released together by a barrier."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from ledger.services import groups
from tests.api.helpers import SEED_HAND_1, hand_of

LOW_ENDA = hand_of({"Enda": "A 2", "John": "3 4", "Rex": "5 6", "Finn": "7 8"})


def all_at_once(count, call):
    barrier = threading.Barrier(count, timeout=30)

    def run(i):
        barrier.wait()
        return call(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def test_six_taps_of_one_hand_make_one_hand(table):
    sid = table.session()["id"]
    table.ok("GET", f"/sessions/{sid}")  # remembered: the threads need no slow check
    entry = {**LOW_ENDA, "request_id": "double-tap"}

    answers = all_at_once(6, lambda i: table.post(f"/sessions/{sid}/hands", entry))

    assert sorted(a.status_code for a in answers) == [200] * 5 + [201]
    assert len({str(a.get_json()) for a in answers}) == 1
    session = table.ok("GET", f"/sessions/{sid}")
    assert (session["hands_played"], session["version"], session["pot"]) == (1, 2, 20)


def test_six_different_hands_at_once_are_numbered_one_to_six_and_no_unit_is_lost(table):
    sid = table.session()["id"]
    table.ok("GET", f"/sessions/{sid}")

    answers = all_at_once(
        6, lambda i: table.post(f"/sessions/{sid}/hands", {**LOW_ENDA, "request_id": f"h{i}"})
    )

    assert [a.status_code for a in answers] == [201] * 6
    hands = table.ok("GET", f"/sessions/{sid}/hands")
    assert [h["number"] for h in hands] == [1, 2, 3, 4, 5, 6]
    assert [h["pot_after"] for h in hands] == [20 * n for n in range(1, 7)]
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["version"] == 7
    assert sum(session["scores"].values()) + session["pot"] == 0


def test_two_corrections_from_one_version_one_is_kept_the_other_told_409(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    version = table.ok("GET", f"/sessions/{sid}")["version"]
    fixes = [
        {**hand_of({"Enda": "9 8", "John": "3 4", "Rex": "A", "Finn": "7 8"}), "version": version},
        {**hand_of({"Enda": "9 8", "John": "3 4", "Rex": "5 6", "Finn": "2"}), "version": version},
    ]

    answers = all_at_once(2, lambda i: table.put(f"/sessions/{sid}/hands/1", fixes[i]))

    assert sorted(a.status_code for a in answers) == [200, 409]
    kept = next(a.get_json() for a in answers if a.status_code == 200)
    assert table.ok("GET", f"/sessions/{sid}/hands") == [kept]
    assert table.ok("GET", f"/sessions/{sid}")["version"] == version + 1


def test_two_new_sessions_at_once_take_up_a_carried_pot_only_once(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})
    body = {"game": "spot", "players": ["Enda", "John"], "dealer": "Enda"}

    answers = all_at_once(3, lambda i: table.post(f"/groups/{table.slug}/sessions", body))

    assert [a.status_code for a in answers] == [201] * 3
    assert sorted(a.get_json()["pot"] for a in answers) == [0, 0, 20]


def test_two_players_of_one_name_added_at_once_make_one_player(table):
    answers = all_at_once(
        4, lambda i: table.post(f"/groups/{table.slug}/players", {"name": "Enda"})
    )
    assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
    assert len(table.ok("GET", f"/groups/{table.slug}")["players"]) == 1


def test_a_name_added_by_another_phone_just_after_the_check_is_a_conflict(table, app, monkeypatch):
    # The other phone's Enda is committed between this request's look-up and its insert.
    table.ok("POST", f"/groups/{table.slug}/players", {"name": "Enda"}, status=201)
    real = groups.find_players
    calls = []

    def find_players_too_early(group_id, names):
        calls.append(names)
        return {} if len(calls) == 1 else real(group_id, names)

    monkeypatch.setattr(groups, "find_players", find_players_too_early)
    answer = table.post(f"/groups/{table.slug}/players", {"name": "enda"})
    assert answer.status_code == 409
    assert "Enda" in answer.get_json()["error"]["message"]
    assert len(table.ok("GET", f"/groups/{table.slug}")["players"]) == 1
