"""Sessions: starting one, players joining and leaving, the end of the night and settling up."""

from __future__ import annotations

from ledger import services
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error, hand_of

# Spots, four players: Enda goes out every hand, the others keep a few spots.
SPOTS_HAND = hand_of({"John": "2", "Rex": "3 4", "Finn": "K"}, out="Enda")


def test_new_names_in_a_session_become_players_of_the_group_spelled_as_the_group_has_them(
    table,
):
    table.ok("POST", f"/groups/{table.slug}/players", {"name": "Enda"}, 201)

    session = table.session(["enda", "Maeve"], dealer="MAEVE")

    assert [p["name"] for p in session["players"]] == ["Enda", "Maeve"]
    assert session["dealer"] == "Maeve"
    players = table.ok("GET", f"/groups/{table.slug}")["players"]
    assert [p["name"] for p in players] == ["Enda", "Maeve"]


def test_a_session_that_breaks_a_rule_is_refused_with_the_field_and_nothing_is_kept(table):
    slug = table.slug
    cases = [
        ({"game": "poker", "players": ["A", "B"], "dealer": "A"}, "game"),
        ({"game": "spot", "players": ["A"], "dealer": "A"}, "players"),
        ({"game": "spot", "players": ["A", "a"], "dealer": "A"}, "players"),
        ({"game": "spot", "players": ["A", "B"], "dealer": "C"}, "dealer"),
        ({"game": "spot", "players": ["A", "B"]}, "dealer"),
        ({"game": "spot", "players": ["A", ""], "dealer": "A"}, "players[1]"),
        ({"game": "spot", "players": ["A", "B"], "dealer": "A", "options": {"ante": -1}},
         "options.ante"),
        ({"game": "spot", "players": ["A", "B"], "dealer": "A", "options": {"colour": "red"}},
         "options.colour"),
        ({"game": "spot", "players": ["A", "B"], "dealer": "A",
          "options": {"unit_value": "lots"}}, "options.unit_value"),
    ]  # fmt: skip
    for body, field in cases:
        error(table.post(f"/groups/{slug}/sessions", body), 422, field)

    group = table.ok("GET", f"/groups/{slug}")
    assert (group["players"], group["sessions"]) == ([], [])


def test_a_session_started_twice_with_one_request_id_is_started_once(table):
    body = {"game": "spot", "players": ["Enda", "John"], "dealer": "Enda", "request_id": "s-1"}

    first = table.post(f"/groups/{table.slug}/sessions", body)
    again = table.post(f"/groups/{table.slug}/sessions", body)  # a double tap, a retry

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == first.get_json()
    assert len(table.ok("GET", f"/groups/{table.slug}")["sessions"]) == 1
    other = table.post(f"/groups/{table.slug}/sessions", body | {"request_id": "s-2"})
    assert other.status_code == 201 and other.get_json()["id"] != first.get_json()["id"]


def test_a_session_body_of_the_wrong_shape_is_refused_naming_the_field(table):
    slug = table.slug
    error(
        table.post(f"/groups/{slug}/sessions", {"game": "spot", "players": "A B"}), 422, "players"
    )
    error(
        table.post(f"/groups/{slug}/sessions", {"game": "spot", "players": [1]}), 422, "players[0]"
    )
    error(
        table.post(f"/groups/{slug}/sessions", {"game": "spot", "players": [], "options": []}),
        422,
        "options",
    )


def test_an_unknown_session_is_not_found(table):
    assert error(table.get("/sessions/999"), 404) == "There is no session 999."
    error(table.get("/sessions/999/hands"), 404)
    error(table.post("/sessions/999/hands", SEED_HAND_1), 404)


# --- Joining and leaving -------------------------------------------------------------------


def test_a_player_joins_between_hands_seated_after_the_one_named(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)

    response = table.post(f"/sessions/{sid}/players", {"name": "Maeve", "after": "john"})

    assert response.status_code == 201
    session = response.get_json()
    assert [(p["name"], p["seat"]) for p in session["players"]] == [
        ("Enda", 1),
        ("John", 2),
        ("Maeve", 3),
        ("Rex", 4),
        ("Finn", 5),
    ]
    assert session["scores"]["Maeve"] == 0
    assert "Maeve" in [p["name"] for p in table.ok("GET", f"/groups/{table.slug}")["players"]]
    # The next hand needs Maeve's cards too, and she pays her ante.
    error(table.post(f"/sessions/{sid}/hands", SEED_HAND_2), 422, "results")
    hand = table.hand(
        sid,
        {**SEED_HAND_2, "results": [*SEED_HAND_2["results"], {"player": "Maeve", "cards": "2"}]},
    )
    assert hand["pot_before"] == 20 + 5 * 5
    assert hand["scores_after"]["Maeve"] == -5 - 2


def test_joining_twice_or_after_nobody_is_a_rule_broken(table):
    sid = table.session()["id"]
    error(table.post(f"/sessions/{sid}/players", {"name": "rex", "after": "John"}), 422, "name")
    error(
        table.post(f"/sessions/{sid}/players", {"name": "Maeve", "after": "Nobody"}), 422, "after"
    )
    assert table.ok("GET", f"/sessions/{sid}")["version"] == 1


def test_a_player_leaves_and_keeps_their_balance_and_the_next_hand_goes_on_without_them(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)

    session = table.ok("DELETE", f"/sessions/{sid}/players/Rex")

    assert {"name": "Rex", "seat": None, "active": False} in session["players"]
    assert [p["name"] for p in session["players"] if p["active"]] == ["Enda", "John", "Finn"]
    assert session["scores"]["Rex"] == -16
    hand = table.hand(sid, hand_of({"John": "5-5-6", "Finn": "3-5"}, out="Enda"))
    assert hand["scores_after"]["Rex"] == -16
    assert "Rex" not in [r["player"] for r in hand["results"]]


def test_when_the_next_dealer_leaves_the_deal_passes_on(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)  # Rex deals next (the deal passes to the right)

    session = table.ok("DELETE", f"/sessions/{sid}/players/Rex")

    assert session["dealer"] == "John"


def test_leaving_twice_is_a_conflict_and_a_stranger_is_not_found(table):
    sid = table.session()["id"]
    table.ok("DELETE", f"/sessions/{sid}/players/Rex")
    assert "already left" in error(table.delete(f"/sessions/{sid}/players/rex"), 409)
    error(table.delete(f"/sessions/{sid}/players/Nobody"), 404)


def test_the_last_two_players_cannot_leave(table):
    sid = table.session(["Enda", "John"], dealer="Enda")["id"]
    assert "at least 2" in error(table.delete(f"/sessions/{sid}/players/John"), 422)


def test_the_history_keeps_the_seating_before_each_join_and_leave(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)  # Rex deals next
    table.ok("POST", f"/sessions/{sid}/players", {"name": "Maeve", "after": "John"}, 201)
    table.ok("DELETE", f"/sessions/{sid}/players/Rex")

    joined, left = table.ok("GET", f"/sessions/{sid}/history")[-2:]

    assert (joined["kind"], joined["after"]) == (
        "player.joined",
        {"player": "Maeve", "after": "John"},
    )
    assert joined["before"] == {"seats": ["Enda", "John", "Rex", "Finn"], "dealer": "Rex"}
    assert (left["kind"], left["after"]) == ("player.left", {"player": "Rex"})
    assert left["before"] == {"seats": ["Enda", "John", "Maeve", "Rex", "Finn"], "dealer": "Rex"}


def test_joining_leaving_and_finishing_each_raise_the_version_by_one(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    version = table.ok("GET", f"/sessions/{sid}")["version"]

    joined = table.ok("POST", f"/sessions/{sid}/players", {"name": "Maeve", "after": "John"}, 201)
    left = table.ok("DELETE", f"/sessions/{sid}/players/Maeve")
    finished = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})

    assert [joined["version"], left["version"], finished["version"]] == [
        version + 1,
        version + 2,
        version + 3,
    ]
    assert table.ok("GET", f"/sessions/{sid}")["version"] == version + 3


# --- The end of the night --------------------------------------------------------------------


def test_finishing_with_carry_keeps_the_pot_for_the_next_spot_session(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)  # nobody out: 20 stay in the pot

    session = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})

    assert session["status"] == "finished"
    assert session["pot"] == 20
    assert session["leftover_pot"] == "carry"
    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settlement["pot"] == 20
    into_pot = [t for t in settlement["transfers"] if t["to"] is None]
    assert sum(t["units"] for t in into_pot) == 20
    assert all(t["amount"] == f"0.{t['units']:02d}" for t in into_pot)

    following = table.session()
    assert (following["pot"], following["carried_in"]) == (20, 20)
    hand = table.hand(following["id"], SEED_HAND_1)
    assert hand["pot_before"] == 40
    # The pot was taken up once: the session after that opens empty.
    assert table.session()["pot"] == 0
    carried = table.ok("GET", f"/sessions/{sid}/history")[-1]
    assert carried["kind"] == "pot.carried"
    assert carried["before"] == {"carried_into": None}
    assert carried["after"] == {"session": following["id"], "pot": 20}


def test_a_carried_pot_that_is_won_is_paid_out_of_the_pot(table):
    first = table.session()["id"]
    table.hand(first, SEED_HAND_1)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_2)  # Enda goes out and takes the carried 20 with the antes

    settlement = table.ok("GET", f"/sessions/{sid}/settlement")

    assert settlement["pot"] == 0
    out_of_pot = [t for t in settlement["transfers"] if t["from"] is None]
    assert sum(t["units"] for t in out_of_pot) == 20


def test_a_carried_pot_waits_for_a_session_played_for_the_same_money(table):
    first = table.session()["id"]  # 0.01 EUR a unit
    table.hand(first, SEED_HAND_1)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})  # €0.20 waits

    pounds = table.session(unit_value="0.50", currency="GBP")
    assert (pounds["pot"], pounds["carried_in"]) == (0, 0)
    hand = table.hand(pounds["id"], SEED_HAND_2)  # Enda goes out and takes the pot
    assert hand["pot_before"] == 20  # this hand's antes only
    settlement = table.ok("GET", f"/sessions/{pounds['id']}/settlement")
    # Nothing paid out of a pot: 20 units carried in would have been £10.00, not €0.20.
    assert [t for t in settlement["transfers"] if t["from"] is None] == []
    enda = next(b for b in settlement["balances"] if b["player"] == "Enda")
    assert (enda["units"], enda["amount"]) == (49, "24.50")
    table.ok("POST", f"/sessions/{pounds['id']}/finish", {"leftover_pot": "carry"})

    # The euro pot is still there for the next session at 0.01 EUR, worth what it was.
    euros = table.session(unit_value="0.010", currency="eur")
    assert (euros["pot"], euros["carried_in"]) == (20, 20)
    table.hand(euros["id"], SEED_HAND_2)
    settlement = table.ok("GET", f"/sessions/{euros['id']}/settlement")
    out_of_pot = [t for t in settlement["transfers"] if t["from"] is None]
    assert [(t["units"], t["amount"]) for t in out_of_pot] == [(20, "0.20")]


def test_a_points_game_does_not_take_up_a_carried_pot(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})

    rummy = table.session(game="rummy", dealer="Enda")

    assert rummy["pot"] is None
    assert table.session()["pot"] == 20


def test_finishing_with_refund_gives_back_the_antes_in_the_pot(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)

    session = table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})

    assert session["status"] == "finished"
    assert session["pot"] == 0
    assert session["scores"] == {"Enda": -20, "John": 51, "Rex": -11, "Finn": -20}
    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    assert all(t["from"] is not None and t["to"] is not None for t in settlement["transfers"])
    assert table.session()["pot"] == 0  # nothing was carried


def test_a_refund_on_a_later_night_gives_the_carried_antes_back_to_those_who_paid_them(table):
    first = table.session()["id"]
    table.hand(first, SEED_HAND_1)  # nobody out: each of the four antes 5, the pot stays 20
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})

    # Finn stays at home tonight; Ann, new, paid nothing into that pot.
    tonight = table.session(players=["Enda", "John", "Rex", "Ann"], dealer="Ann")
    assert tonight["pot"] == 20
    session = table.ok("POST", f"/sessions/{tonight['id']}/finish", {"leftover_pot": "refund"})

    assert session["scores"] == {"Enda": 5, "John": 5, "Rex": 5, "Ann": 0}
    # Finn's 5 are still his: they stay in the pot and wait for the next Spot night.
    assert session["pot"] == 5
    following = table.session()
    assert following["pot"] == 5
    back = table.ok("POST", f"/sessions/{following['id']}/finish", {"leftover_pot": "refund"})
    assert back["scores"] == {"Enda": 0, "John": 0, "Rex": 0, "Finn": 5}
    assert back["pot"] == 0


def test_a_renamed_player_gets_back_the_antes_carried_in_under_the_old_name(table, app):
    first = table.session()["id"]
    table.hand(first, SEED_HAND_1)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})
    tonight = table.session(players=["Enda", "John", "Rex"], dealer="Rex")  # without Finn
    table.ok("POST", f"/sessions/{tonight['id']}/finish", {"leftover_pot": "carry"})
    players = table.ok("GET", f"/groups/{table.slug}")["players"]
    finn = next(p["id"] for p in players if p["name"] == "Finn")

    with app.app_context():
        group = services.authenticate(table.slug, table.passphrase)
        services.rename_player(group, finn, "Finbar")

    following = table.session(players=["Enda", "John", "Rex", "Finbar"], dealer="Finbar")
    back = table.ok("POST", f"/sessions/{following['id']}/finish", {"leftover_pot": "refund"})
    assert back["scores"] == {"Enda": 5, "John": 5, "Rex": 5, "Finbar": 5}
    assert back["pot"] == 0


def test_finishing_twice_is_a_conflict_and_a_finished_game_takes_no_hand_or_player(table):
    sid = table.session()["id"]
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    version = table.ok("GET", f"/sessions/{sid}")["version"]

    assert "already finished" in error(table.post(f"/sessions/{sid}/finish", {}), 409)
    assert "game is over" in error(table.post(f"/sessions/{sid}/hands", SEED_HAND_1), 409)
    assert "game is over" in error(
        table.post(f"/sessions/{sid}/players", {"name": "Maeve", "after": "Rex"}), 409
    )
    assert table.ok("GET", f"/sessions/{sid}")["version"] == version


def test_a_leftover_pot_choice_that_does_not_exist_is_refused(table):
    sid = table.session()["id"]
    error(table.post(f"/sessions/{sid}/finish", {"leftover_pot": "drink it"}), 422, "leftover_pot")
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "open"


def test_a_points_game_finishes_without_a_pot_and_has_no_money_to_settle(table):
    sid = table.session(game="rummy", dealer="Enda")["id"]

    session = table.ok("POST", f"/sessions/{sid}/finish", {})

    assert session["status"] == "finished"
    assert session["pot"] is None
    assert "played for points" in error(table.get(f"/sessions/{sid}/settlement"), 422)


def test_a_game_of_spots_ends_after_its_last_hand_with_the_lowest_total_winning(table):
    session = table.session(game="spots", dealer="Finn")
    sid = session["id"]
    assert session["progress"] == {
        "round": 1, "hand": 1, "hands_in_round": 4, "rounds": 2, "contract": None
    }  # fmt: skip
    for _ in range(8):
        table.hand(sid, SPOTS_HAND)

    session = table.ok("GET", f"/sessions/{sid}")

    assert session["status"] == "finished"
    assert session["winners"] == ["Enda"]
    assert session["scores"] == {"Enda": 0, "John": 16, "Rex": 56, "Finn": 80}
    assert session["progress"] is None
    assert "game is over" in error(table.post(f"/sessions/{sid}/hands", SPOTS_HAND), 409)


# --- A session started by mistake -------------------------------------------------------------


def test_a_session_with_no_hands_is_deleted_and_is_gone_everywhere(table):
    kept = table.session()["id"]
    sid = table.session(dealer="Enda")["id"]  # started twice by mistake

    assert table.delete(f"/sessions/{sid}").status_code == 204

    error(table.get(f"/sessions/{sid}"), 404)
    error(table.get(f"/sessions/{sid}/history"), 404)
    error(table.delete(f"/sessions/{sid}"), 404)
    sessions = table.ok("GET", f"/groups/{table.slug}")["sessions"]
    assert [s["id"] for s in sessions] == [kept]


def test_a_session_with_a_hand_is_not_deleted_and_says_why(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)

    message = error(table.delete(f"/sessions/{sid}"), 409)

    assert "has hands: only a session with no hands can be deleted" in message
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 1
    # Once its hand is undone it has none, and may go.
    table.ok("DELETE", f"/sessions/{sid}/hands/1", None, 204)
    assert table.delete(f"/sessions/{sid}").status_code == 204


def test_another_groups_session_cannot_be_deleted(table, other):
    sid = table.session()["id"]

    error(other.delete(f"/sessions/{sid}"), 404)

    assert table.ok("GET", f"/sessions/{sid}")["id"] == sid


def test_a_pot_carried_into_a_deleted_session_waits_again_for_the_next(table):
    first = table.session()["id"]
    table.hand(first, SEED_HAND_1)  # nobody out: 20 stay in the pot
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry"})
    mistake = table.session()
    assert mistake["carried_in"] == 20

    assert table.delete(f"/sessions/{mistake['id']}").status_code == 204

    following = table.session()
    assert (following["pot"], following["carried_in"]) == (20, 20)
    history = table.ok("GET", f"/sessions/{first}/history")
    assert [c["kind"] for c in history[-3:]] == ["pot.carried", "pot.returned", "pot.carried"]
    assert history[-2]["before"] == {"carried_into": mistake["id"]}
    assert history[-2]["after"] == {"carried_into": None, "pot": 20}
    assert history[-1]["after"] == {"session": following["id"], "pot": 20}
    # The session that took the pot up cannot hand it back by being deleted: it has passed on.
    table.ok("POST", f"/sessions/{following['id']}/finish", {"leftover_pot": "carry"})
    table.session()
    message = error(table.delete(f"/sessions/{following['id']}"), 409)
    assert "passed its pot on" in message
