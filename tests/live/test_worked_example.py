"""RULES.md's worked example of Spot (seed 000), played through HTTP against `ledger serve`."""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl
import pytest

from tests.live.api import Api, hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]


def payments(hand):
    return sorted((p["from"], p["to"], p["units"]) for p in hand["payments"])


@pytest.fixture(scope="module")
def played(live_server):
    """Seed 000's two hands, entered as a phone would: the answers of every call."""
    api = new_group(live_server, "The Seed Table")
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    sid = session["id"]
    first = api.ok(
        "POST",
        f"/sessions/{sid}/hands",
        hand_entry({"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}),
        201,
    )
    second = api.ok(
        "POST",
        f"/sessions/{sid}/hands",
        hand_entry({"John": "5-5-6", "Rex": "K", "Finn": "3-5"}, out="Enda"),
        201,
    )
    return {
        "api": api,
        "created": session,
        "hands": [first, second],
        "session": api.ok("GET", f"/sessions/{sid}"),
        "listed": api.ok("GET", f"/sessions/{sid}/hands"),
        "settlement": api.ok("GET", f"/sessions/{sid}/settlement"),
    }


def test_spot_is_offered_with_its_default_options(live_server):
    games = {game["key"]: game for game in Api(live_server).ok("GET", "/games")}
    spot = games["spot"]
    assert (spot["min_players"], spot["max_players"]) == (2, 6)
    assert spot["options"]["ante"] == 5
    assert spot["options"]["unit_value"] == "0.01"
    assert spot["options"]["currency"] == "EUR"


def test_a_new_session_seats_the_players_clockwise_with_finn_dealing(played):
    session = played["created"]
    assert session["game"] == "spot"
    assert session["status"] == "open"
    assert session["group"] == played["api"].slug
    assert [(p["name"], p["seat"], p["active"]) for p in session["players"]] == [
        ("Enda", 1, True),
        ("John", 2, True),
        ("Rex", 3, True),
        ("Finn", 4, True),
    ]
    assert (session["dealer"], session["leader"]) == ("Finn", "Enda")
    assert session["hands_played"] == 0
    assert session["pot"] == 0
    assert session["scores"] == dict.fromkeys(PLAYERS, 0)
    assert session["options"]["ante"] == 5
    assert session["options"]["unit_value"] == "0.01"
    assert session["options"]["currency"] == "EUR"


def test_hand_1_nobody_out_john_lowest_is_paid_51_and_the_pot_stays(played):
    hand = played["hands"][0]
    assert hand["number"] == 1
    assert (hand["dealer"], hand["leader"]) == ("Finn", "Enda")
    assert hand["out"] is None
    assert hand["winners"] == ["John"]
    assert payments(hand) == [("Enda", "John", 20), ("Finn", "John", 20), ("Rex", "John", 11)]
    assert (hand["pot_before"], hand["pot_after"]) == (20, 20)
    assert hand["scores_after"] == {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}
    results = {r["player"]: r for r in hand["results"]}
    assert results["Enda"]["cards"] == ["J", "10"]
    assert {name: r["spots"] for name, r in results.items()} == {
        "Enda": 20,
        "John": 4,
        "Rex": 11,
        "Finn": 20,
    }
    assert all(r["points"] is None and r["sitting_out"] is False for r in results.values())


def test_hand_2_enda_goes_out_and_collects_the_pot_and_the_spots(played):
    hand = played["hands"][1]
    assert hand["number"] == 2
    assert hand["out"] == "Enda"
    assert hand["winners"] == ["Enda"]
    assert payments(hand) == [("Finn", "Enda", 8), ("John", "Enda", 16), ("Rex", "Enda", 10)]
    assert (hand["pot_before"], hand["pot_after"]) == (40, 0)
    assert hand["scores_after"] == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}


def test_the_session_reads_as_api_md_shows_it(played):
    session = played["session"]
    assert session["status"] == "open"
    assert session["hands_played"] == 2
    assert (session["dealer"], session["leader"]) == ("John", "Rex")
    assert session["pot"] == 0
    assert session["scores"] == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}
    assert session["winners"] == []
    assert session["version"] > played["created"]["version"]


def test_the_hands_are_listed_oldest_first_as_they_were_answered(played):
    assert played["listed"] == played["hands"]


def test_the_settlement_pays_every_balance_in_decimal_strings(played):
    settlement = played["settlement"]
    assert settlement["currency"] == "EUR"
    assert settlement["pot"] == 0
    balances = {b["player"]: b for b in settlement["balances"]}
    assert {name: b["units"] for name, b in balances.items()} == {
        "Enda": 44,
        "John": 25,
        "Rex": -31,
        "Finn": -38,
    }
    for balance in balances.values():
        assert isinstance(balance["amount"], str)
        assert Decimal(balance["amount"]) == balance["units"] * Decimal("0.01")

    left = {name: b["units"] for name, b in balances.items()}
    assert settlement["transfers"]
    for transfer in settlement["transfers"]:
        assert isinstance(transfer["amount"], str)
        assert transfer["units"] > 0
        assert Decimal(transfer["amount"]) == transfer["units"] * Decimal("0.01")
        assert transfer["to"] is not None  # no pot is left to pay into
        left[transfer["from"]] += transfer["units"]
        left[transfer["to"]] -= transfer["units"]
    assert left == dict.fromkeys(PLAYERS, 0)


def test_the_session_downloads_as_a_workbook(played):
    api = played["api"]
    response = api.get(f"/sessions/{played['session']['id']}/export.xlsx")
    assert response.status_code == 200
    workbook = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
    try:
        assert workbook.sheetnames[:4] == ["Summary", "Hands", "Payments", "Settlement"]
    finally:
        workbook.close()
