"""Two phones on one settle-up page: a tick on one shows on the other without a reload, and so
does a tick taken back (RULES.md §2 "Paying up")."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}
HAND_2 = {"John": "5-5-6", "Rex": "K", "Finn": "3-5"}
OWED = ["Finn pays Enda €0.38", "Rex pays Enda €0.06", "Rex pays John €0.25"]
# The live pages ask for the session's version every 3 s: a change shows within that.
LIVE = 8_000
# How many answers the page has read (Response.text): the live update reads the page it
# fetched, then does with it what it does, all in one go.
COUNT_READS = """
(() => {
  const text = Response.prototype.text;
  window.pagesRead = 0;
  Response.prototype.text = function () {
    return text.call(this).then((body) => { window.pagesRead += 1; return body; });
  };
})();
"""


def test_a_tick_on_one_phone_appears_on_the_other_and_so_does_taking_it_back(
    new_phone, live_server
):
    api = new_group(live_server, passphrase="pints of plain")
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    sid = session["id"]
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_1), 201)
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_2, out="Enda"), 201)

    mine, theirs = new_phone("ticks-mine"), new_phone("ticks-theirs")
    for phone in (mine, theirs):
        phone.page.add_init_script(COUNT_READS)
        phone.sign_in(api.slug or "", "pints of plain")
        phone.page.goto(f"/g/{api.slug}/s/{sid}/settle")
        expect(phone.page.locator("#transfers .what")).to_have_text(OWED)
        expect(phone.page.get_by_text("The ticks stay on this phone only")).to_have_count(0)
    mine.shot("before")

    # A tick on my phone: recorded, said, and struck through on mine at once.
    tick = mine.button("Finn pays Enda €0.38")
    expect(tick).to_have_attribute("aria-pressed", "false")
    assert not mine.too_small([mine.page.locator("button.tick")])
    tick.tap()
    expect(mine.page.locator("#tick-status")).to_have_text("Ticked: Finn paid Enda €0.38.")
    expect(mine.page.locator("#payments .what")).to_have_text(["Finn paid Enda €0.38"])
    expect(mine.page.locator("#transfers .what")).to_have_text(OWED[1:])
    assert mine.page.url.endswith("/settle")  # no page load: the tick went by fetch

    # …and on theirs, without anyone reloading it.
    theirs.next_look()
    expect(theirs.page.locator("#payments .what")).to_have_text(
        ["Finn paid Enda €0.38"], timeout=LIVE
    )
    expect(theirs.page.locator("#transfers .what")).to_have_text(OWED[1:])
    paid = theirs.button(re.compile(r"^Finn paid Enda €0\.38"))
    expect(paid).to_have_attribute("aria-pressed", "true")
    # The time of the payment, on the phone's own clock (not the server's UTC).
    expect(theirs.page.locator("#payments time")).not_to_contain_text("UTC")
    theirs.shot("ticked-elsewhere")
    assert [p["units"] for p in api.ok("GET", f"/sessions/{sid}/payments")] == [38]

    # They take the tick back: both phones owe it again.
    paid.tap()
    expect(theirs.page.locator("#tick-status")).to_have_text("Taken back: Finn paid Enda €0.38.")
    expect(theirs.page.locator("#transfers .what")).to_have_text(OWED)
    mine.next_look()
    expect(mine.page.locator("#transfers .what")).to_have_text(OWED, timeout=LIVE)
    expect(mine.page.locator("#payments")).to_have_count(0)
    mine.shot("taken-back-elsewhere")
    assert api.ok("GET", f"/sessions/{sid}/payments") == []

    # The same tick on both phones at once is recorded once. "At once": their finger is on
    # the button when my tap lands, and lifts only after their phone has heard of mine.
    finger = finger_down(theirs, "Rex pays John €0.25")
    mine.button("Rex pays John €0.25").tap()
    expect(mine.page.locator("#tick-status")).to_have_text("Ticked: Rex paid John €0.25.")
    heard_of_it(theirs, finger)
    for phone in (mine, theirs):
        expect(phone.page.locator("#payments .what")).to_have_text(
            ["Rex paid John €0.25"], timeout=LIVE
        )
    # Their tap was not lost: the server answered it, and it did not pay twice.
    expect(theirs.page.locator("#tick-status")).to_contain_text("Nothing is still due from Rex")
    assert len(api.ok("GET", f"/sessions/{sid}/payments")) == 1
    theirs.shot("ticked-on-both")


def test_a_tap_during_another_phones_change_is_not_lost(new_phone, live_server):
    """Their finger is on "Rex pays John" when my tick of another payment comes in: the page
    does not swap the button from under the finger, so the tap ticks what it was on."""
    api = new_group(live_server, passphrase="pints of plain")
    sid = new_spot_session(api, PLAYERS, dealer="Finn")["id"]
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_1), 201)
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_2, out="Enda"), 201)
    mine, theirs = new_phone("ticks-swap-mine"), new_phone("ticks-swap-theirs")
    for phone in (mine, theirs):
        phone.page.add_init_script(COUNT_READS)
        phone.sign_in(api.slug or "", "pints of plain")
        phone.page.goto(f"/g/{api.slug}/s/{sid}/settle")
        expect(phone.page.locator("#transfers .what")).to_have_text(OWED)

    finger = finger_down(theirs, "Rex pays John €0.25")
    mine.button("Finn pays Enda €0.38").tap()
    expect(mine.page.locator("#tick-status")).to_have_text("Ticked: Finn paid Enda €0.38.")
    heard_of_it(theirs, finger)

    expect(theirs.page.locator("#tick-status")).to_have_text("Ticked: Rex paid John €0.25.")
    paid = ["Finn paid Enda €0.38", "Rex paid John €0.25"]
    mine.next_look()
    for phone in (mine, theirs):
        expect(phone.page.locator("#payments .what")).to_have_text(paid, timeout=LIVE)
        expect(phone.page.locator("#transfers .what")).to_have_text(OWED[1:2])
    theirs.shot("tap-kept")
    assert sorted(p["units"] for p in api.ok("GET", f"/sessions/{sid}/payments")) == [25, 38]


def finger_down(phone: Phone, name: str) -> tuple[float, float]:
    """Put a finger on the button named ``name`` (pressed, not yet lifted): where it is."""
    button = phone.button(name)
    # In the middle of the screen, clear of the sticky bars (the press focuses the button,
    # which would scroll it clear of them and move it from under the finger).
    expect(button).to_be_visible()
    button.evaluate("b => b.scrollIntoView({block: 'center'})")
    box = button.bounding_box()
    assert box is not None
    where = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.page.mouse.move(*where)
    phone.page.mouse.down()
    return where


def heard_of_it(phone: Phone, finger: tuple[float, float]) -> None:
    """Lift the finger once the phone has fetched the page another phone changed (its live
    update asks for the session's version every 3 s, then for the page)."""
    read = phone.page.evaluate("window.pagesRead")
    with phone.page.expect_response(
        lambda r: r.url.split("?")[0].endswith("/settle") and r.request.method == "GET",
        timeout=LIVE,
    ) as fetched:
        phone.next_look()
    fetched.value.finished()
    # The page has read it, and so done with it what it does (kept it for when the finger
    # lifts), before the finger lifts.
    phone.page.wait_for_function("(read) => window.pagesRead > read", arg=read)
    phone.page.mouse.move(*finger)
    phone.page.mouse.up()
