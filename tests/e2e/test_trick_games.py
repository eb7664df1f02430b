"""Boerenbridge and Klaverjassen on a phone at 390×844: the worked examples of docs/rules.md
§15 and §16 as a table plays them (the bids screen with the dealer's forbidden number, the
tricks screen, the wij/zij sheet with nat and pit, the roem buttons)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_new_games import _phone
from tests.rules.test_boerenbridge import SEATS, WORKED


def test_boerenbridge_the_worked_example_bids_then_tricks(new_phone, live_server):
    phone = _phone(new_phone, live_server, "boerenbridge", SEATS)
    page = phone.page
    phone.start_session(
        "Boerenbridge", list(SEATS), dealer="Ann",
        options={"Cards in the longest round (off: as many as the pack allows)": "4"},
    )  # fmt: skip
    board = phone.region(re.compile(r"^Round 1: 1 card each"))
    expect(board).to_contain_text("Ann deals; the bids start at their left.")

    for number, (bids, tricks, _points) in enumerate(WORKED, start=1):
        phone.link("Enter round").tap()
        expect(phone.heading(re.compile(rf"^Round {number}\b"))).to_be_visible()
        expect(page.get_by_label(re.compile("^Tricks – "))).to_have_count(0)
        for name, bid in bids.items():
            page.get_by_label(f"Bid – {name}", exact=True).fill(str(bid))
        if number == 4:
            # Dee deals and bids last: the page says which bid Dee may not make.
            page.get_by_label("Bid – Dee", exact=True).fill("")
            note = page.locator("#hook-note")
            refusal = "Dee deals and may not bid 1: the bids would add up to 4, the round's cards."
            expect(note).to_have_text(refusal)  # the very words the server refuses it with
            phone.check_width("boerenbridge-bids")
            phone.shot("boerenbridge-bids")
            page.get_by_label("Bid – Dee", exact=True).fill("1")
            phone.button("Save the bids").tap()
            expect(page.locator("#row-3-error")).to_have_text(refusal)
            expect(page.get_by_text(refusal)).to_have_count(1)  # said once, not twice
            page.get_by_label("Bid – Dee", exact=True).fill("0")
        phone.button("Save the bids").tap()
        expect(page.get_by_label("Bid – Ann", exact=True)).to_have_count(0)
        for name in SEATS:
            expect(page.locator(f"[data-player='{name}'] .bid-said")).to_have_text(
                f"bid {bids[name]}"
            )
            page.get_by_label(f"Tricks – {name}", exact=True).fill(str(tricks.get(name, 0)))
        cards = [1, 2, 3, 4, 3, 2, 1][number - 1]
        expect(page.locator("#tricks-total")).to_have_text(f"Tricks: {cards} of {cards}")
        if number == 4:
            phone.shot("boerenbridge-tricks")
        phone.save_hand(number, word="Round")

    rows = phone.scores()
    expect(rows).to_have_count(4)
    expect(page.locator(".status-line").first).to_contain_text("Winner: Cas")
    for name, total in (("Ann", 48), ("Bob", 50), ("Cas", 54), ("Dee", 52)):
        expect(rows.filter(has_text=name)).to_contain_text(re.compile(rf"\b{total}\s+points"))
    phone.check_width("boerenbridge-end")
    phone.shot("boerenbridge-end")


def _klaver_hand(
    phone, number: int, team: str, points: str, roem: dict[str, list[int]], pit=None
) -> None:
    page = phone.page
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(rf"^Hand {number}\b"))).to_be_visible()
    page.get_by_role("group", name="Who played?").get_by_role("radio", name=team).check()
    if points:
        page.get_by_label("Card points of the team that played", exact=True).fill(points)
    for side, taps in roem.items():
        group = page.get_by_role("group", name=f"Roem – {side}")
        for n in taps:
            group.get_by_role("button", name=f"+{n}", exact=True).tap()
    if pit:
        group = page.get_by_role("group", name=f"Roem – {pit}")
        group.get_by_role("radio", name="Pit: took every trick").check()


def test_klaverjassen_the_worked_example_on_the_wij_zij_sheet(new_phone, live_server):
    phone = _phone(new_phone, live_server, "klaverjassen", SEATS)
    page = phone.page
    phone.link("New session").tap()
    page.get_by_role("radio", name=re.compile(r"^Klaverjassen\s")).check()
    # Said beside the seats (issue 45 §9), while Klaverjassen is the game picked.
    seats = page.get_by_role("group", name="Players, clockwise")
    expect(seats.locator("#teams-hint")).to_have_text(
        "Partners sit opposite: seats 1 and 3 play together against seats 2 and 4."
    )
    page.get_by_role("radio", name=re.compile(r"^Boerenbridge\s")).check()
    expect(seats.locator("#teams-hint")).to_be_hidden()
    phone.page.go_back()
    phone.start_session("Klaverjassen", list(SEATS), dealer="Dee")

    _klaver_hand(phone, 1, "Ann & Cas", "100", {"Ann & Cas": [20]})
    phone.save_hand(1)
    _klaver_hand(phone, 2, "Bob & Dee", "70", {"Ann & Cas": [20], "Bob & Dee": [50]})
    phone.shot("klaverjassen-roem")
    phone.check_width("klaverjassen-form")
    phone.save_hand(2)
    _klaver_hand(phone, 3, "Ann & Cas", "70", {"Ann & Cas": [20]})
    phone.save_hand(3)
    expect(phone.status()).to_contain_text("Nat: Bob & Dee score 182.")
    _klaver_hand(phone, 4, "Bob & Dee", "", {"Bob & Dee": [20, 20]}, pit="Bob & Dee")
    phone.save_hand(4)

    sheet = phone.region("Wij / zij")
    expect(sheet.get_by_role("columnheader", name="Ann & Cas")).to_be_visible()
    expect(sheet.locator("#sheet-3")).to_contain_text(re.compile(r"0\s+nat\s+182"))
    expect(sheet.locator("#sheet-4")).to_contain_text(re.compile(r"0\s+302\s+pit"))
    expect(sheet.locator("#team-total-1")).to_have_text("232")
    expect(sheet.locator("#team-total-2")).to_have_text("666")
    expect(page.locator(".status-line").first).to_contain_text("4 of 16 hands played")
    # One line per team on the chart, named as its legend names it (issue 45 §9).
    lines = page.locator("#chart svg polyline title")
    expect(lines).to_have_text(["Ann & Cas", "Bob & Dee"])
    expect(page.locator("#chart .legend li")).to_have_text(["Ann & Cas", "Bob & Dee"])
    phone.check_width("klaverjassen-sheet")
    phone.shot("klaverjassen-sheet")
