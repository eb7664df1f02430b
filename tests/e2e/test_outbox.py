"""Never lose a hand at the table: bad pub wifi, pages left half-typed, the keyboard's Enter.

A hand saved while the phone is offline stays on the phone, says it is not sent yet, survives
a reload and Back (which, offline, has no page to show: no page of a group is kept on the
phone), and is sent by itself once the connection is back: one hand on the server,
however often it went out. The server's refusal is shown, not sent again. Every page of a
session says when the server is out of reach. Enter moves from box to box and saves only a
hand filled in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Route, expect

from tests.e2e.phone import Phone
from tests.live.api import Api, hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"}
SAVED_1 = (
    "Hand 1 saved. Nobody went out. John wins 51: Enda pays 20, Rex 11, Finn 20. "
    "The antes put 20 in the pot."
)
SCORES_1 = {"Enda": -25, "John": 46, "Rex": -16, "Finn": -25}
PASSPHRASE = "pints of plain"
NOT_SENT = "Not sent yet: no connection."
OFFLINE = re.compile(r"^No connection to the server\. Last update at \d\d:\d\d: ")


def screen(phone: Phone, what: str) -> None:
    """A screenshot of what the phone's screen shows (not the whole page): the notices that
    stay in sight, at the top and over the Save button, where the player sees them."""
    phone.shot(what, full_page=False)


# Every fetch() a page makes, as "METHOD url" in window.fetched: what the outbox sends.
RECORD_FETCHES = """
(() => {
  const real = window.fetch;
  window.fetched = [];
  window.fetch = function (url, options) {
    window.fetched.push(((options && options.method) || "GET") + " " + String(url));
    return real.apply(this, arguments);
  };
})();
"""


class Table:
    """A group with a Spot session of four on the server, and a phone at its scoreboard."""

    def __init__(self, new_phone: Any, live_server: str, name: str) -> None:
        self.api: Api = new_group(live_server, passphrase=PASSPHRASE)
        self.session = new_spot_session(self.api, PLAYERS, dealer="Finn")
        self.phone: Phone = new_phone(name)
        self.phone.sign_in(self.api.slug or "", PASSPHRASE)
        self.phone.link(re.compile(r"^Spot #\d+")).tap()
        self.phone.expect_scores(dict.fromkeys(PLAYERS, 0))
        self.board = self.phone.page.url
        self.title = "Spot #1"  # the group's first Spot night (its id is its address)
        self.label = f"Hand 1 · {self.title}"  # how the phone names the hand it keeps

    def hands(self) -> list[dict[str, Any]]:
        """The hands the server holds for the session."""
        hands = self.api.ok("GET", f"/sessions/{self.session['id']}/hands")
        assert isinstance(hands, list)
        return hands

    def open_form(self) -> None:
        self.phone.link("Enter hand").tap()
        expect(self.phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()

    def outbox(self) -> list[dict[str, Any]]:
        """What the phone keeps to send (static/outbox.js's localStorage)."""
        kept = self.phone.page.evaluate("JSON.parse(localStorage.getItem('ledger-outbox') || '[]')")
        assert isinstance(kept, list)
        return kept


@pytest.fixture
def table(new_phone, live_server, request) -> Iterator[Table]:
    yield Table(new_phone, live_server, "outbox-" + request.node.name.removeprefix("test_")[:20])


def refuse_saves(table: Table, *, after_saving: bool = False) -> None:
    """The hand's POST never gets its answer back (the page itself still loads): lost on the
    way there, or with ``after_saving`` lost on the way back, once the server saved it."""

    def lose(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        if after_saving:
            route.fetch()  # the server has it…
        route.abort("internetdisconnected")  # …and the phone never hears so

    table.phone.page.route(re.compile(r"/hands/new$"), lose)


def test_a_hand_saved_offline_waits_through_reload_and_back_and_is_saved_once(table):
    phone, page = table.phone, table.phone.page
    table.open_form()
    phone.fill_hand(HAND_1)

    page.context.set_offline(True)
    phone.button("Save hand").tap()
    waiting = page.get_by_role("status").filter(has_text=NOT_SENT)
    expect(waiting).to_be_visible()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()  # the form, as typed
    expect(phone.cards_box("Rex")).to_have_value("2 9")
    expect(page.locator("#connection")).to_have_text(OFFLINE)
    screen(phone, "hand-not-sent-yet")
    assert table.hands() == []

    # A reload while the hand still cannot get through: the form comes back with the hand
    # kept on the phone, still waiting.
    refuse_saves(table)
    page.context.set_offline(False)
    page.reload()
    expect(waiting).to_be_visible()
    for player, cards in HAND_1.items():
        expect(phone.cards_box(player)).to_have_value(cards)
    assert [item["label"] for item in table.outbox()] == [table.label]

    # Back to the scoreboard while offline: the phone keeps no page of a group (issue 32:
    # Cache-Control: private, no-store, so a shared phone's Back button after "sign out"
    # shows nothing of it), so there is nothing to show. The hand stays on the phone.
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.go_back()
    assert table.hands() == []

    # The connection is back: the scoreboard comes from the server, the hand goes by itself,
    # once, and the scoreboard shows it. (The saves are refused until now: a send that was
    # under way when the phone went offline must not slip through before the check above.)
    page.unroute(re.compile(r"/hands/new$"))
    page.context.set_offline(False)
    page.reload()
    expect(phone.heading(table.title)).to_be_visible()
    kept = phone.region("Not sent yet")
    expect(phone.status()).to_have_text(SAVED_1)
    phone.expect_scores(SCORES_1)
    expect(kept).to_be_hidden()
    expect(page.locator("#connection")).to_be_hidden()
    phone.shot("scoreboard-hand-sent")
    hands = table.hands()
    assert [h["number"] for h in hands] == [1]
    assert table.outbox() == []


def test_a_save_whose_answer_is_lost_is_sent_again_and_stored_once(table):
    phone, page = table.phone, table.phone.page
    table.open_form()
    phone.fill_hand(HAND_1)
    refuse_saves(table, after_saving=True)
    phone.button("Save hand").tap()
    expect(page.get_by_role("status").filter(has_text=NOT_SENT)).to_be_visible()
    assert len(table.hands()) == 1  # saved, though the phone cannot know it

    # Kept for hours: the token the page had is long gone. The resend asks for a fresh one.
    page.evaluate(
        "const kept = JSON.parse(localStorage.getItem('ledger-outbox'));"
        "kept.forEach(item => { item.token = 'stale'; });"
        "localStorage.setItem('ledger-outbox', JSON.stringify(kept));"
    )
    page.unroute(re.compile(r"/hands/new$"))
    expect(phone.status()).to_have_text(SAVED_1)  # sent again by itself, within seconds
    phone.expect_scores(SCORES_1)
    assert [h["number"] for h in table.hands()] == [1]
    assert table.outbox() == []


def test_a_refused_hand_is_shown_with_its_mistake_and_not_sent_again(table):
    phone, page = table.phone, table.phone.page
    # The phone's clock, to let the outbox's turn to send again (every 5 s) pass at once
    # instead of waiting it out; and what the pages send, to see that nothing went.
    page.clock.install()
    page.add_init_script(RECORD_FETCHES)
    table.open_form()
    phone.fill_hand({**HAND_1, "Rex": "2 Z"})
    page.context.set_offline(True)
    phone.button("Save hand").tap()
    expect(page.get_by_role("status").filter(has_text=NOT_SENT)).to_be_visible()

    page.context.set_offline(False)
    # The server's own answer: the form with Rex's row marked, what was typed still there.
    expect(page.locator("#row-2-error")).to_contain_text("Z")
    expect(phone.cards_box("Rex")).to_have_value("2 Z")
    expect(phone.cards_box("Enda")).to_have_value("J 10")
    assert table.outbox() == []
    before = page.evaluate("window.fetched")
    page.clock.run_for(6000)  # a retry's turn passes (its timers fire): nothing is sent again
    sent = page.evaluate("window.fetched")[len(before) :]
    board = f"GET {urlsplit(table.board).path}"  # where a resend fetches a fresh form token
    assert not [f for f in sent if f.startswith("POST") or f == board], sent
    expect(page.locator("#row-2-error")).to_be_visible()
    assert table.hands() == []

    phone.cards_box("Rex").fill("2 9")
    phone.save_hand(1)
    assert [h["number"] for h in table.hands()] == [1]


def test_a_draft_is_offered_again_after_leaving_the_page(table):
    phone, page = table.phone, table.phone.page
    table.open_form()
    phone.fill_hand({"Enda": "J 10", "John": "A 3"})
    phone.wait_for_draft("A 3")  # kept as typed, a moment after the last key
    phone.link("Back to the scoreboard").tap()
    expect(phone.heading(table.title)).to_be_visible()

    table.open_form()
    offer = page.get_by_role("status").filter(has_text="You typed here before on this phone")
    expect(offer).to_be_visible()
    expect(phone.cards_box("Enda")).to_have_value("")  # only offered: nothing changed yet
    phone.shot("draft-offered")
    phone.button("Put it back").tap()
    expect(offer).to_have_count(0)
    expect(phone.cards_box("Enda")).to_have_value("J 10")
    expect(phone.cards_box("John")).to_have_value("A 3")
    phone.fill_hand({"Rex": "2 9", "Finn": "Q K"})
    phone.save_hand(1)

    # Saved: nothing is offered for the next hand, nor for this one again.
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 2\b"))).to_be_visible()
    expect(page.get_by_text("You typed here before on this phone")).to_have_count(0)
    drafts = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ledger-draft:'))")
    assert drafts == []


def test_a_draft_can_be_put_aside(table):
    phone, page = table.phone, table.phone.page
    table.open_form()
    phone.fill_hand({"Enda": "K"})
    phone.wait_for_draft("K")
    page.reload()
    phone.button("Start afresh").tap()
    expect(page.get_by_text("You typed here before on this phone")).to_have_count(0)
    expect(phone.cards_box("Enda")).to_have_value("")
    page.reload()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    expect(page.get_by_text("You typed here before on this phone")).to_have_count(0)


def test_enter_moves_to_the_next_box_and_saves_only_a_whole_hand(table):
    phone, page = table.phone, table.phone.page
    table.open_form()
    boxes = [phone.cards_box(p) for p in PLAYERS]
    expect(boxes[0]).to_have_attribute("inputmode", "text")
    expect(boxes[0]).to_have_attribute("enterkeyhint", "next")

    # Half a hand: Enter in an empty box moves on, and in the last box goes back to the gap.
    boxes[0].tap()
    page.keyboard.type("J 10")
    page.keyboard.press("Enter")
    expect(boxes[1]).to_be_focused()
    page.keyboard.press("Enter")
    expect(boxes[2]).to_be_focused()
    page.keyboard.type("2 9")
    page.keyboard.press("Enter")
    expect(boxes[3]).to_be_focused()
    page.keyboard.type("Q K")
    expect(boxes[3]).to_have_attribute("enterkeyhint", "next")  # John's row is still empty
    page.keyboard.press("Enter")
    expect(boxes[1]).to_be_focused()
    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    expect(page.get_by_text("has no cards left")).to_have_count(0)
    assert table.hands() == []

    page.keyboard.type("A 3")
    page.keyboard.press("Enter")  # not the last box: on to Rex, no save
    expect(boxes[2]).to_be_focused()
    expect(boxes[3]).to_have_attribute("enterkeyhint", "done")
    boxes[3].focus()
    page.keyboard.press("Enter")  # the last box of a hand filled in: saved
    expect(phone.status()).to_have_text(SAVED_1)
    assert [h["number"] for h in table.hands()] == [1]


def test_typing_a_hand_takes_no_more_actions_than_before(table):
    """A 4-player Spot hand typed took 19 actions before Enter moved between the boxes: a tap
    in the first box, the keys of the cards, Enter after each box (the last one saves)."""
    phone, page = table.phone, table.phone.page
    table.open_form()
    actions = 1
    phone.cards_box("Enda").tap()
    for cards in HAND_1.values():
        page.keyboard.type(cards)
        page.keyboard.press("Enter")
        actions += len(cards) + 1
    expect(phone.status()).to_have_text(SAVED_1)
    assert actions == 18


def test_the_card_buttons_still_take_twelve_taps(table):
    phone, page = table.phone, table.phone.page
    table.open_form()
    taps = 0
    for player, cards in HAND_1.items():
        toggle = phone.button(f"Card buttons – {player}")
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.tap()
            taps += 1
        panel = page.get_by_role("group", name=f"Card buttons for {player}")
        for rank in cards.split():
            panel.get_by_role("button", name=f"Add {rank}", exact=True).tap()
            taps += 1
    phone.button("Save hand").tap()
    taps += 1
    expect(phone.status()).to_have_text(SAVED_1)
    assert taps == 12


def test_every_page_of_a_session_says_when_the_server_is_out_of_reach(table):
    phone, page = table.phone, table.phone.page
    notice = page.locator("#connection")
    expect(notice).to_be_hidden()
    page.context.set_offline(True)
    expect(notice).to_have_text(OFFLINE, timeout=5000)
    expect(notice).to_have_attribute("role", "status")
    phone.shot("scoreboard-offline")
    page.context.set_offline(False)
    expect(notice).to_be_hidden(timeout=5000)

    for where in ("Enter hand", "Settle up"):
        phone.link(where).tap()
        expect(phone.heading(re.compile(r"^(Hand 1|Settle up)\b"))).to_be_visible()
        expect(notice).to_be_hidden()
        page.context.set_offline(True)
        expect(notice).to_have_text(OFFLINE, timeout=5000)
        page.context.set_offline(False)
        expect(notice).to_be_hidden(timeout=5000)
        page.go_back()
        expect(phone.heading(table.title)).to_be_visible()


def test_without_javascript_the_plain_form_saves_the_hand(new_phone, live_server):
    api = new_group(live_server, passphrase=PASSPHRASE)
    new_spot_session(api, PLAYERS, dealer="Finn")
    phone = new_phone("outbox-plain", java_script_enabled=False)
    phone.sign_in(api.slug or "", PASSPHRASE)
    phone.link(re.compile(r"^Spot #\d+")).tap()
    phone.enter_hand(1, HAND_1)
    expect(phone.status()).to_have_text(SAVED_1)


def test_a_dutch_phone_hears_it_in_dutch(table):
    phone, page = table.phone, table.phone.page
    phone.button("Nederlands").tap()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_have_text(
        re.compile(r"^Geen verbinding met de server\. Laatst bijgewerkt om \d\d:\d\d: ")
    )
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_be_hidden()
    phone.link("Spel invoeren").tap()
    phone.fill_hand({})
    for player, cards in HAND_1.items():
        page.get_by_label(f"Kaarten over – {player}", exact=True).fill(cards)
    page.context.set_offline(True)
    phone.button("Spel opslaan").tap()
    expect(page.get_by_role("status").filter(has_text="Nog niet verstuurd")).to_be_visible()
    screen(phone, "dutch-not-sent-yet")
    page.context.set_offline(False)
    expect(phone.status()).to_contain_text("Spel 1 opgeslagen.")
    assert [h["number"] for h in table.hands()] == [1]


def test_a_correction_saved_offline_is_sent_once_and_said_on_the_scoreboard(table):
    phone, page = table.phone, table.phone.page
    entry = hand_entry({"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"})
    table.api.ok("POST", f"/sessions/{table.session['id']}/hands", entry, 201)
    page.reload()
    phone.link(re.compile(r"^#1 Nobody went out\. John wins 51")).tap()
    phone.link("Correct this hand").tap()
    phone.cards_box("Rex").fill("2 8")
    page.context.set_offline(True)
    phone.button("Save the correction").tap()
    expect(page.get_by_role("status").filter(has_text=NOT_SENT)).to_be_visible()
    page.context.set_offline(False)
    # The server's "corrected" message, though the page that first carried it was the save's.
    expect(phone.status()).to_have_text("Hand 1 is corrected.")
    phone.expect_scores({"Enda": -25, "John": 45, "Rex": -15, "Finn": -25})
    hands = table.hands()
    assert [h["number"] for h in hands] == [1]
    assert [r["cards"] for r in hands[0]["results"] if r["player"] == "Rex"] == [["2", "8"]]


def hand_1_entered_elsewhere_while_offline(table: Table) -> None:
    """Hand 1 typed and saved on this phone offline while another phone enters hand 1 (Enda's
    cards a little different); back online, the save goes and is refused: hand 1 is taken."""
    phone, page = table.phone, table.phone.page
    table.open_form()
    phone.fill_hand({**HAND_1, "Enda": "J 9"})
    page.context.set_offline(True)
    phone.button("Save hand").tap()
    expect(page.get_by_role("status").filter(has_text=NOT_SENT)).to_be_visible()
    sid = table.session["id"]
    table.api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_1), 201)
    page.context.set_offline(False)
    expect(page.get_by_role("alert")).to_contain_text(
        "Hand 1 was entered on another phone while you were typing. If yours is the same "
        "hand, drop it; if it is the next one, save it as hand 2."
    )


def test_a_hand_entered_on_another_phone_is_shown_beside_mine_and_dropping_mine_is_first(table):
    """Issue 29: the refused hand was offered as the next one, its cards in a form headed
    Hand 2, one habitual tap from a duplicate. Both hands show side by side instead."""
    phone, page = table.phone, table.phone.page
    hand_1_entered_elsewhere_while_offline(table)

    expect(phone.heading(re.compile(r"^Hand 1\b"))).to_be_visible()
    expect(phone.heading(re.compile(r"^Hand 2\b"))).to_have_count(0)
    side = page.locator("#side-by-side")
    expect(side.locator("thead th")).to_have_text(["Player", "Hand 1 as saved", "Mine, as typed"])
    expect(side.locator("tbody tr").first).to_have_text(re.compile(r"^\s*Enda\s*J 10\s*J 9\s*$"))
    expect(side.locator("tbody th")).to_have_text(PLAYERS)
    # No card box nor Save bar: the choices are the only things to tap, mine dropped
    # first (the button a thumb finds first), saved as hand 2 second.
    expect(phone.cards_box("Enda")).to_be_hidden()
    choices = page.locator("#drop-mine, #save-hand")
    expect(choices).to_have_text(["Drop mine", "Save mine as hand 2"])
    drop = page.locator("#drop-mine").bounding_box()
    save = page.locator("#save-hand").bounding_box()
    assert drop and save and drop["y"] + drop["height"] <= save["y"]
    assert drop["y"] + drop["height"] <= 844, "Drop mine is on the first screen"
    screen(phone, "entered-elsewhere")

    phone.link("Drop mine").tap()
    expect(phone.heading(table.title)).to_be_visible()
    phone.expect_scores(SCORES_1)
    assert [h["number"] for h in table.hands()] == [1]
    assert table.outbox() == []
    # Nothing of mine comes back: no draft offered for the next hand.
    phone.link("Enter hand").tap()
    expect(phone.heading(re.compile(r"^Hand 2\b"))).to_be_visible()
    expect(page.get_by_text("You typed here before on this phone")).to_have_count(0)
    expect(phone.cards_box("Enda")).to_have_value("")
    drafts = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ledger-draft:'))")
    assert drafts == []


def test_a_hand_entered_on_another_phone_can_still_be_saved_as_the_next(table):
    phone = table.phone
    hand_1_entered_elsewhere_while_offline(table)
    phone.button("Save mine as hand 2").tap()
    expect(phone.status()).to_contain_text("Hand 2 saved.")
    hands = table.hands()
    assert [h["number"] for h in hands] == [1, 2]
    assert [r["cards"] for r in hands[1]["entry"]["results"]][0] == "J 9"
