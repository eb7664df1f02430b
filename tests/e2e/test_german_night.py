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
    phone.save_hand(1, button="Runde speichern", said="Runde 1 gespeichert.")
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


def test_the_skat_example_on_a_german_phone(new_phone, live_server):
    """RULES.md §18's five deals entered on a German phone: the form's words, each deal's value
    and verdict in German before saving, Cas's twelve cards typed in German letters, the list
    and each pair's money in German euros."""
    phone = new_phone("german-skat", locale="de-DE")
    page = phone.page
    api = new_group(live_server, passphrase=PASSPHRASE)
    seats = ["Ann", "Bob", "Cas"]
    for name in seats:
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    body = {"game": "skat", "players": seats, "dealer": "Cas", "options": {"deals": 5, "stake": 1}}
    session = api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)
    page.goto("/")
    page.get_by_label("Gruppe", exact=True).fill(api.slug or "")
    page.get_by_label("Passphrase", exact=True).fill(PASSPHRASE)
    phone.button("Öffnen").tap()
    expect(phone.link("Neue Partie")).to_be_visible()
    page.goto(f"/g/{api.slug}/s/{session['id']}")
    expect(page.locator("#deals-played")).to_have_text("0 von 5 Spielen gespielt")

    def deal(number: int, declarer: str) -> None:
        phone.link("Runde eintragen").tap()
        expect(phone.heading(re.compile(rf"^Runde {number}\b"))).to_be_visible()
        who = page.get_by_role("group", name="Wer hat gespielt?")
        who.get_by_role("radio", name=declarer).check()

    def game(bid: str, name: str) -> None:
        page.get_by_label("Gebot", exact=True).select_option(bid)
        chosen = page.get_by_role("group", name="Spiel").get_by_role("radio", name=name, exact=True)
        chosen.check()

    def says(text: str) -> None:
        expect(page.locator("#preview-says")).to_have_text(text)

    def save(number: int) -> None:
        phone.save_hand(number, button="Runde speichern", said=f"Runde {number} gespeichert.")

    points = "Die Augen des Alleinspielers (mit dem Skat)"
    # (1) Ann: Kreuz mit 2, bid 36, 78 card points.
    deal(1, "Ann")
    game("36", "♣ Kreuz")
    page.get_by_label("Wie viele Spitzen").select_option("2")
    page.get_by_label(points).fill("78")
    expect(page.locator("#others-points")).to_have_text("Die Gegenspieler: 120 − 78 = 42")
    says("Mit 2, Spiel 3 × 12 = 36: gewonnen")
    phone.shot("deal-form")
    save(1)

    # (2) Bob: Grand Hand ohne 1, bid 48, 92: Schneider.
    deal(2, "Bob")
    game("48", "Grand")
    page.get_by_text("ohne", exact=True).tap()
    page.get_by_label("Wie viele Spitzen").select_option("1")
    page.get_by_label("Hand (den Skat nicht aufgenommen)").check()
    expect(page.get_by_label("Schneider angesagt")).to_be_visible()
    page.get_by_label(points).fill("92")
    says("Ohne 1, Spiel 2, Hand 3, Schneider 4 × 24 = 96: gewonnen")
    save(2)

    # (3) Cas: Herz Hand after 40, the twelve cards in German letters: mit 1, überreizt.
    deal(3, "Cas")
    game("40", "♥ Herz")
    page.get_by_text("Oder tipp die zwölf Karten des Alleinspielers ein").tap()
    twelve = "Bkr Bhe Ahe 10he Khe 9he 7he Api 10pi Kka 8kr 7kr"
    page.get_by_label(re.compile("^Hand und Skat")).fill(twelve)
    page.get_by_label("Hand (den Skat nicht aufgenommen)").check()
    page.get_by_label(points).fill("70")
    says("Mit 1, Spiel 2, Hand 3 × 10 = 30: überreizt bei 40")
    save(3)

    # (4) Ann: Null after 23, a trick taken. (5) All pass.
    deal(4, "Ann")
    game("23", "Null")
    page.get_by_role("group", name="Stiche des Alleinspielers").get_by_text("Einige").tap()
    says("Null = 23: verloren")
    save(4)
    deal(5, "Eingepasst")
    says("Eingepasst: Das Spiel zählt, gewertet wird nichts.")
    save(5)

    listed = page.locator("#skat-list")
    expect(listed.locator("#deals-played")).to_have_text("5 von 5 Spielen gespielt")
    expect(listed.locator("#list-3")).to_contain_text("Cas: ♥ Herz 40 überreizt")
    expect(listed.locator("tfoot tr").first).to_have_text(
        re.compile(r"Spiele gewonnen\s*1\s*1\s*0")
    )
    expect(listed.locator("tfoot tr").last).to_have_text(re.compile(r"Spiele verloren\s*1\s*0\s*1"))
    rows = page.get_by_role("region", name=re.compile(r"^(Salden|Punkte)$")).get_by_role("listitem")
    for name, money in (("Ann", "-0,76"), ("Bob", "5,12"), ("Cas", "-4,36")):
        expect(rows.filter(has_text=name)).to_contain_text(f"{money}{NBSP}€")
    phone.shot("list")
    stored = api.ok("GET", f"/sessions/{session['id']}/hands")[2]["entry"]
    assert stored["cards"] == "JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C"
