"""A night of Spot on a phone: RULES.md §2's worked example from a new group to the settle-up.

Then the mistakes a table makes: the same card typed for two players, a hand entered wrong
and corrected later, and a hand taken back.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}
HAND_2 = {"John": "5-5-6", "Rex": "K", "Finn": "3-5"}  # Enda goes out


def test_a_night_of_spot_from_a_new_group_to_the_settle_up(new_phone):
    phone = new_phone("spot")
    page = phone.page
    page.goto("/")
    expect(phone.heading("Keep the score, and the money, for the table")).to_be_visible()
    phone.shot("start-page")

    phone.create_group("Thursday at Hennessy's", "pints of plain")
    expect(phone.region("The group is ready")).to_be_visible()
    phone.add_players(*PLAYERS)
    expect(phone.region("Players").get_by_role("listitem")).to_have_count(4)
    phone.shot("group-with-players")

    phone.start_session("Spot", PLAYERS, dealer="Finn", shot="new-session")
    expect(phone.heading("Spot #1")).to_be_visible()
    status = phone.region("This hand")
    expect(status).to_contain_text("Hand 1")
    expect(status).to_contain_text("Deals: Finn")
    expect(status).to_contain_text("Plays first: Enda")
    expect(status).to_contain_text("Pot: 0")
    phone.expect_scores(dict.fromkeys(PLAYERS, 0))
    phone.shot("scoreboard-empty")

    # Hand 1: Enda and John with the card buttons, Rex and Finn typed; nobody went out.
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    phone.tap_cards("Enda", "J 10")
    phone.tap_cards("John", "A 3")
    expect(phone.cards_box("Enda")).to_have_value("J 10")
    expect(page.get_by_text("J 10 = 20 spots")).to_be_visible()
    expect(page.get_by_text("A 3 = 4 spots")).to_be_visible()
    phone.fill_hand({"Rex": HAND_1["Rex"], "Finn": HAND_1["Finn"]})
    expect(page.get_by_text("2 9 = 11 spots")).to_be_visible()
    expect(page.get_by_role("radio", name="Nobody went out")).to_be_checked()
    phone.shot("hand-1-form")
    phone.save_hand(1)
    expect(phone.status()).to_have_text(
        "Hand 1 saved. Nobody went out. John wins 51: Enda pays 20, Rex 11, Finn 20. "
        "The antes put 20 in the pot."
    )
    phone.expect_scores({"Enda": -25, "John": 46, "Rex": -16, "Finn": -25})
    expect(status).to_contain_text("Pot: 20 (€0.20)")
    expect(status).to_contain_text("Deals: Rex")
    phone.shot("scoreboard-after-hand-1")

    # Hand 2: Enda goes out and collects the pot of 40 and 16 + 10 + 8 (RULES.md §2).
    phone.enter_hand(2, HAND_2, out="Enda", shot="hand-2-form")
    expect(phone.status()).to_have_text(
        "Hand 2 saved. Enda goes out and collects 74: the pot of 40, and John pays 16, Rex 10, "
        "Finn 8."
    )
    phone.expect_scores({"Enda": 44, "John": 25, "Rex": -31, "Finn": -38})
    expect(status).to_contain_text("Hand 3")
    expect(status).to_contain_text("Deals: John")
    expect(status).to_contain_text("Pot: 0")
    phone.shot("scoreboard-after-hand-2")

    # Settle up: who pays whom, and the same as text for the group chat.
    phone.link("Settle up").tap()
    expect(phone.heading("Settle up")).to_be_visible()
    transfers = ["Finn pays Enda €0.38", "Rex pays Enda €0.06", "Rex pays John €0.25"]
    payments = phone.region("Who pays whom").get_by_role("listitem")
    expect(payments).to_have_text(transfers)
    balances = phone.region("Balances").get_by_role("row")
    expect(balances.filter(has_text="Enda")).to_contain_text("€0.44")
    expect(balances.filter(has_text="Finn")).to_contain_text("-€0.38")

    phone.button("Copy as text").tap()
    expect(page.get_by_text("Copied: paste it into the group chat.")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    night = copied.splitlines()[1]  # the group and the night: what the chat needs to know
    assert re.fullmatch(r"Thursday at Hennessy's · \w+day \d+ \w+ \d{4}", night), night
    assert copied.splitlines() == ["Spot #1: settling up", night, *transfers]

    # Finn pays: the tick is recorded in the session (every phone sees it), and the line
    # moves from what is owed to what is paid.
    phone.button("Finn pays Enda €0.38").tap()
    paid = phone.button(re.compile(r"^Finn paid Enda €0\.38"))
    expect(paid).to_have_attribute("aria-pressed", "true")
    expect(payments).to_have_text([*transfers[1:], re.compile(r"^\s*✓\s*Finn paid Enda €0\.38")])
    phone.shot("settle-up")

    # The end of the night: no more hands, and the settle-up stays to be read.
    phone.confirm_next()  # "Finish the night?" (issue 29: it asks first)
    phone.button("Finish the night").tap()
    expect(phone.status()).to_have_text("The session is finished.")
    expect(page.get_by_text("The session is finished.", exact=True).last).to_be_visible()
    # Finishing changed the session, not the payments: the tick made before stays.
    expect(paid).to_have_attribute("aria-pressed", "true")
    expect(phone.button("Rex pays Enda €0.06")).to_have_attribute("aria-pressed", "false")
    expect(phone.button("Finish the night")).to_have_count(0)
    phone.shot("settle-up-finished")

    phone.link(re.compile(r"^Back to the scoreboard")).tap()
    expect(phone.region("This hand")).to_contain_text("The night is finished.")
    expect(phone.link("Enter hand")).to_have_count(0)
    phone.expect_scores({"Enda": 44, "John": 25, "Rex": -31, "Finn": -38})
    phone.shot("scoreboard-finished")

    phone.nav().tap()
    sessions = phone.region("Sessions").get_by_role("listitem")
    expect(sessions).to_have_count(1)
    expect(sessions).to_contain_text("finished")
    expect(phone.region("Leaderboard").get_by_role("row").filter(has_text="Enda")).to_contain_text(
        "€0.44"
    )
    phone.shot("group-after-the-night")


def _seed_table(live_server, phone: Phone, hands: int) -> None:
    """A group with RULES.md's Spot session and its first ``hands`` hands, made over the API;
    the phone opens the group with the passphrase and goes to the scoreboard."""
    api = new_group(live_server, passphrase="pints of plain")
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    entries = [hand_entry(HAND_1), hand_entry(HAND_2, out="Enda")]
    for entry in entries[:hands]:
        api.ok("POST", f"/sessions/{session['id']}/hands", entry, 201)
    phone.sign_in(api.slug or "", "pints of plain")
    phone.link(re.compile(r"^Spot #\d+")).tap()
    expect(phone.heading(re.compile(r"^Spot #\d+$"))).to_be_visible()


def test_the_same_card_for_two_players_is_shown_beside_both_and_can_be_fixed(
    new_phone, live_server
):
    phone = new_phone("card-error")
    page = phone.page
    _seed_table(live_server, phone, hands=0)

    phone.link("Enter hand").tap()
    for name in PLAYERS:  # nothing is marked wrong before anything is typed
        expect(phone.cards_box(name)).not_to_have_attribute("aria-invalid", re.compile(".*"))
    phone.tap_cards("Enda", "Q♠ 4")
    phone.fill_hand({"John": "A 3", "Rex": "QS 9", "Finn": "K 2"})
    expect(page.get_by_text("Q♠ 4 = 14 spots")).to_be_visible()
    phone.button("Save hand").tap()

    message = "Two players both have the Q♠ (Enda, Rex)."
    expect(page.get_by_role("alert").first).to_have_text(
        "Something in this hand does not add up: see the marked player."
    )
    rows = {name: page.get_by_role("group", name=re.compile(rf"^{name}\b")) for name in PLAYERS}
    expect(rows["Enda"].get_by_role("alert")).to_have_text(message)
    expect(rows["Rex"].get_by_role("alert")).to_have_text(message)
    expect(rows["John"].get_by_role("alert")).to_have_count(0)
    expect(rows["Finn"].get_by_role("alert")).to_have_count(0)
    expect(phone.cards_box("Enda")).to_have_attribute("aria-invalid", "true")
    expect(phone.cards_box("Rex")).to_have_attribute("aria-invalid", "true")
    expect(phone.cards_box("John")).not_to_have_attribute("aria-invalid", re.compile(".*"))
    # Everything typed is still there, and nothing was saved.
    expect(phone.cards_box("Enda")).to_have_value("QS 4")
    expect(phone.cards_box("John")).to_have_value("A 3")
    expect(phone.cards_box("Rex")).to_have_value("QS 9")
    expect(phone.cards_box("Finn")).to_have_value("K 2")
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    phone.shot("two-queens-of-spades")

    phone.cards_box("Rex").fill("QH 9")
    phone.save_hand(1)
    expect(phone.status()).to_have_text(
        "Hand 1 saved. Nobody went out. John wins 45: Enda pays 14, Rex 19, Finn 12. "
        "The antes put 20 in the pot."
    )
    phone.expect_scores({"Enda": -19, "John": 40, "Rex": -24, "Finn": -17})
    phone.shot("fixed-and-saved")


def test_correcting_hand_1_changes_the_totals_and_keeps_the_old_entry(new_phone, live_server):
    phone = new_phone("correction")
    page = phone.page
    _seed_table(live_server, phone, hands=2)
    phone.expect_scores({"Enda": 44, "John": 25, "Rex": -31, "Finn": -38})

    phone.link(re.compile(r"^#1 Nobody went out\. John wins 51")).tap()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    expect(page.get_by_text("John wins 51: Enda pays 20, Rex 11, Finn 20.")).to_be_visible()
    phone.shot("hand-1")

    phone.link("Correct this hand").tap()
    expect(phone.heading(re.compile(r"^Correct hand 1\b"))).to_be_visible()
    expect(phone.cards_box("Rex")).to_have_value("2-9")
    phone.cards_box("Rex").fill("2 8")  # it was the 8, not the 9
    phone.shot("correcting-hand-1")
    phone.button("Save the correction").tap()

    expect(phone.status()).to_have_text("Hand 1 is corrected.")
    phone.expect_scores({"Enda": 44, "John": 24, "Rex": -30, "Finn": -38})
    first = phone.link(re.compile(r"^#1 Nobody went out\. John wins 50"))
    expect(first).to_contain_text("corrected")
    phone.shot("scoreboard-after-the-correction")

    phone.link(re.compile(r"^#1 Nobody went out\. John wins 50")).tap()
    expect(page.get_by_text("John wins 50: Enda pays 20, Rex 10, Finn 20.")).to_be_visible()
    history = phone.region("Before the corrections")
    expect(history).to_contain_text("John wins 51: Enda pays 20, Rex 11, Finn 20.")
    expect(history).to_contain_text("Enda: J-10; John: A-3; Rex: 2-9; Finn: Q-K")
    phone.shot("hand-1-with-its-history")


def test_undo_takes_the_last_hand_back(new_phone, live_server):
    phone = new_phone("undo")
    _seed_table(live_server, phone, hands=2)
    phone.expect_scores({"Enda": 44, "John": 25, "Rex": -31, "Finn": -38})
    phone.shot("before-undo")

    asked = phone.confirm_next()
    phone.button("Undo hand 2").tap()
    expect(phone.status()).to_have_text("Hand 2 is undone.")
    assert asked == ["Undo hand 2?"]
    phone.expect_scores({"Enda": -25, "John": 46, "Rex": -16, "Finn": -25})
    status = phone.region("This hand")
    expect(status).to_contain_text("Hand 2")
    expect(status).to_contain_text("Deals: Rex")
    expect(status).to_contain_text("Pot: 20")
    expect(phone.region("Last hands").get_by_role("link")).to_have_count(1)
    expect(phone.button("Undo hand 1")).to_be_visible()
    phone.shot("after-undo")
