"""Club evenings through the API (API.md fifth edition "Evenings"; RULES.md §19)."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from tests.api.helpers import Table, error
from tests.api.test_concurrency import all_at_once

SEVEN = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus"]
# The §19 example's list totals, over two rounds; Cas's best round (900) beats Bob's (700).
FIRST = {"Ann": 600, "Bob": 700, "Cas": 80, "Dee": 300, "Eve": 215, "Fay": 400, "Gus": -30}
SECOND = {"Ann": 610, "Bob": 280, "Cas": 900, "Dee": 340, "Eve": 300, "Fay": 10, "Gus": -30}


def evenings(table: Table) -> str:
    return f"/groups/{table.slug}/evenings"


def new_evening(table: Table, players=SEVEN, **body) -> dict:
    body = {"name": "Preisskat", "game": "tally", "rounds": 2, **body}
    evening = table.ok("POST", evenings(table), body, 201)
    for name in players:
        table.ok("POST", f"{evenings(table)}/{evening['id']}/players", {"player": name}, 201)
    return evening


def play_round(table: Table, tables: list[dict], points: dict[str, int]) -> None:
    for t in tables:
        results = [{"player": p, "points": points[p]} for p in t["players"]]
        table.hand(t["session"], {"results": results})
        table.ok("POST", f"/sessions/{t['session']}/finish", {})


def test_the_worked_example_lists_ranks_and_pays_through_the_api(table):
    evening = new_evening(
        table, entry_fee=1000, prizes=[50, 30, 20], scoring="points", lost_game_fee=50
    )
    at = f"{evenings(table)}/{evening['id']}"
    first = table.ok("POST", f"{at}/rounds", {}, 201)
    assert first["round"] == 1
    assert sorted(p for t in first["tables"] for p in t["players"]) == sorted(SEVEN)

    early = table.post(f"{at}/rounds", {})
    assert error(early, 409, "round") == (
        "Round 2 is drawn when every table of round 1 has finished."
    )
    play_round(table, first["tables"], FIRST)
    second = table.ok("POST", f"{at}/rounds", {}, 201)
    assert second["round"] == 2
    play_round(table, second["tables"], SECOND)

    now = table.ok("GET", at)
    lines = [(s["player"], s["rank"], s["total"]) for s in now["standings"]]
    assert lines == [
        ("Ann", 1, 1210), ("Cas", 2, 980), ("Bob", 3, 980), ("Dee", 4, 640), ("Eve", 5, 515),
        ("Fay", 6, 410), ("Gus", 7, -60),
    ]  # fmt: skip
    assert now["standings"][1]["rounds"] == [80, 900]
    assert now["pot"] == 7000  # no lost games in Any game: entry fees alone

    closed = table.ok("POST", f"{at}/close", {"settle": "now"})
    assert closed["status"] == "closed"
    balances = {b["player"]: b["units"] for b in closed["settlement"]["balances"]}
    assert balances == {
        "Ann": 2500, "Cas": 1100, "Bob": 400, "Dee": -1000, "Eve": -1000, "Fay": -1000,
        "Gus": -1000,
    }  # fmt: skip
    paid = sum(t["units"] for t in closed["settlement"]["transfers"])
    assert paid == 2500 + 1100 + 400
    again = table.post(f"{at}/close", {"settle": "now"})
    assert error(again, 409) == "The evening is closed."

    book = load_workbook(io.BytesIO(table.get(f"/groups/{table.slug}/export.xlsx").data))
    rows = list(book["Evenings"].iter_rows(values_only=True))
    assert rows[0][:8] == (
        "Evening",
        "Game",
        "Date",
        "Status",
        "Rank",
        "Player",
        "Round 1",
        "Round 2",
    )
    ann = next(r for r in rows if r[5] == "Ann")
    assert ann[4] == 1 and ann[6:9] == (600, 610, 1210)
    assert ann[-3:] == (10, 35, 25)  # fees, prize and balance in euros


def test_five_at_cribbage_pairs_is_refused_with_what_would_fit(table):
    evening = new_evening(table, players=SEVEN[:5], game="cribbage")
    answer = table.post(f"{evenings(table)}/{evening['id']}/rounds", {})
    assert error(answer, 409, "players") == (
        "5 players cannot sit at tables of two: check one more in or one out."
    )
    assert table.ok("GET", f"/groups/{table.slug}")["sessions"] == []


def test_check_in_twice_is_once_and_check_out_ends_at_the_draw(table):
    evening = new_evening(table, players=["Ann", "Bob", "Cas"], game="cribbage")
    at = f"{evenings(table)}/{evening['id']}"
    again = table.ok("POST", f"{at}/players", {"player": "ann"}, 201)
    assert again["players"] == ["Ann", "Bob", "Cas"]
    out = table.ok("DELETE", f"{at}/players/Cas")
    assert out["players"] == ["Ann", "Bob"]
    assert error(table.delete(f"{at}/players/Cas"), 404)
    drawn = table.ok("POST", f"{at}/rounds", {}, 201)
    assert [sorted(t["players"]) for t in drawn["tables"]] == [["Ann", "Bob"]]
    late = table.post(f"{at}/players", {"player": "Dee"})
    assert "before the first draw" in error(late, 409, "player")
    assert error(table.delete(f"{at}/players/Ann"), 409, "player")


def test_bad_fields_are_refused_naming_them(table):
    base = {"name": "Drive", "game": "cribbage"}
    cases = [
        ({**base, "name": ""}, "name"),
        ({**base, "game": "poker"}, "game"),
        ({**base, "rounds": 7}, "rounds"),
        ({**base, "prizes": [50, 30]}, "prizes"),
        ({**base, "entry_fee": -1}, "entry_fee"),
        ({**base, "scoring": "luck"}, "scoring"),
        ({**base, "game": "spot", "scoring": "points"}, "scoring"),
    ]
    for body, field in cases:
        error(table.post(evenings(table), body), 422, field)
    assert table.ok("GET", evenings(table))["evenings"] == []


def test_another_groups_evening_is_not_found(client, table):
    evening = new_evening(table, players=["Ann", "Bob"], game="cribbage")
    other = Table(client, name="Other Crowd")
    error(other.get(f"/groups/{other.slug}/evenings/{evening['id']}"), 404)
    error(other.post(f"/groups/{other.slug}/evenings/{evening['id']}/rounds", {}), 404)


def test_a_table_shows_its_progress_and_leader(table):
    evening = new_evening(table, players=SEVEN[:4], game="tally", scoring="points")
    at = f"{evenings(table)}/{evening['id']}"
    drawn = table.ok("POST", f"{at}/rounds", {}, 201)
    sid = drawn["tables"][0]["session"]
    table.hand(sid, {"results": [{"player": p, "points": i} for i, p in enumerate(SEVEN[:4])]})
    shown = table.ok("GET", at)["rounds"][0]["tables"][0]
    assert (shown["session"], shown["hands_played"], shown["leader"]) == (sid, 1, "Dee")
    assert [s["player"] for s in table.ok("GET", at)["standings"]][0] == "Dee"


def test_tables_finishing_and_draws_at_once_draw_one_round(table):
    evening = new_evening(table, players=SEVEN[:6], game="cribbage", rounds=3)
    at = f"{evenings(table)}/{evening['id']}"
    drawn = table.ok("POST", f"{at}/rounds", {}, 201)
    sessions = [t["session"] for t in drawn["tables"]]
    for sid in sessions[2:]:
        table.ok("POST", f"/sessions/{sid}/finish", {})
    table.ok("GET", at)  # the credentials remembered: the threads need no slow check

    def act(i: int):
        if i < 2:
            return table.post(f"/sessions/{sessions[i]}/finish", {})
        return table.post(f"{at}/rounds", {})

    answers = all_at_once(5, act)
    assert [a.status_code for a in answers[:2]] == [200, 200]
    draws = sorted(a.status_code for a in answers[2:])
    assert draws.count(201) <= 1 and set(draws) <= {201, 409}
    if 201 not in draws:  # every draw came before a table finished: the organiser taps again
        assert table.post(f"{at}/rounds", {}).status_code == 201
    rounds = table.ok("GET", at)["rounds"]
    assert [r["round"] for r in rounds] == [1, 2]
    assert len(rounds[1]["tables"]) == 3
    numbers = [t["number"] for r in rounds for t in r["tables"]]
    assert sorted(numbers) == list(range(1, 7))


def test_an_evening_closed_onto_the_tab_is_owed_there(table):
    evening = new_evening(table, players=SEVEN[:4], entry_fee=500, prizes=[100], scoring="points")
    at = f"{evenings(table)}/{evening['id']}"
    drawn = table.ok("POST", f"{at}/rounds", {}, 201)
    play_round(table, drawn["tables"], FIRST)
    closed = table.ok("POST", f"{at}/close", {"settle": "tab"})
    assert closed["settlement"]["on_tab"] is True
    assert closed["settlement"]["transfers"] == []
    tabs = table.ok("GET", f"/groups/{table.slug}/tab")["tabs"]
    assert tabs[0]["evenings"] == [evening["id"]]
    owed = {b["player"]: b["amount"] for b in tabs[0]["balances"]}
    # Bob's 700 wins the 2,000 pot: +15.00; the others each paid their 5.00
    assert owed == {"Bob": "15.00", "Ann": "-5.00", "Cas": "-5.00", "Dee": "-5.00"}


def test_a_group_with_an_evening_is_backed_up_with_it(table):
    """Once refused a backup (a sentence said why); now the evening is in it
    (tests/export/test_evening_backup.py restores it)."""
    evening = new_evening(table, players=["Ann", "Bob"], game="cribbage")
    backup = table.get(f"/groups/{table.slug}/backup.json")
    assert backup.status_code == 200
    data = backup.get_json()
    assert [e["name"] for e in data["evenings"]] == [evening["name"]]
    assert len(data["evening_players"]) == 2


def test_a_preisskat_draws_four_and_three_and_its_lost_games_feed_the_pot(table):
    evening = new_evening(table, game="skat", entry_fee=1000, prizes=[50, 30, 20], lost_game_fee=50)
    at = f"{evenings(table)}/{evening['id']}"
    drawn = table.ok("POST", f"{at}/rounds", {}, 201)
    four, three = sorted(drawn["tables"], key=lambda t: -len(t["players"]))
    assert (len(four["players"]), len(three["players"])) == (4, 3)
    deal = {"bid": 18, "game": "clubs", "matadors": 1, "tricks": "some"}
    # Seat 1 deals (and sits out at four): seat 2 declares. Won at four, lost at three.
    won = table.hand(four["session"], {**deal, "declarer": four["players"][1], "card_points": 78})
    lost = table.hand(
        three["session"], {**deal, "declarer": three["players"][1], "card_points": 40}
    )
    assert (won["won"], lost["won"]) == (True, False)
    for t in (four, three):
        table.ok("POST", f"/sessions/{t['session']}/finish", {})
    now = table.ok("GET", at)
    lines = {s["player"]: s for s in now["standings"]}
    assert lines[four["players"][1]]["total"] == 74  # 24 + 50
    assert lines[three["players"][1]]["total"] == -98  # -2 × 24 - 50
    assert lines[three["players"][1]]["lost_games"] == 1
    assert lines[three["players"][0]]["total"] == 40
    assert now["pot"] == 7 * 1000 + 50
    assert now["standings"][0]["player"] == four["players"][1]
    # Two at 40 from the three's table, nobody's games won or lost: they share second place.
    assert [s["rank"] for s in now["standings"][1:3]] == [2, 2]


def test_five_at_skat_is_refused_with_the_rules_sentence(table):
    evening = new_evening(table, players=SEVEN[:5], game="skat")
    answer = table.post(f"{evenings(table)}/{evening['id']}/rounds", {})
    assert error(answer, 409, "players") == (
        "5 players cannot sit at tables of three and four: check one more in or one out."
    )


def test_four_draws_at_once_after_a_finished_round_draw_one_round(table):
    evening = new_evening(table, players=SEVEN[:4], game="cribbage", rounds=3)
    at = f"{evenings(table)}/{evening['id']}"
    for t in table.ok("POST", f"{at}/rounds", {}, 201)["tables"]:
        table.ok("POST", f"/sessions/{t['session']}/finish", {})

    answers = all_at_once(4, lambda i: table.post(f"{at}/rounds", {}))

    assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
    refused = [a for a in answers if a.status_code == 409]
    assert all(
        error(a, 409, "round") == "Round 3 is drawn when every table of round 2 has finished."
        for a in refused
    )
    rounds = table.ok("GET", at)["rounds"]
    assert [r["round"] for r in rounds] == [1, 2] and len(rounds[1]["tables"]) == 2
    assert len(table.ok("GET", f"/groups/{table.slug}")["sessions"]) == 4


def test_a_klaverjasdrive_lists_each_players_team_points(table):
    eight = [*SEVEN, "Hal"]
    evening = new_evening(table, players=eight, game="klaverjassen")
    at = f"{evenings(table)}/{evening['id']}"
    drawn = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]
    assert [len(t["players"]) for t in drawn] == [4, 4]
    first = drawn[0]
    hand = {"playing": 1, "teams": [{"team": 1, "points": 100, "roem": 20}, {"team": 2, "roem": 0}]}
    table.hand(first["session"], hand)
    teams = table.ok("GET", f"/sessions/{first['session']}")["teams"]
    lines = {s["player"]: s["total"] for s in table.ok("GET", at)["standings"]}
    for team in teams:  # partners opposite (seats 1 and 3, 2 and 4), drawn with the seats
        assert [lines[p] for p in team["players"]] == [team["score"]] * 2
    assert teams[0]["players"] == [first["players"][0], first["players"][2]]


def test_a_tables_night_stays_with_its_round(table):
    evening = new_evening(table, players=SEVEN[:2], game="cribbage")
    drawn = table.ok("POST", f"{evenings(table)}/{evening['id']}/rounds", {}, 201)
    sid = drawn["tables"][0]["session"]
    number = drawn["tables"][0]["number"]
    assert error(table.delete(f"/sessions/{sid}"), 409) == (
        f"Cribbage #{number} is a table of a club evening: it stays with the evening's round."
    )
    assert table.ok("GET", f"/sessions/{sid}")["id"] == sid
