"""RULES.md §6c's worked example on two phones at 390 × 844: a round added on one shows on the
other without a reload, the second (a Dutch page) adds the crisps with a comma, and the
settle-up shows game money, rounds and totals side by side, with the bank QR code beside the
transfer it pays, naming it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
PASSPHRASE = "pints of plain"
# The live pages ask for the session's version every 3 s: a change shows within that.
LIVE = 8_000


def test_the_worked_example_of_rules_6c_on_two_phones(new_phone, live_server):
    api = new_group(live_server, passphrase=PASSPHRASE)
    sid = new_spot_session(api, PLAYERS, "Finn", {"ante": 0, "entry": "totals"})["id"]
    spots = {"Enda": 1, "John": 30, "Rex": 50, "Finn": 40}
    entry = {"results": [{"player": p, "spots": s} for p, s in spots.items()]}
    api.ok("POST", f"/sessions/{sid}/hands", entry, 201)
    account = {"iban": "NL91ABNA0417164300", "name": "J. Byrne"}
    api.ok("PUT", f"/groups/{api.slug}/players/John/account", account)

    mine, theirs = new_phone("rounds-mine"), new_phone("rounds-theirs")
    board = f"/g/{api.slug}/s/{sid}"
    for phone in (mine, theirs):
        phone.sign_in(api.slug or "", PASSPHRASE)
    theirs.page.context.add_cookies([{"name": "lang", "value": "nl", "url": live_server}])
    for phone in (mine, theirs):
        phone.page.goto(board)

    # Mine: "Add drinks or food", John paid €18.40 for everyone at the table.
    mine.link("Add drinks or food").tap()
    expect(mine.heading(re.compile("^Add drinks or food"))).to_be_visible()
    amount = mine.page.get_by_label("Amount (EUR)")
    expect(amount).to_have_attribute("inputmode", "decimal")
    for name in PLAYERS:
        expect(mine.page.get_by_role("checkbox", name=name)).to_be_checked()
    assert not mine.too_small(
        [mine.page.locator("#round-form label.check"), mine.page.locator("#save-round")]
    )
    mine.shot("form")
    mine.page.get_by_role("radio", name="John").check()
    amount.fill("18.40")
    mine.page.get_by_label("What was it? (optional)").fill("a round")
    mine.button("Save drinks or food").tap()
    expect(mine.status()).to_have_text(
        "Saved: John paid €18.40 for a round for Enda, John, Rex and Finn."
    )
    parts = "Enda €4.60 · John €4.60 · Rex €4.60 · Finn €4.60"
    expect(mine.page.locator("#rounds .parts")).to_have_text([parts])
    mine.shot("one-round")

    # Theirs follows without a reload, in Dutch (what was typed stays as it was typed).
    theirs.next_look()
    expect(theirs.page.locator("#rounds .what")).to_have_text(
        ["John betaalde €\xa018,40 voor a round voor Enda, John, Rex en Finn"], timeout=LIVE
    )

    # Theirs: Rex paid 7,50 for crisps for John, Rex and Finn (Enda unticked). The last payer
    # (John) comes first, said so, and nobody is chosen until the player says who paid.
    theirs.link("Drankjes of eten toevoegen").tap()
    payers = theirs.page.locator("input[name=paid_by]")
    expect(payers.first).to_have_attribute("value", "John")
    expect(theirs.page.locator("#round-form label.check").first).to_have_text(
        "John · betaalde de vorige keer"
    )
    for payer in payers.all():
        expect(payer).not_to_be_checked()
    expect(theirs.page.get_by_label("Bedrag (EUR)")).to_have_attribute("placeholder", "18,40")
    theirs.page.get_by_role("radio", name="Rex").check()
    theirs.page.get_by_role("checkbox", name="Enda").uncheck()
    theirs.page.get_by_label("Bedrag (EUR)").fill("7,50")
    theirs.page.get_by_label("Wat was het? (mag leeg)").fill("chips")
    theirs.shot("crisps")
    theirs.button("Drankjes of eten bewaren").tap()
    expect(theirs.page.locator("#rounds .what").nth(1)).to_have_text(
        "Rex betaalde €\xa07,50 voor chips voor John, Rex en Finn"
    )
    mine.next_look()
    expect(mine.page.locator("#rounds .parts")).to_have_text(
        [parts, "John €2.50 · Rex €2.50 · Finn €2.50"], timeout=LIVE
    )

    # The settle-up: the game, the rounds and the total side by side; three transfers.
    mine.link("Settle up").tap()
    rows = mine.page.locator("#totals tbody tr")
    expect(rows).to_have_text(
        [
            re.compile(r"Enda\s+€1\.20\s+-€4\.60\s+-€3\.40"),
            re.compile(r"John\s+-€0\.30\s+€11\.30\s+€11\.00"),
            re.compile(r"Rex\s+-€0\.50\s+€0\.40\s+-€0\.10"),
            re.compile(r"Finn\s+-€0\.40\s+-€7\.10\s+-€7\.50"),
        ]
    )
    owed = ["Enda pays John €3.40", "Finn pays John €7.50", "Rex pays John €0.10"]
    expect(mine.page.locator("#transfers .what")).to_have_text(owed)
    # Each transfer to John (who keeps an account) has its own QR code, beside it, naming it.
    captions = mine.page.locator("#transfers li figcaption")
    expect(captions).to_have_text([f"{t}: scan to pay" for t in owed])
    mine.shot("settle-up")

    # A tick pays a total in the currency, and the other phone sees it.
    theirs.page.goto(f"{board}/settle")
    mine.button("Finn pays John €7.50").tap()
    expect(mine.page.locator("#payments .what")).to_have_text(["Finn paid John €7.50"])
    theirs.next_look()
    expect(theirs.page.locator("#transfers .what")).to_have_count(2, timeout=LIVE)
    theirs.shot("settle-up-ticked")
