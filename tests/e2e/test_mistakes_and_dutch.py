"""Every mistake at once and the Dutch letters, on a phone (RULES.md §1, issue 13).

Three mistakes typed in one Spot hand are all marked in one save, the focus is in the first
and it is on the screen, above the Save button; Rummy's "who went out" mistake is
marked where the out choice is. Then the page switched to Dutch takes `Vh Hk` (typed and
tapped on the card buttons, which show the Dutch letters) and shows the hand in them.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.phone import SCREENSHOTS, screenshot
from tests.live.api import new_group

PASSPHRASE = "pints of plain"
PLAYERS = ["Enda", "John", "Rex", "Finn"]

# Where the focused element is, where the Save button is, and how high the screen is.
FOCUS_JS = """
() => {
  const focused = document.activeElement;
  const bar = document.getElementById("save-hand").getBoundingClientRect();
  const box = focused.getBoundingClientRect();
  return {id: focused.id, top: box.top, bottom: box.bottom, barTop: bar.top,
          screen: window.innerHeight};
}
"""


def seated_table(live_server: str, phone: Any, game: str) -> tuple[Any, str]:
    """A group with the four players and a session of ``game``, this phone on its scoreboard."""
    api = new_group(live_server, passphrase=PASSPHRASE)
    for name in PLAYERS:
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    session = api.ok(
        "POST",
        f"/groups/{api.slug}/sessions",
        {"game": game, "players": PLAYERS, "dealer": "Finn"},
        201,
    )
    phone.sign_in(api.slug or "", PASSPHRASE)
    board = f"/g/{api.slug}/s/{session['id']}"
    phone.page.goto(board)
    return api, board


def focus_in_view(page: Page) -> dict[str, Any]:
    """The focused element, after checking it is on the screen, above the Save button (which
    stands at the end of the form, over nothing)."""
    found = page.evaluate(FOCUS_JS)
    assert found["top"] >= 0, found
    assert found["bottom"] <= found["screen"], f"below the screen: {found}"
    assert found["bottom"] <= found["barTop"], f"under the Save button: {found}"
    return found


def screen_shot(page: Page, name: str) -> None:
    """What the player sees without scrolling (the full-page shots show the rest)."""
    screenshot(page, SCREENSHOTS / f"{name}.png")


def test_three_mistakes_are_marked_at_once_and_the_first_has_the_focus(new_phone, live_server):
    phone = new_phone("mistakes")
    page = phone.page
    api, board = seated_table(live_server, phone, "spot")
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    phone.fill_hand({"Enda": "J 1", "John": "A 3", "Rex": "2 11", "Finn": "Q Q Q Q Q Q Q Q Q"})
    phone.button("Save hand").tap()

    expect(page.get_by_role("alert").first).to_have_text(
        "3 things in this hand do not add up: each is marked below."
    )
    expect(page.locator("#row-0-error")).to_have_text("Enda: '1' is not a card — the ace is A.")
    expect(page.locator("#row-2-error")).to_contain_text("Rex: '11' is not a card")
    expect(page.locator("#row-3-error")).to_have_text(
        "Finn has 9 cards, but a hand of Spot ends with at most 8."
    )
    expect(page.locator("#row-1-error")).to_have_count(0)
    for row in (0, 2, 3):
        expect(page.locator(f"#row-{row}")).to_have_class(re.compile(r"\bhas-error\b"))
    expect(phone.cards_box("Enda")).to_be_focused()
    assert focus_in_view(page)["id"] == "results-0-cards"
    screen_shot(page, "mistakes-01-three-marked-screen")
    phone.shot("three-marked")
    assert api.ok("GET", board.replace(f"/g/{api.slug}/s/", "/sessions/"))["hands_played"] == 0

    # Fixing them all in one go saves the hand.
    phone.fill_hand({"Enda": "J 10", "Rex": "2 9", "Finn": "Q K"})
    phone.save_hand(1)
    phone.expect_scores({"Enda": -25, "John": 46, "Rex": -16, "Finn": -25})


def test_who_went_out_is_marked_at_the_out_choice_clear_of_the_save_bar(new_phone, live_server):
    phone = new_phone("mistakes-out")
    page = phone.page
    _, board = seated_table(live_server, phone, "rummy")
    phone.link("Enter hand").tap()
    phone.fill_hand({"Enda": "", "John": "A 3", "Rex": "2 9", "Finn": "Q K"})
    phone.button("Save hand").tap()

    expect(page.get_by_role("alert").first).to_have_text(
        "Say who went out: see “Who went out?” below."
    )
    choice = page.get_by_role("group", name="Who went out?")
    expect(choice).to_contain_text("Exactly one player goes out in each hand of Rummy")
    expect(page.locator("#out-error")).to_be_focused()
    focus_in_view(page)
    screen_shot(page, "mistakes-out-01-marked-screen")
    phone.shot("out-marked")


def test_a_dutch_page_takes_dutch_letters_and_shows_them(new_phone, live_server):
    phone = new_phone("dutch-letters")
    page = phone.page
    api, board = seated_table(live_server, phone, "spot")
    page.get_by_role("button", name="Nederlands").tap()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    phone.link("Spel invoeren").tap()

    # The card buttons say B, V, H and type the Dutch letters; the suits type h, r, k, s.
    rex = page.locator("#row-2")
    rex.get_by_role("button", name=re.compile(r"^Kaartknoppen")).tap()
    ranks = rex.locator(".picker-grid button")
    expect(ranks).to_have_text(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "V", "H"])
    rex.get_by_role("button", name="V toevoegen", exact=True).tap()
    rex.locator('button[data-suit="h"]').tap()
    rex.get_by_role("button", name="2 toevoegen", exact=True).tap()
    expect(page.locator("#results-2-cards")).to_have_value("Vh 2")
    expect(rex.locator(".picked")).to_have_text("V♥ 2 = 12 ogen")
    page.locator("#results-0-cards").fill("B 10")
    page.locator("#results-1-cards").fill("A 3")
    page.locator("#results-3-cards").fill("Hk 9r")
    phone.shot("form")
    # The scoreboard's "Spel 1 opgeslagen.", not the form's own "Spel 1 · … is opgeslagen."
    # that shows while it waits to leave (a page opened meanwhile would be cut short by it).
    phone.save_hand(1, button="Spel opslaan", said="Spel 1 opgeslagen.")

    session = api.ok("GET", board.replace(f"/g/{api.slug}/s/", "/sessions/"))
    assert session["hands_played"] == 1
    stored = api.ok("GET", board.replace(f"/g/{api.slug}/s/", "/sessions/") + "/hands")[0]
    assert [r["cards"] for r in stored["entry"]["results"]] == ["J 10", "A 3", "QH 2", "KC 9D"]

    page.goto(f"{board}/hands/1")
    cards = page.locator("table.results td.cards")
    expect(cards).to_have_text(["B 10", "A 3", "V♥ 2", "H♣ 9♦"])
    phone.shot("hand-in-dutch")
    page.goto(f"{board}/hands/1/edit")
    expect(page.locator("#results-2-cards")).to_have_value("Vh 2")
    expect(page.locator("#results-3-cards")).to_have_value("Hk 9r")


def test_a_card_held_by_two_is_flagged_before_save_and_comes_with_the_bad_token(
    new_phone, live_server
):
    """Issue 29: '11', a K♥ held by two and an empty hand not marked out took three saves.
    The K♥ is flagged in both rows as it is typed, and one save marks all three."""
    phone = new_phone("mistakes-held-twice")
    page = phone.page
    api, board = seated_table(live_server, phone, "spot")
    phone.link("Enter hand").tap()
    phone.fill_hand({"Enda": "11 KH 3C", "Finn": "4S"})
    phone.tap_cards("John", "KH 5D")

    # Before Save: both rows say who else holds the K♥, the others say nothing.
    expect(page.locator("#row-0 .picked-clash")).to_have_text("The K♥ is also held by John.")
    expect(page.locator("#row-1 .picked-clash")).to_have_text("The K♥ is also held by Enda.")
    expect(page.locator("#row-3 .picked-clash")).to_be_hidden()
    screen_shot(page, "mistakes-held-twice-01-before-save-screen")
    phone.shot("flagged-before-save")

    phone.button("Save hand").tap()
    expect(page.get_by_role("alert").first).to_have_text(
        "3 things in this hand do not add up: each is marked below."
    )
    expect(page.locator("#row-0-error")).to_contain_text("Enda: '11' is not a card")
    expect(page.locator("#row-0-error")).to_contain_text(
        "Two players both have the K♥ (Enda, John)."
    )
    expect(page.locator("#row-2-error")).to_contain_text("Rex has no cards left")
    assert api.ok("GET", board.replace(f"/g/{api.slug}/s/", "/sessions/"))["hands_played"] == 0

    # Taking the K♥ out of John's hand clears the flag at once, before any save.
    phone.cards_box("John").fill("5D")
    expect(page.locator("#row-0 .picked-clash")).to_be_hidden()
    expect(page.locator("#row-1 .picked-clash")).to_be_hidden()
