"""Other phones at the table follow the scoreboard: a hand saved on one shows on the others."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
FOLLOW_TIMEOUT = 10_000  # ms: the scoreboard looks for news every few seconds


def test_phones_following_the_scoreboard_see_a_new_hand_without_reloading(new_phone, live_server):
    api = new_group(live_server, name="The Long Table", passphrase="pints of plain")
    new_spot_session(api, PLAYERS, dealer="Finn")

    # Phone 1 opens the group with the passphrase and shows the invite link.
    first = new_phone("follow-phone-1")
    first.sign_in(api.slug or "", "pints of plain")
    first.link("Invite").tap()
    expect(first.heading("Invite the table")).to_be_visible()
    expect(first.page.get_by_role("img", name="QR code of the invite link")).to_be_visible()
    link = first.page.get_by_role("textbox", name="Invite link").input_value()
    assert "/join/" in link
    first.shot("invite")
    first.nav().tap()

    # Phone 2 opens the invite link; phone 3 types the group's name and the passphrase.
    second = new_phone("follow-phone-2")
    second.page.goto(link)
    # With one session open, the invite lands on its scoreboard, not on the group's page.
    expect(second.heading(re.compile(r"^Spot #\d+"))).to_be_visible()
    third = new_phone("follow-phone-3")
    third.sign_in("The Long Table", "pints of plain")
    followers = [second, third]
    for phone in [first, *followers]:
        if phone is not second:
            phone.link(re.compile(r"^Spot #\d+")).tap()
        phone.expect_scores(dict.fromkeys(PLAYERS, 0))
        # Set on the page itself: a reload (by the player or by the page) would lose it.
        phone.page.evaluate("window.notReloaded = true")
        phone.page.evaluate("window.liveScores = document.getElementById('scores')")
    second.shot("scoreboard-before")

    first.enter_hand(1, {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"})
    for phone in followers:
        phone.next_look()
        phone.expect_scores(
            {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}, timeout=FOLLOW_TIMEOUT
        )
        expect(phone.region("Last hands").get_by_role("link")).to_have_text(
            [
                re.compile(
                    r"#1\s*Nobody went out\. John wins 51: Enda pays 20, Rex 11, Finn 20\. "
                    r"The antes put 20 in the pot\."
                )
            ]
        )
        status = phone.region("This hand")
        expect(status).to_contain_text("Pot: 20")
        expect(status).to_contain_text("Deals: Rex")
        assert phone.page.evaluate("window.notReloaded === true"), "the page was reloaded"
        # The same live region, with new contents: a screen reader announces the new totals.
        assert phone.page.evaluate(
            "window.liveScores === document.getElementById('scores')"
            " && window.liveScores.getAttribute('aria-live') === 'polite'"
        ), "the scores' live region was replaced instead of updated"
    second.shot("scoreboard-followed-hand-1")

    # The undo on phone 2 shows on phone 1 as well.
    asked = second.confirm_next()
    second.button("Undo hand 1").tap()
    expect(second.status()).to_have_text("Hand 1 is undone.")
    assert asked == ["Undo hand 1?"]
    first.next_look()
    first.expect_scores(dict.fromkeys(PLAYERS, 0), timeout=FOLLOW_TIMEOUT)
    expect(first.region("Last hands")).to_contain_text("No hands yet.")
    expect(first.page.get_by_text("Hand 1 saved.")).to_have_count(0)  # it is undone now
    first.shot("scoreboard-after-undo-elsewhere")

    # A phone that is signed out (its cookie gone, as after a new passphrase) says so, rather
    # than showing scores that quietly stopped following the table.
    signed_out = first.page.get_by_role("alert").filter(has_text="no longer signed in")
    expect(signed_out).to_be_hidden()
    first.page.context.clear_cookies()
    first.next_look()
    expect(signed_out).to_be_visible(timeout=FOLLOW_TIMEOUT)
    first.shot("scoreboard-signed-out")


def test_a_phone_that_follows_the_table_drops_the_line_about_its_own_saved_hand(
    new_phone, live_server
):
    """ "Hand 1 saved." speaks of the page as it was: once the table moves on (hands 2 and 3
    entered elsewhere), the phone that saved hand 1 shows the new scores without that line,
    and a reload shows the plain page, not hand 1's."""
    api = new_group(live_server, passphrase="pints of plain")
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    phone = new_phone("saved-line")
    phone.sign_in(api.slug or "", "pints of plain")
    phone.link(re.compile(r"^Spot #\d+")).tap()
    phone.enter_hand(1, {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"})
    expect(phone.page.get_by_text("Hand 1 saved.")).to_be_visible()
    phone.page.evaluate("window.notReloaded = true")

    for cards, out in [
        ({"Enda": "2", "Rex": "3", "Finn": "4"}, "John"),
        ({"Enda": "5", "John": "6", "Finn": "7"}, "Rex"),
    ]:
        api.ok(
            "POST",
            f"/sessions/{session['id']}/hands",
            hand_entry(cards, out=out),
            201,
        )
    last_hands = phone.region("Last hands").get_by_role("link")
    phone.next_look()
    expect(last_hands).to_have_count(3, timeout=FOLLOW_TIMEOUT)
    expect(phone.page.get_by_text("Hand 1 saved.")).to_have_count(0)
    assert phone.page.evaluate("window.notReloaded === true"), "the page was reloaded"
    assert "saved=" not in phone.page.url
    phone.page.reload()
    expect(last_hands).to_have_count(3)
    expect(phone.page.get_by_text("Hand 1 saved.")).to_have_count(0)


def test_a_phone_that_follows_the_table_drops_the_message_about_its_correction(
    new_phone, live_server
):
    """Issue 29: a one-off message ("Hand 1 is corrected.") stayed up while the table played
    on; like "Hand 1 saved." it goes once another phone changes the session."""
    api = new_group(live_server, passphrase="pints of plain")
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    phone = new_phone("corrected-line")
    phone.sign_in(api.slug or "", "pints of plain")
    phone.link(re.compile(r"^Spot #\d+")).tap()
    phone.enter_hand(1, {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"})
    phone.page.goto(f"/g/{api.slug}/s/{session['id']}/hands/1/edit")
    phone.cards_box("Enda").fill("J 9")
    phone.button("Save the correction").tap()
    expect(phone.status()).to_have_text("Hand 1 is corrected.")

    for cards, out in [
        ({"Enda": "2", "Rex": "3", "Finn": "4"}, "John"),
        ({"Enda": "5", "John": "6", "Finn": "7"}, "Rex"),
    ]:
        api.ok("POST", f"/sessions/{session['id']}/hands", hand_entry(cards, out=out), 201)
    last_hands = phone.region("Last hands").get_by_role("link")
    phone.next_look()
    expect(last_hands).to_have_count(3, timeout=FOLLOW_TIMEOUT)
    expect(phone.page.get_by_text("Hand 1 is corrected.")).to_have_count(0)
