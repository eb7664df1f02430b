"""Each game's own details in the workbooks (issue 45 item 12): Boerenbridge's bids and tricks,
Klaverjassen's playing team, card points, roem, nat and pit, Cribbage's counts (pegged, show,
crib, his heels), read back with openpyxl from the night's workbook and the group's, and in
the group's CSV, as a player checking a night against their paper would read them."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from ledger import services
from ledger.export import group_export_csv
from ledger.services.exports import group_export
from tests.export.history import PASSPHRASE, Table
from tests.export.sheets import load, table
from tests.export.test_trick_games_files import play_trick_games


def play_cribbage(t: Table) -> int:
    """Two deals of two-handed Cribbage: the second's starter a jack (his heels for Bob)."""
    sid = t.new_session("cribbage", ["Ann", "Bob"], "Ann", target=121, stake=1)
    deals = [
        ("5H", "2D 3D KS QC", "5S 5D JH 10C", 4, "4C 6C 7C 8C", 3),
        ("JD", "AH AS 9D 9H", "2C 3C 4H 8S", 1, "6D 6H 7S KC", 2),
    ]
    for starter, crib, bob_show, bob_pegged, ann_show, ann_pegged in deals:
        body = {
            "starter": starter,
            "crib": crib,
            "results": [
                {"player": "Bob", "show": bob_show, "pegged": bob_pegged},
                {"player": "Ann", "show": ann_show, "pegged": ann_pegged},
            ],
        }
        t.ok("POST", f"/sessions/{sid}/hands", body, 201)
    return sid


@pytest.fixture
def nights(client) -> tuple[Table, dict[str, int]]:
    t = Table.new_group(client)
    ids = play_trick_games(t)
    ids["cribbage"] = play_cribbage(t)
    return t, ids


def _hands(t: Table, sid: int) -> list[dict[str, Any]]:
    return table(load(t.ok("GET", f"/sessions/{sid}/export.xlsx"))["Hands"])


def test_boerenbridge_bids_and_tricks_stand_beside_the_points(nights):
    t, ids = nights
    rows = _hands(t, ids["boerenbridge"])
    assert [r["Cards dealt"] for r in rows] == [1, 2]
    assert [r["Cas bid"] for r in rows] == [1, 1] and [r["Cas tricks"] for r in rows] == [1, 1]
    assert [(r["Ann bid"], r["Ann tricks"], r["Ann points"]) for r in rows] == [
        (0, 0, 10),
        (0, 1, -2),
    ]
    assert [r["Bob bid"] for r in rows] == [0, 1] and [r["Dee tricks"] for r in rows] == [0, 0]


def test_klaverjassen_names_the_playing_team_and_each_teams_figures(nights):
    t, ids = nights
    rows = _hands(t, ids["klaverjassen"])
    assert [r["Playing"] for r in rows] == ["Ann & Cas", "Ann & Cas"]
    assert rows[0]["Team 1"] == "Ann & Cas" and rows[0]["Team 2"] == "Bob & Dee"
    assert [(r["Team 1 card points"], r["Team 1 roem"]) for r in rows] == [(100, 20), (70, 20)]
    assert [(r["Team 2 card points"], r["Team 2 roem"]) for r in rows] == [(62, 0), (92, 0)]
    # The second hand: Ann & Cas played and did not make more than half, nat.
    assert [r["Team 1 nat"] for r in rows] == ["no", "yes"]
    assert [r["Team 2 nat"] for r in rows] == ["no", "no"]
    assert [r["Team 1 pit"] for r in rows] == ["no", "no"]
    assert [r["Ann points"] for r in rows] == [120, 0]


def test_cribbage_counts_add_up_to_each_deals_points(nights):
    t, ids = nights
    rows = _hands(t, ids["cribbage"])
    assert [r["Starter"] for r in rows] == ["5H", "JD"]
    assert [r["Game number"] for r in rows] == [1, 1]
    first, second = rows
    assert (first["Ann pegged"], first["Ann show"], first["Ann crib"]) == (3, 13, 8)
    assert first["Ann his heels"] is None and first["Bob crib"] is None
    assert (first["Bob pegged"], first["Bob show"]) == (4, 21)
    # Bob deals the second: the jack turned is his heels, and the crib is his.
    assert second["Bob his heels"] == 2 and second["Ann his heels"] is None
    assert second["Bob crib"] is not None and second["Ann crib"] is None
    for row in rows:
        for name in ("Ann", "Bob"):
            parts = [row[f"{name} {what}"] for what in ("pegged", "show", "crib", "his heels")]
            assert sum(p or 0 for p in parts) == row[f"{name} points"]


def test_the_group_workbook_and_csv_carry_every_games_own_columns(app, nights):
    t, ids = nights
    rows = table(load(t.ok("GET", f"/groups/{t.slug}/export.xlsx"))["Hands"])
    by_night = {}
    for row in rows:
        by_night.setdefault(row["Id"], []).append(row)
    bridge, klaver, crib = (by_night[ids[k]] for k in ("boerenbridge", "klaverjassen", "cribbage"))
    assert [r["Cas bid"] for r in bridge] == [1, 1] and [r["Ann tricks"] for r in bridge] == [0, 1]
    assert [r["Team 1 nat"] for r in klaver] == ["no", "yes"]
    assert [r["Playing"] for r in klaver] == ["Ann & Cas", "Ann & Cas"]
    assert crib[1]["Bob his heels"] == 2 and crib[0]["Ann crib"] == 8
    # Another game's columns stay empty on a night's row.
    assert all(r["Playing"] is None and r["Ann pegged"] is None for r in bridge)
    assert all(r["Cas bid"] is None for r in klaver + crib)
    with app.app_context():
        group = services.authenticate(t.slug, PASSPHRASE)
        text = group_export_csv(group_export(group))
    listed = list(csv.DictReader(io.StringIO(text)))
    assert [r["Cas bid"] for r in listed if r["Id"] == str(ids["boerenbridge"])] == ["1", "1"]
    night = t.ok("GET", f"/sessions/{ids['klaverjassen']}/hands.csv").decode()
    assert [r["Team 1 nat"] for r in csv.DictReader(io.StringIO(night))] == ["no", "yes"]


def test_skat_names_each_deals_declarer_game_value_and_whether_it_was_won(client):
    t = Table.new_group(client)
    sid = t.new_session("skat", ["Ann", "Bob", "Cas"], "Cas")
    cards = "JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C"
    deals = [
        {"declarer": "Bob", "bid": 30, "game": "hearts", "cards": cards, "hand": True,
         "card_points": 70},
        {"declarer": "Ann", "bid": 23, "game": "null", "tricks": "some"},
        {"declarer": None},
    ]  # fmt: skip
    answered = [t.ok("POST", f"/sessions/{sid}/hands", d, 201) for d in deals]
    rows = _hands(t, sid)
    assert [r["Declarer"] for r in rows] == ["Bob", "Ann", None]
    # Named as the Skat pages name it, not by its key (the workbook is in English).
    assert [r["Declared game"] for r in rows] == ["♥ hearts", "Null", None]
    t.client.post("/open", data={"open-group": t.slug, "open-passphrase": PASSPHRASE})
    page = t.client.get(f"/g/{t.slug}/s/{sid}/hands/1", headers={"Accept-Language": "en"})
    assert "Bob played ♥ hearts after a bid of 30" in page.get_data(as_text=True)
    assert [r["Bid"] for r in rows] == [30, 23, None]
    assert [r["Won"] for r in rows] == ["yes", "no", None]
    # The value as the deal's answer (and the scoreboard) has it: the won hearts game counts
    # for Bob, the lost Null against Ann.
    assert [r["Value"] for r in rows] == [a["value"] for a in answered]
    assert rows[0]["Value"] > 0 and rows[0]["Bob points"] > 0 and rows[1]["Ann points"] < 0
    assert rows[0]["Card points"] == 70
