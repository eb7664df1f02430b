"""Cribbage everywhere a night goes: a season ranks a night by its games (RULES.md §13), the
ratings read those places (§14), the night's PDF lists every deal's counts and a blank sheet
has a cribbage table's columns, the workbook and the stats count the games, and a backup
restores a night that ran over two games exactly as it was."""

from __future__ import annotations

import json

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from tests.api.helpers import PASSPHRASE
from tests.api.test_cribbage import WORKED, body
from tests.api.test_paper import read
from tests.api.test_trick_games_league import season
from tests.export.history import Table as Kept
from tests.export.sheets import load, rows

# Two games won by Ann to 61, Bob skunked in the second (short of 31).
QUICK_WIN = ("2C", {"Bob": ("AS 3H 9C QD", 0), "Ann": ("4H 4D 5C 6H", 60)}, "7S 7H 10S KC")


def night(table, *, finish: bool = True, **options) -> int:
    given = {"target": 61, "stake": 2, "unit_value": "0.50", **options}
    sid = table.session(["Ann", "Bob"], dealer="Ann", game="cribbage", **given)["id"]
    for deal in WORKED:
        table.hand(sid, body(*deal))
    starter, shows, crib = QUICK_WIN
    table.hand(sid, body(starter, {"Bob": shows["Ann"], "Ann": shows["Bob"]}, crib))
    if finish:
        table.ok("POST", f"/sessions/{sid}/finish", {})
    return sid


def test_the_games_and_their_money(table):
    sid = night(table, finish=False)
    session = table.ok("GET", f"/sessions/{sid}")
    games = session["games"]
    assert [(g["winner"], g["skunk"], g["lost"]) for g in games] == [
        ("Ann", None, {"Bob": 1}),
        ("Bob", "skunk", {"Ann": 2}),
    ]
    # Game 1: Bob pays Ann 1 × 2; game 2: Ann, skunked, pays Bob 2 × 2. Bob is 2 units up.
    assert session["payout"] == {"Ann": -2, "Bob": 2}
    assert session["money"] == {"Ann": "-1.00", "Bob": "1.00"}
    finished = table.ok("POST", f"/sessions/{sid}/finish", {})
    assert finished["scores"] == {"Ann": 1, "Bob": 2} and finished["winners"] == ["Bob"]


def test_a_season_ranks_by_games_and_the_ratings_follow(table):
    night(table)
    found = season(table, "cribbage")
    assert found["nights"][0]["places"] == {"Bob": 1, "Ann": 2}
    by_points = season(table, "cribbage", scoring="points")
    assert [(s["player"], s["total"]) for s in by_points["standings"]] == [("Bob", 2), ("Ann", 1)]
    by_money = season(table, "cribbage", scoring="winnings")
    assert [(s["player"], s["total"]) for s in by_money["standings"]] == [("Bob", 2), ("Ann", -2)]
    ratings = table.ok("GET", f"/groups/{table.slug}/ratings?game=cribbage")["players"]
    assert [p["player"] for p in ratings] == ["Bob", "Ann"]
    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    assert stats["Bob"]["games_won"] == {"cribbage": 1} and stats["Bob"]["points"] == {
        "cribbage": 2
    }
    assert stats["Bob"]["hands_won"] == 1 and stats["Ann"]["hands_won"] == 1


def test_the_nights_sheet_and_a_blank_cribbage_sheet(table):
    sid = night(table)
    text = read(table.get(f"/sessions/{sid}/sheet.pdf"))
    assert text.startswith("Cribbage #1 ")
    # Each deal's points as it added them (the board back at 0 for game 2), then its counts.
    assert "# Ann Bob 1 +24 +25 2 +25 +19 3 +12 +9 4 +7 +61" in text
    bob = "Bob's show: 15-2, 15-4, 15-6, 15-8, 15-10, 15-12, 15-14, three of a kind is 20, "
    assert bob + "nobs is 21." in text
    assert "Ann won game 1." in text and "Ann is skunked: two games." in text
    blank = read(table.get(f"/sessions/{sid}/blank.pdf"))
    assert "Ann Bob Pegged Hand Crib Board Pegged Hand Crib Board 1" in blank
    dutch = read(table.get(f"/sessions/{sid}/blank.pdf?lang=nl"))
    assert "Gepegd Hand Crib Bord" in dutch


def test_the_workbook_lists_every_deal(table):
    sid = night(table)
    response = table.get(f"/sessions/{sid}/export.xlsx")
    assert response.status_code == 200
    book = load(response.data)
    hands = rows(book["Hands"])
    assert len(hands) == 1 + 4
    summary = rows(book["Summary"])
    assert any("Cribbage" in str(cell) for row in summary for cell in row)


def test_a_night_of_two_games_restores_as_it_was(app, client, table):
    sid = night(table, finish=False)
    with app.app_context():
        data = json.loads(json.dumps(backup_group(table.slug)))
        db.session.rollback()
        copy = restore_group(data, slug="the-copy")
    kept = Kept(client, copy.slug, PASSPHRASE)
    (new,) = [s["id"] for s in kept.get(f"/groups/{copy.slug}")["sessions"]]
    for what in ("", "/hands"):
        before, after = (
            table.ok("GET", f"/sessions/{sid}{what}"),
            kept.get(f"/sessions/{new}{what}"),
        )
        if what == "":
            before = {k: v for k, v in before.items() if k not in ("id", "group")}
            after = {k: v for k, v in after.items() if k not in ("id", "group")}
        assert after == before
