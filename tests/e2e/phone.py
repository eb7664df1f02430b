"""A phone in the browser tests: its page, its screenshots, and what a player does with it.

Everything here finds things as a player does, by what the page says: a button's or a
field's name (its label, or what a screen reader reads), a heading, a sentence.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Dialog, Locator, Page

T = TypeVar("T")

SCREENSHOTS = Path(__file__).parent / "screenshots"
# The screenshots are for a person to look at (what each step looked like on the phone); no
# test reads them, and writing them took a tenth of the browser tests' time (a page drawn
# whole at twice the pixels and encoded). LEDGER_SCREENSHOTS=1 writes them (docs/tests.md).
KEEP_SHOTS = bool(os.environ.get("LEDGER_SCREENSHOTS"))
WIDTH = 390  # the phone's width in CSS pixels: no page may be wider
TAP = 44  # the smallest height (and width) of a tap target, in CSS pixels
HOLD = 600  # ms a saved hand's form stays before the scoreboard (static/outbox.js's HOLD)
LOOK = 3000  # ms between a session page's looks for news (static/live.js's `every`)

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
CARD = re.compile(r"^(10|[2-9AJQK])([SHDC♠♥♦♣]?)$", re.IGNORECASE)

# How wide the page is and, if too wide, what sticks out past the right edge (the last five
# such elements in the page's order, to name in the failure).
OVERFLOW_JS = """
(width) => {
  const seen = document.documentElement.scrollWidth;
  const culprits = [];
  if (seen > width) {
    for (const e of document.querySelectorAll("body *")) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 0.5) {
        const text = (e.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
        const cls = e.className && e.className.baseVal === undefined ? "." + e.className : "";
        culprits.push(`<${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${cls}> ` +
                      `right edge ${Math.round(r.right)} px: "${text}"`);
      }
    }
  }
  return {seen, culprits: culprits.slice(-5)};
}
"""

# Each element's name (its aria-label, else its text), width and height, in one round trip.
BOXES_JS = """
(elements) => elements.map((e) => {
  const r = e.getBoundingClientRect();
  const name = e.getAttribute("aria-label") || (e.innerText || "").trim().replace(/\\s+/g, " ");
  return [name, r.width, r.height];
})
"""


def number(value: int, *, signed: bool) -> str:
    """A regex for a score as the scoreboard shows it: +46, -25 (or −25), 0; 34 for points."""
    if value < 0:
        return rf"[-−]{-value}"
    return rf"\+{value}" if signed and value > 0 else str(value)


def screenshot(page: Page, path: Path, *, full_page: bool = False) -> None:
    """Save what the page shows, when the screenshots are kept (LEDGER_SCREENSHOTS)."""
    if KEEP_SHOTS:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=path, full_page=full_page, animations="disabled")


class Phone:
    """One browser context with one page: a player's phone."""

    def __init__(self, page: Page, name: str, *, scripted: bool = True) -> None:
        self.page = page
        self.name = name
        self.scripted = scripted  # False: a phone with JavaScript off (the plain forms)
        self.shots = 0
        self.problems: list[str] = []
        page.on("pageerror", lambda error: self.problems.append(f"JavaScript error: {error}"))

    # --- Looking ------------------------------------------------------------------------------

    def shot(self, what: str, *, full_page: bool = True) -> Path:
        """Check the page fits the screen, and with LEDGER_SCREENSHOTS save a screenshot
        (name-NN-what.png) of the whole page, or of the screen alone (``full_page=False``)."""
        self.shots += 1
        path = SCREENSHOTS / f"{self.name}-{self.shots:02d}-{what}.png"
        screenshot(self.page, path, full_page=full_page)
        self.check_width(path.stem)
        return path

    def check_width(self, where: str) -> None:
        """A page wider than the phone scrolls sideways: noted, and the test fails at its end."""
        found = self.settled(lambda: self.page.evaluate(OVERFLOW_JS, WIDTH))
        if found["seen"] > WIDTH:
            culprits = "\n    ".join(found["culprits"])
            self.problems.append(
                f"{where}: the page is {found['seen']} px wide on a {WIDTH} px phone "
                f"({self.page.url}):\n    {culprits}"
            )
        # A table in a sideways-scrolling box fits the page but may hide its last columns.
        cut = self.settled(
            lambda: self.page.locator(".table-scroll").evaluate_all(
                "boxes => boxes.filter(b => b.scrollWidth > b.clientWidth + 1)"
                "  .map(b => (b.querySelector('caption') || b).textContent.trim().slice(0, 60))"
            )
        )
        for table in cut:
            self.problems.append(f"{where}: a table is cut off at the right: {table!r}")

    def settled(self, look: Callable[[], T]) -> T:
        """What ``look`` finds on the page, looked at again once a page that was still on its
        way when it began (a link just tapped) has loaded: the page the player ends up on."""
        for _ in range(3):
            self.page.wait_for_load_state()
            try:
                return look()
            except PlaywrightError as error:
                # The old page went while it was looked at, or the new one has no body yet.
                if not any(s in error.message for s in ("context was destroyed", "of null")):
                    raise
        return look()

    def heading(self, text: str | re.Pattern[str]) -> Locator:
        return self.page.get_by_role("heading", name=text, level=1)

    def button(self, name: str | re.Pattern[str], *, exact: bool = True) -> Locator:
        return self.page.get_by_role("button", name=name, exact=exact)

    def link(self, name: str | re.Pattern[str], *, exact: bool = True) -> Locator:
        return self.page.get_by_role("link", name=name, exact=exact)

    def region(self, name: str | re.Pattern[str]) -> Locator:
        return self.page.get_by_role("region", name=name)

    def nav(self) -> Locator:
        """The link to the group's page at the top of every page of the group."""
        return self.page.get_by_role("navigation", name="Where you are").get_by_role("link")

    def status(self) -> Locator:
        """The flash message or "Hand 1 saved." line at the top of the page."""
        return self.page.get_by_role("status").first

    def scores(self) -> Locator:
        """The scoreboard's rows, one per player in seat order."""
        region = self.region(re.compile(r"^(Balances|Scores)$"))
        return region.get_by_role("listitem")

    def expect_scores(
        self, scores: Mapping[str, int], *, money: bool = True, timeout: float | None = None
    ) -> None:
        """Each row shows the player's name and total (+46, -25, 0; points unsigned)."""
        expect(self.scores()).to_have_text(
            [
                re.compile(rf"^\s*{re.escape(name)}\b[^\d+−-]*{number(value, signed=money)}(\s|$)")
                for name, value in scores.items()
            ],
            timeout=timeout,
        )

    def too_small(self, targets: Iterable[Locator], *, width: bool = False) -> list[str]:
        """The tap targets lower than 44 px (or narrower, with ``width``), as "name: w × h px"."""
        small = []
        for target in targets:
            expect(target.first).to_be_visible()
            boxes = target.evaluate_all(BOXES_JS)
            for label, w, h in boxes:
                if h < TAP - 0.5 or (width and w < TAP - 0.5):
                    small.append(f"{label!r}: {w:.0f} × {h:.0f} px")
        return small

    def confirm_next(self) -> list[str]:
        """Say OK to the next "Are you sure?" dialog; the list gets its question."""
        asked: list[str] = []

        def accept(dialog: Dialog) -> None:
            asked.append(dialog.message)
            dialog.accept()

        self.page.once("dialog", accept)
        return asked

    # --- Groups and sessions ------------------------------------------------------------------

    def create_group(self, name: str, passphrase: str) -> str:
        """Make a group on the start page; its slug (the end of its address)."""
        self.page.goto("/")
        self.page.get_by_label("Name of the group").fill(name)
        self.page.get_by_label("Passphrase everyone at the table will share").fill(passphrase)
        self.button("Create the group").tap()
        expect(self.heading(name)).to_be_visible()
        return self.page.url.split("/g/", 1)[1].split("?", 1)[0]

    def sign_in(self, group: str, passphrase: str) -> None:
        """Open a group with its name or slug and the passphrase, and land on its page.

        The start page's form is sent as this phone's browser sends it (its cookies, its
        form token), without drawing the start page first: a page load costs Chromium about
        0.1 s of CPU, and some 80 phones sign in before their subject. The start page itself,
        typed into and tapped, is ``sign_in_on_start_page`` (tests/e2e/test_layout.py)."""
        start = self.page.request.get("/")
        token = re.search(r'name="csrf_token" value="([^"]+)"', start.text())
        assert token, "the start page has no form token"
        form = {
            "csrf_token": unescape(token[1]),
            "open-group": group,
            "open-passphrase": passphrase,
        }
        answer = self.page.request.post("/open", form=form, max_redirects=0)
        assert answer.status == 302, f"signing in to {group} answered {answer.status}"
        self.page.goto(answer.headers["location"])
        expect(self.link("New session")).to_be_visible()

    def sign_in_on_start_page(self, group: str, passphrase: str) -> None:
        """Open a group as a player does: on the start page, typed in, Open tapped."""
        self.page.goto("/")
        self.page.get_by_label("Group", exact=True).fill(group)
        self.page.get_by_label("Passphrase", exact=True).fill(passphrase)
        self.button("Open").tap()
        expect(self.link("New session")).to_be_visible()

    def add_players(self, *names: str) -> None:
        for name in names:
            self.page.get_by_label("Name", exact=True).fill(name)
            self.button("Add player").tap()
            expect(self.status()).to_have_text(f"{name} joins the group.")

    def start_session(
        self,
        game: str,
        seats: list[str],
        dealer: str,
        options: Mapping[str, str] | None = None,
        *,
        shot: str | None = None,
    ) -> None:
        """New session: the game, the players ticked and put in ``seats`` order, the dealer."""
        self.link("New session").tap()
        expect(self.heading("New session")).to_be_visible()
        # The game's name then its description: "Rummy …", not "Rummy 500 …".
        self.page.get_by_role("radio", name=re.compile(rf"^{re.escape(game)}\s+(?![0-9])")).check()
        seating = self.page.get_by_role("group", name="Players, clockwise")
        boxes = seating.get_by_role("checkbox")
        order = [boxes.nth(i).get_attribute("value") or "" for i in range(boxes.count())]
        for place, name in enumerate(seats):
            while order.index(name) > place:
                self.button(f"Move {name} up").tap()
                i = order.index(name)
                order[i - 1], order[i] = order[i], order[i - 1]
        expect(boxes).to_have_count(len(order))
        for name in order:
            box = seating.get_by_role("checkbox", name=name, exact=True)
            box.set_checked(name in seats)
        seating.get_by_role("radio", name=f"deals – {dealer}").check()
        settings = self.page.get_by_role("group", name=f"Options for {game}")
        for label, choice in (options or {}).items():
            field = settings.get_by_label(label, exact=True)
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(label=choice)
            else:
                field.fill(choice)
        if shot:
            self.shot(shot)
        self.button("Start the session").tap()
        expect(self.link(re.compile(r"^Enter (hand|round)$"))).to_be_visible()

    # --- Hands --------------------------------------------------------------------------------

    def tap_cards(self, player: str, cards: str) -> None:
        """Enter cards with the card buttons: a rank, then its suit if it has one."""
        toggle = self.button(f"Card buttons – {player}")
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.tap()
        buttons = self.page.get_by_role("group", name=f"Card buttons for {player}")
        for token in cards.split():
            found = CARD.match(token)
            assert found, f"not a card: {token}"
            rank, suit = found.group(1).upper(), found.group(2).upper()
            buttons.get_by_role("button", name=f"Add {rank}", exact=True).tap()
            if suit:
                word = SUIT_WORDS[SUIT_LETTERS.get(suit, suit)]
                buttons.get_by_role("button", name=f"Suit: {word}").tap()

    def cards_box(self, player: str) -> Locator:
        return self.page.get_by_label(f"Cards left – {player}", exact=True)

    def fill_hand(
        self,
        cards: Mapping[str, str] | None = None,
        *,
        out: str | None = None,
        totals: Mapping[str, int] | None = None,
        tap: Iterable[str] = (),
    ) -> None:
        """Fill the hand form: cards typed (or tapped, for the players in ``tap``), spot
        totals, and who went out."""
        if out is not None:
            self.page.get_by_role("radio", name=f"went out – {out}").check()
        tapped = set(tap)
        for player, text in (cards or {}).items():
            switch = self.button(f"Cards {player}")
            if switch.count() and switch.get_attribute("aria-pressed") != "true":
                switch.tap()  # a session that takes totals asks for a total first
            if player in tapped:
                self.tap_cards(player, text)
            else:
                self.cards_box(player).fill(text)
        for player, total in (totals or {}).items():
            self.page.get_by_label(f"Spot total – {player}", exact=True).fill(str(total))

    def wait_for_draft(self, text: str) -> None:
        """Wait until the phone keeps a draft holding ``text`` as typed in a box
        (static/outbox.js keeps one a moment after the last key), rather than a fixed while."""
        self.page.wait_for_function(
            "(text) => Object.keys(localStorage).some((k) => k.startsWith('ledger-draft:')"
            " && localStorage.getItem(k).includes(text))",
            arg=json.dumps(text),
        )

    def next_look(self) -> None:
        """The page's next look for news, now: what another phone changed shows on this one.

        A page of a session (and an evening's page) asks the server every LOOK ms whether
        anything changed, and follows it without a reload (static/live.js). Instead of
        waiting for that turn, the phone's clock is moved on by LOOK (Playwright's clock,
        installed on every phone: tests/e2e/conftest.py), so the page's timer fires once, as
        it would have, and the page looks as it always does. The test still waits for what
        the player would see; a look already under way when the clock moved may have missed
        the change, and the next one, LOOK ms later, finds it."""
        self.page.clock.fast_forward(LOOK)

    def save_hand(
        self, number: int, *, word: str = "Hand", button: str | None = None, said: str = ""
    ) -> None:
        """Save, and see the scoreboard say the hand is saved (``word="Round"`` in Spin Rummy,
        whose pages call a hand a round; ``button`` and ``said`` in another language:
        "Runde speichern", "Runde 1 gespeichert.").

        A saved hand's form stays until HOLD ms after the tap, its line saying "Hand 3
        saved." under Save, so that a second tap opens nothing (tests/e2e/test_taps.py holds
        that, with the real wait). Here the phone's clock is moved over those HOLD ms at the
        tap (Playwright's clock, installed on every phone: tests/e2e/conftest.py), so the
        page leaves for the scoreboard as soon as the save is answered. (Waiting to see the
        form's line first could miss it: on a loaded machine its HOLD ms can pass between
        two looks of Playwright's.)"""
        said = said or f"{word} {number} saved."
        save = self.button(button or f"Save {word.lower()}")
        save.tap()
        if self.scripted:  # without script the form's answer is the scoreboard, at once
            self.page.clock.fast_forward(HOLD)
        expect(self.status()).to_contain_text(said)

    def enter_hand(
        self,
        number: int,
        cards: Mapping[str, str] | None = None,
        *,
        out: str | None = None,
        totals: Mapping[str, int] | None = None,
        tap: Iterable[str] = (),
        shot: str | None = None,
    ) -> None:
        """From the scoreboard: Enter hand, fill it in, save it."""
        self.link("Enter hand").tap()
        expect(self.heading(re.compile(rf"^Hand {number}\b"))).to_be_visible()
        self.fill_hand(cards, out=out, totals=totals, tap=tap)
        if shot:
            self.shot(shot)
        self.save_hand(number)
