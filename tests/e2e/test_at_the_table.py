"""Issue 45, "At the table", on a phone at 390×844: what a player sees and taps (the page
tests, tests/web/test_at_the_table.py, hold the rest)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_new_games import _phone
from tests.rules.test_boerenbridge import SEATS, WORKED

KEPT = "You typed here before on this phone"
DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('ledger-draft:'))"


def test_saved_bids_are_never_offered_back_on_the_tricks_screen(new_phone, live_server):
    """Issue 45 §3: the bids typed and saved; the tricks screen (the same round, another form)
    offers nothing. Tricks typed and left are offered back there, and put back for real."""
    phone = _phone(new_phone, live_server, "kept-bids", SEATS)
    page = phone.page
    phone.start_session(
        "Boerenbridge", list(SEATS), dealer="Ann",
        options={"Cards in the longest round (off: as many as the pack allows)": "4"},
    )  # fmt: skip
    bids, tricks, _points = WORKED[0]
    phone.link("Enter round").tap()
    for name, bid in bids.items():
        page.get_by_label(f"Bid – {name}", exact=True).fill(str(bid))
    page.wait_for_timeout(500)  # kept as typed (a moment after the last key)
    assert page.evaluate(DRAFTS)  # the bids are kept while they are not saved
    phone.button("Save the bids").tap()
    expect(page.get_by_label("Tricks – Ann", exact=True)).to_be_visible()
    page.wait_for_timeout(300)  # the offer, were there one, comes once the page is whole
    expect(page.get_by_text(KEPT)).to_have_count(0)

    # Tricks typed, then the page left without saving: offered back on the tricks screen.
    page.get_by_label("Tricks – Ann", exact=True).fill(str(tricks.get("Ann", 0)))
    page.get_by_label("Tricks – Bob", exact=True).fill(str(tricks.get("Bob", 0)))
    page.wait_for_timeout(500)
    phone.link("Back to the scoreboard").tap()
    phone.link("Enter round").tap()
    offer = page.get_by_role("status").filter(has_text=KEPT)
    expect(offer).to_be_visible()
    phone.shot("tricks-offered")
    phone.button("Put it back").tap()
    expect(offer).to_have_count(0)
    expect(page.get_by_label("Tricks – Ann", exact=True)).to_have_value(str(tricks.get("Ann", 0)))
    expect(page.get_by_label("Tricks – Bob", exact=True)).to_have_value(str(tricks.get("Bob", 0)))
    for name in ("Cas", "Dee"):
        page.get_by_label(f"Tricks – {name}", exact=True).fill(str(tricks.get(name, 0)))
    phone.save_hand(1, word="Round")

    # Saved: nothing of the round is kept, the bids' draft included.
    assert page.evaluate(DRAFTS) == []
    phone.link("Enter round").tap()
    expect(phone.heading(re.compile(r"^Round 2\b"))).to_be_visible()
    expect(page.get_by_text(KEPT)).to_have_count(0)
