"""Paper (API.md fourth edition): each PDF opened and its text read back: names, totals,
"Spot #1", the settle-up, a blank sheet's columns, a season's table; Dutch; 404 across groups."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.api.helpers import SEED_HAND_1, SEED_HAND_2
from tests.api.test_seasons import worked_season

IBAN = "NL91ABNA0417164300"


def read(response) -> str:
    """The PDF's text, pages joined, spaces tidied; after checking it is an A4 PDF."""
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.get_data()))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 in points
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


@pytest.fixture
def night(table) -> int:
    """Seed 000's two hands: Enda +44, John +25, Rex -31, Finn -38 units; finished."""
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    table.ok(
        "PUT", f"/groups/{table.slug}/players/Enda/account", {"iban": IBAN, "name": "E. Byrne"}
    )
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "Enda"})
    return sid


def test_a_nights_sheet_has_its_players_every_hand_totals_and_the_settle_up(table, night):
    text = read(table.get(f"/sessions/{night}/sheet.pdf"))
    assert "Spot #1" in text and "Thursday Crowd" in text
    assert "Enda, John, Rex, Finn" in text
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    scores = table.ok("GET", f"/sessions/{night}")["scores"]
    seated = ["Enda", "John", "Rex", "Finn"]
    assert "Total " + " ".join(f"{scores[p]:+d}" if scores[p] else "0" for p in seated) in text
    assert "# Enda John Rex Finn 1 " in text and " 2 " in text
    for t in settled["transfers"]:
        assert f"{t['from']} pays {t['to']} €{t['amount']}" in text
    assert "Scan with a banking app to pay" in text  # Enda's QR code


def test_a_nights_sheet_in_dutch(table, night):
    text = read(table.get(f"/sessions/{night}/sheet.pdf?lang=nl"))
    assert "Spot #1" in text and "Wie betaalt wie" in text and "Totaal" in text


def test_a_nights_sheet_in_german_by_lang_or_by_the_accept_language_header(table, night):
    """German as RULES.md §20 has it: its words, euros as 0,44 € and the bank QR named GiroCode."""
    settled = table.ok("GET", f"/sessions/{night}/settlement")
    asked = read(table.get(f"/sessions/{night}/sheet.pdf?lang=de"))
    wished = read(
        table.get(
            f"/sessions/{night}/sheet.pdf", headers={**table.headers, "Accept-Language": "de-DE"}
        )
    )
    for text in (asked, wished):
        assert "Spot #1" in text and "Wer zahlt wem" in text and "Summe" in text
        for t in settled["transfers"]:
            amount = t["amount"].replace(".", ",")
            assert f"{t['from']} zahlt {t['to']} {amount} €" in text
        assert "GiroCode" in text and "Scan with a banking app" not in text


def test_a_blank_score_sheet_has_the_names_and_the_games_columns(table):
    sid = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="rummy500")["id"]
    text = read(table.get(f"/sessions/{sid}/blank.pdf"))
    assert "Rummy 500 #1" in text
    assert "Ann Bob Cas" in text and text.count("Melded In hand") == 3
    spot = table.session(["Ann", "Bob"], dealer="Bob")["id"]
    assert "Ann Bob Spots Spots" in read(table.get(f"/sessions/{spot}/blank.pdf"))


def test_boerenbridges_blank_sheet_has_a_bid_tricks_and_points_for_each_player(table):
    """The paper a Boerenbridge table keeps (RULES.md §15): each player's bid, the tricks they
    took and the points, in English and in Dutch (bod, slagen, punten); other games keep
    their one column."""
    sid = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="boerenbridge")["id"]
    text = read(table.get(f"/sessions/{sid}/blank.pdf"))
    assert "Boerenbridge #1" in text and "Ann Bob Cas" in text
    assert text.count("Bid Tricks Points") == 3
    dutch = read(table.get(f"/sessions/{sid}/blank.pdf?lang=nl"))
    assert dutch.count("Bod Slagen Punten") == 3 and "Totaal" in dutch
    hearts = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="tally", name="Hearts")
    assert "Ann Bob Cas Points Points Points 1 " in read(
        table.get(f"/sessions/{hearts['id']}/blank.pdf")
    )


def test_a_seasons_table_for_the_wall(table):
    sid = worked_season(table)
    text = read(table.get(f"/groups/{table.slug}/seasons/{sid}/table.pdf"))
    assert "Winter" in text and "1 Ann 11 3 of 5 4 3.0" in text and "4 Dee 7 3 of 5 3 1.8" in text
    assert "#1 #2 #3 #4 #5" in text and "Ann 4 (2) 3 (2) 4" in text
    assert "€20.00" in text and "Ann: €11.40" in text
    table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "now"})
    closed = read(table.get(f"/groups/{table.slug}/seasons/{sid}/table.pdf"))
    assert "Who pays whom" in closed and "pays Ann €" in closed


def test_paper_of_another_group_is_not_found(table, other, night):
    sid = worked_season(table)
    assert other.get(f"/sessions/{night}/sheet.pdf").status_code == 404
    assert other.get(f"/sessions/{night}/blank.pdf").status_code == 404
    assert other.get(f"/groups/{table.slug}/seasons/{sid}/table.pdf").status_code == 404
    assert other.get(f"/groups/{other.slug}/seasons/{sid}/table.pdf").status_code == 404


def test_an_any_game_on_paper_is_named_by_its_name_and_number(table):
    """Hearts #2 on paper and in its file names, as on its pages (API.md fourth edition): the
    Any game's own name and its number among the group's Hearts nights, not its id."""
    names = ["Ann", "Bob", "Cas"]
    table.session(names, dealer="Cas", game="tally", name="Whist")
    for _ in range(2):
        sid = table.session(names, dealer="Cas", game="tally", name="Hearts", hands=1)["id"]
    assert table.ok("GET", f"/sessions/{sid}")["number"] == 2
    table.hand(
        sid,
        {"results": [{"player": p, "points": n} for p, n in zip(names, (5, 9, 12), strict=True)]},
    )
    response = table.get(f"/sessions/{sid}/sheet.pdf")
    text = read(response)
    assert text.startswith("Hearts #2 ") and "Total +5 +9 +12" in text
    assert "-hearts-2-" in response.headers["Content-Disposition"]
    blank = table.get(f"/sessions/{sid}/blank.pdf")
    assert read(blank).startswith("Hearts #2 ")
    assert "-hearts-2-" in blank.headers["Content-Disposition"]
