"""A club evening's tables through the API (RULES.md §19): a player sits at one table a round,
whoever seats them by hand on a table's night."""

from __future__ import annotations

from tests.api.helpers import Table, error
from tests.api.test_concurrency import all_at_once
from tests.api.test_evenings import SEVEN, evenings, new_evening

ONE_TABLE = "{} is at table {} in this round: a player sits at one table."


def drawn_spot_evening(table: Table) -> tuple[str, list[dict]]:
    """Seven players of Spot (two to six a table): a table of 4 and one of 3."""
    evening = new_evening(table, game="spot")
    at = f"{evenings(table)}/{evening['id']}"
    tables = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]
    assert sorted(len(t["players"]) for t in tables) == [3, 4]
    return at, tables


def seated(table: Table, session: int) -> list[str]:
    return [p["name"] for p in table.ok("GET", f"/sessions/{session}")["players"]]


def test_a_player_of_one_table_is_refused_a_seat_at_another_naming_them_and_their_table(table):
    _, (first, second) = drawn_spot_evening(table)
    eve = first["players"][0]
    before = table.ok("GET", f"/sessions/{second['session']}")
    body = {"name": eve.lower(), "after": second["players"][0]}
    refused = table.post(f"/sessions/{second['session']}/players", body)
    assert error(refused, 422, "name") == ONE_TABLE.format(eve, first["table"])
    after = table.ok("GET", f"/sessions/{second['session']}")
    assert after["players"] == before["players"]
    assert seated(table, second["session"]) == second["players"]

    # Someone who is not at the evening may sit in, as at any night.
    table.ok("POST", f"/sessions/{second['session']}/players", {**body, "name": "Hal"}, 201)


def test_a_player_who_left_their_table_is_still_at_it_for_the_round(table):
    _, (first, second) = drawn_spot_evening(table)
    cas = first["players"][1]
    table.ok("DELETE", f"/sessions/{first['session']}/players/{cas}")
    refused = table.post(
        f"/sessions/{second['session']}/players", {"name": cas, "after": second["players"][0]}
    )
    assert error(refused, 422, "name") == ONE_TABLE.format(cas, first["table"])


def test_the_next_round_seats_each_player_once_and_the_rule_holds_there_too(table):
    at, tables = drawn_spot_evening(table)
    for t in tables:
        table.ok("POST", f"/sessions/{t['session']}/finish", {})
    first, second = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]
    seats = [*first["players"], *second["players"]]
    assert sorted(seats) == sorted(SEVEN)
    mover = second["players"][-1]
    refused = table.post(
        f"/sessions/{first['session']}/players", {"name": mover, "after": first["players"][0]}
    )
    assert error(refused, 422, "name") == ONE_TABLE.format(mover, second["table"])


def test_two_phones_seating_a_newcomer_at_both_tables_at_once_seat_them_once(table):
    _, tables = drawn_spot_evening(table)
    table.ok("POST", f"/groups/{table.slug}/players", {"name": "Hal"}, 201)
    table.ok("GET", f"/groups/{table.slug}")  # the credentials remembered for the threads

    def sit(i: int):
        t = tables[i]
        return table.post(
            f"/sessions/{t['session']}/players", {"name": "Hal", "after": t["players"][0]}
        )

    answers = all_at_once(2, sit)
    assert sorted(a.status_code for a in answers) == [201, 422]
    refused = next(a for a in answers if a.status_code == 422)
    winner = next(i for i, a in enumerate(answers) if a.status_code == 201)
    assert error(refused, 422, "name") == ONE_TABLE.format("Hal", tables[winner]["table"])
    assert sum("Hal" in seated(table, t["session"]) for t in tables) == 1
