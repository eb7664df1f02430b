"""A club evening of 7 in Chromium (RULES.md §19): seven phones new to the group (no cookies,
no passphrase) check in by the link of the QR code, the organiser's page draws a table of 4
and one of 3, every phone opens its own table by itself, and the organiser's page follows
both tables live as they play a round; closed, its settle-up's ticks are shared."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import new_group

SEVEN = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus"]
PASSPHRASE = "pints of plain"


def test_seven_phones_check_in_and_the_organiser_follows_two_tables(new_phone, live_server):
    api = new_group(live_server, passphrase=PASSPHRASE)
    options = {"ante": 0, "entry": "totals"}
    body = {"name": "Spot drive", "game": "spot", "options": options, "entry_fee": 500}
    evening = api.ok("POST", f"/groups/{api.slug}/evenings", body, 201)
    wall = new_phone("evening-wall")
    wall.sign_in(api.slug or "", PASSPHRASE)
    wall.page.goto(f"/g/{api.slug}/evenings/{evening['id']}")
    expect(wall.heading("Spot drive")).to_be_visible()
    expect(wall.page.locator("#check-in svg")).to_be_visible()
    link = wall.page.locator("#check-in-link").get_attribute("href") or ""
    wall.check_width("evening before the draw")

    expect(wall.page.locator("#check-in-until time")).to_be_visible()  # when the code ends
    assert "/join/" in link  # an invite to the group, landing on the check-in

    phones = {}
    for name in SEVEN:
        # A phone new to the group: a browser of its own, no cookies, never told the
        # passphrase. The code signs it in and lands on the evening's check-in.
        phone = new_phone(f"evening-{name.lower()}")
        phone.page.goto(link)
        expect(phone.page).to_have_url(re.compile(rf"/evenings/{evening['id']}/check-in$"))
        phone.page.get_by_label("Not in the list? Your name").fill(name)
        phone.button("Check in").tap()
        expect(phone.page.locator("#waiting")).to_contain_text("Waiting for the draw")
        phones[name] = phone
    wall.next_look()
    expect(wall.page.locator("#players-heading")).to_have_text("7 players checked in")

    wall.button("Draw round 1").tap()
    tables = wall.page.locator("#round-1 .table-live")
    expect(tables).to_have_count(2)
    wall.check_width("evening drawn")
    drawn = api.ok("GET", f"/groups/{api.slug}/evenings/{evening['id']}")["rounds"][0]["tables"]
    assert sorted(len(t["players"]) for t in drawn) == [3, 4]
    for table in drawn:
        for seat, name in enumerate(table["players"], start=1):
            page = phones[name].page
            # The waiting page asks again every few seconds and opens the table by itself.
            expect(page).to_have_url(re.compile(rf"/s/{table['session']}$"), timeout=15_000)
            expect(page.locator(".flash-success")).to_contain_text(
                f"Table {table['table']}, seat {seat}"
            )

    for table in drawn:
        spots = {p: i for i, p in enumerate(table["players"], start=1)}
        entry = {"results": [{"player": p, "spots": s} for p, s in spots.items()]}
        api.ok("POST", f"/sessions/{table['session']}/hands", entry, 201)
    wall.next_look()
    for t in (1, 2):
        expect(wall.page.locator(f"#table-1-{t}")).to_contain_text("1 hand")
    for table in drawn:
        api.ok("POST", f"/sessions/{table['session']}/finish", {"leftover_pot": "refund"})
    wall.next_look()
    expect(wall.page.locator("#round-1-heading")).to_contain_text("finished")
    expect(wall.button("Draw round 2")).to_be_visible()
    expect(wall.page.locator("#list tbody tr")).to_have_count(7)
    wall.shot("evening list")

    # Closed after one round: its settle-up has a tick per payment, shared by every phone.
    wall.button("Close and settle up").tap()
    first = wall.page.locator("#evening-settle button.tick").first
    expect(first).to_have_attribute("aria-pressed", "false")
    first.tap()
    expect(wall.status()).to_contain_text("Ticked: ")
    expect(wall.page.locator("#evening-settle button.tick").first).to_have_attribute(
        "aria-pressed", "true"
    )
    wall.check_width("evening settled")
    ann = phones["Ann"].page
    ann.goto(f"/g/{api.slug}/evenings/{evening['id']}")
    expect(ann.locator('#evening-settle button.tick[aria-pressed="true"]')).to_have_count(1)
