"""Skat through the API (API.md fifth edition): the worked example of RULES.md §18 deal by deal
with its money, the German card letters, the dealer sitting out at four, the refusals naming
their fields, and a correction recomputing the list."""

from __future__ import annotations

from typing import Any

from tests.api.helpers import error

SEATS = ["Ann", "Bob", "Cas"]
MONEY = {"stake": 1, "unit_value": "0.01", "currency": "EUR"}

# RULES.md §18's worked example; Cas's deal gives the twelve cards (the skat held ♣J).
WORKED: list[dict[str, Any]] = [
    {"declarer": "Ann", "bid": 36, "game": "clubs", "matadors": 2, "card_points": 78},
    {
        "declarer": "Bob", "bid": 48, "game": "grand", "matadors": -1, "hand": True,
        "card_points": 92, "tricks": "some",
    },
    {
        "declarer": "Cas", "bid": 40, "game": "hearts", "hand": True, "card_points": 70,
        "cards": "Bkr Bhe Ahe 10he Khe 9he 7he Api 10pi Kka 8kr 7kr", "cards_language": "de",
    },
    {"declarer": "Ann", "bid": 23, "game": "null", "tricks": "some"},
    {"declarer": None},
]  # fmt: skip

ANSWERS = [
    # value, won, overbid, matadors, list points, scores after
    (36, True, False, 2, {"Ann": 86, "Bob": 0, "Cas": 0}, {"Ann": 86, "Bob": 0, "Cas": 0}),
    (96, True, False, -1, {"Ann": 0, "Bob": 146, "Cas": 0}, {"Ann": 86, "Bob": 146, "Cas": 0}),
    (40, False, True, 1, {"Ann": 40, "Bob": 40, "Cas": -130},
     {"Ann": 126, "Bob": 186, "Cas": -130}),
    (23, False, False, None, {"Ann": -96, "Bob": 40, "Cas": 40},
     {"Ann": 30, "Bob": 226, "Cas": -90}),
    (None, None, False, None, {"Ann": 0, "Bob": 0, "Cas": 0}, {"Ann": 30, "Bob": 226, "Cas": -90}),
]  # fmt: skip


def start(table, players: list[str] | None = None, dealer: str = "Cas", **options: Any) -> int:
    return table.session(players or SEATS, dealer=dealer, game="skat", **options)["id"]


def test_the_worked_example_deal_by_deal_and_its_money(table):
    sid = start(table, **MONEY, deals=5)
    for body, (value, won, overbid, matadors, points, after) in zip(WORKED, ANSWERS, strict=True):
        hand = table.hand(sid, body)
        assert (hand["value"], hand["won"], hand["overbid"], hand["matadors"]) == (
            value,
            won,
            overbid,
            matadors,
        )
        assert {r["player"]: r["points"] for r in hand["results"]} == points
        assert hand["scores_after"] == after
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["status"] == "finished" and session["winners"] == ["Bob"]
    assert session["won_games"] == {"Ann": 1, "Bob": 1, "Cas": 0}
    assert session["lost_games"] == {"Ann": 1, "Bob": 0, "Cas": 1}
    assert session["sitting_out"] is None
    settlement = table.ok("GET", f"/sessions/{sid}/settlement")
    assert {b["player"]: b["units"] for b in settlement["balances"]} == {
        "Ann": -76,
        "Bob": 512,
        "Cas": -436,
    }
    assert {b["player"]: b["amount"] for b in settlement["balances"]}["Bob"] == "5.12"
    stored = table.ok("GET", f"/sessions/{sid}/hands")[2]["entry"]
    assert stored["cards"] == "JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C"  # kept in English


def test_the_plain_list(table):
    sid = start(table, list="plain")
    for body in WORKED:
        table.hand(sid, body)
    assert table.ok("GET", f"/sessions/{sid}")["scores"] == {"Ann": -10, "Bob": 96, "Cas": -80}


def test_at_four_the_dealer_sits_out_scores_30_and_cannot_declare(table):
    sid = start(table, ["Ann", "Bob", "Cas", "Dee"], dealer="Dee")
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["sitting_out"] == "Dee" and session["progress"]["hands_in_round"] == 48
    body = {"declarer": "Dee", "bid": 18, "game": "diamonds", "matadors": 1, "card_points": 70}
    response = table.post(f"/sessions/{sid}/hands", body)
    assert error(response, 422, "declarer") == "Dee deals and sits out this deal."
    hand = table.hand(sid, {**body, "declarer": "Ann", "card_points": 50})
    assert {r["player"]: (r["points"], r["sitting_out"]) for r in hand["results"]} == {
        "Ann": (-86, False),
        "Bob": (30, False),
        "Cas": (30, False),
        "Dee": (30, True),
    }
    assert table.ok("GET", f"/sessions/{sid}")["sitting_out"] == "Ann"


def test_the_refusals_name_their_fields_and_store_nothing(table):
    sid = start(table)
    cases = [
        ({"bid": 18, "game": "grand", "matadors": 5, "card_points": 70}, "matadors",
         "Grand has at most 4 matadors: 5 is not."),
        ({"bid": 18, "game": "clubs", "matadors": 1, "card_points": 121}, "card_points",
         "Card points are 0 to 120: 121 is not."),
        ({"bid": 18, "game": "clubs", "matadors": 1, "card_points": 90, "hand": True,
          "schwarz_announced": True}, "schwarz_announced",
         "Schwarz announced needs schneider announced, and both need a hand game."),
        ({"bid": 24, "game": "null", "tricks": "none"}, "bid",
         "A Null game is worth 23: after a bid of 24, declare a Null worth at least that."),
        ({"bid": 19, "game": "clubs", "matadors": 1, "card_points": 70}, "bid",
         "18 is the lowest bid; 19 is no game's value."),
        ({"bid": 18, "game": "clubs", "card_points": 70,
          "cards": "6S JC JS JH JD AC 10C KC QC 9C 8C 7C"}, "cards",
         "Skat is played with 7 to ace: 6♠ is not in the pack."),
        ({"bid": 18, "game": "clubs", "card_points": 70,
          "cards": "JC JC JS JH JD AC 10C KC QC 9C 8C 7C"}, "cards",
         "The declarer's cards hold J♣ twice: the pack has one of each."),
        ({"bid": 18, "game": "clubs", "card_points": 70, "cards": "Dkr"}, "cards",
         "'Dkr' is not a card — D and B are the German letters (Dame, Bube), kr, pi, he and ka "
         "the German suits: in English write QC."),
    ]  # fmt: skip
    for body, field, message in cases:
        response = table.post(f"/sessions/{sid}/hands", {"declarer": "Ann", **body})
        assert error(response, 422, field) == message
    assert error(table.post(f"/sessions/{sid}/hands", {"declarer": "Ann", "bid": "18"}), 422, "bid")
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 0
    five = {"game": "skat", "players": [*SEATS, "Dee", "Eve"], "dealer": "Ann", "options": {}}
    assert error(table.post(f"/groups/{table.slug}/sessions", five), 422, "players")


def test_a_correction_recomputes_the_list(table):
    sid = start(table)
    for body in WORKED[:3]:
        table.hand(sid, body)
    fixed = {**WORKED[0], "card_points": 50}  # Ann lost the first deal after all
    hand = table.ok("PUT", f"/sessions/{sid}/hands/1", fixed)
    assert hand["won"] is False and hand["scores_after"] == {"Ann": -122, "Bob": 40, "Cas": 40}
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["scores"] == {"Ann": -82, "Bob": 226, "Cas": -90}
    assert session["won_games"] == {"Ann": 0, "Bob": 1, "Cas": 0}
    assert session["lost_games"] == {"Ann": 1, "Bob": 0, "Cas": 1}


def test_the_games_list_describes_a_deal(table):
    games = {g["key"]: g for g in table.ok("GET", "/games")}
    skat = games["skat"]
    assert (skat["min_players"], skat["max_players"]) == (3, 4)
    assert skat["options"]["list"] == "seeger" and skat["options"]["payout"] == "everyone"
    assert skat["options"]["deals"] is None
    assert skat["entry"]["matadors"] == "whole" and skat["entry"]["cards"] == "cards"
    assert skat["entry"]["tricks"] == "text" and skat["entry"]["hand"] == "flag"


def test_the_nights_list_and_a_blank_list_on_paper(table):
    from tests.api.test_paper import read

    sid = start(table, **MONEY, deals=5)
    for body in WORKED:
        table.hand(sid, body)
    text = read(table.get(f"/sessions/{sid}/sheet.pdf"))
    assert "Skat #1" in text and "Total +30 +226 −90" in text.replace("-90", "−90")
    assert "Cas played ♥ hearts after a bid of 40 and took 70 card points." in text
    assert "With 1, game 2, hand 3 × 10 = 30: overbid at 40." in text
    assert "Ann pays Bob" in text or "Cas pays Bob" in text
    four = start(table, ["Ann", "Bob", "Cas", "Dee"], dealer="Dee")
    table.hand(four, {"declarer": "Ann", "bid": 18, "game": "diamonds", "matadors": 1,
                      "card_points": 50})  # fmt: skip
    text = read(table.get(f"/sessions/{four}/sheet.pdf"))
    assert "1 −86 +30 +30 +30" in text.replace("-86", "−86")  # the dealer sat out, scored 30
    blank = read(table.get(f"/sessions/{four}/blank.pdf"))
    assert "Skat #2" in blank and "Ann Bob Cas Dee" in blank
    assert " 48 " in blank and " 49 " not in blank  # a line for each of the night's 48 deals
    # Each with its dealer, passing to the left from the first (Dee dealt deal 1).
    assert "# Dealer Ann Bob Cas Dee" in blank
    assert "1 Dee 2 Ann 3 Bob 4 Cas 5 Dee" in blank and "48 Cas" in blank


def test_skat_in_the_league_stats_and_workbook(table):
    from io import BytesIO

    from openpyxl import load_workbook

    from tests.api.test_trick_games_league import season

    sid = start(table, deals=5)
    for body in WORKED:
        table.hand(sid, body)
    places = season(table, "skat")
    assert places["nights"][0]["places"] == {"Bob": 1, "Ann": 2, "Cas": 3}
    points = season(table, "skat", scoring="points")
    assert [(s["player"], s["total"]) for s in points["standings"]] == [
        ("Bob", 226),
        ("Ann", 30),
        ("Cas", -90),
    ]
    ratings = table.ok("GET", f"/groups/{table.slug}/ratings?game=skat")["players"]
    assert [p["player"] for p in ratings] == ["Bob", "Ann", "Cas"]
    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    assert stats["Bob"]["points"]["skat"] == 226 and stats["Bob"]["games_won"]["skat"] == 1
    book = load_workbook(BytesIO(table.call("GET", f"/sessions/{sid}/export.xlsx").data))
    summary = list(book["Summary"].iter_rows(values_only=True))
    assert ("Skat", "Skat #1") == summary[1][:2] and "Seeger–Fabian" in summary[1]
    assert [row[:4:3] for row in summary[4:7]] == [("Ann", 30), ("Bob", 226), ("Cas", -90)]
    hands = list(book["Hands"].iter_rows(values_only=True))
    header = hands[0]
    # Each player's points found by its header: Skat's own columns stand before them.
    columns = [header.index(f"{name} points") for name in ("Ann", "Bob", "Cas")]
    assert [tuple(row[i] for i in columns) for row in hands[1:]] == [
        (86, 0, 0), (0, 146, 0), (40, 40, -130), (-96, 40, 40), (0, 0, 0),
    ]  # fmt: skip
    # Skat's own columns (Game.workbook_columns) carry the worked example's deals as RULES.md
    # values them; the passed-in fifth deal has none.
    own = ["Declarer", "Declared game", "Bid", "Card points", "Value", "Won"]
    at = [header.index(name) for name in own]
    assert [tuple(row[i] for i in at) for row in hands[1:]] == [
        ("Ann", "♣ clubs", 36, 78, 36, "yes"),
        ("Bob", "Grand", 48, 92, 96, "yes"),
        ("Cas", "♥ hearts", 40, 70, 40, "no"),
        ("Ann", "Null", 23, None, 23, "no"),
        (None, None, None, None, None, None),
    ]


def test_every_game_answers_who_sits_the_next_hand_out(table):
    five = ["Ann", "Bob", "Cas", "Dee", "Eve"]
    spots = table.session(five, dealer="Eve", game="spots")
    assert spots["sitting_out"] == "Eve"  # Spots at five: the dealer is not dealt in
    assert table.session(five[:4], dealer="Dee", game="spots")["sitting_out"] is None
    assert table.ok("GET", f"/sessions/{start(table)}")["sitting_out"] is None


def test_a_deal_sent_twice_is_one_deal_and_wrong_types_are_refused_naming_them(table):
    sid = start(table)
    body = {**WORKED[0], "request_id": "deal-1"}
    first = table.hand(sid, body)
    again = table.hand(sid, body, status=200)
    assert again["number"] == first["number"] == 1
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 1
    for field, value in (("matadors", True), ("game", 5), ("hand", "yes"), ("card_points", 7.5)):
        response = table.post(f"/sessions/{sid}/hands", {**WORKED[0], field: value})
        assert error(response, 422, field)
    response = table.post(f"/sessions/{sid}/hands", {**WORKED[0], "declarer": "Dee"})
    assert error(response, 422, "declarer") == "Dee, the declarer, is not seated in this session."
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 1
