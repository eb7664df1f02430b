"""The points games through the API, and a player's new name following them everywhere."""

from __future__ import annotations

import pytest

from ledger import services
from tests.api.helpers import SEED_HAND_1, error, hand_of


def test_rummy_scores_points_and_has_no_money(table):
    sid = table.session(["Enda", "John", "Rex"], dealer="Enda", game="rummy")["id"]

    hand = table.hand(sid, {**hand_of({"John": "K Q", "Rex": "5"}, out="Enda"), "rummy": True})

    assert hand["payments"] == []
    assert (hand["pot_before"], hand["pot_after"]) == (None, None)
    assert [r["points"] for r in hand["results"]] == [50, 0, 0]  # 25, doubled for rummy
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["scores"] == {"Enda": 50, "John": 0, "Rex": 0}
    assert (session["pot"], session["money"], session["currency"]) == (None, None, None)
    assert (session["dealer"], session["leader"]) == ("John", "Rex")


def test_spin_rummy_takes_melds_and_the_dealer_plays_first(table):
    session = table.session(["Ann", "Bob"], dealer="Ann", game="spin")
    sid = session["id"]
    assert (session["dealer"], session["leader"]) == ("Ann", "Ann")
    assert session["progress"]["contract"]
    entry = {
        "results": [
            {"player": "Ann", "melds": ["3S 3H 3D", "4C 5C 6C"]},
            {"player": "Bob", "cards": "KS KH KD"},
        ],
        "out": "Ann",
    }

    hand = table.hand(sid, entry)

    ann, bob = hand["results"]
    assert ann["melds"] == [["3S", "3H", "3D"], ["4C", "5C", "6C"]]
    assert (ann["points"], bob["points"]) == (7, 13)
    assert hand["winners"] == ["Bob"]
    after = table.ok("GET", f"/sessions/{sid}")
    assert (after["dealer"], after["leader"]) == ("Bob", "Bob")


def test_a_meld_that_is_not_one_is_refused_naming_it(table):
    sid = table.session(["Ann", "Bob"], dealer="Ann", game="spin")["id"]
    entry = {
        "results": [
            {"player": "Ann", "melds": ["3S 3H 3D", "4C 5C 7C"]},
            {"player": "Bob", "cards": ""},
        ]
    }
    error(table.post(f"/sessions/{sid}/hands", entry), 422, "results[0].melds[1]")


def test_spots_and_spin_keep_their_seats_for_the_whole_game(table):
    sid = table.session(game="spots")["id"]
    error(table.post(f"/sessions/{sid}/players", {"name": "Maeve", "after": "Rex"}), 422)
    error(table.delete(f"/sessions/{sid}/players/Rex"), 422)


def test_a_renamed_player_is_renamed_in_every_session_hand_and_balance(table, app):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.ok("DELETE", f"/sessions/{sid}/players/Rex")
    rex = next(
        p["id"] for p in table.ok("GET", f"/groups/{table.slug}")["players"] if p["name"] == "Rex"
    )

    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        assert services.rename_player(group, rex, "Rex Senior").name == "Rex Senior"

    session = table.ok("GET", f"/sessions/{sid}")
    assert session["scores"]["Rex Senior"] == -16 and "Rex" not in session["scores"]
    assert {"name": "Rex Senior", "seat": None, "active": False} in session["players"]
    [hand] = table.ok("GET", f"/sessions/{sid}/hands")
    assert [r["player"] for r in hand["results"]] == ["Enda", "John", "Rex Senior", "Finn"]
    assert ("Rex Senior", "John", 11) in [
        (p["from"], p["to"], p["units"]) for p in hand["payments"]
    ]
    # A correction replays the renamed entries, seat changes included.
    fixed = hand_of({"Enda": "J-10", "John": "A-3", "rex senior": "2-3", "Finn": "Q-K"})
    assert table.ok("PUT", f"/sessions/{sid}/hands/1", fixed)["scores_after"]["Rex Senior"] == -10
    assert [p["name"] for p in table.ok("GET", f"/sessions/{sid}")["players"] if p["active"]] == [
        "Enda",
        "John",
        "Finn",
    ]


def test_a_player_cannot_take_another_players_name(table, app):
    table.session()
    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        players = {p.name: p.id for p in services.group_view(group).players}
        with pytest.raises(services.Conflict, match="Finn"):
            services.rename_player(group, players["Rex"], "finn")
        assert services.rename_player(group, players["Rex"], "REX").name == "REX"


# --- Ended at the table before the game ended by itself ---------------------------------------


def finish(table, sid) -> dict:
    session = table.ok("POST", f"/sessions/{sid}/finish", {})
    assert session["status"] == "finished"
    assert table.ok("GET", f"/sessions/{sid}")["winners"] == session["winners"]
    return session


@pytest.mark.parametrize(("scoring", "winners"), [("winner", ["John"]), ("penalty", ["Rex"])])
def test_rummy_ended_at_the_table_is_won_by_the_best_score_for_its_scoring(table, scoring, winners):
    sid = table.session(["Enda", "John", "Rex"], dealer="Enda", game="rummy", scoring=scoring)
    sid = sid["id"]
    table.hand(sid, hand_of({"John": "K Q", "Rex": "5"}, out="Enda"))
    table.hand(sid, hand_of({"Enda": "K Q J 10", "Rex": "2"}, out="John"))
    # winner: Enda 25, John 42, Rex 0 (highest wins); penalty: Enda 40, John 20, Rex 7 (lowest).

    assert finish(table, sid)["winners"] == winners


def test_rummy_ended_on_equal_best_scores_is_shared(table):
    sid = table.session(["Enda", "John", "Rex"], dealer="Enda", game="rummy")["id"]
    table.hand(sid, hand_of({"John": "5", "Rex": "5"}, out="Enda"))
    table.hand(sid, hand_of({"Enda": "5", "Rex": "5"}, out="John"))

    assert finish(table, sid)["winners"] == ["Enda", "John"]


def test_rummy_ended_before_its_first_hand_has_no_winner(table):
    sid = table.session(["Enda", "John", "Rex"], dealer="Enda", game="rummy")["id"]

    assert finish(table, sid)["winners"] == []


def test_spots_ended_at_the_table_is_won_by_the_lowest_total(table):
    sid = table.session(game="spots", dealer="Finn")["id"]
    table.hand(sid, hand_of({"John": "2", "Rex": "3 4", "Finn": "K"}, out="Enda"))
    table.hand(sid, hand_of({"Enda": "K", "Rex": "2", "Finn": "3"}, out="John"))
    # Enda 10, John 2, Rex 9, Finn 13, after 2 of its 8 hands.

    session = finish(table, sid)

    assert session["winners"] == ["John"]
    assert session["hands_played"] == 2


def test_spin_rummy_ended_at_the_table_is_won_by_the_highest_total(table):
    sid = table.session(["Ann", "Bob"], dealer="Ann", game="spin")["id"]
    table.hand(sid, {"results": [{"player": "Ann", "cards": "3S 3H 3D"},
                                 {"player": "Bob", "cards": "KS KH KD"}]})  # fmt: skip

    assert finish(table, sid)["winners"] == ["Bob"]


SOLO_ROUNDS = ["AS AH AD KS KH KD", "QH KH AH QS KS AS", "QD KD AD AS AH AC"]  # 27, 24, 26


@pytest.mark.parametrize(("rounds", "winners"), [(1, []), (3, ["Ann"])])
def test_solo_spin_rummy_ended_at_the_table_is_won_only_with_60_points(table, rounds, winners):
    sid = table.session(["Ann"], dealer="Ann", game="spin")["id"]
    for cards in SOLO_ROUNDS[:rounds]:
        table.hand(sid, {"results": [{"player": "Ann", "cards": cards}]})

    assert finish(table, sid)["winners"] == winners
