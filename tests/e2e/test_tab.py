"""A Thursday crowd keeps a tab on a phone (RULES.md §6a, §6b): two nights go on the tab, the
group page and the tab's page show it, a payment is ticked, and a QR code is there to scan."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.live.api import hand_entry, new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
HAND_1 = {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"}
HAND_2 = {"John": "5-5-6", "Rex": "K", "Finn": "3-5"}


def a_night(api, first: bool = True) -> int:
    if first:
        sid = new_spot_session(api, PLAYERS, dealer="Finn")["id"]
    else:
        body = {"game": "spot", "players": PLAYERS, "dealer": "Finn", "options": {}}
        sid = api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)["id"]
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_1), 201)
    api.ok("POST", f"/sessions/{sid}/hands", hand_entry(HAND_2, out="Enda"), 201)
    return sid


def test_two_nights_on_the_tab_a_tick_and_a_qr_code(new_phone, live_server):
    api = new_group(live_server, passphrase="pints of plain")
    first = a_night(api)
    phone = new_phone("tab")
    phone.sign_in(api.slug or "", "pints of plain")

    # The first night is put on the tab from its settle-up page.
    phone.page.goto(f"/g/{api.slug}/s/{first}/settle")
    phone.button("Put it on the tab").tap()
    expect(phone.page.locator("#on-tab")).to_contain_text("This night is on the tab")
    expect(phone.page.locator("#transfers")).to_have_count(0)
    phone.shot("night-on-tab")

    # The second over the API; Enda keeps an account, set on his page.
    second = a_night(api, first=False)
    api.ok("POST", f"/sessions/{second}/finish", {"settle": "tab"})
    phone.page.goto(f"/g/{api.slug}/p/Enda")
    phone.page.get_by_label("IBAN", exact=True).fill("NL91 ABNA 0417 1643 00")
    phone.page.get_by_label("Name on the account").fill("E. Byrne")
    phone.button("Keep this account").tap()
    expect(phone.page.locator("#account-kept")).to_be_visible()
    expect(phone.page.get_by_text("NL91ABNA0417164300")).to_have_count(0)

    # The group page shows the tab: who is owed and who owes, over two nights.
    phone.page.goto(f"/g/{api.slug}")
    tab = phone.region("The tab")
    expect(tab).to_contain_text("2 nights")
    expect(tab).to_contain_text("Enda is owed")
    expect(tab).to_contain_text("€0.88")
    expect(tab).to_contain_text("Finn owes")
    phone.link("Settle the tab").tap()

    transfers = phone.page.locator(".tab .transfer:not(.paid) .what")
    expect(transfers).to_have_text(
        ["Finn pays Enda €0.76", "Rex pays Enda €0.12", "Rex pays John €0.50"]
    )
    qr = phone.page.locator(".tab figure.epc svg")
    expect(qr).to_have_count(2)  # Finn's and Rex's payments to Enda, who keeps an account
    expect(qr.first).to_be_visible()
    box = qr.first.bounding_box()
    assert box is not None and box["width"] >= 120  # big enough for a banking app's camera
    phone.check_width("tab")
    phone.shot("tab")

    phone.button("Finn pays Enda €0.76").tap()
    expect(phone.page.locator("#tick-status")).to_have_text("Ticked: Finn paid Enda €0.76.")
    expect(transfers).to_have_text(["Rex pays Enda €0.12", "Rex pays John €0.50"])
    expect(phone.page.locator(".tab .transfer.paid .what")).to_have_text(["Finn paid Enda €0.76"])
    phone.shot("tab-ticked")
    (tab_json,) = api.ok("GET", f"/groups/{api.slug}/tab")["tabs"]
    assert [p["amount"] for p in tab_json["payments"]] == ["0.76"]
