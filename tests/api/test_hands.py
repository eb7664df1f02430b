"""Hands: entering, the errors a player makes, retries, corrections and undo."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from ledger.extensions import db
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error, hand_of


@pytest.fixture
def sid(table) -> int:
    return table.session()["id"]


def everything(table, sid):
    """What a player can see of the session, to show a refused request changed nothing."""
    return (
        table.ok("GET", f"/sessions/{sid}"),
        table.ok("GET", f"/sessions/{sid}/hands"),
        table.ok("GET", f"/groups/{table.slug}"),
    )


def test_a_repeated_request_id_answers_the_first_hand_and_makes_no_second(table, sid):
    entry = {**SEED_HAND_1, "request_id": "tap-1"}
    first = table.post(f"/sessions/{sid}/hands", entry)
    again = table.post(f"/sessions/{sid}/hands", entry)

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == first.get_json()
    session = table.ok("GET", f"/sessions/{sid}")
    assert (session["hands_played"], session["version"]) == (1, 2)
    assert session["scores"] == {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}


def test_a_retry_of_a_hand_that_was_undone_saves_nothing_and_says_so(table, sid):
    table.hand(sid, SEED_HAND_1)
    entry = {**SEED_HAND_2, "request_id": "tap-2"}
    table.hand(sid, entry)
    table.ok("DELETE", f"/sessions/{sid}/hands/2", status=204)
    before = everything(table, sid)

    message = error(table.post(f"/sessions/{sid}/hands", entry), 409, "request_id")

    assert "hand 2" in message and "undone" in message
    assert everything(table, sid) == before
    # The same hand typed again (a new request) is saved as usual.
    assert table.hand(sid, {**SEED_HAND_2, "request_id": "tap-3"})["number"] == 2


def test_a_retry_after_the_game_is_over_answers_the_hand_it_made(table):
    sid = table.session(["Enda", "John"], dealer="Enda", game="rummy")["id"]
    entry = {**hand_of({"John": "K Q J 10 10 10 10 K Q J"}, out="Enda"), "request_id": "last"}
    first = table.post(f"/sessions/{sid}/hands", entry)
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "finished"

    again = table.post(f"/sessions/{sid}/hands", entry)

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == first.get_json()
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 1


def test_a_request_id_belongs_to_its_session(table, sid):
    other = table.session()["id"]
    table.hand(sid, {**SEED_HAND_1, "request_id": "same"})
    assert table.hand(other, {**SEED_HAND_1, "request_id": "same"})["number"] == 1


@pytest.mark.parametrize(
    ("entry", "field", "words"),
    [
        (hand_of({"Enda": "J 10", "John": "A 3", "Rex": "2 11", "Finn": "Q"}), "results[2].cards",
         "ranks run"),
        (hand_of({"Enda": "J 10", "John": "A 1", "Rex": "2", "Finn": "Q"}), "results[1].cards",
         "ace is A"),
        (hand_of({"Enda": "QS", "John": "A", "Rex": "2", "Finn": "QS"}), "results[0].cards",
         "Q♠"),
        (hand_of({"Enda": "J", "John": "", "Rex": "", "Finn": "Q"}), "results[1].cards",
         "Only one player"),
        (hand_of({"Enda": "J", "John": "A", "Rex": "2"}), "results", "Finn has no result"),
        (hand_of({"Enda": "J", "John": "A", "Rex": "2", "Finn": "Q", "Maeve": "3"}),
         "results[4].player", "not seated"),
        (hand_of({"Enda": "2 3 4 5 6 7 8 9 10", "John": "A", "Rex": "2", "Finn": "Q"}),
         "results[0].cards", "at most 8"),
        ({"results": [{"player": "Enda", "spots": 20}, {"player": "John", "cards": "A"},
                      {"player": "Rex", "cards": "2"}, {"player": "Finn", "cards": "Q"}]},
         "results[0].spots", "cards"),
    ],
)  # fmt: skip
def test_a_hand_that_breaks_a_rule_is_refused_naming_the_input_and_nothing_changes(
    table, sid, entry, field, words
):
    before = everything(table, sid)

    message = error(table.post(f"/sessions/{sid}/hands", entry), 422, field)

    assert words in message
    assert everything(table, sid) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"results": "Enda J 10"}, "results"),
        ({"results": ["Enda"]}, "results[0]"),
        ({"results": [{"player": 7}]}, "results[0].player"),
        ({"results": [{"player": "Enda", "spots": "20"}]}, "results[0].spots"),
        ({"results": [{"player": "Enda", "spots": 2.5}]}, "results[0].spots"),
        ({"results": [{"player": "Enda", "cards": 10}]}, "results[0].cards"),
        ({"results": [{"player": "Enda", "sitting_out": "yes"}]}, "results[0].sitting_out"),
        ({"results": [], "out": 3}, "out"),
        ({"results": [], "rummy": "no"}, "rummy"),
        ({"results": [], "request_id": 12}, "request_id"),
    ],
)
def test_a_hand_body_of_the_wrong_types_is_refused_naming_the_field(table, sid, body, field):
    before = everything(table, sid)
    error(table.post(f"/sessions/{sid}/hands", body), 422, field)
    assert everything(table, sid) == before


def test_malformed_json_or_a_body_that_is_not_an_object_is_a_bad_request(table, sid):
    bad = table.post(
        f"/sessions/{sid}/hands", data=b"{'results': ", content_type="application/json"
    )
    assert "not valid JSON" in error(bad, 400)
    assert "JSON object" in error(table.post(f"/sessions/{sid}/hands", [SEED_HAND_1]), 400)
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 0


def test_a_request_id_longer_than_64_characters_is_refused(table, sid):
    error(table.post(f"/sessions/{sid}/hands", {**SEED_HAND_1, "request_id": "x" * 65}), 422,
          "request_id")  # fmt: skip
    table.hand(sid, {**SEED_HAND_1, "request_id": "x" * 64})


def test_cards_may_be_sent_as_the_list_the_answer_shows(table, sid):
    entry = hand_of({"John": "A-3", "Rex": "2-9", "Finn": "Q-K"})
    entry["results"].insert(0, {"player": "Enda", "cards": ["J", "10"]})
    assert table.hand(sid, entry)["scores_after"]["John"] == 46


def test_a_player_may_sit_out_a_hand_and_pays_nothing(table, sid):
    entry = hand_of({"Enda": "J", "John": "A", "Finn": "Q"})
    entry["results"].insert(2, {"player": "Rex", "sitting_out": True})

    hand = table.hand(sid, entry)

    rex = hand["results"][2]
    assert (rex["sitting_out"], rex["cards"], rex["spots"]) == (True, [], None)
    assert hand["scores_after"]["Rex"] == 0
    assert hand["pot_before"] == 15


# --- Corrections ---------------------------------------------------------------------------------


def test_a_correction_rescores_the_hand_and_every_later_one(table, sid):
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    version = table.ok("GET", f"/sessions/{sid}")["version"]
    # Rex really had 2-3, not 2-9: Rex is lowest and wins hand 1.
    fixed = hand_of({"Enda": "J-10", "John": "A-3", "Rex": "2-3", "Finn": "Q-K"})

    hand = table.ok("PUT", f"/sessions/{sid}/hands/1", {**fixed, "version": version})

    assert hand["number"] == 1
    assert hand["winners"] == ["John"]  # John's 4 is still lowest, Rex's 5 is next
    assert hand["revision"] == 2
    assert hand["entry"]["results"][2] == {"player": "Rex", "cards": "2-3"}
    assert hand["scores_after"] == {"Enda": -25, "John": 40, "Rex": -10, "Finn": -25}
    later = table.ok("GET", f"/sessions/{sid}/hands")[1]
    assert later["revision"] == 1
    assert later["scores_after"] == {"Enda": 44, "John": 19, "Rex": -25, "Finn": -38}
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["version"] == version + 1
    assert session["scores"] == later["scores_after"]


def test_a_correction_keeps_the_old_entry_in_the_history(table, sid, app):
    table.hand(sid, SEED_HAND_1)
    fixed = hand_of({"Enda": "J-10", "John": "A-3", "Rex": "2-3", "Finn": "Q-K"})
    table.ok("PUT", f"/sessions/{sid}/hands/1", fixed)

    history = table.ok("GET", f"/sessions/{sid}/history")

    assert [c["kind"] for c in history] == ["session.created", "hand.created", "hand.corrected"]
    corrected = history[-1]
    assert corrected["before"]["entry"]["results"][2]["cards"] == "2-9"
    assert corrected["before"]["scores_after"]["John"] == 46
    assert corrected["after"]["entry"]["results"][2]["cards"] == "2-3"
    assert all(c["at"].endswith("Z") for c in history)


def test_a_correction_from_an_old_version_is_a_conflict_and_changes_nothing(table, sid):
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    before = everything(table, sid)

    response = table.put(f"/sessions/{sid}/hands/1", {**SEED_HAND_1, "version": 2})

    assert "changed since" in error(response, 409, "version")
    assert everything(table, sid) == before


def test_a_rummy_correction_that_ends_the_game_early_refuses_naming_the_later_hand(table):
    sid = table.session(["Enda", "John"], dealer="Enda", game="rummy")["id"]
    small = hand_of({"John": "2"}, out="Enda")
    table.hand(sid, small)
    table.hand(sid, small)
    before = everything(table, sid)
    # Hand 1 really had John left with 100 points of cards: Enda reaches the target at once.
    big = hand_of({"John": "K Q J 10 10 10 10 K Q J"}, out="Enda")

    response = table.put(f"/sessions/{sid}/hands/1", big)

    message = error(response, 422, "hands[2]")
    assert "hand 2" in message and "over" in message
    assert everything(table, sid) == before


def test_a_correction_that_breaks_a_rule_names_the_input(table, sid):
    table.hand(sid, SEED_HAND_1)
    bad = hand_of({"Enda": "J-10", "John": "A-3", "Rex": "2-X", "Finn": "Q-K"})
    error(table.put(f"/sessions/{sid}/hands/1", bad), 422, "results[2].cards")


def test_correcting_a_hand_that_does_not_exist_is_not_found(table, sid):
    table.hand(sid, SEED_HAND_1)
    error(table.put(f"/sessions/{sid}/hands/2", SEED_HAND_1), 404)
    error(table.put(f"/sessions/{sid}/hands/0", SEED_HAND_1), 404)


def test_a_correction_replays_the_players_who_joined_and_left_between_hands(table, sid):
    table.hand(sid, SEED_HAND_1)
    table.ok("DELETE", f"/sessions/{sid}/players/Rex")
    table.hand(sid, hand_of({"John": "5-5-6", "Finn": "3-5"}, out="Enda"))

    fixed = hand_of({"Enda": "J-10", "John": "A-3", "Rex": "2-3", "Finn": "Q-K"})
    table.ok("PUT", f"/sessions/{sid}/hands/1", fixed)

    second = table.ok("GET", f"/sessions/{sid}/hands")[1]
    assert [r["player"] for r in second["results"]] == ["Enda", "John", "Finn"]
    assert second["scores_after"]["Rex"] == -10
    session = table.ok("GET", f"/sessions/{sid}")
    assert [p["name"] for p in session["players"] if p["active"]] == ["Enda", "John", "Finn"]


# --- Undo ---------------------------------------------------------------------------------------


def test_the_last_hand_can_be_undone_and_the_session_is_as_before_it(table, sid):
    table.hand(sid, SEED_HAND_1)
    after_one = table.ok("GET", f"/sessions/{sid}")
    table.hand(sid, SEED_HAND_2)

    response = table.delete(f"/sessions/{sid}/hands/2")

    assert response.status_code == 204
    assert response.data == b""
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["version"] == after_one["version"] + 2
    assert {k: v for k, v in session.items() if k != "version"} == {
        k: v for k, v in after_one.items() if k != "version"
    }
    assert [h["number"] for h in table.ok("GET", f"/sessions/{sid}/hands")] == [1]
    assert table.hand(sid, SEED_HAND_2)["number"] == 2


def test_only_the_last_hand_can_be_undone(table, sid):
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    before = everything(table, sid)

    message = error(table.delete(f"/sessions/{sid}/hands/1"), 409)

    assert "Only the last hand" in message and "hand 2" in message
    assert everything(table, sid) == before
    error(table.delete(f"/sessions/{sid}/hands/3"), 404)


def test_an_undo_with_the_version_shown_refuses_a_hand_entered_since(table, sid):
    """Issue 38: another phone took hand 2 back and entered a new hand 2; an undo sent with
    the version the first phone showed is refused (409) and the new hand stays."""
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    shown = table.ok("GET", f"/sessions/{sid}")["version"]
    table.ok("DELETE", f"/sessions/{sid}/hands/2", {"version": shown}, status=204)
    table.hand(sid, SEED_HAND_2)
    before = everything(table, sid)

    refused = table.delete(f"/sessions/{sid}/hands/2", {"version": shown})

    assert "changed since you loaded it" in error(refused, 409, "version")
    assert everything(table, sid) == before


def test_undo_keeps_the_hand_in_the_history(table, sid):
    table.hand(sid, {**SEED_HAND_1, "request_id": "r1"})
    table.delete(f"/sessions/{sid}/hands/1")

    deleted = table.ok("GET", f"/sessions/{sid}/history")[-1]

    assert deleted["kind"] == "hand.deleted"
    assert deleted["before"]["entry"]["results"][0]["cards"] == "J-10"
    assert deleted["before"]["request_id"] == "r1"


def test_undoing_a_hand_after_a_player_joined_keeps_the_player(table, sid):
    table.hand(sid, SEED_HAND_1)
    table.ok("POST", f"/sessions/{sid}/players", {"name": "Maeve", "after": "Finn"}, 201)
    table.hand(sid, hand_of({"John": "5-5-6", "Rex": "K", "Finn": "3-5", "Maeve": "2"}, "Enda"))

    table.delete(f"/sessions/{sid}/hands/2")

    session = table.ok("GET", f"/sessions/{sid}")
    assert [p["name"] for p in session["players"]] == ["Enda", "John", "Rex", "Finn", "Maeve"]
    assert session["pot"] == 20
    assert session["scores"]["Maeve"] == 0


def test_undoing_the_last_hand_of_a_finished_points_game_opens_it_again(table):
    sid = table.session(["Enda", "John"], dealer="Enda", game="rummy")["id"]
    table.hand(sid, hand_of({"John": "K Q J 10 10 10 10 K Q J"}, out="Enda"))
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "finished"

    table.delete(f"/sessions/{sid}/hands/1")

    session = table.ok("GET", f"/sessions/{sid}")
    assert (session["status"], session["winners"], session["hands_played"]) == ("open", [], 0)


def test_a_session_finished_at_the_table_takes_no_correction_or_undo(table, sid):
    table.hand(sid, SEED_HAND_1)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})
    before = everything(table, sid)

    error(table.put(f"/sessions/{sid}/hands/1", SEED_HAND_1), 409)
    error(table.delete(f"/sessions/{sid}/hands/1"), 409)
    assert everything(table, sid) == before


# --- Cost ---------------------------------------------------------------------------------------


def count_queries(app, call) -> int:
    statements = []

    def seen(conn, cursor, statement, *args):
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        call()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return len(statements)


def test_reading_a_session_and_its_hands_costs_the_same_queries_however_many_hands(table, app):
    short = table.session()["id"]
    long = table.session()["id"]
    table.hand(short, SEED_HAND_1)
    for _ in range(12):
        table.hand(long, SEED_HAND_1)
    table.ok("GET", f"/sessions/{short}")  # credentials remembered: no slow check below
    table.ok("GET", f"/sessions/{long}")  # each night built for its version (services/night.py)

    for path in ["", "/hands", "/settlement"]:
        few = count_queries(app, lambda p=path: table.ok("GET", f"/sessions/{short}{p}"))
        many = count_queries(app, lambda p=path: table.ok("GET", f"/sessions/{long}{p}"))
        # The night's euro transfers' QR codes read the bank accounts (RULES.md §6b).
        assert few == many <= 4, path

    # A new version of each night is built anew: its payments and its rounds (RULES.md §6c)
    # read once more, whatever its length.
    table.hand(short, SEED_HAND_1)
    table.hand(long, SEED_HAND_1)
    few = count_queries(app, lambda: table.ok("GET", f"/sessions/{short}"))
    many = count_queries(app, lambda: table.ok("GET", f"/sessions/{long}"))
    assert few == many <= 6


def test_adding_a_hand_costs_the_same_queries_however_long_the_night(table, app):
    short = table.session()["id"]
    long = table.session()["id"]
    for _ in range(12):
        table.hand(long, SEED_HAND_1)
    table.ok("GET", f"/sessions/{short}")

    few = count_queries(app, lambda: table.hand(short, SEED_HAND_1))
    many = count_queries(app, lambda: table.hand(long, SEED_HAND_1))
    assert few == many
