"""RULES.md §20 in Chromium at 390 × 844: one phone is Ann's, another Bob's. Each marks its own
player on the same scoreboard ("you", "you deal"), and the history names who entered and who
corrected a hand, "on Bob's phone" where Cas typed it there."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import new_group, new_spot_session

PLAYERS = ["Ann", "Bob", "Cas", "Dee"]
PASSPHRASE = "pints of plain"


def this_phone_is(phone: Phone, player: str) -> None:
    """On the group's page, under "This phone", choose whose phone it is and save."""
    phone.page.get_by_label("Whose phone is this?").select_option(label=player)
    phone.button("Save").tap()
    expect(phone.page.locator("#phone-owner")).to_have_text(f"This phone is {player}'s.")


def score_line(phone: Phone, player: str):
    return phone.scores().filter(has=phone.page.get_by_role("link", name=player, exact=True))


def test_two_phones_each_mark_their_player_and_the_history_names_them(new_phone, live_server):
    api = new_group(live_server, name="Ann and Bob's table", passphrase=PASSPHRASE)
    new_spot_session(api, PLAYERS, dealer="Bob")

    ann = new_phone("this-phone-ann")
    bob = new_phone("this-phone-bob")
    for phone, player in ((ann, "Ann"), (bob, "Bob")):
        phone.sign_in(api.slug or "", PASSPHRASE)
        this_phone_is(phone, player)
        phone.shot("group-page")
        phone.link(re.compile(r"^Spot #\d+")).tap()

    # The same kept scoreboard, marked per phone: "you" on one's own line, "(you deal)" on
    # Bob's phone alone, as Bob deals.
    for phone, me, other in ((ann, "Ann", "Bob"), (bob, "Bob", "Ann")):
        expect(score_line(phone, me).get_by_text("you", exact=True)).to_be_visible()
        expect(score_line(phone, other).get_by_text("you", exact=True)).to_be_hidden()
    expect(bob.page.locator("#you-deal")).to_be_visible()
    expect(score_line(bob, "Bob").get_by_text("you deal")).to_be_visible()
    expect(ann.page.locator("#you-deal")).to_be_hidden()
    expect(score_line(ann, "Bob").get_by_text("deals", exact=True)).to_be_visible()
    ann.shot("scoreboard")
    bob.shot("scoreboard")

    # Ann enters hand 1 on her phone; Cas corrects it on Bob's, naming himself.
    ann.enter_hand(1, {"Ann": "J-10", "Bob": "A-3", "Cas": "2-9", "Dee": "Q-K"})
    bob.page.reload()
    bob.page.get_by_role("link", name=re.compile(r"^#1\b")).tap()
    bob.link("Correct this hand").tap()
    bob.cards_box("Dee").fill("Q K 2")
    bob.page.get_by_text("Someone else is entering this?").tap()
    bob.page.get_by_label("Who is entering this?").select_option(label="Cas")
    bob.shot("correcting-as-cas")
    bob.button("Save the correction").tap()
    expect(bob.status()).to_contain_text("corrected")

    board = bob.page.url.split("?")[0]  # back on the scoreboard after the correction
    bob.link("History").tap()
    history = bob.page.locator("ol.history")
    expect(history).to_contain_text("Ann entered hand 1: Ann J-10, Bob A-3, Cas 2-9, Dee Q-K.")
    expect(history).to_contain_text("Cas corrected hand 1 on Bob's phone: Dee Q-K → Q K 2.")
    bob.shot("history")

    # Ann deals hand 2: now her phone says "you deal", Bob's does not.
    for phone in (ann, bob):
        phone.page.goto(board)
    expect(bob.page.locator("#dealer")).to_have_text("Ann")
    expect(bob.page.locator("#you-deal")).to_be_hidden()
    expect(ann.page.locator("#you-deal")).to_be_visible()
    ann.shot("you-deal")
    for phone in (ann, bob):
        assert not phone.problems, phone.problems
