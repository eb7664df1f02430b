"""One night, one set of figures (issue 36): the scoreboard, a hand's page, the settle-up, the
API and the workbook read the same read model (ledger/services/night.py), so a player's
figure is the same everywhere, and the pot brought back stands on a line of its own.

The night of the issue: John keeps the pot of a Spot night and brings it back the next
night, then loses 38 there. Before, the scoreboard said -15 and later -38, his hand's page
and the workbook -35 and -58, and the settle-up asked him for €0.58 under a line of -€0.38.
"""

from __future__ import annotations

import base64
import io
import re
from html import unescape

import pytest
from pypdf import PdfReader

from tests.export.sheets import load, table
from tests.web.pages import HAND_1, PASSPHRASE, Phone, html, table_of_four

# Night 2 (Finn deals first): nobody goes out, Enda's ace is lowest and wins every hand; each
# other player pays Enda their spots, and everyone antes 5. John pays 10 + 5, 2 + 5, 11 + 5.
NIGHT_2 = [
    {"Enda": "A", "John": "10", "Rex": "5 5 5", "Finn": "Q K"},
    {"Enda": "A", "John": "2", "Rex": "5 5 5", "Finn": "Q K"},
    {"Enda": "A", "John": "J A", "Rex": "5 5 5", "Finn": "Q K"},
]


def say(page: str) -> str:
    """A page's text as a person reads it."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def row_of(page: str, player: str) -> str:
    """The text of the table row (or scoreboard line) that starts with the player."""
    for row in re.findall(r"<(?:tr|li)[^>]*>(.*?)</(?:tr|li)>", page, re.S):
        words = say(row)
        if words.startswith(player + " "):
            return words
    raise AssertionError(f"no row of {player}")


@pytest.fixture
def night(client) -> Phone:
    phone = table_of_four(client)
    first = phone.start()
    phone.enter(HAND_1)  # John +46, the pot 20 stays
    phone.client.post(f"{first}/pot", data={"pot": "carry", "keeper": "John"})
    assert phone.client.post(f"{first}/finish", data={"leftover_pot": "carry"}).status_code == 302
    board = phone.start()  # John brings the pot of 20 back: his balance starts at -20
    for cards in NIGHT_2:
        assert phone.enter(cards).status_code == 302
    # The pot goes on with Enda: John keeps nothing tonight.
    phone.client.post(f"{board}/pot", data={"pot": "carry", "keeper": "Enda"})
    return phone


def api(phone: Phone, path: str):
    token = base64.b64encode(f"{phone.slug}:{PASSPHRASE}".encode()).decode()
    response = phone.client.get(f"/api/v1{path}", headers={"Authorization": f"Basic {token}"})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_johns_night_is_the_same_figure_on_every_page_the_api_and_the_workbook(night):
    board = night.board

    # The scoreboard: what John lost tonight, the pot he brought back on its own line.
    scoreboard = html(night.client.get(board))
    assert row_of(scoreboard, "John").endswith("-38 -€0.38")
    assert "John brought the pot of 20 from Spot #1 (€0.20)" in say(scoreboard)

    # His last hand's page: the same figure, under the same name as the scoreboard's.
    hand = html(night.client.get(f"{board}/hands/3"))
    assert row_of(hand, "John").endswith("-38")
    assert "Balance" in say(hand)

    # The settle-up: -€0.38 for the night, the pot brought back beside it, what he pays.
    settle = html(night.client.get(f"{board}/settle"))
    assert row_of(settle, "John") == "John -€0.38 -€0.20 -€0.58"
    listed = say(settle).split("The payments as text")[0]  # the list, not the copy
    paid = re.findall(r"John pays \w+ €(\d+\.\d\d)", listed)
    assert sum(float(p) for p in paid) == pytest.approx(0.58)
    assert "John brought the pot back: €0.20" in say(settle)

    # The API: the same figures, by the same names.
    session = api(night, f"/sessions/{night.session_id}")
    assert session["number"] == 2
    assert session["winnings"]["John"] == -38
    john = next(s for s in session["standings"] if s["player"] == "John")
    assert (john["winnings"], john["brought_back"], john["pot_kept"]) == (-38, 20, 0)
    assert (john["balance"], john["balance_amount"]) == (-58, "-0.58")
    settlement = api(night, f"/sessions/{night.session_id}/settlement")
    balance = next(b for b in settlement["balances"] if b["player"] == "John")
    assert (balance["winnings"], balance["units"], balance["amount"]) == (-38, -58, "-0.58")

    # The workbook: the night's figure, and its running figure after every hand.
    book = load(night.client.get(f"{board}/export.xlsx").data)
    players = {r["Player"]: r for r in table(book["Summary"], header_row=4)}
    assert players["John"]["Final score (units)"] == -38
    assert players["John"]["Amount (EUR)"] == pytest.approx(-0.38)
    running = table(book["Scores"])
    assert [r["John"] for r in running] == [-15, -22, -38]


def test_the_chart_and_the_hand_pages_follow_the_scoreboard_hand_by_hand(night):
    board = night.board
    for number, expected in ((1, "-15"), (2, "-22"), (3, "-38")):
        hand = html(night.client.get(f"{board}/hands/{number}"))
        assert row_of(hand, "John").endswith(expected)
    chart = html(night.client.get(board))
    assert "-58" not in say(chart)  # no figure of John's counts the pot he brought back


def test_a_round_nets_into_the_same_total_on_the_settle_up_the_api_and_the_workbook(night):
    """Issue 39: the rounds join the night's read model; John's game money (what he settles,
    the pot he brought back in it), his rounds and his total agree everywhere."""
    board = night.board
    page = html(night.client.get(f"{board}/rounds/new"))
    once = re.search(r'name="once" value="([0-9a-f]+)"', page)
    data = {"once": once.group(1) if once else "", "paid_by": "John", "amount": "4,00"}
    data["for"] = ["Enda", "John", "Rex", "Finn"]
    assert night.client.post(f"{board}/rounds/new", data=data).status_code == 302

    # The scoreboard: the round and what it gives each, beside the night's winnings.
    scoreboard = say(html(night.client.get(board)))
    given = "What drinks and food give so far: Enda -€1.00 · John €3.00 · Rex -€1.00 · Finn -€1.00"
    assert given in scoreboard
    assert row_of(html(night.client.get(board)), "John").endswith("-38 -€0.38")

    # The settle-up: game money -€0.58, the round +€3.00 (€4.00 less his €1.00), total €2.42.
    settle = html(night.client.get(f"{board}/settle"))
    assert row_of(settle, "John").startswith("John -€0.58 €3.00 €2.42")
    listed = say(settle).split("The payments as text")[0]
    paid = re.findall(r"(\w+) pays John €(\d+\.\d\d)", listed)
    assert sum(float(p) for _who, p in paid) == pytest.approx(2.42)

    # The API's session and settlement: the same three figures.
    session = api(night, f"/sessions/{night.session_id}")
    john = next(s for s in session["standings"] if s["player"] == "John")
    assert (john["balance_amount"], john["rounds"], john["total"]) == ("-0.58", "3.00", "2.42")
    settlement = api(night, f"/sessions/{night.session_id}/settlement")
    balance = next(b for b in settlement["balances"] if b["player"] == "John")
    assert (balance["amount"], balance["rounds"], balance["total"]) == ("-0.58", "3.00", "2.42")
    assert sum(t["amount"] == "0.00" for t in settlement["transfers"]) == 0

    # The workbook's Summary: the rounds and the total beside the night's figure.
    book = load(night.client.get(f"{board}/export.xlsx").data)
    players = {r["Player"]: r for r in table(book["Summary"], header_row=4)}
    assert players["John"]["Rounds (EUR)"] == pytest.approx(3.00)
    assert players["John"]["Total (EUR)"] == pytest.approx(2.42)


def pdf_text(response) -> str:
    """A PDF's text as a person reads it, pages joined."""
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def test_the_night_on_paper_has_the_scoreboards_number_and_figures(night):
    """The night's PDF (linked from the scoreboard) names the night as the scoreboard does and
    shows its figures: what John won or lost tonight hand by hand and in all, the pot he
    brought back on a line of its own, never a figure that counts that pot."""
    board = night.board
    scoreboard = html(night.client.get(board))
    title = re.search(r"<h1>(.*?)</h1>", scoreboard, re.S)
    assert title is not None and say(title.group(1)) == "Spot #2"
    link = re.search(r'id="sheet-pdf" href="([^"]+)"', scoreboard)
    assert link is not None
    response = night.client.get(unescape(link.group(1)))
    assert "spot-2-" in response.headers["Content-Disposition"]
    text = pdf_text(response)
    assert text.startswith("Spot #2 ")
    lines = [
        say(li).split() for li in re.findall(r'<li class="score[^>]*>(.*?)</li>', scoreboard, re.S)
    ]
    assert [line[0] for line in lines] == ["Enda", "John", "Rex", "Finn"]
    figures, money = [line[-2] for line in lines], [line[-1] for line in lines]
    assert figures == ["+113", "-38", "-60", "-75"]  # what each won or lost tonight
    assert "Total " + " ".join(figures) in text
    assert "# Enda John Rex Finn 1 " in text
    johns = [row.split()[2] for row in re.findall(r"(?<= )[123] [-+]\d+ [-+]\d+", text)]
    assert johns == ["-15", "-7", "-16"]  # -15, -22, -38 on the scoreboard, hand by hand
    assert "John brought the pot of 20 from Spot #1" in text
    assert "-58" not in text and "-€0.58" not in text.split("Who pays whom")[0]
    assert "Money " + " ".join(m.replace("+", "") for m in money) in text


def test_a_seasons_night_counts_the_scoreboards_winnings(night):
    """A season scored by winnings (RULES.md §13) takes each night's result from the night's
    read model: John's night 2 counts the -38 the scoreboard shows, not -58 with the pot he
    brought back; the season names the nights by their numbers."""
    finish = night.client.post(f"{night.board}/finish", data={"leftover_pot": "carry"})
    assert finish.status_code == 302
    token = base64.b64encode(f"{night.slug}:{PASSPHRASE}".encode()).decode()
    body = {"name": "Winter", "game": "spot", "scoring": "winnings", "from": "2000-01-01",
            "to": "2100-12-31"}  # fmt: skip
    made = night.client.post(
        f"/api/v1/groups/{night.slug}/seasons",
        json=body,
        headers={"Authorization": f"Basic {token}"},
    )
    assert made.status_code == 201, made.get_json()
    season = made.get_json()
    scoreboard = say(html(night.client.get(night.board)))
    assert "John plays first -38" in scoreboard or "John -38" in scoreboard
    assert [n["number"] for n in season["nights"]] == [1, 2]
    assert season["nights"][1]["points"] == {"Enda": 113, "John": -38, "Rex": -60, "Finn": -75}
    john = next(s for s in season["standings"] if s["player"] == "John")
    assert john["total"] == season["nights"][0]["points"]["John"] - 38


def test_kalukis_antes_are_in_the_pot_from_the_start_everywhere(client):
    """Issue 37 (RULES.md §10: "the antes make a pot of 400"): before hand 1 Kaluki showed a
    pot of 0 and every balance 0, though the antes are paid as the game starts. Now the pot is
    400 and each balance -€1.00 on the scoreboard, the settle-up, the API and the workbook
    alike; hand 1 puts in no ante again, and nobody is told what they need "to go" to the
    target that puts them out."""
    phone = Phone(client)
    phone.create_group()
    phone.start("kaluki", ("Ann", "Bob", "Cas", "Dee"), "Dee", entry="totals")
    board = phone.board

    scoreboard = html(phone.client.get(board))
    assert "Pot: 400 (€4.00)" in say(scoreboard)
    balances = "Ann plays first -100 -€1.00 Bob -100 -€1.00 Cas -100 -€1.00 Dee deals -100 -€1.00"
    assert f"Balances {balances} Who is in" in say(scoreboard)
    assert "to go" not in say(scoreboard)
    settle = html(phone.client.get(f"{board}/settle"))
    assert "In the pot: 400 units (€4.00)" in say(settle)
    assert row_of(settle, "Bob") == "Bob -100 -€1.00"

    session = api(phone, f"/sessions/{phone.session_id}")
    assert (session["pot"], session["scores"]) == (
        400,
        dict.fromkeys("Ann Bob Cas Dee".split(), -100),
    )
    assert {s["winnings"] for s in session["standings"]} == {-100}
    assert {s["to_go"] for s in session["standings"]} == {None}
    settlement = api(phone, f"/sessions/{phone.session_id}/settlement")
    assert settlement["pot"] == 400 and {b["units"] for b in settlement["balances"]} == {-100}

    book = load(phone.client.get(f"{board}/export.xlsx").data)
    players = {r["Player"]: r for r in table(book["Summary"], header_row=4)}
    assert players["Cas"]["Final score (units)"] == -100

    from tests.web.test_new_games_pages import post_hand

    post_hand(phone, {"Bob": {"spots": "20"}, "Cas": {"spots": "30"}, "Dee": {"spots": "9"}},
              out="Ann")  # fmt: skip
    after = api(phone, f"/sessions/{phone.session_id}")
    assert after["pot"] == 400 and after["scores"]["Ann"] == -100


# Issue 45: an open Spot night of three with the plan "refund": nobody went out, so the pot of
# 15 is given back as the antes were paid, and every page counts it the same way. The stored
# scores are Ann -25, Bob +26, Cas -16; the night's result is Ann -20, Bob +31, Cas -11.
REFUNDED = {"Ann": -20, "Bob": 31, "Cas": -11}


def test_an_open_night_under_the_refund_plan_has_one_figure_on_every_page_and_answer(client):
    phone = Phone(client)
    phone.create_group()
    board = phone.start(players=("Ann", "Bob", "Cas"), dealer="Cas")
    assert phone.enter({"Ann": "J 10", "Bob": "A 3", "Cas": "2 9"}).status_code == 302
    assert phone.client.post(f"{board}/pot", data={"pot": "refund"}).status_code == 302
    money = {p: f"{u / 100:.2f}".replace("-", "-€") if u < 0 else f"€{u / 100:.2f}"
             for p, u in REFUNDED.items()}  # fmt: skip

    # The scoreboard and the API's session: the night's read model.
    scoreboard = html(phone.client.get(board))
    lines = re.findall(r'<li class="score[^"]*"[^>]*>(.*?)</li>', scoreboard, re.S)
    shown = {say(line).split()[0]: say(line).split()[-2:] for line in lines}
    assert shown == {p: [f"{u:+d}", money[p]] for p, u in REFUNDED.items()}
    session = api(phone, f"/sessions/{phone.session_id}")
    assert session["status"] == "open" and session["scores"] == {"Ann": -25, "Bob": 26, "Cas": -16}
    assert session["winnings"] == REFUNDED
    assert {s["player"]: s["winnings"] for s in session["standings"]} == REFUNDED

    # The stats and each player's answer: the same units and amounts.
    stats = api(phone, f"/groups/{phone.slug}/stats")["players"]
    assert {p["name"]: p["money"]["EUR"] for p in stats} == REFUNDED
    assert [p["name"] for p in stats] == ["Bob", "Cas", "Ann"]  # the ranking by money
    for player, units in REFUNDED.items():
        mine = api(phone, f"/groups/{phone.slug}/players/{player}")
        assert mine["sessions"][0]["money"] == f"{units / 100:.2f}"
        assert mine["totals"]["money"] == {"EUR": units}

    # The player's page and the group page's leaderboard, as a person reads them.
    for player in REFUNDED:
        page = say(html(phone.client.get(f"/g/{phone.slug}/p/{player}")))
        assert money[player] in page, player
    leaderboard = say(html(phone.client.get(f"/g/{phone.slug}")))
    assert "Bob" in leaderboard and all(m in leaderboard for m in money.values())

    # The group workbook, read back with openpyxl: the Players sheet and each player's own.
    book = load(phone.client.get(f"/g/{phone.slug}/export.xlsx").data)
    players = {r["Player"]: r for r in table(book["Players"])}
    for player, units in REFUNDED.items():
        assert players[player]["Net money (EUR)"] == pytest.approx(units / 100)
        (night,) = table(book[player])[:1]
        assert night["Money"] == pytest.approx(units / 100)
    # The night's own workbook agrees as well.
    night_book = load(phone.client.get(f"{board}/export.xlsx").data)
    summary = {r["Player"]: r for r in table(night_book["Summary"], header_row=4)}
    assert {p: r["Final score (units)"] for p, r in summary.items()} == REFUNDED
