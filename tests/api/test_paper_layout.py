"""Paper laid out as a person would (issues 45 and 46): a season of a year prints, its
night-by-night grid carried onto further tables with the names again; every PDF read back
with pypdf, where each word stands on the page checked as well."""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from tests.api.helpers import SEED_HAND_1, SEED_HAND_2
from tests.api.test_seasons import WORKED, spot_night, worked_season

A4_WIDTH = 595.0  # points
MARGIN = 12 / 25.4 * 72  # the sheets' 12 mm, in points


@dataclass(frozen=True)
class Word:
    """A piece of text as pypdf places it: its page (from 0), where it starts, its text."""

    page: int
    x: float
    y: float
    text: str


def words(data: bytes) -> list[Word]:
    """Every piece of text of the PDF with its page and place."""
    found: list[Word] = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages):

        def seen(text, cm, tm, font, size, number=number) -> None:
            if text.strip():
                found.append(Word(number, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text))

        page.extract_text(visitor_text=seen)
    return found


def pdf(response) -> bytes:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/pdf"
    return response.get_data()


def pdftoppm_tool() -> str:
    """Poppler's pdftoppm, which draws the pages: where it is not installed its tests are
    skipped, as the spreadsheet and browser tests are, unless they must run here
    (LEDGER_REQUIRE_PDFTOPPM, which .ci/run sets), and then they fail."""
    tool = shutil.which("pdftoppm")
    if tool is not None:
        return tool
    if os.environ.get("LEDGER_REQUIRE_PDFTOPPM"):
        pytest.fail("pdftoppm must be installed here (LEDGER_REQUIRE_PDFTOPPM): poppler-utils")
    pytest.skip("pdftoppm is not installed here; .ci/run installs Debian's poppler-utils")


@pytest.fixture
def pdftoppm() -> str:
    """pdftoppm, asked before a test lays out its paper (skipped or failed without it)."""
    return pdftoppm_tool()


def pages_drawn(data: bytes, folder: Path) -> list[Image.Image]:
    """Each page as Poppler's pdftoppm draws it for a printer, grey, 40 dots an inch."""
    tool = pdftoppm_tool()
    here = Path(tempfile.mkdtemp(dir=folder))  # a folder each: no page of another PDF
    (here / "paper.pdf").write_bytes(data)
    subprocess.run([tool, "-gray", "-r", "40", here / "paper.pdf", here / "page"], check=True)
    return [Image.open(p) for p in sorted(here.glob("page-*.pgm"))]


def ink_in_the_margins(data: bytes, folder: Path) -> list[int]:
    """The pages (from 1) with anything drawn in their left or right 10 mm (the sheets keep
    12 mm): a column run off the paper, or a word past its cell."""
    found = []
    for number, page in enumerate(pages_drawn(data, folder), start=1):
        width, height = page.size
        edge = round(width * 10 / (210 if width < height else 297))
        strips = (page.crop((0, 0, edge, height)), page.crop((width - edge, 0, width, height)))
        if any(strip.getextrema()[0] < 160 for strip in strips):
            found.append(number)
    return found


def page_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


# --- 46.1: a season of a year prints ---------------------------------------------------------


def grid_rows(found: list[Word], players: list[str]) -> list[list[Word]]:
    """The night-by-night grid's lines that start with a player's name, in their order."""
    rows: dict[tuple[int, float], list[Word]] = {}
    for w in found:
        rows.setdefault((w.page, round(w.y, 1)), []).append(w)
    lines = [sorted(ws, key=lambda w: w.x) for _, ws in sorted(rows.items(), key=_down)]
    return [line for line in lines if line[0].text.strip() in players]


def _down(item):
    (page, y), _ = item
    return (page, -y)


def test_a_weekly_league_of_a_year_prints_its_nights_on_tables_carried_below(
    table, tmp_path, pdftoppm
):
    """52 nights (a weekly league) answered 500 ("Not enough horizontal space"): now the grid
    goes on in further tables, each beginning with the players' names, every night's
    number and points on the page, nothing past the margins."""
    names = ["Ann", "Bob", "Cas", "Dee"]
    chance = random.Random(46)
    for _ in range(52):
        order = names[:]
        chance.shuffle(order)
        spot_night(table, order)
    sid = table.ok("POST", f"/groups/{table.slug}/seasons", {**WORKED, "best_of": None}, 201)["id"]
    season = table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")
    data = pdf(table.get(f"/groups/{table.slug}/seasons/{sid}/table.pdf"))
    found = words(data)
    assert all(MARGIN - 1 <= w.x <= A4_WIDTH - MARGIN for w in found)
    assert ink_in_the_margins(data, tmp_path) == []
    text = page_text(data)
    for night in season["nights"]:
        assert f"#{night['number']}" in text
    # Each player's line of each carried table: their points night after night, in order.
    lines = grid_rows(found, names)  # the standings' lines begin with a rank, not a name
    tables = len(lines) // len(names)
    assert tables >= 2
    for name in names:
        mine = [line for line in lines if line[0].text.strip() == name]
        assert len(mine) == tables
        points = [w.text.strip() for line in mine for w in line[1:]]
        assert points == [str(n["points"][name]) for n in season["nights"]]


def test_a_clubs_two_hundred_nights_of_twelve_players_print(app, tmp_path, pdftoppm):
    """A club's season of 200 nights, twelve players a night and up to 40 characters a name,
    scored by winnings (wide numbers): it prints, each table of the grid within the page."""
    from ledger.paper import season_table
    from ledger.rules.league import NightResult, Rules, standings
    from ledger.services.season_views import SeasonView

    chance = random.Random(200)
    club = [f"Player {n:02d} " + "W" * chance.randint(1, 28) for n in range(20)]
    start = datetime(2026, 1, 1, 20)
    results = []
    for n in range(1, 201):
        played = tuple(chance.sample(club, 12))
        won = {p: chance.randint(-99_999, 99_999) for p in played}
        results.append(NightResult(n, n, start + timedelta(days=n), played, won))
    made = standings(results, Rules(scoring="winnings", best_of=100))
    season = SeasonView(
        id=1,
        name="Club",
        game="spot",
        game_name=None,
        title="Spot",
        first_day=start.date(),
        last_day=(start + timedelta(days=365)).date(),
        options={"scoring": "winnings", "best_of": 100},
        status="open",
        table=made,
        currency="EUR",
        unit_value=Decimal("0.01"),
    )
    with app.test_request_context():
        data = season_table(season, "The Club")
    found = words(data)
    assert all(MARGIN - 1 <= w.x <= A4_WIDTH - MARGIN for w in found)
    assert ink_in_the_margins(data, tmp_path) == []
    text = page_text(data)
    assert all(f"#{n}" in text.split() for n in range(1, 201))
    assert "(" in text  # the nights best_of dropped, in brackets as before


# --- 45.10: a transfer keeps its QR code; a ticked one is listed, marked paid ---------------

IBANS = {"Enda": "NL91ABNA0417164300", "John": "DE89370400440532013000"}
PAYS = re.compile(r"(\w+) pays (\w+) (€\d+\.\d\d)")


def test_a_transfer_and_its_qr_code_are_never_split_by_a_page_break(table):
    """However many hands come before the settle-up, each transfer to a player with a bank
    account is on the same page as its QR code and the code's caption."""
    sid = table.session()["id"]
    for name, iban in IBANS.items():
        account = {"iban": iban, "name": name}
        table.ok("PUT", f"/groups/{table.slug}/players/{name}/account", account)
    for n in range(10):
        table.hand(sid, SEED_HAND_1 if n % 2 == 0 else SEED_HAND_2)
        settled = table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]
        coded = [t for t in settled if t["to"] in IBANS]
        assert coded
        reader = PdfReader(io.BytesIO(pdf(table.get(f"/sessions/{sid}/sheet.pdf"))))
        seen = 0
        for page in reader.pages:
            text = " ".join(page.extract_text().split())
            mine = [m for m in PAYS.findall(text) if m[1] in IBANS]
            assert len(page.images) == len(mine) == text.count("Scan with a banking app"), n
            seen += len(mine)
        assert seen == len(coded)


def test_a_nights_sheet_lists_every_transfer_the_ticked_ones_marked_paid(table):
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    before = table.ok("GET", f"/sessions/{sid}/settlement")["transfers"]
    assert len(before) == 3
    first = before[0]  # Finn pays Enda €0.38
    body = {"from": first["from"], "to": first["to"], "units": first["units"]}
    table.ok("POST", f"/sessions/{sid}/payments", body, 201)
    text = page_text(pdf(table.get(f"/sessions/{sid}/sheet.pdf")))
    owed, paid = text.split(" Paid ")
    for t in before[1:]:
        assert f"{t['from']} pays {t['to']} €{t['amount']}" in owed
    assert f"✓ {first['from']} paid {first['to']} €{first['amount']}" in paid
    assert f"{first['from']} pays {first['to']}" not in text
    for t in before[1:]:
        paying = {"from": t["from"], "to": t["to"], "units": t["units"]}
        table.ok("POST", f"/sessions/{sid}/payments", paying, 201)
    text = page_text(pdf(table.get(f"/sessions/{sid}/sheet.pdf?lang=nl")))
    assert "Alles is betaald." in text and text.count("✓") == 3


# --- 45.11: blank sheets: whole words, and Boerenbridge's rounds --------------------------------

SEVEN = ["Annemarie", "Bob", "Cas", "Dee", "Evertjan", "Fien", "Gus"]


def tokens(data: bytes) -> list[str]:
    """Every word the PDF draws, as drawn: a word split over two lines is two tokens."""
    return [t for w in words(data) for t in w.text.split()]


def test_a_blank_sheets_words_are_never_split_inside(table, tmp_path, pdftoppm):
    """Up to seven players of Boerenbridge (24 columns), in Dutch and English: every heading,
    name and "Totaal" whole ("Totaa" over "l" before), whatever the width of its column."""
    for count, game in ((4, "boerenbridge"), (7, "boerenbridge"), (6, "spot"), (4, "rummy500")):
        players = SEVEN[:count]
        sid = table.session(players, dealer=players[-1], game=game)["id"]
        for lang, total in (("nl", "Totaal"), ("en", "Total")):
            data = pdf(table.get(f"/sessions/{sid}/blank.pdf?lang={lang}"))
            drawn = set(tokens(data))
            assert total in drawn and set(players) <= drawn, (game, count, lang)
            assert ink_in_the_margins(data, tmp_path) == [], (game, count, lang)
            if game == "boerenbridge" and lang == "nl":
                assert {"Bod", "Slagen", "Punten", "Kaarten", "Gever"} <= drawn


def test_a_boerenbridge_sheet_has_a_row_per_round_with_its_cards_and_dealer(table):
    """Five rounds (at most three cards: 1, 2, 3, 2, 1), each row with its cards and who
    deals it (the deal passes left from the first dealer), then the totals: not 24 rows."""
    players = ["Ann", "Bob", "Cas", "Dee"]
    sid = table.session(players, dealer="Cas", game="boerenbridge", max_cards=3)["id"]
    found = words(pdf(table.get(f"/sessions/{sid}/blank.pdf")))
    lines: dict[float, list[str]] = {}
    for w in found:
        lines.setdefault(round(w.y), []).append(w.text.strip())
    rows = [cells for _y, cells in sorted(lines.items(), reverse=True) if cells[0].isdigit()]
    assert rows == [
        ["1", "1", "Cas"],
        ["2", "2", "Dee"],
        ["3", "3", "Ann"],
        ["4", "2", "Bob"],
        ["5", "1", "Cas"],
    ]
    text = page_text(pdf(table.get(f"/sessions/{sid}/blank.pdf")))
    assert "# Cards Dealer Ann Bob Cas Dee" in text and "Total" in text.split()


def test_a_night_on_the_tab_says_so_on_its_sheet(table):
    """A night on the tab has no transfers of its own: its sheet says the tab pays it, not
    that nobody owes anything."""
    sid = table.session()["id"]
    table.hand(sid, SEED_HAND_1)
    table.hand(sid, SEED_HAND_2)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund", "settle": "tab"})
    text = page_text(pdf(table.get(f"/sessions/{sid}/sheet.pdf")))
    assert "This night is on the tab: it is paid when the group settles the tab." in text
    assert "Nobody owes anybody anything." not in text


def test_a_closed_seasons_table_lists_its_ticked_transfers_as_paid(app, table):
    """The season's settle-up ticked on its page (issue 45 §6): its table on paper lists the
    transfer under "Paid", the others still to pay with their QR codes."""
    from ledger.backup import find_group
    from ledger.services import seasons

    sid = worked_season(table)
    closed = table.ok("POST", f"/groups/{table.slug}/seasons/{sid}/close", {"settle": "now"})
    first, *rest = closed["settlement"]["transfers"]
    with app.test_request_context():
        seasons.tick_season(find_group(table.slug), sid, first["from"], first["to"])
    text = page_text(pdf(table.get(f"/groups/{table.slug}/seasons/{sid}/table.pdf")))
    owed, paid = text.split(" Paid ", 1)
    assert f"✓ {first['from']} paid {first['to']} €{first['amount']}" in paid
    assert f"{first['from']} pays {first['to']}" not in text
    assert rest and all(f"{t['from']} pays {t['to']} €{t['amount']}" in owed for t in rest)
