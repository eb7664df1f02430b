"""Seasons through the API (RULES.md §13, API.md fourth edition "Seasons"): the worked
example, a night corrected after it counted, a closed season no later night changes, the
refusals naming their field, and another group's season not found."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import yaml
from flask_babel import force_locale, gettext

from tests.api.helpers import PASSPHRASE, Table, error
from tests.api.test_openapi import SPEC_PATH, Checked

TODAY = datetime.now(UTC).date()
PERIOD = {
    "from": (TODAY - timedelta(days=30)).isoformat(),
    "to": (TODAY + timedelta(days=30)).isoformat(),
}
WORKED = {
    "name": "Winter",
    "game": "spot",
    **PERIOD,
    "scoring": "places",
    "best_of": 3,
    "entry_fee": 500,
    "unit_value": "0.01",
    "currency": "EUR",
    "prizes": [60, 30, 10],
    "booby": 100,
}
ORDERS = [
    ["Ann", "Bob", "Cas", "Dee"],
    ["Bob", "Cas", "Ann", "Dee"],
    ["Cas", ("Ann", "Bob"), "Dee"],
    ["Dee", "Ann", "Cas"],
    ["Ann", "Dee", "Bob", "Cas"],
]


def spot_night(table, order, finish: bool = True) -> int:
    """A Spot night of one hand that nobody went out of, whose players finish in ``order`` (a
    tuple is an equal result): the lower a player's spots, the higher they finish."""
    spots: dict[str, int] = {}
    for i, who in enumerate(order, start=1):
        for name in who if isinstance(who, tuple) else (who,):
            spots[name] = i
    players = list(spots)
    sid = table.session(players, dealer=players[-1], ante=0, entry="totals")["id"]
    table.hand(sid, {"results": [{"player": p, "spots": s} for p, s in spots.items()]})
    if finish:
        table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    return sid


def worked_season(table) -> int:
    for order in ORDERS:
        spot_night(table, order)
    return table.ok("POST", f"/groups/{table.slug}/seasons", WORKED, 201)["id"]


def test_the_worked_example_of_section_13(table):
    sid = worked_season(table)
    season = table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")
    assert season["status"] == "open" and season["game"] == "spot" and season["name"] == "Winter"
    assert season["options"]["best_of"] == 3 and season["options"]["prizes"] == [60, 30, 10]
    assert [(s["player"], s["rank"], s["total"]) for s in season["standings"]] == [
        ("Ann", 1, 11),
        ("Bob", 2, 10),
        ("Cas", 3, 9),
        ("Dee", 4, 7),
    ]
    ann = season["standings"][0]
    assert (ann["nights"], ann["counted"], ann["best"], ann["average"]) == (5, 3, 4, "3.0")
    assert [n["points"] for n in season["nights"]][2] == {"Cas": 4, "Ann": 3, "Bob": 3, "Dee": 1}
    assert [n["number"] for n in season["nights"]] == [1, 2, 3, 4, 5]
    assert season["pot"] == 2000
    assert {p["player"]: p["units"] for p in season["prizes"]} == {
        "Ann": 1140,
        "Bob": 570,
        "Cas": 190,
        "Dee": 100,
    }
    closed = table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "now"})
    assert closed["status"] == "closed"
    settlement = closed["settlement"]
    assert {b["player"]: (b["units"], b["amount"]) for b in settlement["balances"]} == {
        "Ann": (640, "6.40"),
        "Bob": (70, "0.70"),
        "Cas": (-310, "-3.10"),
        "Dee": (-400, "-4.00"),
    }
    assert len(settlement["transfers"]) == 3
    paid: dict[str, int] = {}
    for t in settlement["transfers"]:
        paid[t["from"]] = paid.get(t["from"], 0) - t["units"]
        paid[t["to"]] = paid.get(t["to"], 0) + t["units"]
    assert paid == {"Ann": 640, "Bob": 70, "Cas": -310, "Dee": -400}


def test_a_tie_shares_a_place_and_its_points(table):
    spot_night(table, ["Cas", ("Ann", "Bob"), "Dee"])
    sid = table.ok("POST", f"/groups/{table.slug}/seasons", {**WORKED, "best_of": None}, 201)["id"]
    season = table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")
    assert season["nights"][0]["places"] == {"Cas": 1, "Ann": 2, "Bob": 2, "Dee": 4}
    assert [(s["player"], s["rank"]) for s in season["standings"]] == [
        ("Cas", 1),
        ("Ann", 2),
        ("Bob", 2),
        ("Dee", 4),
    ]


def test_a_night_corrected_after_it_counted_changes_the_standings_at_once(table):
    sid = spot_night(table, ["Ann", "Bob"])
    season = table.ok("POST", f"/groups/{table.slug}/seasons", {**WORKED, "best_of": None}, 201)
    assert season["standings"][0]["player"] == "Ann"
    table.ok("POST", f"/sessions/{sid}/reopen", {})
    table.ok("PUT", f"/sessions/{sid}/hands/1", {
        "results": [{"player": "Ann", "spots": 9}, {"player": "Bob", "spots": 1}]
    })  # fmt: skip
    # Reopened, the night no longer counts; finished again, it counts as corrected.
    now = table.ok("GET", f"/groups/{table.slug}/seasons/{season['id']}")
    assert now["nights"] == []
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    now = table.ok("GET", f"/groups/{table.slug}/seasons/{season['id']}")
    assert [(s["player"], s["total"]) for s in now["standings"]] == [("Bob", 2), ("Ann", 1)]


def test_a_closed_season_no_later_night_changes(table):
    sid = worked_season(table)
    closed = table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {})
    spot_night(table, ["Dee", "Cas", "Bob", "Ann"])
    first = spot_night(table, ["Dee", "Cas"], finish=False)
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "refund"})
    later = table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")
    assert later["standings"] == closed["standings"] and later["nights"] == closed["nights"]
    assert later["settlement"] == closed["settlement"]
    message = error(table.post(f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "now"}), 409)
    assert message == "The season is closed: its standings no longer change."
    error(table.put(f"/groups/{table.slug}/seasons/{sid}", {"best_of": 2}), 409)


def test_an_open_night_does_not_count_until_it_is_finished(table):
    spot_night(table, ["Ann", "Bob"], finish=False)
    season = table.ok("POST", f"/groups/{table.slug}/seasons", WORKED, 201)
    assert season["standings"] == [] and season["nights"] == []


def test_changing_the_options_while_open_follows_at_once(table):
    sid = worked_season(table)
    season = table.ok("PUT", f"/groups/{table.slug}/seasons/{sid}", {"best_of": None})
    assert [(s["player"], s["total"]) for s in season["standings"]][0] == ("Ann", 15)
    assert season["options"]["best_of"] is None


def test_a_seasons_game_cannot_change_and_saying_so_is_refused_naming_it(table):
    """Issue 46.6: PUT took `game` and `game_name` and left them as they were, saying
    nothing; now a change to either is refused naming it, and nothing else of the body is
    kept. The game as it is may be sent back with the rest (a client sends what it read)."""
    sid = worked_season(table)
    path = f"/groups/{table.slug}/seasons/{sid}"
    said = error(table.put(path, {"game": "rummy", "best_of": 2}), 422, "game")
    assert said == "A season's game cannot change: start a new season for another game."
    said = error(table.put(path, {"game_name": "Hearts"}), 422, "game_name")
    assert said == "Only Any game has a game name: leave game_name out for Spot."
    season = table.ok("GET", path)
    assert season["game"] == "spot" and season["options"]["best_of"] == 3
    same = table.ok("PUT", path, {"game": "spot", "game_name": None, "best_of": 2})
    assert same["game"] == "spot" and same["options"]["best_of"] == 2
    table.ok(
        "POST",
        f"/groups/{table.slug}/seasons",
        {
            **WORKED,
            "name": "Hearts league",
            "game": "tally",
            "game_name": "Hearts",
            "scoring": "places",
        },
        201,
    )
    hearts = table.ok("GET", f"/groups/{table.slug}/seasons")["seasons"]
    tally = next(s for s in hearts if s["game"] == "tally")
    where = f"/groups/{table.slug}/seasons/{tally['id']}"
    said = error(table.put(where, {"game_name": "Whist"}), 422, "game_name")
    assert said == "A season's game name cannot change: start a new season for another game."
    assert table.ok("PUT", where, {"game_name": "Hearts", "min_nights": 1})["game_name"] == "Hearts"
    with table.client.application.test_request_context(), force_locale("nl"):
        dutch = gettext("A season's game cannot change: start a new season for another game.")
    assert dutch == (
        "Het spel van een seizoen kan niet veranderen: begin een nieuw seizoen voor een ander spel."
    )


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"name": " "}, "name", "A season needs a name."),
        ({"to": "2020-01-01", "from": "2020-02-01"}, "to", "The season ends before it starts."),
        ({"prizes": [60, 30]}, "prizes", "Prizes must add up to 100 %: these add up to 90 %."),
        ({"scoring": "points"}, "scoring", "Spot has no points to count: use places or winnings."),
        ({"from": "1 May"}, "from", "from must be a date written YYYY-MM-DD, like 2026-11-23."),
        ({"best_of": 0}, "best_of", "The option best_of must be at least 1."),
        ({"game": "chess"}, "game", None),
        ({"unit_value": "0.001234567"}, "unit_value", None),
        ({"game_name": "Hearts"}, "game_name", None),
    ],
)
def test_refusals_name_the_field_and_store_nothing(table, change, field, message):
    found = error(table.post(f"/groups/{table.slug}/seasons", {**WORKED, **change}), 422, field)
    if message is not None:
        assert found == message
    assert table.ok("GET", f"/groups/{table.slug}/seasons") == {"seasons": []}


def test_a_retry_with_the_same_request_id_makes_one_season(table):
    body = {**WORKED, "request_id": "winter-1"}
    first = table.ok("POST", f"/groups/{table.slug}/seasons", body, 201)
    again = table.ok("POST", f"/groups/{table.slug}/seasons", body, 200)
    assert again["id"] == first["id"]
    assert len(table.ok("GET", f"/groups/{table.slug}/seasons")["seasons"]) == 1


def test_another_groups_season_is_not_found(table, other):
    sid = worked_season(table)
    for method, path in [
        ("GET", f"/groups/{other.slug}/seasons/{sid}"),
        ("PUT", f"/groups/{other.slug}/seasons/{sid}"),
        ("POST", f"/groups/{other.slug}/seasons/{sid}/close"),
        ("DELETE", f"/groups/{other.slug}/seasons/{sid}"),
    ]:
        assert other.call(method, path, {} if method != "GET" else None).status_code == 404
    # Nor by its own address with the other group's credentials.
    assert other.get(f"/groups/{table.slug}/seasons/{sid}").status_code == 404
    assert table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")["status"] == "open"


def test_closing_onto_the_tab_puts_the_balances_on_it(table):
    sid = worked_season(table)
    closed = table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "tab"})
    assert closed["on_tab"] is True and closed["settlement"]["transfers"] == []
    (tab,) = table.ok("GET", f"/groups/{table.slug}/tab")["tabs"]
    assert tab["seasons"] == [sid] and tab["sessions"] == []
    assert {b["player"]: b["amount"] for b in tab["balances"]} == {
        "Ann": "6.40",
        "Bob": "0.70",
        "Cas": "-3.10",
        "Dee": "-4.00",
    }
    table.ok("POST", f"/groups/{table.slug}/tab/payments", {
        "from": "Dee", "to": "Ann", "amount": "4.00", "currency": "EUR"
    }, 201)  # fmt: skip
    error(table.delete(f"/groups/{table.slug}/seasons/{sid}"), 409)


def test_a_season_without_payments_can_be_deleted(table):
    sid = worked_season(table)
    table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "tab"})
    assert table.delete(f"/groups/{table.slug}/seasons/{sid}").status_code == 204
    assert table.ok("GET", f"/groups/{table.slug}/tab")["tabs"] == []
    assert table.get(f"/groups/{table.slug}/seasons/{sid}").status_code == 404


def test_a_euro_transfer_to_a_player_with_an_account_carries_its_qr_code(table):
    sid = worked_season(table)
    table.ok("PUT", f"/groups/{table.slug}/players/Ann/account", {
        "iban": "NL91 ABNA 0417 1643 00", "name": "A. Murphy"
    })  # fmt: skip
    closed = table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {})
    to_ann = [t for t in closed["settlement"]["transfers"] if t["to"] == "Ann"]
    assert to_ann and all(t["epc"].endswith("\nPub Ledger Thursday Crowd Winter") for t in to_ann)
    assert all(t["epc"].split("\n")[6] == "NL91ABNA0417164300" for t in to_ann)


def test_any_game_seasons_count_one_game_name(table):
    def tally(name: str, ann: int, bob: int) -> None:
        sid = table.session(["Ann", "Bob"], dealer="Bob", game="tally", name=name, hands=1)["id"]
        table.hand(sid, {"results": [{"player": "Ann", "points": ann},
                                     {"player": "Bob", "points": bob}]})  # fmt: skip

    tally("Hearts", 10, 20)
    tally("Whist", 30, 5)
    body = {**WORKED, "game": "tally", "game_name": "hearts", "scoring": "points"}
    season = table.ok("POST", f"/groups/{table.slug}/seasons", body, 201)
    assert len(season["nights"]) == 1
    assert [(s["player"], s["total"]) for s in season["standings"]] == [("Bob", 20), ("Ann", 10)]


def test_the_seasons_answers_validate_against_the_spec(app, client):
    Checked(app, client, yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")))
    table = Table(client)
    sid = worked_season(table)
    table.ok("PUT", f"/groups/{table.slug}/players/Ann/account", {
        "iban": "NL91ABNA0417164300", "name": "A. Murphy"
    })  # fmt: skip
    assert table.post(f"/groups/{table.slug}/seasons", {"name": ""}).status_code == 422
    table.ok("GET", f"/groups/{table.slug}/seasons")
    table.ok("PUT", f"/groups/{table.slug}/seasons/{sid}", {"min_nights": 5})
    closed = table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "now"})
    assert any("epc" in t for t in closed["settlement"]["transfers"])
    assert table.post(f"/groups/{table.slug}/seasons/{sid}/close", {}).status_code == 409
    assert table.delete(f"/groups/{table.slug}/seasons/{sid}").status_code == 204


def test_a_player_renamed_after_the_close_keeps_their_prize_and_their_part_of_the_tab(table):
    sid = worked_season(table)
    table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "tab"})
    ann = next(p["id"] for p in table.ok("GET", f"/groups/{table.slug}")["players"]
               if p["name"] == "Ann")  # fmt: skip
    opened = table.client.post(
        "/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE}
    )
    assert opened.status_code == 302
    renamed = table.client.post(f"/g/{table.slug}/players/{ann}", data={"rename-name": "Anna"})
    assert renamed.status_code == 302
    season = table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")
    assert season["standings"][0]["player"] == "Anna"
    assert {p["player"] for p in season["prizes"]} == {"Anna", "Bob", "Cas", "Dee"}
    assert season["nights"][0]["points"]["Anna"] == 4
    (tab,) = table.ok("GET", f"/groups/{table.slug}/tab")["tabs"]
    assert {b["player"]: b["amount"] for b in tab["balances"]}["Anna"] == "6.40"
    paid = {"from": "Dee", "to": "Anna", "amount": "4.00", "currency": "EUR"}
    table.ok("POST", f"/groups/{table.slug}/tab/payments", paid, 201)
