"""Boerenbridge and Klaverjassen in the league like every other game (issue 41): a season's
standings, ratings, rivals and the night's and season's PDFs.

A Klaverjassen team's result gives both partners the same place (RULES.md §13 `places`:
equal results share the best place they cover; §14 rates from those places, ties as ties;
§16: each player's score is their team's total), so partners stand level and rate alike.
Boerenbridge places by its scores, the highest first (§15)."""

from __future__ import annotations

import re
from html import unescape

from openskill.models import PlackettLuce
from sqlalchemy import select

from ledger.extensions import db
from ledger.models import Group
from ledger.services import league
from ledger.services.night import night_view
from ledger.services.views.groups import GroupRef
from tests.api.helpers import PASSPHRASE
from tests.api.test_paper import read
from tests.api.test_seasons import PERIOD
from tests.api.test_trick_games import klaver, rows
from tests.rules.test_boerenbridge import SEATS, WORKED


def klaverjassen_night(table, hands: list[dict], **options) -> int:
    """A finished Klaverjassen night of ``hands`` (teams Ann & Cas, Bob & Dee)."""
    sid = table.session(
        list(SEATS), dealer="Dee", game="klaverjassen", hands=len(hands), **options
    )["id"]
    for hand in hands:
        table.hand(sid, hand)
    assert table.ok("GET", f"/sessions/{sid}")["status"] == "finished"
    return sid


# RULES.md §16's first two hands: Ann & Cas 120 + 112 = 232, Bob & Dee 62 + 120 = 182.
AHEAD = [klaver(1, {1: 100}, {1: 20}), klaver(2, {2: 70}, {1: 20, 2: 50})]
# Its last two: nat (Bob & Dee 182) and pit (Bob & Dee 302): Bob & Dee 484, Ann & Cas 0.
BEHIND = [klaver(1, {1: 70}, {1: 20}), klaver(2, {}, {2: 40}, pit=2)]


def season(table, game: str, **options) -> dict:
    body = {"name": game.capitalize(), "game": game, **PERIOD, **options}
    sid = table.ok("POST", f"/groups/{table.slug}/seasons", body, 201)["id"]
    return table.ok("GET", f"/groups/{table.slug}/seasons/{sid}")


def group_ref(table) -> GroupRef:
    row = db.session.scalar(select(Group).where(Group.slug == table.slug))
    return GroupRef(row.id, row.slug, row.name)


def test_a_klaverjassen_team_shares_its_place_in_the_season_ratings_and_rivals(app, table):
    first = klaverjassen_night(table, AHEAD)
    klaverjassen_night(table, BEHIND)
    found = season(table, "klaverjassen")
    # Night 1: Ann & Cas ahead, both first (4 points each of four players), Bob & Dee both
    # third (2 each); night 2 the other way round.
    assert [n["places"] for n in found["nights"]] == [
        {"Ann": 1, "Cas": 1, "Bob": 3, "Dee": 3},
        {"Ann": 3, "Cas": 3, "Bob": 1, "Dee": 1},
    ]
    assert [n["points"] for n in found["nights"]][0] == {"Ann": 4, "Bob": 2, "Cas": 4, "Dee": 2}
    assert [n["number"] for n in found["nights"]] == [1, 2]
    ranks = {s["player"]: (s["rank"], s["total"]) for s in found["standings"]}
    assert ranks == {"Ann": (1, 6), "Bob": (1, 6), "Cas": (1, 6), "Dee": (1, 6)}

    ratings = table.ok("GET", f"/groups/{table.slug}/ratings?game=klaverjassen")["players"]
    by_name = {p["player"]: (p["mu"], p["sigma"]) for p in ratings}
    assert by_name["Ann"] == by_name["Cas"] and by_name["Bob"] == by_name["Dee"]
    model = PlackettLuce()
    now = {p: model.rating(name=p) for p in SEATS}
    for places in (
        {"Ann": 1, "Cas": 1, "Bob": 3, "Dee": 3},
        {"Ann": 3, "Cas": 3, "Bob": 1, "Dee": 1},
    ):
        players = sorted(places)
        after = model.rate([[now[p]] for p in players], ranks=[float(places[p]) for p in players])
        now = {p: r for p, (r,) in zip(players, after, strict=True)}
    assert by_name == {p: (r.mu, r.sigma) for p, r in now.items()}

    rivals = table.ok("GET", f"/groups/{table.slug}/players/Ann/rivals?game=klaverjassen")
    record = {
        r["opponent"]: (r["nights"], r["above"], r["below"], r["tied"]) for r in rivals["rivals"]
    }
    # Cas is Ann's partner both nights: never her rival (RULES.md §14), not even "tied".
    assert record == {"Bob": (2, 1, 1, 0), "Dee": (2, 1, 1, 0)}

    # Through the services: the night's result is its read model's, the team's total each.
    with app.app_context():
        group = group_ref(table)
        night = night_view(group, first)
        (facts,) = [f for f in league.finished(group) if f.id == first]
        result = league.night_result(night, league.played(facts))
    assert result.scores == {"Ann": 232, "Bob": 182, "Cas": 232, "Dee": 182}
    assert result.winners == ("Ann", "Cas") and result.number == 1


def test_boerenbridge_places_by_its_scores_in_the_season_and_the_ratings(app, table):
    sid = table.session(list(SEATS), dealer="Ann", game="boerenbridge", max_cards=4)["id"]
    for bids, tricks, _ in WORKED:  # RULES.md §15: Ann 48, Bob 50, Cas 54, Dee 52
        table.hand(sid, rows(bids, tricks))
    by_places = season(table, "boerenbridge")
    assert by_places["nights"][0]["places"] == {"Cas": 1, "Dee": 2, "Bob": 3, "Ann": 4}
    standings = [(s["player"], s["rank"], s["total"]) for s in by_places["standings"]]
    assert standings == [("Cas", 1, 4), ("Dee", 2, 3), ("Bob", 3, 2), ("Ann", 4, 1)]
    by_points = season(table, "boerenbridge", scoring="points")
    assert [(s["player"], s["total"]) for s in by_points["standings"]] == [
        ("Cas", 54), ("Dee", 52), ("Bob", 50), ("Ann", 48),
    ]  # fmt: skip
    ratings = table.ok("GET", f"/groups/{table.slug}/ratings?game=boerenbridge")["players"]
    assert [p["player"] for p in ratings] == ["Cas", "Dee", "Bob", "Ann"]
    with app.app_context():
        rated = league.group_ratings(group_ref(table), "boerenbridge")
    assert [r.player for r in rated.ratings.ratings] == ["Cas", "Dee", "Bob", "Ann"]


def test_the_trick_games_on_paper_as_on_their_pages(table):
    """The night's PDF: its name and file name, each hand's figures and the totals as the
    scoreboard's, and each hand in the game's own words (nat, pit, bids and tricks) as the
    scoreboard's list of hands says it; the season's table for the wall."""
    kj = klaverjassen_night(table, AHEAD + BEHIND, stake=1)
    sheet = table.get(f"/sessions/{kj}/sheet.pdf")
    text = read(sheet)
    assert text.startswith("Klaverjassen #1 ")
    assert "-klaverjassen-1-" in sheet.headers["Content-Disposition"]
    # The wij/zij sheet: a column per team, as the scoreboard's; the money per player (§16:
    # each player of the team behind pays the stake times the gap, 666 - 232 = 434).
    assert "# Ann & Cas Bob & Dee 1 +120 +62 2 +112 +120 3 0 +182 4 0 +302" in text
    assert "Total +232 +666 Ann Bob Cas Dee Money -€4.34 €4.34 -€4.34 €4.34" in text
    money = table.ok("GET", f"/sessions/{kj}")["money"]
    assert money == {"Ann": "-4.34", "Bob": "4.34", "Cas": "-4.34", "Dee": "4.34"}
    blank = read(table.get(f"/sessions/{kj}/blank.pdf"))
    assert "# Ann & Cas Bob & Dee Points Points 1" in blank
    table.client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    page = table.client.get(f"/g/{table.slug}/s/{kj}").get_data(as_text=True)
    board = " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())
    for said in ("Nat: Bob & Dee score 182.", "Pit: Bob & Dee took every trick."):
        assert said in text and said in board
    bb = table.session(list(SEATS), dealer="Ann", game="boerenbridge", max_cards=4)["id"]
    for bids, tricks, _ in WORKED:
        table.hand(bb, rows(bids, tricks))
    text = read(table.get(f"/sessions/{bb}/sheet.pdf"))
    assert text.startswith("Boerenbridge #1 ") and "Rounds" in text
    assert "7 +10 +12 +10 +10 Total +48 +50 +54 +52" in text
    assert "#4 A round of 4 cards. Ann bid 1 and took 1: +12. Bob bid 2 and took 1: −2." in text
    dutch = read(table.get(f"/sessions/{bb}/sheet.pdf?lang=nl"))
    assert "Totaal +48 +50 +54 +52" in dutch and "Cas bood 1 en haalde 1: +12." in dutch

    table_id = season(table, "klaverjassen")["id"]
    wall = read(table.get(f"/groups/{table.slug}/seasons/{table_id}/table.pdf"))
    assert "Klaverjassen" in wall and "1 Bob 4 1 4 4.0" in wall and "1 Dee 4 1 4 4.0" in wall
    assert "3 Ann 2 1 2 2.0" in wall and "3 Cas 2 1 2 2.0" in wall and "#1" in wall


def test_partners_are_never_rivals_nor_each_others_nemesis(table):
    """RULES.md §14: rivals are counted only between players on different sides of a night.
    Bob and Cas each placed above Ann on three nights of Hearts; Cas also partnered Ann at
    Klaverjassen (against Eve and Dee). Counted as a tie, that partner night gave Cas more
    nights with Ann than Bob and made Cas her nemesis by the tie-break; without it Bob and Cas
    stand level, and Bob comes first by name."""
    for _ in range(3):
        sid = table.session(["Ann", "Bob", "Cas"], dealer="Bob", game="tally", name="Hearts",
                            hands=1)["id"]  # fmt: skip
        table.hand(sid, {"results": [{"player": "Ann", "points": 1},
                                     {"player": "Bob", "points": 30},
                                     {"player": "Cas", "points": 20}]})  # fmt: skip
    # Seats 1 and 3 against 2 and 4: Ann & Cas (ahead) against Eve & Dee.
    sid = table.session(["Ann", "Eve", "Cas", "Dee"], dealer="Dee", game="klaverjassen",
                        hands=len(AHEAD))["id"]  # fmt: skip
    for hand in AHEAD:
        table.hand(sid, hand)
    found = table.ok("GET", f"/groups/{table.slug}/players/Ann/rivals")
    by = {r["opponent"]: (r["nights"], r["above"], r["below"], r["tied"]) for r in found["rivals"]}
    assert by == {
        "Bob": (3, 0, 3, 0),
        "Cas": (3, 0, 3, 0),  # the three nights of Hearts only
        "Dee": (1, 1, 0, 0),
        "Eve": (1, 1, 0, 0),
    }
    assert found["nemesis"] == "Bob"
    cas = table.ok("GET", f"/groups/{table.slug}/players/Cas/rivals?game=klaverjassen")
    assert {r["opponent"]: r["tied"] for r in cas["rivals"]} == {"Dee": 0, "Eve": 0}


def test_cribbage_team_mates_are_not_rivals_either(table):
    """Cribbage's four in two teams (partners opposite, RULES.md §17): Ann and Cas win a game
    to 61 together; Ann's rivals that night are Bob and Dee, never Cas."""
    from tests.api.test_cribbage import body

    sid = table.session(["Ann", "Bob", "Cas", "Dee"], dealer="Dee", game="cribbage",
                        target=61, stake=2)["id"]  # fmt: skip
    shows = {"Ann": ("4H 4D 5C 6H", 60), "Bob": ("AS 3H 9C QD", 0),
             "Cas": ("5S 5D JH 10C", 0), "Dee": ("AH 4S QS QH", 0)}  # fmt: skip
    table.hand(sid, body("2C", shows, "7S 7H 10S KC"))
    assert table.ok("POST", f"/sessions/{sid}/finish", {})["winners"] == ["Ann", "Cas"]
    for player, partner in (("Ann", "Cas"), ("Bob", "Dee")):
        found = table.ok("GET", f"/groups/{table.slug}/players/{player}/rivals")
        opponents = {r["opponent"]: (r["above"], r["below"], r["tied"]) for r in found["rivals"]}
        assert partner not in opponents
        assert set(opponents) == {"Ann", "Bob", "Cas", "Dee"} - {player, partner}
