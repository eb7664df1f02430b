"""The pot keeper on a phone (RULES.md §2): the finish page proposes who takes the pot home,
the table picks another, the settle-up pays it to them, and the next Spot night says who
brought it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}  # nobody out: pot 20
# Enda -25, John 46, Rex -16, Finn -25; with the pot of 20 kept by Enda, Enda owes 5.
WITH_ENDA = ["Enda pays John €0.05", "Finn pays John €0.25", "Rex pays John €0.16"]


def test_a_night_is_finished_with_a_keeper_who_brings_the_pot_to_the_next(new_phone, live_server):
    api = new_group(live_server, passphrase="pints of plain")
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    api.ok("POST", f"/sessions/{session['id']}/hands", hand_entry(HAND_1), 201)

    phone = new_phone("keeper")
    page = phone.page
    phone.sign_in(api.slug or "", "pints of plain")
    page.goto(f"/g/{api.slug}/s/{session['id']}/settle")
    keeper = page.get_by_label("Who keeps the pot?")
    # The rules propose the player owed the most: John, up 46.
    expect(keeper).to_have_value("John")
    expect(
        page.get_by_text("John keeps the pot of €0.20 for the next Spot night", exact=True)
    ).to_be_visible()
    payments = phone.region("Who pays whom").get_by_role("listitem")
    expect(payments).not_to_contain_text(["into the pot"])
    phone.shot("proposed-keeper")

    keeper.select_option("Enda")
    expect(
        page.get_by_text("Enda keeps the pot of €0.20 for the next Spot night", exact=True)
    ).to_be_visible()
    expect(payments).to_have_text(WITH_ENDA)
    expect(page.get_by_label("Who keeps the pot?")).to_have_value("Enda")
    phone.shot("enda-keeps-the-pot")

    phone.confirm_next()  # "Finish the night?" (issue 29: it asks first)
    phone.button("Finish the night").tap()
    expect(phone.status()).to_have_text("The session is finished.")
    expect(
        page.get_by_text("Enda keeps the pot of €0.20 for the next Spot night", exact=True)
    ).to_be_visible()
    expect(payments).to_have_text(WITH_ENDA)
    expect(page.get_by_label("Who keeps the pot?")).to_have_count(0)
    phone.shot("finished-with-keeper")
    assert api.ok("GET", f"/sessions/{session['id']}")["pot_keeper"] == "Enda"

    phone.link(re.compile(r"^Back to the scoreboard")).tap()
    expect(phone.region("This hand")).to_contain_text("Enda keeps the pot of €0.20")
    page.goto(f"/g/{api.slug}")
    phone.start_session("Spot", PLAYERS, dealer="John")
    status = phone.region("This hand")
    expect(status).to_contain_text("Enda brought the pot of 20 from Spot #1")
    # Issue 29: the scoreboard shows what each won tonight; the pot Enda brought back is
    # said above, not counted as his loss.
    phone.expect_scores({"Enda": 0, "John": 0, "Rex": 0, "Finn": 0})
    phone.shot("next-night-brought")

    # Issue 36: a hand later (Enda pays 10 and his ante), his figure is the same -15 on the
    # scoreboard, his hand's page and the settle-up; the pot he brought back stands beside
    # it there, and what he pays (-€0.35: John, owed the most, is proposed to keep the pot).
    following = int(page.url.rstrip("/").rsplit("/", 1)[1])
    lost = {"Enda": "10", "John": "A", "Rex": "2-9", "Finn": "Q-K"}
    api.ok("POST", f"/sessions/{following}/hands", hand_entry(lost), 201)
    page.reload()
    phone.expect_scores({"Enda": -15, "John": 36, "Rex": -16, "Finn": -25})
    page.goto(f"/g/{api.slug}/s/{following}/hands/1")
    expect(page.get_by_role("row", name=re.compile(r"^Enda"))).to_contain_text("-15")
    phone.shot("hand-of-a-night-with-a-pot-brought-back")
    page.goto(f"/g/{api.slug}/s/{following}/settle")
    row = page.get_by_role("row", name=re.compile(r"^Enda"))
    expect(row.get_by_role("cell")).to_have_text(["-€0.15", "-€0.20", "-€0.35"])
    expect(page.get_by_role("columnheader")).to_contain_text(["Pot", "Total"])
    expect(page.get_by_text("Enda brought the pot back: €0.20", exact=True)).to_be_visible()
    phone.shot("settle-up-with-the-pot-brought-back")  # and it fits the phone's width
