"""The tab and bank accounts on the pages (RULES.md §6a, §6b): finishing onto the tab, the
tab's settle-up with its ticks, QR codes and history, the player's account and the workbook."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from tests.api.helpers import basic
from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html, table_of_four

IBAN = "NL91ABNA0417164300"


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


def night_on_tab(phone: Phone) -> str:
    board = phone.start()
    phone.enter(HAND_1)
    phone.enter(HAND_2, out="Enda")
    page = html(phone.client.get(f"{board}/settle"))
    assert "Put it on the tab" in page
    done = phone.client.post(f"{board}/finish", data={"leftover_pot": "carry", "settle": "tab"})
    assert done.status_code == 302
    return board


def keep_account(phone: Phone, name: str = "Enda") -> None:
    data = {"iban": "nl91 abna 0417 1643 00", "account_name": "E. Byrne"}
    phone.client.post(f"/g/{phone.slug}/players/{name}/account", data=data)


def test_a_night_on_the_tab_says_so_and_the_tab_page_settles_it(phone):
    board = night_on_tab(phone)
    settle = html(phone.client.get(f"{board}/settle"))
    assert "This night is on the tab" in settle
    assert "Finn pays Enda" not in settle
    assert 'id="off-tab"' in settle  # nothing paid on the tab yet: it may come off
    assert 'id="reopen"' not in settle  # on the tab it cannot open again

    group = html(phone.client.get(f"/g/{phone.slug}"))
    assert "The tab" in group and "1 night" in group
    tab = html(phone.client.get(f"/g/{phone.slug}/tab"))
    assert "Finn pays Enda €0.38" in tab
    assert f"Spot #{phone.session_id}" in tab  # the history: the night with each part

    paid = phone.client.post(
        f"/g/{phone.slug}/tab/payments",
        data={"from": "Finn", "to": "Enda", "amount": "0.38", "currency": "EUR"},
        follow_redirects=True,
    )
    page = html(paid)
    assert "Ticked: Finn paid Enda €0.38." in page
    assert "Finn pays Enda" not in page
    # The same tick from a second phone a moment later is refused, naming what is due.
    again = phone.client.post(
        f"/g/{phone.slug}/tab/payments",
        data={"from": "Finn", "to": "Enda", "amount": "0.38", "currency": "EUR"},
        follow_redirects=True,
    )
    assert "Nothing is still due from Finn to Enda" in html(again)
    # With a payment made, the night stays on the tab.
    off = phone.client.post(f"/g/{phone.slug}/s/{phone.session_id}/off-tab", follow_redirects=True)
    assert "it stays on the tab" in html(off)
    # Issue 37: and its settle-up no longer offers what would only refuse, but says why.
    settle = html(phone.client.get(f"{board}/settle"))
    assert 'id="off-tab"' not in settle and 'id="reopen"' not in settle
    assert "has been paid since Spot #1 went on it" in settle and "it stays on the tab" in settle


def test_a_euro_transfer_to_a_player_with_an_account_shows_a_qr_code(phone):
    night_on_tab(phone)
    keep_account(phone)
    tab = html(phone.client.get(f"/g/{phone.slug}/tab"))
    assert tab.count("<svg") >= 2  # Finn's and Rex's payments to Enda
    assert "QR code for a banking app: Finn pays Enda €0.38" in tab
    assert f"Finn pays Enda €0.38 (IBAN {IBAN}, E. Byrne)" in tab  # "Copy as text"

    phone.client.post(f"/g/{phone.slug}/s/{phone.session_id}/off-tab")
    settle = html(phone.client.get(f"/g/{phone.slug}/s/{phone.session_id}/settle"))
    assert "QR code for a banking app: Finn pays Enda €0.38" in settle
    assert "This night is on the tab" not in settle


def test_the_player_page_keeps_the_account_hidden_until_asked(phone):
    night_on_tab(phone)
    keep_account(phone)
    page = html(phone.client.get(f"/g/{phone.slug}/p/Enda"))
    assert "keeps a bank account with the group" in page
    assert IBAN not in page
    assert "On the tab" in page and "€0.44" in page
    shown = html(phone.client.get(f"/g/{phone.slug}/p/Enda?account=show"))
    assert IBAN in shown

    bad = phone.client.post(
        f"/g/{phone.slug}/players/Enda/account",
        data={"iban": "NL92ABNA0417164300", "account_name": "E"},
        follow_redirects=True,
    )
    assert "check digits" in html(bad)
    phone.client.post(f"/g/{phone.slug}/players/Enda/account", data={"remove": "1"})
    assert "No bank account is kept for Enda" in html(phone.client.get(f"/g/{phone.slug}/p/Enda"))


def test_the_group_workbook_has_a_tab_sheet_and_no_account(phone):
    night_on_tab(phone)
    keep_account(phone)
    phone.client.post(
        f"/g/{phone.slug}/tab/payments",
        data={"from": "Rex", "to": "John", "amount": "0.10", "currency": "EUR"},
    )
    raw = phone.client.get(f"/g/{phone.slug}/export.xlsx").data
    book = load_workbook(io.BytesIO(raw))
    rows = list(book["Tab"].iter_rows(values_only=True))
    header = rows[0]
    kinds = [r[1] for r in rows[1:]]
    assert kinds == ["night", "payment", "outstanding"]
    outstanding = dict(zip(header[8:], rows[3][8:], strict=True))
    assert outstanding["John"] == pytest.approx(0.15)
    for sheet in book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            assert IBAN not in " ".join(str(v) for v in row)


def test_the_history_says_a_correction_changed_the_tab(phone):
    auth = basic(phone.slug, PASSPHRASE)

    def api(method: str, path: str, body: dict) -> dict:
        response = phone.client.open(f"/api/v1{path}", method=method, json=body, headers=auth)
        assert response.status_code in (200, 201), response.get_json()
        return response.get_json()

    def hand(out: str, **spots: int) -> dict:
        return {"results": [{"player": p, "spots": n} for p, n in spots.items()], "out": out}

    start = {"game": "rummy", "players": ["Ann", "Bob", "Cas"], "dealer": "Cas",
             "options": {"entry": "totals", "stake": 1}}  # fmt: skip
    sid = api("POST", f"/groups/{phone.slug}/sessions", start)["id"]
    api("POST", f"/sessions/{sid}/hands", hand("Bob", Ann=20, Cas=40))
    api("POST", f"/sessions/{sid}/hands", hand("Cas", Ann=15, Bob=20))
    api("POST", f"/sessions/{sid}/hands", hand("Ann", Bob=50, Cas=54))
    # The game ended by itself: its settle-up offers the tab, and the tab takes it.
    settle = html(phone.client.get(f"/g/{phone.slug}/s/{sid}/settle"))
    assert "Put it on the tab" in settle
    phone.client.post(f"/g/{phone.slug}/s/{sid}/finish", data={"settle": "tab"})
    api("PUT", f"/sessions/{sid}/hands/3", hand("Ann", Bob=60, Cas=54))

    history = html(phone.client.get(f"/g/{phone.slug}/s/{sid}/history"))
    assert "The game was put on the tab." in history
    assert "A phone corrected hand 3" in history and "The tab changed with it at once." in history
    assert "€1.33" in html(phone.client.get(f"/g/{phone.slug}/tab"))


def test_a_player_named_with_a_slash_keeps_an_account_on_the_pages(client):
    """Issue 38: "AC/DC"'s account form posted to an address nothing answered (404)."""
    phone = Phone(client)
    phone.create_group()
    phone.add_players("AC/DC", "Enda")
    page = html(client.get(f"/g/{phone.slug}/p/AC/DC"))
    assert f'action="/g/{phone.slug}/players/AC/DC/account"' in page
    kept = client.post(
        f"/g/{phone.slug}/players/AC/DC/account",
        data={"iban": IBAN, "account_name": "Angus Young"},
        follow_redirects=True,
    )
    assert "The bank account is kept." in html(kept)
    assert "keeps a bank account with the group" in html(kept)
    assert IBAN in html(client.get(f"/g/{phone.slug}/p/AC/DC?account=show"))


def test_a_points_night_on_the_tab_offers_no_undo_that_would_refuse(phone):
    """A points game for money that ended by itself and went on the tab keeps its hands
    correctable, but its last hand cannot be undone while it is on the tab: no Undo button."""
    board = phone.start(
        game="rummy", players=("Enda", "John"), dealer="Enda", stake="2", target="30"
    )
    phone.enter({"John": "K Q J"}, out="Enda")  # Enda scores 30: the game is over
    assert 'id="undo"' in html(phone.client.get(board))
    done = phone.client.post(f"{board}/finish", data={"settle": "tab"})
    assert done.status_code == 302
    page = html(phone.client.get(board))
    assert "on the tab" in page
    assert 'id="undo"' not in page


def test_the_tab_says_a_correction_changes_it_only_when_a_night_on_it_can_be_corrected(phone):
    """Issue 37: a finished Spot night's hands cannot be corrected, so the tab did not tell the
    truth in saying a correction changes it; a points game that ended by itself can be."""
    night_on_tab(phone)
    sentence = "A correction to a hand of a night on the tab changes the tab at once."
    assert sentence not in html(phone.client.get(f"/g/{phone.slug}/tab"))

    board = phone.start(
        game="rummy", players=("Enda", "John"), dealer="Enda", stake="2", target="30"
    )
    phone.enter({"John": "K Q J"}, out="Enda")  # Enda scores 30: the game is over
    assert phone.client.post(f"{board}/finish", data={"settle": "tab"}).status_code == 302
    assert sentence in html(phone.client.get(f"/g/{phone.slug}/tab"))


def test_the_scoreboard_offers_open_again_only_when_it_can_be_done(phone):
    """Issue 37 (a walk over a night's pages in each state, every button tapped): the settle-up
    had stopped offering "Open the night again" where it can only refuse, but the scoreboard
    still offered it for a night on the tab and one with payments ticked. Now it says why."""
    board = night_on_tab(phone)
    page = html(phone.client.get(board))
    assert 'id="reopen"' not in page
    assert "Spot #1 is on the tab: take it off the tab before reopening it." in page

    phone.client.post(f"/g/{phone.slug}/s/{phone.session_id}/off-tab")
    page = html(phone.client.get(board))
    assert 'id="reopen"' in page and 'id="reopen-why"' not in page  # now it can be done

    phone.client.post(f"{board}/payments", data={"from": "Finn", "to": "Enda", "units": "5"})
    page = html(phone.client.get(board))
    assert 'id="reopen"' not in page
    assert "Payments were ticked for Spot #1: take them back before reopening it." in page
