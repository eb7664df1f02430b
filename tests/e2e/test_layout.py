"""Every page on a 390 px phone: nothing wider than the screen, and big enough buttons.

A page that scrolls sideways hides half of every row; a button under 44 px high is missed
by a thumb in a dim pub. (Each phone's screenshots check the width too, on every page any
browser test visits; here every page is visited once on purpose, in light and dark.)
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect

from tests.e2e.phone import Phone
from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
PASSPHRASE = "pints of plain"


@pytest.fixture(scope="module")
def table(live_server) -> dict[str, str]:
    """A group with a Spot session of two hands (the first corrected) and an open Spots game."""
    api = new_group(live_server, name="Thursday at Hennessy's", passphrase=PASSPHRASE)
    session = new_spot_session(api, PLAYERS, dealer="Finn")
    hands = f"/sessions/{session['id']}/hands"
    api.ok(
        "POST", hands, hand_entry({"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}), 201
    )
    api.ok("POST", hands, hand_entry({"John": "5-5-6", "Rex": "K", "Finn": "3-5"}, out="Enda"), 201)
    correction = hand_entry({"Enda": "J-10", "John": "A-3", "Rex": "2-8", "Finn": "Q-K"})
    api.ok("PUT", f"{hands}/1", correction)
    spots = {"game": "spots", "players": PLAYERS, "dealer": "Enda", "options": {}}
    api.ok("POST", f"/groups/{api.slug}/sessions", spots, 201)
    return {"slug": api.slug or "", "spot": f"/g/{api.slug}/s/{session['id']}"}


def visit_every_page(phone: Phone, table: dict[str, str]) -> list[str]:
    """Go through the app's pages as a player would; the tap targets that are too small."""
    page = phone.page
    small: list[str] = []

    def check(where: str, *targets, width: bool = False) -> None:
        phone.shot(where)
        small.extend(f"{where}: {t}" for t in phone.too_small(targets, width=width))

    page.goto("/")
    check("start", phone.button("Open"), phone.button("Create the group"))
    phone.sign_in_on_start_page(table["slug"], PASSPHRASE)
    sessions = phone.region("Sessions").get_by_role("link")
    expect(sessions).to_have_count(2)
    check(
        "group",
        phone.link("New session"),
        phone.link("Invite"),
        phone.button("Add player"),
        sessions,
        phone.link("Download the spreadsheet"),
    )
    one_line(phone.button("Add player"), "the Add player button")

    phone.link("Invite").tap()
    expect(phone.heading("Invite the table")).to_be_visible()
    check("invite", phone.button("Copy the link"), phone.button("Change the passphrase"))

    page.goto(f"/g/{table['slug']}/s/new")
    seats = page.get_by_role("group", name="Players, clockwise")
    check("new-session", phone.button("Start the session"), phone.button("Add"))
    check("new-session-arrows", seats.get_by_role("button", name=re.compile("^Move ")), width=True)
    # The "deals" radios stand in one column, whatever the length of the names.
    lefts = seats.get_by_role("radio").evaluate_all(
        "rs => rs.map(r => Math.round(r.getBoundingClientRect().left))"
    )
    assert len(set(lefts)) == 1, f"the deals radios are not in one column: {lefts}"
    one_line(page.get_by_text("Someone new at the table"), "the label Someone new at the table")

    page.goto(table["spot"])
    check(
        "scoreboard",
        phone.link("Enter hand"),
        phone.link("Settle up"),
        phone.button("Undo hand 2"),
        phone.region("Last hands").get_by_role("link"),
    )

    phone.link("Enter hand").tap()
    expect(phone.button("Card buttons – Enda")).to_have_attribute("aria-expanded", "true")
    check(
        "hand-form",
        phone.button("Save hand"),
        page.get_by_role("button", name=re.compile("^Card buttons – ")),
        page.locator("label", has=page.get_by_role("radio")),
        page.locator("label", has=page.get_by_role("checkbox")),
    )
    check(
        "hand-form-card-buttons",
        page.get_by_role("group", name="Card buttons for Enda").get_by_role("button"),
        width=True,
    )
    # The switch looks different open (Enda's) and closed (John's).
    colour = "e => getComputedStyle(e).backgroundColor"
    opened = phone.button("Card buttons – Enda").evaluate(colour)
    assert opened != phone.button("Card buttons – John").evaluate(colour)
    # A suit tapped looks like the others again once the finger is up: nothing stays "chosen".
    enda = page.get_by_role("group", name="Card buttons for Enda")
    hearts = enda.get_by_role("button", name="Suit: hearts")
    hearts.tap()
    spades = enda.get_by_role("button", name="Suit: spades").evaluate(colour)
    expect(hearts).to_have_css("background-color", spades)
    phone.shot("hand-form-after-a-suit")
    phone.fill_hand({"Enda": "7 7 7", "John": "7 7", "Rex": "", "Finn": "12"})
    phone.button("Save hand").tap()
    expect(page.get_by_role("alert").first).to_be_visible()
    check("hand-form-with-errors", phone.button("Save hand"))

    page.goto(f"{table['spot']}/hands/1")
    expect(phone.region("Before the corrections")).to_be_visible()
    # An en-GB phone reads the day before the month, on a 24-hour clock: its own clock.
    expect(phone.region("Before the corrections")).to_contain_text(
        re.compile(r"Until \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}:")
    )
    stamp = phone.region("Before the corrections").locator("time").first
    utc = datetime.fromisoformat(stamp.get_attribute("datetime").replace("Z", "+00:00"))
    local = utc.astimezone(timezone(timedelta(hours=5, minutes=30)))  # the phone's zone
    expect(stamp).to_have_text(re.compile(rf"^{local.day} \w+ {local.year}, {local:%H:%M}$"))
    check("hand-with-history", phone.link("Correct this hand"))
    phone.link("Correct this hand").tap()
    expect(phone.button("Save the correction")).to_be_visible()
    check("correction-form", phone.button("Save the correction"))

    page.goto(f"{table['spot']}/hands")
    check("all-hands", page.get_by_role("list").get_by_role("link"))

    page.goto(f"{table['spot']}/settle")
    check(
        "settle-up",
        phone.button("Copy as text"),
        phone.button("Finish the night"),
        page.locator("button.tick"),
    )

    page.goto(f"/g/{table['slug']}")
    phone.link(re.compile(r"^Spots #\d+")).tap()
    expect(phone.button("End the game here")).to_be_visible()
    check("spots-scoreboard", phone.link("Enter hand"), phone.button("End the game here"))
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    check("spots-hand-form", phone.button("Save hand"))

    page.goto(f"{table['spot']}/hands/99")
    expect(phone.heading("Nothing here")).to_be_visible()
    check(
        "not-found",
        phone.link(re.compile(r"^Back to the scoreboard of Spot #\d+$")),
        phone.link("Back to Thursday at Hennessy's"),
    )
    return small


def one_line(target, what: str) -> None:
    """The words of ``target`` fit on one line (a 44 px button or a label, not two lines)."""
    box = target.bounding_box()
    assert box and box["height"] < 2 * 24 + 4, f"{what} wraps onto two lines: {box}"


def test_every_page_fits_a_phone_and_its_buttons_fit_a_thumb(new_phone, table):
    small = visit_every_page(new_phone("layout"), table)
    assert not small, "tap targets under 44 px:\n" + "\n".join(small)


def test_the_busiest_pages_in_dark_mode(new_phone, table):
    """A phone set to dark: the same pages in the dark colours (for the screenshots, and the
    width check every screenshot makes)."""
    phone = new_phone("layout-dark", color_scheme="dark")
    page = phone.page
    phone.sign_in(table["slug"], PASSPHRASE)
    phone.shot("group")
    page.goto(table["spot"])
    expect(phone.link("Enter hand")).to_be_visible()
    phone.shot("scoreboard")
    phone.link("Enter hand").tap()
    phone.fill_hand({"Enda": "QS", "John": "QS", "Rex": "2", "Finn": "3"})
    phone.button("Save hand").tap()
    expect(page.get_by_role("alert").first).to_be_visible()
    phone.shot("hand-form-with-errors")
    page.goto(f"{table['spot']}/hands/1")
    phone.shot("hand-with-history")
    page.goto(f"{table['spot']}/settle")
    phone.shot("settle-up")


# Every link, button and box a player can tap that is smaller than 24 × 24 px (WCAG 2.5.8, as
# Lighthouse counts it): a link inside a sentence is sized by its text and left out.
SMALL_TARGETS_JS = """
() => Array.from(document.querySelectorAll(
  "a[href], button, input:not([type=hidden]), select, summary, textarea"
)).filter((e) => {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height || r.right <= 0 || e.closest(".visually-hidden, [hidden]")) {
    return false;
  }
  const around = e.parentElement ? e.parentElement.textContent.trim() : "";
  if (e.tagName === "A" && around !== e.textContent.trim()) return false;
  return r.width < 23.5 || r.height < 23.5;
}).map((e) => {
  const r = e.getBoundingClientRect();
  const name = (e.getAttribute("aria-label") || e.textContent || e.name || "").trim();
  return `${e.tagName.toLowerCase()} "${name.slice(0, 30)}" ${r.width} × ${r.height}`;
})
"""

# How far the page, or a table in it, scrolls sideways.
SIDEWAYS_JS = """
() => [document.documentElement.scrollWidth - document.documentElement.clientWidth,
       ...Array.from(document.querySelectorAll(".table-scroll"),
                     (t) => t.scrollWidth - t.clientWidth)]
"""


def pages_a_table_uses(table: dict[str, str]) -> list[str]:
    slug, spot = table["slug"], table["spot"]
    return [
        "/",
        f"/g/{slug}",
        f"/g/{slug}/invite",
        f"/g/{slug}/s/new",
        spot,
        f"{spot}/hands/new",
        f"{spot}/hands/1",
        f"{spot}/hands/1/edit",
        f"{spot}/hands",
        f"{spot}/settle",
        f"{spot}/history",
        f"/g/{slug}/p/Enda",
    ]


# The footer's names for the languages, and the code each one sets.
LANGUAGE_CODES = {"English": "en", "Nederlands": "nl", "Deutsch": "de"}


@pytest.mark.parametrize("language", list(LANGUAGE_CODES))
def test_no_page_a_table_uses_scrolls_sideways_or_has_a_target_under_24_px(
    new_phone, table, language
):
    """Issue 29: the Dutch leaderboard scrolled sideways at 390 px; Lighthouse found a card
    button toggle under 24 px on the hand form. German's longer words are checked too."""
    phone = new_phone(f"every-page-{language[:2].lower()}")
    page = phone.page
    phone.sign_in(table["slug"], PASSPHRASE)
    if language != "English":
        phone.button(language).tap()
        expect(page.locator("html")).to_have_attribute("lang", LANGUAGE_CODES[language])
    problems = []
    for address in pages_a_table_uses(table):
        response = page.goto(address)
        assert response and response.ok, f"{address}: {response and response.status}"
        sideways = page.evaluate(SIDEWAYS_JS)
        if any(extra > 0 for extra in sideways):
            problems.append(f"{address} scrolls sideways by {sideways} px")
        problems.extend(f"{address}: {small}" for small in page.evaluate(SMALL_TARGETS_JS))
    assert not problems, "\n".join(problems)
