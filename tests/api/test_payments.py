"""Paying up at the table (RULES.md §2 "Paying up", API.md "Payments" and "Coins"): payments
recorded in the session lower what is outstanding, and the settlement settles only that."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error, hand_of
from tests.api.test_concurrency import all_at_once

# Seed 000 after two hands: Enda +44, John +25, Rex -31, Finn -38; the pot is empty.
SEED_TRANSFERS = [
    {"from": "Finn", "to": "Enda", "units": 38, "amount": "0.38"},
    {"from": "Rex", "to": "Enda", "units": 6, "amount": "0.06"},
    {"from": "Rex", "to": "John", "units": 25, "amount": "0.25"},
]


@pytest.fixture
def night(table) -> int:
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    return sid


def pay(table, sid: int, source: str, target: str, units, status: int = 201):
    return table.ok("POST", f"/sessions/{sid}/payments", payment(source, target, units), status)


def payment(source, target, units) -> dict:
    return {"from": source, "to": target, "units": units}


def outstanding(settlement: dict) -> dict[str, int]:
    return {b["player"]: b["outstanding"] for b in settlement["balances"]}


def test_a_payment_is_recorded_listed_and_lowers_what_is_outstanding(table, night):
    version = table.ok("GET", f"/sessions/{night}")["version"]

    paid = pay(table, night, "Finn", "Enda", 38)

    assert set(paid) == {"id", "from", "to", "units", "amount", "at"}
    assert (paid["from"], paid["to"], paid["units"], paid["amount"]) == ("Finn", "Enda", 38, "0.38")
    at = datetime.fromisoformat(paid["at"].replace("Z", "+00:00"))
    assert abs((datetime.now(UTC) - at).total_seconds()) < 60
    assert table.ok("GET", f"/sessions/{night}/payments") == [paid]

    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert settled["payments"] == [paid]
    assert outstanding(settled) == {"Enda": 6, "John": 25, "Rex": -31, "Finn": 0}
    # The scores and the balances themselves do not move: a payment is not a hand.
    assert {b["player"]: b["units"] for b in settled["balances"]} == {
        "Enda": 44,
        "John": 25,
        "Rex": -31,
        "Finn": -38,
    }
    assert settled["transfers"] == SEED_TRANSFERS[1:]
    session = table.ok("GET", f"/sessions/{night}")
    assert session["scores"] == {"Enda": 44, "John": 25, "Rex": -31, "Finn": -38}
    assert session["version"] == version + 1  # every phone's page follows
    (line,) = [c for c in table.ok("GET", f"/sessions/{night}/history") if c["version"] > version]
    assert line["kind"] == "payment.recorded"
    assert line["after"] == {"from": "Finn", "to": "Enda", "units": 38}


def test_before_any_payment_everything_is_outstanding(table, night):
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert settled["payments"] == []
    assert settled["transfers"] == SEED_TRANSFERS
    for b in settled["balances"]:
        assert b["outstanding"] == b["units"]
        assert b["settled"] == b["amount"] == b["outstanding_amount"]


def test_names_are_matched_whatever_their_case(table, night):
    paid = pay(table, night, "finn", " ENDA ", 38)
    assert (paid["from"], paid["to"]) == ("Finn", "Enda")


def test_a_payment_need_not_be_one_of_the_transfers(table, night):
    """Rex hands Enda 10 instead of the 6 the list says: still within what each owes or is
    owed, so it counts, and the transfers are worked out again for what is left."""
    pay(table, night, "Rex", "Enda", 10)
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert outstanding(settled) == {"Enda": 34, "John": 25, "Rex": -21, "Finn": -38}
    assert len(settled["transfers"]) == 3


def test_paying_part_of_a_transfer_leaves_the_rest_to_pay(table, night):
    pay(table, night, "Rex", "John", 20)
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert outstanding(settled) == {"Enda": 44, "John": 5, "Rex": -11, "Finn": -38}
    assert {(t["from"], t["to"], t["units"]) for t in settled["transfers"]} == {
        ("Finn", "Enda", 38),
        ("Rex", "Enda", 6),
        ("Rex", "John", 5),
    }


def test_the_same_transfer_ticked_twice_is_refused_naming_what_is_still_due(table, night):
    pay(table, night, "Finn", "Enda", 38)
    version = table.ok("GET", f"/sessions/{night}")["version"]

    response = table.post(f"/sessions/{night}/payments", payment("Finn", "Enda", 38))

    message = error(response, 422, "units")
    assert "Nothing is still due from Finn to Enda" in message
    assert len(table.ok("GET", f"/sessions/{night}/payments")) == 1
    assert table.ok("GET", f"/sessions/{night}")["version"] == version


@pytest.mark.parametrize(
    ("source", "target", "units", "due"),
    [
        ("Finn", "Enda", 39, "€0.38"),  # Finn would be owed a unit
        ("Rex", "John", 26, "€0.25"),  # John would owe a unit
        ("Rex", "Enda", 32, "€0.31"),  # Enda is owed 44, but Rex owes only 31
    ],
)
def test_paying_more_than_is_due_is_refused_naming_the_amount_due(
    table, night, source, target, units, due
):
    response = table.post(f"/sessions/{night}/payments", payment(source, target, units))
    assert f"Only {due} is still due from {source} to {target}" in error(response, 422, "units")
    assert table.ok("GET", f"/sessions/{night}/payments") == []


def test_a_payment_between_two_who_are_owed_or_two_who_owe_is_refused(table, night):
    for source, target in (("Enda", "John"), ("Finn", "Rex"), ("Enda", "Finn")):
        response = table.post(f"/sessions/{night}/payments", payment(source, target, 1))
        assert "Nothing is still due" in error(response, 422, "units")
    assert table.ok("GET", f"/sessions/{night}/payments") == []


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (payment("Nora", "Enda", 5), "from", "Nora is not a player in this session."),
        (payment("Finn", "Nobody", 5), "to", "Nobody is not a player in this session."),
        (payment("Finn", "finn", 5), "to", "Finn cannot pay themselves."),
        (payment("", "Enda", 5), "from", "Say who paid."),
        ({"to": "Enda", "units": 5}, "from", "Say who paid."),
        (payment("Finn", None, 5), "to", "Say who was paid."),
        (payment("Finn", "Enda", 0), "units", "whole number above 0"),
        (payment("Finn", "Enda", -38), "units", "whole number above 0"),
        ({"from": "Finn", "to": "Enda"}, "units", "whole number above 0"),
        (payment("Finn", "Enda", 2**31), "units", "far too large"),
        (payment("Finn", "Enda", 10**40), "units", "far too large"),
    ],
)
def test_a_bad_payment_is_refused_naming_the_field_and_nothing_is_stored(
    table, night, body, field, words
):
    version = table.ok("GET", f"/sessions/{night}")["version"]
    response = table.post(f"/sessions/{night}/payments", body)
    assert words in error(response, 422, field)
    assert table.ok("GET", f"/sessions/{night}/payments") == []
    assert table.ok("GET", f"/sessions/{night}")["version"] == version


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (payment("Finn", "Enda", "38"), "units"),
        (payment("Finn", "Enda", 3.5), "units"),
        (payment("Finn", "Enda", True), "units"),
        (payment(7, "Enda", 38), "from"),
        (payment("Finn", ["Enda"], 38), "to"),
    ],
)
def test_a_payment_of_the_wrong_type_is_refused_naming_the_field(table, night, body, field):
    error(table.post(f"/sessions/{night}/payments", body), 422, field)
    assert table.ok("GET", f"/sessions/{night}/payments") == []


def test_a_payment_that_is_not_json_is_refused_415(table, night):
    response = table.post(
        f"/sessions/{night}/payments", data="from=Finn", content_type="text/plain", json=None
    )
    error(response, 415)


def test_taking_a_payment_back_makes_it_owed_again(table, night):
    paid = pay(table, night, "Finn", "Enda", 38)
    version = table.ok("GET", f"/sessions/{night}")["version"]

    response = table.delete(f"/sessions/{night}/payments/{paid['id']}")

    assert response.status_code == 204 and response.data == b""
    assert table.ok("GET", f"/sessions/{night}/payments") == []
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert settled["transfers"] == SEED_TRANSFERS
    assert table.ok("GET", f"/sessions/{night}")["version"] == version + 1
    last = table.ok("GET", f"/sessions/{night}/history")[-1]
    assert last["kind"] == "payment.deleted"
    assert last["before"] == {"from": "Finn", "to": "Enda", "units": 38, "at": paid["at"]}
    # Taken back once: a second time there is nothing to take back.
    error(table.delete(f"/sessions/{night}/payments/{paid['id']}"), 404)


def test_another_groups_session_and_payments_are_not_found(table, other, night):
    paid = pay(table, night, "Finn", "Enda", 38)
    for response in (
        other.get(f"/sessions/{night}/payments"),
        other.post(f"/sessions/{night}/payments", payment("Rex", "John", 5)),
        other.delete(f"/sessions/{night}/payments/{paid['id']}"),
    ):
        error(response, 404)
    assert table.ok("GET", f"/sessions/{night}/payments") == [paid]


def test_a_payment_of_another_session_or_none_at_all_is_not_found(table, night):
    paid = pay(table, night, "Finn", "Enda", 38)
    second = table.session()["id"]
    error(table.delete(f"/sessions/{second}/payments/{paid['id']}"), 404)
    error(table.delete(f"/sessions/{night}/payments/12345"), 404)
    error(table.delete(f"/sessions/{night}/payments/99999999999"), 404)
    error(table.post("/sessions/12345/payments", payment("Finn", "Enda", 1)), 404)
    error(table.get("/sessions/12345/payments"), 404)
    assert table.ok("GET", f"/sessions/{night}/payments") == [paid]


def test_payments_need_the_groups_passphrase(table, night):
    for response in (
        table.get(f"/sessions/{night}/payments", headers={}),
        table.post(f"/sessions/{night}/payments", payment("Finn", "Enda", 38), headers={}),
        table.delete(f"/sessions/{night}/payments/1", headers={}),
    ):
        error(response, 401)
    assert table.ok("GET", f"/sessions/{night}/payments") == []


def test_a_points_game_has_no_money_to_pay(table):
    sid = table.session(["Ann", "Bob"], "Ann", game="rummy")["id"]
    response = table.post(f"/sessions/{sid}/payments", payment("Ann", "Bob", 5))
    assert "played for points" in error(response, 422)
    assert table.ok("GET", f"/sessions/{sid}/payments") == []


def test_a_finished_night_is_paid_up_after_it_is_finished(table, night):
    table.ok("POST", f"/sessions/{night}/finish", {"leftover_pot": "carry"})
    for t in SEED_TRANSFERS:
        pay(table, night, t["from"], t["to"], t["units"])
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert settled["transfers"] == []
    assert set(outstanding(settled).values()) == {0}
    assert [(p["from"], p["to"], p["units"]) for p in settled["payments"]] == [
        (t["from"], t["to"], t["units"]) for t in SEED_TRANSFERS
    ]


def test_a_correction_after_a_payment_settles_what_is_outstanding_now(table, night):
    """Finn paid his 38; then hand 2 is corrected and Finn only owed 33: the settle-up pays
    him back the 5, and his payment stays listed."""
    paid = pay(table, night, "Finn", "Enda", 38)
    fixed = hand_of({"John": "5-5-6", "Rex": "K", "Finn": "3"}, out="Enda")
    fixed["results"].insert(0, {"player": "Enda", "cards": ""})
    table.ok("PUT", f"/sessions/{night}/hands/2", fixed)

    settled = table.ok("GET", f"/sessions/{night}/settlement")
    units = {b["player"]: b["units"] for b in settled["balances"]}
    assert units["Finn"] == -33
    assert settled["payments"] == [paid]
    left = outstanding(settled)
    assert left["Finn"] == 5  # paid 5 more than he now owes: owed back
    assert sum(left.values()) == sum(units.values()) == -settled["pot"]
    assert ("Finn" in {t["to"] for t in settled["transfers"]}) and all(
        t["from"] != "Finn" for t in settled["transfers"]
    )
    # The transfers settle exactly what is outstanding.
    after = Counter(left)
    for t in settled["transfers"]:
        after[t["from"]] += t["units"]
        after[t["to"]] -= t["units"]
    assert set(after.values()) == {0}


def test_swiss_francs_keep_the_exact_amount_and_settle_in_five_rappen_coins(table):
    """A unit of CHF 0.01 where the smallest coin is 0.05: Enda's 37 units are CHF 0.37 exactly,
    settled as 0.35; ticking that transfer pays it, though it leaves 2 units (no coin)."""
    sid = table.session(["Enda", "John"], "Enda", ante=0, currency="CHF", unit_value="0.01")["id"]
    table.hand(sid, hand_of({"Enda": "K K K 7", "John": ""}, out="John"))

    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    balances = {b["player"]: b for b in settled["balances"]}
    assert (balances["Enda"]["amount"], balances["Enda"]["settled"]) == ("-0.37", "-0.35")
    assert (balances["John"]["amount"], balances["John"]["settled"]) == ("0.37", "0.35")
    assert table.ok("GET", f"/sessions/{sid}")["money"] == {"Enda": "-0.37", "John": "0.37"}
    (transfer,) = settled["transfers"]
    assert (transfer["from"], transfer["to"], transfer["amount"]) == ("Enda", "John", "0.35")

    pay(table, sid, "Enda", "John", transfer["units"])
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settled["transfers"] == []
    assert outstanding(settled) == {"Enda": -2, "John": 2}
    assert {b["outstanding_amount"] for b in settled["balances"]} == {"0.00"}
    # Less than a coin is still due; a coin more is refused.
    error(table.post(f"/sessions/{sid}/payments", payment("Enda", "John", 7)), 422, "units")


def test_a_coin_rounded_transfer_above_the_exact_debt_can_be_ticked(table):
    """38 units are CHF 0.38, paid as 0.40 (40 units): the tick must go through."""
    sid = table.session(["Enda", "John"], "Enda", ante=0, currency="CHF", unit_value="0.01")["id"]
    table.hand(sid, hand_of({"Enda": "K K K 8", "John": ""}, out="John"))
    (transfer,) = table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]
    assert (transfer["amount"], transfer["units"]) == ("0.40", 40)

    pay(table, sid, "Enda", "John", 40)
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settled["transfers"] == [] and outstanding(settled) == {"Enda": 2, "John": -2}
    # The same tick again is refused: Enda owes nothing now.
    error(table.post(f"/sessions/{sid}/payments", payment("Enda", "John", 40)), 422, "units")


def test_two_phones_ticking_the_same_transfer_at_once_record_it_once(table, night):
    table.ok("GET", f"/sessions/{night}")  # remembered: the threads need no slow check
    version = table.ok("GET", f"/sessions/{night}")["version"]

    answers = all_at_once(
        4, lambda i: table.post(f"/sessions/{night}/payments", payment("Finn", "Enda", 38))
    )

    assert sorted(a.status_code for a in answers) == [201, 422, 422, 422]
    assert len(table.ok("GET", f"/sessions/{night}/payments")) == 1
    assert table.ok("GET", f"/sessions/{night}")["version"] == version + 1


def test_two_phones_ticking_different_transfers_at_once_record_both(table, night):
    table.ok("GET", f"/sessions/{night}")
    answers = all_at_once(
        3,
        lambda i: table.post(
            f"/sessions/{night}/payments",
            payment(SEED_TRANSFERS[i]["from"], SEED_TRANSFERS[i]["to"], SEED_TRANSFERS[i]["units"]),
        ),
    )
    assert [a.status_code for a in answers] == [201] * 3
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    assert settled["transfers"] == [] and len(settled["payments"]) == 3


def test_two_phones_taking_back_one_tick_at_once_take_it_back_once(table, night):
    paid = pay(table, night, "Finn", "Enda", 38)
    version = table.ok("GET", f"/sessions/{night}")["version"]
    answers = all_at_once(2, lambda i: table.delete(f"/sessions/{night}/payments/{paid['id']}"))
    assert sorted(a.status_code for a in answers) == [204, 404]
    assert table.ok("GET", f"/sessions/{night}")["version"] == version + 1
