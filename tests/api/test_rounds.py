"""Rounds of drinks and food through the API (API.md "Rounds", RULES.md §6c): the worked
example, the refusals naming their field, another group's night, a finished night, a
double tap, and payments given in the currency."""

from __future__ import annotations

import io
import json

import yaml
from flask_babel import force_locale, gettext
from pypdf import PdfReader

from tests.api.helpers import SEED_PLAYERS, error
from tests.api.test_openapi import SPEC_PATH, Checked

PINTS = {"what": "a round", "amount": "18.40", "paid_by": "John", "for": SEED_PLAYERS}
CRISPS = {"what": "crisps", "amount": "7.50", "paid_by": "Rex", "for": ["John", "Rex", "Finn"]}
# RULES.md §6c: the game gives Enda +120, John −30, Rex −50, Finn −40 units, no pot left.
NIGHT_OF_6C = {
    "results": [
        {"player": "Enda", "spots": 1},
        {"player": "John", "spots": 30},
        {"player": "Rex", "spots": 50},
        {"player": "Finn", "spots": 40},
    ]
}


NIGHT_OF_6C_UNITS = {"Enda": 120, "John": -30, "Rex": -50, "Finn": -40}


def worked_example(table) -> int:
    sid = table.session(dealer="Finn", ante=0, entry="totals")["id"]
    hand = table.hand(sid, NIGHT_OF_6C)
    assert hand["scores_after"] == {"Enda": 120, "John": -30, "Rex": -50, "Finn": -40}
    return sid


def test_the_worked_example_of_rules_6c(table):
    sid = worked_example(table)

    pints = table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    crisps = table.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)

    assert {k: pints[k] for k in ("what", "amount", "paid_by", "for", "shares", "parts")} == {
        "what": "a round",
        "amount": "18.40",
        "paid_by": "John",
        "for": SEED_PLAYERS,
        "shares": dict.fromkeys(SEED_PLAYERS, 1),
        "parts": dict.fromkeys(SEED_PLAYERS, "4.60"),
    }
    assert crisps["parts"] == {"John": "2.50", "Rex": "2.50", "Finn": "2.50"}
    assert set(pints) >= {"id", "at"}
    assert table.ok("GET", f"/sessions/{sid}")["rounds"] == [pints, crisps]
    assert table.ok("GET", f"/sessions/{sid}/rounds") == [pints, crisps]

    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    balances = {b["player"]: (b["amount"], b["rounds"], b["total"]) for b in settlement["balances"]}
    assert balances == {
        "Enda": ("1.20", "-4.60", "-3.40"),
        "John": ("-0.30", "11.30", "11.00"),
        "Rex": ("-0.50", "0.40", "-0.10"),
        "Finn": ("-0.40", "-7.10", "-7.50"),
    }
    # The session's answer reads the same read model (services/night.py): the same figures.
    standings = table.ok("GET", f"/sessions/{sid}")["standings"]
    assert {s["player"]: (s["balance_amount"], s["rounds"], s["total"]) for s in standings} == (
        balances
    )
    assert sorted(
        (t["from"], t["to"], t["amount"], t["units"]) for t in settlement["transfers"]
    ) == [
        ("Enda", "John", "3.40", None),
        ("Finn", "John", "7.50", None),
        ("Rex", "John", "0.10", None),
    ]


def test_shares_and_the_odd_cent_to_the_first_seat(table):
    sid = table.session(players=["Ann", "Bob", "Cas"], dealer="Cas")["id"]
    body = {"amount": "10.00", "paid_by": "Cas", "for": ["Bob", "Ann"], "shares": {"Ann": 2}}
    made = table.ok("POST", f"/sessions/{sid}/rounds", body, 201)
    assert made["for"] == ["Ann", "Bob"]  # seating order
    assert made["shares"] == {"Ann": 2, "Bob": 1}
    assert made["parts"] == {"Ann": "6.67", "Bob": "3.33"}
    assert made["what"] is None


def test_a_dutch_amount_is_read_with_its_comma(table):
    sid = worked_example(table)
    made = table.ok("POST", f"/sessions/{sid}/rounds", {**PINTS, "amount": "18,40"}, 201)
    assert made["amount"] == "18.40"


def test_refusals_name_the_field_and_store_nothing(table):
    sid = worked_example(table)
    version = table.ok("GET", f"/sessions/{sid}")["version"]
    cases = [
        ({**PINTS, "paid_by": None}, "paid_by", "Say who paid for the round."),
        (
            {**PINTS, "paid_by": "Ann"},
            "paid_by",
            "Ann is not playing tonight: a round is paid by and for the night's players.",
        ),
        ({**PINTS, "for": []}, "for", "Say who the round was for."),
        (
            {**PINTS, "amount": "12.345"},
            "amount",
            "The amount must be more than 0 and at most 10,000.00, in whole cents: 12.345 is not.",
        ),
        (
            {**PINTS, "shares": {"Rex": 0}},
            "shares.Rex",
            "Shares are whole numbers of at least 1: Rex's is 0.",
        ),
        ({**PINTS, "what": "x" * 61}, "what", "Say what the round was in at most 60 characters."),
    ]
    for body, field, message in cases:
        assert error(table.post(f"/sessions/{sid}/rounds", body), 422, field) == message
    assert table.ok("GET", f"/sessions/{sid}")["version"] == version
    assert table.ok("GET", f"/sessions/{sid}/rounds") == []


def test_a_share_given_twice_whatever_its_case_is_refused_naming_it(table):
    """Issue 46.6: `{"Rex": 2, "REX": 3}` was taken, the last one winning; names are matched
    whatever their case, so a share named twice is refused naming the second, and nothing is
    recorded. Twice under the same key is refused too (JSON readers keep only the last)."""
    sid = worked_example(table)
    version = table.ok("GET", f"/sessions/{sid}")["version"]
    for shares in ({"REX": 3, "Rex": 2}, {" Rex": 2, "rex": 2}):  # as the client sorts them
        said = error(
            table.post(f"/sessions/{sid}/rounds", {**PINTS, "shares": shares}),
            422,
            f"shares.{list(shares)[1]}",
        )
        first, second = list(shares)
        assert said == f"Rex's share is given twice, as {first} and {second}: give it once."
    raw = json.dumps({**PINTS, "shares": {"Rex": 2}})[:-2] + ', "Rex": 3}}'
    assert raw.endswith('{"Rex": 2, "Rex": 3}}')
    refused = table.client.post(
        f"/api/v1/sessions/{sid}/rounds",
        data=raw,
        content_type="application/json",
        headers=table.headers,
    )
    said = error(refused, 422, "shares.Rex")
    assert said == "shares.Rex is given twice in the request: give it once."
    assert table.ok("GET", f"/sessions/{sid}")["version"] == version
    assert table.ok("GET", f"/sessions/{sid}/rounds") == []
    with table.client.application.test_request_context(), force_locale("nl"):
        dutch = gettext("{player}'s share is given twice, as {first} and {second}: give it once.")
    assert dutch.startswith("Het deel van {player}")


def test_a_double_tap_or_a_retry_records_one_round(table):
    sid = worked_example(table)
    body = {**PINTS, "request_id": "tap-1"}
    first = table.ok("POST", f"/sessions/{sid}/rounds", body, 201)
    again = table.ok("POST", f"/sessions/{sid}/rounds", body, 200)
    assert again == first
    assert len(table.ok("GET", f"/sessions/{sid}/rounds")) == 1
    # Taken back, a resend of the same tap brings nothing back.
    assert table.delete(f"/sessions/{sid}/rounds/{first['id']}").status_code == 204
    error(table.post(f"/sessions/{sid}/rounds", body), 409, "request_id")
    assert table.ok("GET", f"/sessions/{sid}/rounds") == []


def test_a_round_is_changed_and_taken_back_and_the_history_says_so(table):
    sid = worked_example(table)
    made = table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    changed = table.ok(
        "PUT", f"/sessions/{sid}/rounds/{made['id']}", {**PINTS, "amount": "20", "what": "pints"}
    )
    assert (changed["id"], changed["amount"], changed["what"]) == (made["id"], "20.00", "pints")
    assert changed["parts"] == dict.fromkeys(SEED_PLAYERS, "5.00")
    assert table.delete(f"/sessions/{sid}/rounds/{made['id']}").status_code == 204
    kinds = [c["kind"] for c in table.ok("GET", f"/sessions/{sid}/history")]
    assert kinds[-3:] == ["round.added", "round.changed", "round.deleted"]
    error(table.delete(f"/sessions/{sid}/rounds/{made['id']}"), 404)


def test_a_finished_night_refuses_a_change_until_it_is_opened_again(table):
    sid = worked_example(table)
    made = table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})
    message = "The night is finished: open it again to change its rounds."
    assert error(table.post(f"/sessions/{sid}/rounds", CRISPS), 409) == message
    assert error(table.put(f"/sessions/{sid}/rounds/{made['id']}", CRISPS), 409) == message
    assert error(table.delete(f"/sessions/{sid}/rounds/{made['id']}"), 409) == message
    # Its settle-up carries the round all the same.
    totals = {
        b["player"]: b["total"] for b in table.ok("GET", f"/sessions/{sid}/settlement")["balances"]
    }
    assert totals["John"] == "13.50"
    table.ok("POST", f"/sessions/{sid}/reopen", {})
    table.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)


def test_another_groups_night_answers_404(table, other):
    sid = worked_example(table)
    made = table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    for response in (
        other.get(f"/sessions/{sid}/rounds"),
        other.post(f"/sessions/{sid}/rounds", PINTS),
        other.put(f"/sessions/{sid}/rounds/{made['id']}", PINTS),
        other.delete(f"/sessions/{sid}/rounds/{made['id']}"),
    ):
        error(response, 404)
    # A round id of another night of the same group is not this night's either.
    second = table.session(players=["Ann", "Bob"], dealer="Bob")["id"]
    error(table.delete(f"/sessions/{second}/rounds/{made['id']}"), 404)
    assert len(table.ok("GET", f"/sessions/{sid}/rounds")) == 1


def test_a_points_game_without_a_stake_settles_its_rounds(table):
    sid = table.session(players=["Ann", "Bob"], dealer="Bob", game="rummy")["id"]
    error(table.get(f"/sessions/{sid}/settlement"), 422)
    table.ok(
        "POST",
        f"/sessions/{sid}/rounds",
        {"amount": "9.01", "paid_by": "Ann", "for": ["Ann", "Bob"]},
        201,
    )
    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settlement["currency"] == "EUR"
    assert [(t["from"], t["to"], t["amount"]) for t in settlement["transfers"]] == [
        ("Bob", "Ann", "4.50")
    ]
    # No game money, so no units to pay in: the payment is an amount, and a resend of it
    # (a double tap) finds nothing left to pay.
    paying = {"from": "Bob", "to": "Ann", "units": 450}
    message = error(table.post(f"/sessions/{sid}/payments", paying), 422, "units")
    assert (
        message
        == "This night settles its drinks and food alone: give the payment as an amount, like 1.50."
    )
    paying = {"from": "Bob", "to": "Ann", "amount": "4.50"}
    table.ok("POST", f"/sessions/{sid}/payments", paying, 201)
    error(table.post(f"/sessions/{sid}/payments", paying), 422, "amount")
    assert table.ok("GET", f"/sessions/{sid}/settlement")["transfers"] == []


def test_a_points_night_without_a_stake_has_no_winnings_in_its_settlement_either(table):
    """One fact, one value: a points night with rounds and no stake won nobody anything at
    the table, so its settlement's balances answer `winnings: null`, as its standings do; a
    money night's agree the other way (a number in both)."""
    points = table.session(players=["Ann", "Bob"], dealer="Bob", game="rummy")["id"]
    round_ = {"amount": "9.01", "paid_by": "Ann", "for": ["Ann", "Bob"]}
    table.ok("POST", f"/sessions/{points}/rounds", round_, 201)
    money = worked_example(table)
    table.ok("POST", f"/sessions/{money}/rounds", PINTS, 201)
    for sid, expected in ((points, {"Ann": None, "Bob": None}), (money, NIGHT_OF_6C_UNITS)):
        night = table.ok("GET", f"/sessions/{sid}")
        settlement = table.ok("GET", f"/sessions/{sid}/settlement")
        assert {s["player"]: s["winnings"] for s in night["standings"]} == expected
        assert {b["player"]: b["winnings"] for b in settlement["balances"]} == expected


def test_a_points_night_without_a_stake_gives_no_game_money_in_any_balance_field(
    app, client, table
):
    """Issue 45: a points night with no stake that has rounds answered, per balance, `units: 0`
    and `amount: "0.00"` beside a `total` that is its rounds. Every field now says what it is,
    as the standings do: no game money (null), the rounds, the total, settled in coins; every
    answer as docs/openapi.yaml describes it."""
    Checked(app, client, yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")))
    points = table.session(players=["Ann", "Bob"], dealer="Bob", game="rummy")["id"]
    table.ok("POST", f"/sessions/{points}/rounds",
             {"amount": "9.01", "paid_by": "Ann", "for": ["Ann", "Bob"]}, 201)  # fmt: skip
    standings = {s["player"]: s for s in table.ok("GET", f"/sessions/{points}")["standings"]}
    settlement = table.ok("GET", f"/sessions/{points}/settlement")
    balances = {b["player"]: b for b in settlement["balances"]}
    # Ann paid 9.01 and her part is 4.51 (the odd cent is the payer's): +4.50; Bob -4.50.
    for name, given in (("Ann", "4.50"), ("Bob", "-4.50")):
        b = balances[name]
        assert (b["units"], b["amount"], b["winnings"], b["outstanding"]) == (None,) * 4
        assert (b["rounds"], b["total"], b["settled"], b["outstanding_amount"]) == (given,) * 4
        s = standings[name]
        assert (s["balance"], s["balance_amount"], s["winnings"]) == (None, None, None)
        assert (s["rounds"], s["total"]) == (b["rounds"], b["total"])
    # A money night with rounds keeps its game money in every field.
    money = worked_example(table)
    table.ok("POST", f"/sessions/{money}/rounds", PINTS, 201)
    enda = table.ok("GET", f"/sessions/{money}/settlement")["balances"][0]
    assert (enda["player"], enda["units"], enda["amount"]) == ("Enda", 120, "1.20")


def test_a_payment_in_the_currency_settles_part_of_a_total(table):
    sid = worked_example(table)
    table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    table.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)
    paid = table.ok(
        "POST", f"/sessions/{sid}/payments", {"from": "Finn", "to": "John", "amount": "7.50"}, 201
    )
    assert (paid["units"], paid["amount"]) == (None, "7.50")
    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    assert sorted((t["from"], t["to"], t["amount"]) for t in settlement["transfers"]) == [
        ("Enda", "John", "3.40"),
        ("Rex", "John", "0.10"),
    ]
    message = error(
        table.post(f"/sessions/{sid}/payments", {"from": "Rex", "to": "John", "amount": "0.20"}),
        422,
        "amount",
    )
    assert "€0.10" in message


def test_a_payment_given_in_units_and_as_an_amount_is_refused_naming_both(table):
    """Neither way of giving a payment is taken over the other: one that gives both is
    refused naming `units` and `amount`, and nothing is recorded (with rounds or without)."""
    with_rounds = worked_example(table)
    table.ok("POST", f"/sessions/{with_rounds}/rounds", PINTS, 201)
    without = table.session(dealer="Finn", ante=0, entry="totals")["id"]
    table.hand(without, NIGHT_OF_6C)
    both = "Give the payment in units or as an amount, not both."
    for sid in (with_rounds, without):
        version = table.ok("GET", f"/sessions/{sid}")["version"]
        paying = {"from": "Finn", "to": "Enda", "units": 40, "amount": "0.40"}
        response = table.post(f"/sessions/{sid}/payments", paying)
        assert error(response, 422, "units") == both
        assert [(e["field"], e["message"]) for e in response.get_json()["errors"]] == [
            ("units", both),
            ("amount", both),
        ]
        assert table.ok("GET", f"/sessions/{sid}/payments") == []
        assert table.ok("GET", f"/sessions/{sid}")["version"] == version


def test_a_night_finished_onto_the_tab_carries_its_rounds(table):
    sid = worked_example(table)
    table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    table.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund", "settle": "tab"})
    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    assert (settlement["on_tab"], settlement["transfers"]) == (True, [])
    (tab,) = table.ok("GET", f"/groups/{table.slug}/tab")["tabs"]
    assert {b["player"]: b["amount"] for b in tab["balances"]} == {
        "Enda": "-3.40",
        "John": "11.00",
        "Rex": "-0.10",
        "Finn": "-7.50",
    }
    assert sorted((t["from"], t["to"], t["amount"]) for t in tab["transfers"]) == [
        ("Enda", "John", "3.40"),
        ("Finn", "John", "7.50"),
        ("Rex", "John", "0.10"),
    ]


def test_stats_and_player_pages_keep_rounds_apart_from_winnings(table):
    sid = worked_example(table)
    table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    table.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)
    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    # Money is what the cards won; the rounds stand beside it.
    assert stats["John"]["amounts"] == {"EUR": "-0.30"}
    assert stats["John"]["rounds"] == {"EUR": {"paid": "18.40", "owed": "7.10"}}
    assert stats["Rex"]["rounds"] == {"EUR": {"paid": "7.50", "owed": "7.10"}}
    assert stats["Enda"]["rounds"] == {"EUR": {"paid": "0.00", "owed": "4.60"}}
    john = table.ok("GET", f"/groups/{table.slug}/players/John")
    assert john["totals"]["rounds"] == stats["John"]["rounds"]
    (night,) = john["sessions"]
    assert (night["money"], night["rounds_paid"], night["rounds_owed"]) == (
        "-0.30",
        "18.40",
        "7.10",
    )


def test_a_night_with_rounds_is_not_deleted_as_started_by_mistake(table):
    sid = table.session(players=["Ann", "Bob"], dealer="Bob")["id"]
    made = table.ok(
        "POST", f"/sessions/{sid}/rounds", {"amount": "5", "paid_by": "Ann", "for": ["Bob"]}, 201
    )
    message = error(table.delete(f"/sessions/{sid}"), 409)
    assert message == "Spot #1 has drinks or food: take them back before deleting it."
    assert table.delete(f"/sessions/{sid}/rounds/{made['id']}").status_code == 204
    assert table.delete(f"/sessions/{sid}").status_code == 204


def test_the_nights_sheet_pdf_has_the_rounds_and_the_totals(table):
    sid = worked_example(table)
    table.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    table.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)
    response = table.get(f"/sessions/{sid}/sheet.pdf")
    assert response.status_code == 200
    pages = PdfReader(io.BytesIO(response.get_data())).pages
    text = " ".join(" ".join(p.extract_text().split()) for p in pages)
    assert "Drinks and food" in text
    assert "John paid €18.40 for a round for Enda, John, Rex and Finn" in text
    assert "Total -€3.40 €11.00 -€0.10 -€7.50" in text
    assert "Finn pays John €7.50" in text
