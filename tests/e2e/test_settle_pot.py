"""Settling up before the night is finished, on a phone: the payments follow the pot's fate."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}  # nobody out: pot 20
REFUND = ["Enda pays John €0.20", "Finn pays John €0.20", "Rex pays John €0.11"]
# Carried, the pot is paid to its keeper, John (owed the most), as the page proposes.
CARRY = ["Enda pays John €0.25", "Finn pays John €0.25", "Rex pays John €0.16"]
KEPT = "John keeps the pot of €0.20 for the next Spot night"


def test_changing_what_happens_to_the_pot_changes_the_payments_and_what_finishing_does(
    new_phone, live_server
):
    api = new_group(live_server, name="The snug", passphrase="pints of plain")
    session = new_spot_session(api, PLAYERS, dealer="Finn", options={"leftover_pot": "refund"})
    api.ok("POST", f"/sessions/{session['id']}/hands", hand_entry(HAND_1), 201)

    phone = new_phone("settle-pot")
    page = phone.page
    phone.sign_in(api.slug or "", "pints of plain")
    page.goto(f"/g/{api.slug}/s/{session['id']}/settle")
    payments = phone.region("Who pays whom").get_by_role("listitem")
    expect(payments).to_have_text(REFUND)
    expect(
        page.get_by_role("radio", name="Give the antes back to those who paid them")
    ).to_be_checked()
    expect(phone.button("Show the payments")).to_have_count(0)  # the choice itself shows them
    phone.shot("settle-up-refund")

    carry = page.get_by_role("radio", name="Carry it to the next Spot session")
    carry.check()
    expect(payments).to_have_text(CARRY)
    expect(carry).to_be_checked()
    expect(carry).to_be_focused()
    phone.button("Copy as text").tap()
    expect(page.get_by_text("Copied: paste it into the group chat.")).to_be_visible()
    lines = page.evaluate("navigator.clipboard.readText()").splitlines()
    assert lines[0] == "Spot #1: settling up"
    assert re.fullmatch(r"The snug · \w+day \d+ \w+ \d{4}", lines[1]), lines[1]
    assert lines[2:] == [*CARRY, KEPT]
    phone.shot("settle-up-carry")

    phone.confirm_next()  # "Finish the night?" (issue 29: it asks first)
    phone.button("Finish the night").tap()
    expect(phone.status()).to_have_text("The session is finished.")
    expect(page.get_by_text(KEPT, exact=True)).to_be_visible()
    expect(payments).to_have_text(CARRY)
    assert api.ok("GET", f"/sessions/{session['id']}")["leftover_pot"] == "carry"
