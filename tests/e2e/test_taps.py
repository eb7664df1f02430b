"""Issue 37: nothing moves under a finger. At 390 × 844, the first tap at the bottom of the
first screen of the new-session page and of the hand form lands on what was drawn there (the
Save and Start bars floated in on that very touch and took it), and a double tap on Save
saves the hand once and opens nothing else."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import Api, hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
PASSPHRASE = "pints of plain"
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}
# Where a thumb taps at the bottom of the first screen: the band the floating bar took.
BOTTOM = (195, 844 - 20)
# What a page's taps did, recorded from its first script on: each click's element (its id,
# else its tag) and each form sent. A tap's click, and a form it sends, come in one go: once
# its click is recorded, the form it sent (if any) is too.
RECORD_TAPS_JS = """
window.clicked = [];
window.submitted = [];
document.addEventListener("click", (event) => {
  const named = event.target.closest("[id]");
  window.clicked.push(named ? named.id : event.target.tagName);
}, true);
document.addEventListener("submit", (event) => {
  window.submitted.push(event.target.getAttribute("action") || "");
}, true);
"""


# How long (by the phone's clock) the hand form stayed after the first tap on its Save: kept
# in sessionStorage, which outlives the page.
TIME_KEPT_JS = """
document.addEventListener("click", (event) => {
  if (event.target.closest("#save-hand") && !sessionStorage.getItem("save-tapped-at")) {
    sessionStorage.setItem("save-tapped-at", String(Date.now()));
  }
}, true);
window.addEventListener("pagehide", () => {
  const at = sessionStorage.getItem("save-tapped-at");
  if (at && !sessionStorage.getItem("form-kept-for")) {
    sessionStorage.setItem("form-kept-for", String(Date.now() - Number(at)));
  }
});
"""
# A double tap's second touch comes well within this many ms of the first.
DOUBLE_TAP_GAP = 550
PAUSE_AHEAD = 5  # seconds


def tapped(page: Any, times: int = 1) -> list[str]:
    """Wait for this page's ``times``-th click (a tap's, on whatever was under the finger);
    what each of them landed on."""
    page.wait_for_function("(n) => window.clicked.length >= n", arg=times)
    clicked = page.evaluate("window.clicked")
    assert isinstance(clicked, list)
    return clicked


# The element drawn at a point, marked so the same element can be found again; what it is.
MARK_JS = """([x, y]) => {
  const drawn = document.elementFromPoint(x, y);
  drawn.setAttribute("data-drawn-here", "");
  const control = drawn.closest("label, button, a, input, select");
  return {tag: drawn.tagName, control: control ? control.outerHTML.slice(0, 120) : null,
          radio: control && control.control ? control.control.id : null};
}"""
STILL_THERE_JS = """([x, y]) => {
  const now = document.elementFromPoint(x, y);
  return now ? now.hasAttribute("data-drawn-here") : false;
}"""


def signed_in(new_phone: Any, live_server: str, name: str) -> tuple[Phone, Api, dict[str, Any]]:
    api = new_group(live_server, passphrase=PASSPHRASE)
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    phone = new_phone(name)
    phone.sign_in(api.slug or "", PASSPHRASE)
    return phone, api, session


def test_the_first_tap_at_the_bottom_of_the_new_session_page_picks_the_game_drawn_there(
    new_phone, live_server
):
    phone, api, _session = signed_in(new_phone, live_server, "tap-new-session")
    page = phone.page
    page.add_init_script(RECORD_TAPS_JS)
    phone.link("New session").tap()
    expect(phone.heading("New session")).to_be_visible()
    drawn = page.evaluate(MARK_JS, list(BOTTOM))
    # What a thumb sees there: a game to pick (Gin Rummy when the issue was found).
    game = drawn["radio"]
    assert game and game.startswith("game-"), f"not a game at the bottom: {drawn}"
    expect(page.locator(f"#{game}")).not_to_be_checked()

    page.touchscreen.tap(*BOTTOM)
    tapped(page)
    expect(page.locator(f"#{game}")).to_be_checked()
    assert page.evaluate(STILL_THERE_JS, list(BOTTOM)), "something moved under the finger"
    assert page.evaluate("window.submitted") == [], "the tap started a session"
    expect(phone.heading("New session")).to_be_visible()
    assert len(api.ok("GET", f"/groups/{api.slug}")["sessions"]) == 1, "a night was started"


def test_the_first_tap_at_the_bottom_of_the_hand_form_sends_nothing(new_phone, live_server):
    phone, api, session = signed_in(new_phone, live_server, "tap-hand-form")
    page = phone.page
    phone.link(re.compile(r"^Spot #\d+")).tap()
    page.add_init_script(RECORD_TAPS_JS)
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    # The card buttons laid out: static/picker.js has run (by the load event) and the font
    # that sizes them is in.
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")
    drawn = page.evaluate(MARK_JS, list(BOTTOM))

    page.touchscreen.tap(*BOTTOM)
    tapped(page)
    assert page.evaluate("window.submitted") == [], f"the tap sent the hand: {drawn}"
    assert page.evaluate(STILL_THERE_JS, list(BOTTOM)), f"moved under the finger: {drawn}"
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    assert api.ok("GET", f"/sessions/{session['id']}")["hands_played"] == 0


def test_a_double_tap_on_save_saves_once_and_opens_nothing_else(new_phone, live_server):
    phone, api, session = signed_in(new_phone, live_server, "tap-double-save")
    page = phone.page
    phone.link(re.compile(r"^Spot #\d+")).tap()
    board = page.url
    api.ok("POST", f"/sessions/{session['id']}/hands", hand_entry(HAND_1), 201)
    # The phone's clock, stopped from the first tap to the second (below): however long this
    # machine takes to send the two taps, they come within the time the saved form stays
    # (static/outbox.js HOLD), as a thumb's double tap does; that time is measured by the
    # same clock.
    page.clock.install()
    page.add_init_script(RECORD_TAPS_JS)
    page.add_init_script(TIME_KEPT_JS)
    hand = 2
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(rf"^Hand {hand}\b"))).to_be_visible()
    phone.fill_hand({"Enda": "2", "Rex": "3", "Finn": "4"}, out="John")
    # The thumb on Save at the bottom of the screen, where the scoreboard then draws its
    # last hands.
    save = page.locator("#save-hand")
    save.evaluate("b => b.scrollIntoView({block: 'end'})")
    box = save.bounding_box()
    assert box is not None
    where = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    clicks = len(page.evaluate("window.clicked"))  # filling the form in took some
    sent: list[str] = []  # what the page sends from here on
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    # Stopped a little ahead of the phone's time (in seconds, as Python's API takes it), so
    # the clock cannot have passed it by the time the call lands; the timers due meanwhile
    # (the scoreboard's poll) fire once, as they would have anyway.
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + PAUSE_AHEAD)
    page.touchscreen.tap(*where)
    # The save is answered, and the form says so: the moment the page is about to leave it.
    expect(phone.status()).to_have_text(re.compile(rf"^Hand {hand} · .+ is saved\.$"))
    page.touchscreen.tap(*where)
    taps = tapped(page, clicks + 2)[clicks:]
    assert taps == ["save-hand", "save-hand"], f"the taps landed on {taps}"
    page.clock.resume()

    page.wait_for_url(re.compile(rf"saved={hand}"), wait_until="load")
    assert page.url.startswith(board) and f"saved={hand}" in page.url, page.url
    # The second tap sent nothing: a second send (answered "saved" by the server, which keeps
    # a hand once) made the page leave twice, the second leaving cutting the first short.
    assert len(sent) == 1, f"the double tap sent {sent}"
    expect(phone.status()).to_contain_text(f"Hand {hand} saved.")
    kept = int(page.evaluate("sessionStorage.getItem('form-kept-for')"))
    assert kept >= DOUBLE_TAP_GAP, f"the saved form stayed {kept} ms: a double tap's 2nd misses"
    assert api.ok("GET", f"/sessions/{session['id']}")["hands_played"] == hand
