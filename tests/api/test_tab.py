"""The tab (RULES.md §6a, API.md "The tab") and bank accounts with the EPC QR code (§6b):
nights finished onto the tab add up exactly in the currency's cents, payments lower what is
outstanding, and a euro transfer to a player with an account carries the code's text."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.backup import backup_group, restore_group
from tests.api.dbstate import snapshot
from tests.api.helpers import SEED_HAND_1, SEED_HAND_2, error
from tests.api.test_concurrency import all_at_once
from tests.api.test_points_for_money import rummy_to_104, totals

IBAN = "NL91ABNA0417164300"


def night_on_tab(table, unit_value: str = "0.01", settle: str = "tab", **options) -> int:
    """Seed 000's two hands (Enda +44, John +25, Rex -31, Finn -38 units), finished onto the tab."""
    sid = table.session(unit_value=unit_value, **options)["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    table.ok("POST", f"/sessions/{sid}/finish", {"settle": settle})
    return sid


def the_tab(table, currency: str = "EUR") -> dict:
    (found,) = [t for t in table.ok("GET", f"/groups/{table.slug}/tab")["tabs"]
                if t["currency"] == currency]  # fmt: skip
    return found


def outstanding(tab: dict) -> dict[str, str]:
    return {b["player"]: b["outstanding_amount"] for b in tab["balances"]}


def pay(table, source, target, paid, status=201, currency="EUR"):
    body = {"from": source, "to": target, "amount": paid, "currency": currency}
    return table.call("POST", f"/groups/{table.slug}/tab/payments", body)


def test_a_night_on_the_tab_has_no_transfers_of_its_own_and_the_tab_has_them(table):
    sid = night_on_tab(table)

    session = table.ok("GET", f"/sessions/{sid}")
    assert (session["status"], session["on_tab"]) == ("finished", True)
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert settled["on_tab"] is True and settled["transfers"] == []
    tab = the_tab(table)
    assert tab["sessions"] == [sid]
    assert tab["payments"] == []
    assert outstanding(tab) == {"Enda": "0.44", "John": "0.25", "Rex": "-0.31", "Finn": "-0.38"}
    assert tab["transfers"] == [
        {"from": "Finn", "to": "Enda", "amount": "0.38"},
        {"from": "Rex", "to": "Enda", "amount": "0.06"},
        {"from": "Rex", "to": "John", "amount": "0.25"},
    ]


def test_nights_at_different_unit_values_add_up_exactly_in_cents(table):
    night_on_tab(table, "0.01")
    night_on_tab(table, "0.005")  # half: Enda 0.22, John 0.125, Rex -0.155, Finn -0.19

    tab = the_tab(table)
    assert len(tab["sessions"]) == 2
    exact = {b["player"]: b["amount"] for b in tab["balances"]}
    assert exact == {"Enda": "0.66", "John": "0.38", "Rex": "-0.46", "Finn": "-0.57"}
    # 0.375 and -0.465 cannot both be paid in cents: one cent goes by largest remainder.
    settled = {b["player"]: b["settled"] for b in tab["balances"]}
    assert settled == {"Enda": "0.66", "John": "0.38", "Rex": "-0.47", "Finn": "-0.57"}
    assert tab["transfers"] == [
        {"from": "Finn", "to": "Enda", "amount": "0.57"},
        {"from": "Rex", "to": "Enda", "amount": "0.09"},
        {"from": "Rex", "to": "John", "amount": "0.38"},
    ]


def test_paying_part_lowers_the_tab_and_over_payment_names_what_is_due(table):
    night_on_tab(table)
    paid = pay(table, "finn", "Enda", "0.20").get_json()
    assert (paid["from"], paid["to"], paid["amount"], paid["currency"]) == (
        "Finn",
        "Enda",
        "0.20",
        "EUR",
    )
    assert outstanding(the_tab(table))["Finn"] == "-0.18"

    message = error(pay(table, "Finn", "Enda", "0.19"), 422, "amount")
    assert "€0.18" in message
    message = error(pay(table, "John", "Enda", "0.01"), 422, "amount")
    assert "Nothing is still due" in message
    error(pay(table, "Finn", "Enda", "0.001"), 422, "amount")
    error(pay(table, "Finn", "Enda", 0.1), 422, "amount")
    error(pay(table, "Finn", "Nobody", "0.01"), 422, "to")
    error(pay(table, "Finn", "Enda", "0.01", currency="GBP"), 422, "currency")
    assert len(the_tab(table)["payments"]) == 1

    table.ok("DELETE", f"/groups/{table.slug}/tab/payments/{paid['id']}", status=204)
    assert outstanding(the_tab(table))["Finn"] == "-0.38"
    error(table.delete(f"/groups/{table.slug}/tab/payments/{paid['id']}"), 404)


def test_two_phones_ticking_the_same_transfer_record_it_once(table):
    night_on_tab(table)
    table.ok("GET", f"/groups/{table.slug}/tab")

    answers = all_at_once(4, lambda i: pay(table, "Finn", "Enda", "0.38"))

    assert sorted(a.status_code for a in answers) == [201, 422, 422, 422]
    tab = the_tab(table)
    assert len(tab["payments"]) == 1 and outstanding(tab)["Finn"] == "0.00"


def test_a_correction_to_a_night_on_the_tab_changes_the_tab_at_once(table):
    sid = rummy_to_104(table, stake=1)  # ended by itself: Ann +113, Bob -44, Cas -69
    assert table.ok("POST", f"/sessions/{sid}/finish", {"settle": "tab"})["on_tab"] is True
    assert outstanding(the_tab(table)) == {"Ann": "1.13", "Bob": "-0.44", "Cas": "-0.69"}

    table.ok("PUT", f"/sessions/{sid}/hands/3", totals("Ann", Bob=60, Cas=54))

    # Ann went out holding Bob's 10 more: Ann 114, Bob 60, Cas 35.
    assert outstanding(the_tab(table)) == {"Ann": "1.33", "Bob": "-0.54", "Cas": "-0.79"}
    error(table.post(f"/sessions/{sid}/finish", {"settle": "tab"}), 409)


def test_a_night_on_the_tab_is_not_opened_again_by_an_undo_or_a_correction(app, table):
    """A points night that ended by itself stays finished while it is on the tab: an undo or a
    correction that would open it again is refused with a sentence (it would drop off the tab
    unseen, and the group's own backup would then be refused by the restore)."""
    sid = rummy_to_104(table, stake=1)
    table.ok("POST", f"/sessions/{sid}/finish", {"settle": "tab"})

    assert "take it off the tab before undoing" in error(
        table.delete(f"/sessions/{sid}/hands/3"), 409
    )
    under_target = totals("Ann", Bob=10, Cas=10)  # Ann 20: nobody at 100, the game goes on
    assert "would open it again" in error(table.put(f"/sessions/{sid}/hands/3", under_target), 409)
    night = table.ok("GET", f"/sessions/{sid}")
    assert (night["status"], night["on_tab"], night["hands_played"]) == ("finished", True, 3)
    assert outstanding(the_tab(table)) == {"Ann": "1.13", "Bob": "-0.44", "Cas": "-0.69"}
    with app.app_context():
        restore_group(json.loads(json.dumps(backup_group(table.slug))), slug="its-copy")

    table.ok("DELETE", f"/sessions/{sid}/tab")  # off the tab, its hands are the table's again
    table.ok("DELETE", f"/sessions/{sid}/hands/3", status=204)
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "open"


def test_a_finished_spot_night_cannot_go_on_the_tab_afterwards(table):
    sid = night_on_tab(table, settle="now")
    error(table.post(f"/sessions/{sid}/finish", {"settle": "tab"}), 409)


def test_a_night_comes_off_the_tab_only_while_the_tab_has_no_payment(table):
    first = night_on_tab(table)
    second = night_on_tab(table)

    off = table.ok("DELETE", f"/sessions/{second}/tab")
    assert off["on_tab"] is False
    assert the_tab(table)["sessions"] == [first]
    assert len(table.ok("GET", f"/sessions/{second}/settlement")["transfers"]) == 3
    error(table.delete(f"/sessions/{second}/tab"), 409)

    pay(table, "Finn", "Enda", "0.10")
    error(table.delete(f"/sessions/{first}/tab"), 409)
    assert the_tab(table)["sessions"] == [first]


def test_a_settled_tab_stays_until_the_next_night_starts_a_new_one(table):
    first = night_on_tab(table)
    for t in the_tab(table)["transfers"]:
        assert pay(table, t["from"], t["to"], t["amount"]).status_code == 201
    tab = the_tab(table)
    assert tab["transfers"] == [] and set(outstanding(tab).values()) == {"0.00"}
    assert tab["sessions"] == [first] and len(tab["payments"]) == 3

    second = night_on_tab(table)
    tab = the_tab(table)
    assert tab["sessions"] == [second] and tab["payments"] == []
    assert outstanding(tab)["Enda"] == "0.44"


def test_settle_is_checked(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    error(table.post(f"/sessions/{sid}/finish", {"settle": "later"}), 422, "settle")
    points = table.session(game="rummy")["id"]
    error(table.post(f"/sessions/{points}/finish", {"settle": "tab"}), 422, "settle")
    assert table.ok("GET", f"/sessions/{points}")["status"] == "open"
    # A night paid tonight is not on the tab.
    table.ok("POST", f"/sessions/{sid}/finish", {"settle": "now"})
    assert table.ok("GET", f"/sessions/{sid}")["on_tab"] is False
    assert table.ok("GET", f"/groups/{table.slug}/tab") == {"tabs": []}


def test_a_carried_pot_on_the_tab_is_kept_by_the_player_owed_most(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)  # pot 20 stays
    table.ok("POST", f"/sessions/{sid}/finish", {"settle": "tab", "leftover_pot": "carry"})
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["pot_keeper"] == "John"
    tab = the_tab(table)
    assert sum(int(b["outstanding_amount"].replace(".", "")) for b in tab["balances"]) == 0


def test_a_session_payment_on_a_night_on_the_tab_is_refused(table):
    sid = night_on_tab(table)
    body = {"from": "Finn", "to": "Enda", "units": 38}
    error(table.post(f"/sessions/{sid}/payments", body), 409)


def test_bank_account_is_checked_kept_and_coded_on_euro_transfers(table):
    sid = night_on_tab(table)
    path = f"/groups/{table.slug}/players/Enda/account"
    kept = table.ok("PUT", path, {"iban": "nl91 abna 0417 1643 00", "name": "E. Byrne"})
    assert kept == {"iban": IBAN, "name": "E. Byrne"}

    tab = the_tab(table)
    to_enda = [t for t in tab["transfers"] if t["to"] == "Enda"]
    assert to_enda[0]["epc"] == (
        f"BCD\n002\n1\nSCT\n\nE. Byrne\n{IBAN}\nEUR0.38\n\n\nPub Ledger Thursday Crowd tab"
    )
    assert all("epc" not in t for t in tab["transfers"] if t["to"] != "Enda")

    table.ok("DELETE", f"/sessions/{sid}/tab")
    night = table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]
    assert night[0]["epc"].endswith(f"\nPub Ledger Thursday Crowd Spot #{sid}")

    table.ok("DELETE", path, status=204)
    assert "epc" not in table.ok("GET", f"/sessions/{sid}/settlement")["transfers"][0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"iban": "NL92ABNA0417164300", "name": "E"}, "iban"),  # bad check digits
        ({"iban": "NL91ABNA041716430", "name": "E"}, "iban"),  # one short
        ({"iban": "ZZ91ABNA0417164300", "name": "E"}, "iban"),
        ({"iban": "1" * 10_000, "name": "E"}, "iban"),
        ({"iban": "NL91\x00ABNA0417164300", "name": "E"}, "iban"),
        ({"iban": IBAN, "name": "x" * 10_000}, "name"),
        ({"iban": IBAN, "name": "Enda\nByrne"}, "name"),
        ({"iban": IBAN, "name": ""}, "name"),
        ({"iban": 12, "name": "E"}, "iban"),
    ],
)
def test_a_bad_account_is_refused_naming_the_field(table, body, field):
    table.ok("POST", f"/groups/{table.slug}/players", {"name": "Enda"}, 201)
    error(table.put(f"/groups/{table.slug}/players/Enda/account", body), 422, field)
    assert table.get(f"/groups/{table.slug}/players/Enda").status_code == 200


def test_non_euro_transfers_carry_no_code(table):
    night_on_tab(table, currency="GBP")
    table.ok("PUT", f"/groups/{table.slug}/players/Enda/account", {"iban": IBAN, "name": "E"})
    assert all("epc" not in t for t in the_tab(table, "GBP")["transfers"])


def test_another_groups_tab_is_not_found(table, other):
    sid = night_on_tab(table)
    paid = pay(table, "Finn", "Enda", "0.10").get_json()
    error(other.get(f"/groups/{table.slug}/tab"), 404)
    body = {"from": "Finn", "to": "Enda", "amount": "0.01", "currency": "EUR"}
    error(other.post(f"/groups/{table.slug}/tab/payments", body), 404)
    error(other.post(f"/groups/{other.slug}/tab/payments", body), 422, "currency")
    error(other.delete(f"/groups/{other.slug}/tab/payments/{paid['id']}"), 404)
    error(other.delete(f"/sessions/{sid}/tab"), 404)
    error(other.put(f"/groups/{other.slug}/players/Enda/account",
                    {"iban": IBAN, "name": "E"}), 404)  # fmt: skip
    assert len(the_tab(table)["payments"]) == 1


def test_a_month_of_thursdays_on_the_tab(table):
    """Four Thursdays: Spot at a cent and at half a cent, a Rummy game for a stake corrected
    after it went on the tab, one night taken off again; then Finn pays part, two phones tick
    the same transfer, and paying what is left settles the tab to the cent."""
    spot_1 = night_on_tab(table, "0.01")
    spot_2 = night_on_tab(table, "0.005")
    wrong = night_on_tab(table, "0.01")
    table.ok("DELETE", f"/sessions/{wrong}/tab")  # finished onto the tab by mistake
    rummy = rummy_to_104(table, stake=1)
    table.ok("POST", f"/sessions/{rummy}/finish", {"settle": "tab"})
    table.ok("PUT", f"/sessions/{rummy}/hands/3", totals("Ann", Bob=60, Cas=54))

    tab = the_tab(table)
    assert tab["sessions"] == [spot_1, spot_2, rummy]
    assert outstanding(tab) == {
        "Ann": "1.33", "Enda": "0.66", "John": "0.38", "Rex": "-0.47", "Bob": "-0.54",
        "Finn": "-0.57", "Cas": "-0.79",
    }  # fmt: skip
    assert sum(Decimal(v) for v in outstanding(tab).values()) == 0

    assert pay(table, "Finn", "Enda", "0.30").status_code == 201
    transfers = the_tab(table)["transfers"]
    first = transfers[0]
    answers = all_at_once(2, lambda i: pay(table, first["from"], first["to"], first["amount"]))
    assert sorted(a.status_code for a in answers) == [201, 422]
    for t in the_tab(table)["transfers"]:
        assert pay(table, t["from"], t["to"], t["amount"]).status_code == 201
    tab = the_tab(table)
    assert tab["transfers"] == [] and set(outstanding(tab).values()) == {"0.00"}
    error(table.delete(f"/sessions/{spot_1}/tab"), 409)
    # The night taken off is settled on its own, as ever.
    assert len(table.ok("GET", f"/sessions/{wrong}/settlement")["transfers"]) == 3


def test_a_game_that_ended_before_the_tab_was_settled_starts_the_next_tab(table):
    rummy = rummy_to_104(table, stake=1)  # ended by itself, not on the tab yet
    night_on_tab(table)
    for t in the_tab(table)["transfers"]:
        pay(table, t["from"], t["to"], t["amount"])
    assert the_tab(table)["transfers"] == []

    table.ok("POST", f"/sessions/{rummy}/finish", {"settle": "tab"})

    tab = the_tab(table)
    assert tab["sessions"] == [rummy] and tab["payments"] == []
    assert outstanding(tab) == {"Ann": "1.13", "Bob": "-0.44", "Cas": "-0.69"}


def test_a_player_named_with_a_slash_keeps_an_account_and_is_read_through_the_api(table):
    """Issue 38: "AC/DC" could keep no bank account and was 404 through the API."""
    players = f"/groups/{table.slug}/players"
    table.ok("POST", players, {"name": "AC/DC"}, 201)
    account = {"iban": IBAN, "name": "Angus Young"}
    assert table.ok("PUT", f"{players}/AC/DC/account", account)["name"] == "Angus Young"
    assert table.ok("GET", f"{players}/AC/DC")["name"] == "AC/DC"
    assert table.ok("GET", f"{players}/ac/dc")["name"] == "AC/DC"
    table.ok("DELETE", f"{players}/AC/DC/account", status=204)
    error(table.get(f"{players}/AC"), 404)


@pytest.mark.parametrize("name", ["/DC", "..", ".", "AC/../DC", "AC/./DC", "AC/.."])
def test_a_new_name_an_address_cannot_carry_is_refused_with_a_sentence(app, table, name):
    before = snapshot(app)
    refused = table.post(f"/groups/{table.slug}/players", {"name": name})
    assert "web address" in error(refused, 422, "name")
    body = {"game": "spot", "players": ["Enda", name], "dealer": "Enda"}
    assert "web address" in error(
        table.post(f"/groups/{table.slug}/sessions", body), 422, "players[1]"
    )
    assert snapshot(app) == before
