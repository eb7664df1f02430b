"""RULES.md's worked example of Spot (seed 000) through the API, as API.md shows its answers."""

from __future__ import annotations

from decimal import Decimal

from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, SEED_PLAYERS


def payments(hand):
    return sorted((p["from"], p["to"], p["units"]) for p in hand["payments"])


def test_a_new_spot_session_seats_the_players_clockwise_and_finn_deals(table):
    session = table.session(dealer="Finn")

    assert session["game"] == "spot"
    assert session["group"] == table.slug
    assert session["status"] == "open"
    assert [(p["name"], p["seat"], p["active"]) for p in session["players"]] == [
        ("Enda", 1, True),
        ("John", 2, True),
        ("Rex", 3, True),
        ("Finn", 4, True),
    ]
    assert (session["dealer"], session["leader"]) == ("Finn", "Enda")
    assert session["hands_played"] == 0
    assert session["pot"] == 0
    assert session["scores"] == dict.fromkeys(SEED_PLAYERS, 0)
    assert session["winners"] == []
    assert session["options"] == {
        "ante": 5,
        "unit_value": "0.01",
        "currency": "EUR",
        "dealer_rotation": "right",
        "tie_remainder": "pot",
        "entry": "cards",
        "leftover_pot": "carry",
    }
    assert session["currency"] == "EUR"


def test_hand_one_john_lowest_is_paid_51_and_the_20_unit_pot_stays(table):
    sid = table.session()["id"]

    hand = table.hand(sid, SEED_HAND_1)

    assert (hand["number"], hand["dealer"], hand["leader"]) == (1, "Finn", "Enda")
    assert hand["out"] is None
    assert hand["winners"] == ["John"]
    assert payments(hand) == [("Enda", "John", 20), ("Finn", "John", 20), ("Rex", "John", 11)]
    assert (hand["pot_before"], hand["pot_after"]) == (20, 20)
    assert hand["scores_after"] == {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}
    assert hand["results"][0] == {
        "player": "Enda",
        "cards": ["J", "10"],
        "spots": 20,
        "points": None,
        "sitting_out": False,
        "melds": [],
    }
    assert [r["spots"] for r in hand["results"]] == [20, 4, 11, 20]


def test_hand_two_enda_goes_out_and_collects_40_plus_16_10_8(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)

    hand = table.hand(sid, SEED_HAND_2)

    assert (hand["number"], hand["dealer"], hand["leader"]) == (2, "Rex", "Finn")
    assert hand["out"] == "Enda"
    assert hand["winners"] == ["Enda"]
    assert payments(hand) == [("Finn", "Enda", 8), ("John", "Enda", 16), ("Rex", "Enda", 10)]
    assert (hand["pot_before"], hand["pot_after"]) == (40, 0)
    assert hand["scores_after"] == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}
    enda = hand["results"][0]
    assert (enda["cards"], enda["spots"]) == ([], 0)


def test_after_two_hands_the_session_reads_as_api_md_shows_it(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)

    session = table.ok("GET", f"/sessions/{sid}")

    assert session["id"] == sid
    assert session["group"] == table.slug
    assert (session["game"], session["status"], session["version"]) == ("spot", "open", 3)
    assert {k: session["options"][k] for k in ("ante", "unit_value", "currency")} == {
        "ante": 5,
        "unit_value": "0.01",
        "currency": "EUR",
    }
    assert session["players"][0] == {"name": "Enda", "seat": 1, "active": True}
    assert session["hands_played"] == 2
    assert (session["dealer"], session["leader"]) == ("John", "Rex")
    assert session["pot"] == 0
    assert session["scores"] == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}
    assert session["winners"] == []
    assert session["money"] == {"Enda": "0.44", "John": "0.25", "Rex": "-0.31", "Finn": "-0.38"}


def test_the_hands_are_listed_oldest_first_exactly_as_they_were_answered(table):
    sid = table.session()["id"]
    first = table.hand(sid, SEED_HAND_1)
    second = table.hand(sid, SEED_HAND_2)

    assert table.ok("GET", f"/sessions/{sid}/hands") == [first, second]


def test_the_settlement_squares_everyone_in_three_transfers_with_amounts_as_text(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)

    settlement = table.ok("GET", f"/sessions/{sid}/settlement")

    assert settlement["currency"] == "EUR"
    assert settlement["pot"] == 0
    # (Each balance also says what is still outstanding and what is settled in coins: the
    # same here, nothing being paid yet and a unit being a coin; tests/api/test_payments.py.)
    assert [{k: b[k] for k in ("player", "units", "amount")} for b in settlement["balances"]] == [
        {"player": "Enda", "units": 44, "amount": "0.44"},
        {"player": "John", "units": 25, "amount": "0.25"},
        {"player": "Rex", "units": -31, "amount": "-0.31"},
        {"player": "Finn", "units": -38, "amount": "-0.38"},
    ]
    # Four players need at least three transfers; a greedy match would need three here too,
    # but the list must be the same every time.
    assert settlement["transfers"] == [
        {"from": "Finn", "to": "Enda", "units": 38, "amount": "0.38"},
        {"from": "Rex", "to": "Enda", "units": 6, "amount": "0.06"},
        {"from": "Rex", "to": "John", "units": 25, "amount": "0.25"},
    ]
    left = {b["player"]: Decimal(b["amount"]) for b in settlement["balances"]}
    for t in settlement["transfers"]:
        left[t["from"]] += Decimal(t["amount"])
        left[t["to"]] -= Decimal(t["amount"])
    assert set(left.values()) == {Decimal(0)}
