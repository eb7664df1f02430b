"""A night in German on a phone (RULES.md §20): a phone set to German gets German pages
without touching the switch; a Spot night is entered (the card buttons typing the German
letters, Dhe Kkr), the scoreboard and the settle-up read in German with German money
(0,25 €), and every page fits the 390 px screen."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.live.api import new_group

PASSPHRASE = "ein Pils und ein Korn"
PLAYERS = ["Enda", "John", "Rex", "Finn"]
NBSP = "\u00a0"


def test_a_spot_night_in_german(new_phone, live_server):
    phone = new_phone("german-night", locale="de-DE")
    page = phone.page
    api = new_group(live_server, passphrase=PASSPHRASE)
    for name in PLAYERS:
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    session = api.ok(
        "POST",
        f"/groups/{api.slug}/sessions",
        {"game": "spot", "players": PLAYERS, "dealer": "Finn"},
        201,
    )
    # The start page in German, as the phone asks: the group opened with its German labels.
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_label("Gruppe", exact=True).fill(api.slug or "")
    page.get_by_label("Passphrase", exact=True).fill(PASSPHRASE)
    phone.button("Öffnen").tap()
    expect(phone.link("Neue Partie")).to_be_visible()
    phone.shot("group")
    board = f"/g/{api.slug}/s/{session['id']}"
    page.goto(board)
    phone.shot("scoreboard-empty")

    phone.link("Runde eintragen").tap()
    expect(phone.heading(re.compile(r"^Runde 1\b"))).to_be_visible()
    cards = {"Enda": "B 10", "John": "A 3", "Rex": "2 9"}
    for player, typed in cards.items():
        page.get_by_label(f"Restkarten – {player}", exact=True).fill(typed)
    # Finn's queen and king on the card buttons, which show and type the German letters.
    finn = page.locator("#row-3")
    finn.get_by_role("button", name=re.compile(r"^Kartentasten")).tap()
    expect(finn.locator(".picker-grid button")).to_have_text(
        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K"]
    )
    finn.get_by_role("button", name="D hinzufügen", exact=True).tap()
    finn.locator('button[data-suit="he"]').tap()
    finn.get_by_role("button", name="K hinzufügen", exact=True).tap()
    finn.locator('button[data-suit="kr"]').tap()
    expect(page.locator("#results-3-cards")).to_have_value("Dhe Kkr")
    expect(finn.locator(".picked")).to_have_text("D♥ K♣ = 20 Augen")
    phone.shot("hand-form")
    phone.button("Runde speichern").tap()
    expect(phone.status()).to_contain_text("Runde 1 gespeichert.")
    stored = api.ok("GET", f"/sessions/{session['id']}/hands")[0]["entry"]
    assert [r["cards"] for r in stored["results"]] == ["J 10", "A 3", "2 9", "QH KC"]

    # The scoreboard: the players' money with a sign, the pot in German euros.
    rows = page.get_by_role("region", name=re.compile(r"^(Salden|Punkte)$")).get_by_role("listitem")
    shown = {"Enda": ("-25", "-0,25"), "John": ("+46", "0,46"), "Rex": ("-16", "-0,16"),
             "Finn": ("-25", "-0,25")}  # fmt: skip
    expect(rows).to_have_text(
        [
            re.compile(rf"^\s*{name}\b[\s\S]*{re.escape(score)}\s+{re.escape(money)}{NBSP}€\s*$")
            for name, (score, money) in shown.items()
        ]
    )
    expect(page.locator("main")).to_contain_text(f"0,20{NBSP}€")
    expect(page.locator("main")).to_contain_text("Zwischenstand")
    phone.shot("scoreboard")

    # The settle-up in German: who pays whom, euros with a comma and the sign after.
    page.goto(f"{board}/settle")
    expect(phone.heading(re.compile("Abrechnen"))).to_be_visible()
    main = page.locator("main")
    expect(main).to_contain_text("Wer zahlt wem")
    expect(main).to_contain_text(f"Finn zahlt John 0,25{NBSP}€")
    expect(main).not_to_contain_text("€0.")
    phone.shot("settle")
