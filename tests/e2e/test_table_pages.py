"""The table's pages on a phone: last night's table offered again, Rummy's target, a session
started by mistake deleted from its page, and a round of Spin Rummy entered as melds."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import new_group

PASSPHRASE = "same-table-again"


def test_last_nights_table_rummys_target_a_mistake_deleted_and_spin_rummy_as_melds(
    new_phone, live_server
):
    api = new_group(live_server, passphrase=PASSPHRASE)
    for name in ("Enda", "Finn", "John", "Maeve", "Rex"):
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    # Last night: Spot, clockwise Rex, Enda, Finn, John; Finn dealt the first hand.
    body = {"game": "spot", "players": ["Rex", "Enda", "Finn", "John"], "dealer": "Finn"}
    night = api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)
    hand = {
        "results": [
            {"player": "Rex", "cards": "2 9"},
            {"player": "Enda", "cards": ""},
            {"player": "Finn", "cards": "Q K"},
            {"player": "John", "cards": "A 3"},
        ],
        "out": "Enda",
    }
    api.ok("POST", f"/sessions/{night['id']}/hands", hand, 201)
    dealer = api.ok("GET", f"/sessions/{night['id']}")["dealer"]
    api.ok("POST", f"/sessions/{night['id']}/finish", {"leftover_pot": "refund"})

    phone = new_phone("table")
    page = phone.page
    phone.sign_in(api.slug or "", PASSPHRASE)

    # Tonight's new session: last night's seats ticked in their order, the deal passed on.
    phone.link("New session").tap()
    seating = page.get_by_role("group", name="Players, clockwise")
    boxes = seating.get_by_role("checkbox")
    expect(boxes).to_have_count(5)
    assert [boxes.nth(i).get_attribute("value") for i in range(5)] == [
        "Rex",
        "Enda",
        "Finn",
        "John",
        "Maeve",
    ]
    for name in ("Rex", "Enda", "Finn", "John"):
        expect(seating.get_by_role("checkbox", name=name, exact=True)).to_be_checked()
    expect(seating.get_by_role("checkbox", name="Maeve", exact=True)).not_to_be_checked()
    expect(seating.get_by_role("radio", name=f"deals – {dealer}")).to_be_checked()
    phone.shot("new-session-remembered")

    # Rummy to 50, as the table is: only the game and its target chosen.
    page.get_by_role("radio", name=re.compile(r"^Rummy\s+(?![0-9])")).check()
    page.get_by_role("group", name="Options for Rummy").get_by_label("Play to").fill("50")
    phone.button("Start the session").tap()
    expect(phone.link("Enter hand")).to_be_visible()
    scores = phone.region("Scores")
    expect(scores).to_contain_text("Playing to 50: the game ends when a score reaches it.")
    expect(phone.scores()).to_have_count(4)
    expect(phone.scores().first).to_contain_text("Rex")
    expect(phone.scores().first).to_contain_text("50 to go")
    phone.enter_hand(1, {"Enda": "K Q", "Finn": "5", "John": "A 2"}, out="Rex")
    expect(phone.scores().first).to_contain_text("22 to go")  # Rex scored 28
    expect(phone.scores().nth(1)).to_contain_text("50 to go")
    phone.shot("rummy-target")

    # A Spin Rummy game started for the wrong two, by mistake: deleted from its page.
    phone.nav().tap()
    phone.start_session("Spin Rummy", ["Enda", "John"], dealer="Enda")
    mistake = page.url
    expect(phone.button(re.compile(r"^Delete Spin Rummy #\d+$"))).to_be_hidden()
    page.get_by_text("Delete this session", exact=True).tap()
    expect(page.get_by_text("Started by mistake?")).to_be_visible()
    phone.shot("delete-confirm")
    delete = phone.button(re.compile(r"^Delete Spin Rummy #\d+$"))
    assert phone.too_small([page.get_by_text("Delete this session", exact=True), delete]) == []
    delete.tap()
    expect(phone.status()).to_have_text(re.compile(r"^Spin Rummy #\d+ is deleted\.$"))
    expect(phone.link("New session")).to_be_visible()
    phone.shot("deleted")
    assert page.goto(mistake).status == 404
    page.goto(f"/g/{api.slug}")

    # The right two: a round of Spin Rummy laid out as melds, one box per meld.
    phone.start_session("Spin Rummy", ["Finn", "Maeve"], dealer="Finn")
    phone.link("Enter round").tap()
    expect(page.get_by_text("Contract: two melds")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("went out"))).to_have_count(0)
    page.get_by_label("Meld 1 – Finn", exact=True).fill("7S 7H 7D")
    page.get_by_label("Meld 2 – Finn", exact=True).fill("8H 9H 10H")
    phone.fill_hand({"Maeve": "QC KC AC 4S"})
    phone.shot("spin-melds-form")
    phone.save_hand(1, word="Round")
    expect(phone.status()).to_have_text(
        "Round 1 saved. Finn scores 15, Maeve 12. Finn wins the round."
    )
    phone.expect_scores({"Finn": 15, "Maeve": 12}, money=False)

    # Round 2 is two runs: a set laid out is named beside Finn, and nothing is saved.
    phone.link("Enter round").tap()
    page.get_by_label("Meld 1 – Finn", exact=True).fill("9S 9H 9D")
    page.get_by_label("Meld 2 – Finn", exact=True).fill("3C 4C 5C")
    phone.fill_hand({"Maeve": "6D 7D 8D"})
    phone.button("Save round").tap()
    finn = page.get_by_role("group", name=re.compile(r"^Finn\b"))
    expect(finn.get_by_role("alert")).to_have_text(
        "Finn's meld 1 (9♠ 9♥ 9♦) does not fit round 2's contract: two runs."
    )
    expect(page.get_by_label("Meld 1 – Finn", exact=True)).to_have_value("9S 9H 9D")
    phone.shot("spin-meld-off-contract")
    assert api.ok("GET", f"/groups/{api.slug}")["sessions"][-1]["hands_played"] == 1
