"""RULES.md §19 in Chromium at 390 × 844: a phone set as Cas's on the group page (Cas checked in
by hand, never by the check-in code) follows the evening's page; when the round is drawn
elsewhere it is taken to Cas's table by itself, told the seat; back on the evening's page the
seat stands large with the table's link, and the page stays put as the tables play on."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_this_phone import this_phone_is
from tests.live.api import new_group

FOUR = ["Ann", "Bob", "Cas", "Dee"]
PASSPHRASE = "pints of plain"


def test_a_phone_of_a_player_checked_in_by_hand_is_taken_to_its_table(new_phone, live_server):
    api = new_group(live_server, passphrase=PASSPHRASE)
    body = {"name": "Cribbage drive", "game": "cribbage", "rounds": 2}
    evening = api.ok("POST", f"/groups/{api.slug}/evenings", body, 201)
    at = f"/groups/{api.slug}/evenings/{evening['id']}"
    for name in FOUR:  # the organiser checks everyone in by hand
        api.ok("POST", f"{at}/players", {"player": name}, 201)

    cas = new_phone("evening-seat-cas")
    cas.sign_in(api.slug or "", PASSPHRASE)
    this_phone_is(cas, "Cas")
    where = f"/g/{api.slug}/evenings/{evening['id']}"
    cas.page.goto(where)
    expect(cas.heading("Cribbage drive")).to_be_visible()
    expect(cas.page.locator("#your-seat")).to_have_count(0)

    tables = api.ok("POST", f"{at}/rounds", {}, 201)["tables"]  # drawn on another phone
    table = next(t for t in tables if "Cas" in t["players"])
    seat = table["players"].index("Cas") + 1
    cas.next_look()
    expect(cas.page).to_have_url(re.compile(rf"/s/{table['session']}$"), timeout=15_000)
    expect(cas.page.locator(".flash-success")).to_contain_text(
        f"Table {table['table']}, seat {seat}"
    )

    cas.page.goto(where)
    expect(cas.page.locator("#seat")).to_have_text(f"Table {table['table']}, seat {seat}")
    expect(cas.page.locator("#your-table")).to_have_attribute(
        "href", f"/g/{api.slug}/s/{table['session']}"
    )
    cas.check_width("evening's page with the phone's seat")
    # A hand at a table moves the page on, and the phone stays on it: it went once, at the draw.
    other = next(t for t in tables if "Cas" not in t["players"])
    api.ok("POST", f"/sessions/{other['session']}/finish", {})
    cas.next_look()
    expect(cas.page.locator(f"#table-1-{other['table']}")).to_contain_text("finished")
    expect(cas.page).to_have_url(re.compile(rf"/evenings/{evening['id']}$"))
    cas.shot("evening seat")
