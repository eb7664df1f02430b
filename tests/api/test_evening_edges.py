"""Club evenings at their edges (RULES.md §19; API.md fifth edition): what an attack on them
found, each a test that failed before its fix."""

from __future__ import annotations

from tests.api.helpers import Table, error
from tests.api.test_evenings import evenings, new_evening, play_round

FOUR = ["Ann", "Bob", "Cas", "Dee"]


def test_the_answer_keeps_the_prize_percentages_apart_from_the_prizes_paid(table):
    evening = new_evening(
        table,
        players=FOUR,
        entry_fee=1000,
        prizes=[50, 30, 20],
        booby=100,
        lost_game_fee=50,
        unit_value="0.01",
        currency="GBP",
        options={"currency": "EUR", "unit_value": "0.05"},  # Any game's own stake money
    )
    at = f"{evenings(table)}/{evening['id']}"
    now = table.ok("GET", at)
    # The options the evening was planned with, each once, the percentages among them ...
    assert now["money"] == {
        "scoring": "places", "entry_fee": 1000, "unit_value": "0.01", "currency": "GBP",
        "prizes": [50, 30, 20], "booby": 100, "lost_game_fee": 50,
    }  # fmt: skip
    # ... the game's own options untouched by them ...
    assert (now["options"]["currency"], now["options"]["unit_value"]) == ("EUR", "0.05")
    # ... and what the pot pays each player, as the list stands (all level: shared places).
    assert sum(p["units"] for p in now["prizes"]) == now["pot"] == 4000
    assert all(set(p) == {"player", "units"} for p in now["prizes"])
    assert not {"entry_fee", "currency", "unit_value", "booby", "lost_game_fee"} & set(now)

    drawn = table.ok("POST", f"{at}/rounds", {}, 201)
    play_round(table, drawn["tables"], {"Ann": 40, "Bob": 30, "Cas": 20, "Dee": 10})
    closed = table.ok("POST", f"{at}/close", {"settle": "now"})
    assert closed["money"]["prizes"] == [50, 30, 20]
    assert {p["player"]: p["units"] for p in closed["prizes"]} == {
        "Ann": 1950, "Bob": 1170, "Cas": 780, "Dee": 100,
    }  # fmt: skip
    listed = table.ok("GET", evenings(table))["evenings"]
    assert listed[0]["money"] == closed["money"] and listed[0]["prizes"] == closed["prizes"]




def test_a_new_name_checked_in_is_one_a_players_page_can_carry(table):
    evening = new_evening(table, players=FOUR)
    at = f"{evenings(table)}/{evening['id']}"
    for name in ("/Eve", "..", "Eve/./x"):
        refused = table.post(f"{at}/players", {"player": name})
        assert "part of the player's web address" in error(refused, 422, "player")
    assert table.ok("GET", at)["players"] == FOUR
    names = [p["name"] for p in table.ok("GET", f"/groups/{table.slug}")["players"]]
    assert sorted(names) == FOUR
    # A slash within a name is as a player's page carries it ("AC/DC").
    assert table.ok("POST", f"{at}/players", {"player": "AC/DC"}, 201)["players"][-1] == "AC/DC"
