"""Ratings and rivals (RULES.md §14, API.md fourth edition): the ratings are the openskill
library's own answer for the same nights; rivals count the nights two players played."""

from __future__ import annotations

import yaml
from openskill.models import PlackettLuce

from tests.api.helpers import PASSPHRASE, Table, error
from tests.api.test_openapi import SPEC_PATH, Checked
from tests.api.test_seasons import ORDERS, spot_night


def test_ratings_are_the_librarys_own_answer_for_the_same_nights(table):
    for order in ORDERS:
        spot_night(table, order)
    found = table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")
    # The same nights straight into openskill: ranks by place, ties as ties, in order.
    model = PlackettLuce()
    now = {p: model.rating(name=p) for p in ("Ann", "Bob", "Cas", "Dee")}
    for order in ORDERS:
        # Equal results share the best place they cover: 1, 2, 2, 4.
        ranks = {}
        seen = 0
        for who in order:
            names = who if isinstance(who, tuple) else (who,)
            for name in names:
                ranks[name] = seen + 1
            seen += len(names)
        players = sorted(ranks)
        after = model.rate([[now[p]] for p in players], ranks=[ranks[p] for p in players])
        for p, (r,) in zip(players, after, strict=True):
            now[p] = r
    expected = sorted(now.items(), key=lambda pr: -(pr[1].mu - 3 * pr[1].sigma))
    assert [p["player"] for p in found["players"]] == [p for p, _ in expected]
    for row in found["players"]:
        r = now[row["player"]]
        assert row["mu"] == r.mu and row["sigma"] == r.sigma
        assert row["rating"] == round(r.mu - 3 * r.sigma, 1)
    assert [p["nights"] for p in found["players"] if p["player"] == "Dee"] == [5]
    assert found["game"] == "spot" and found["game_name"] is None


def test_a_corrected_night_changes_the_ratings_from_that_night_on(table):
    sid = spot_night(table, ["Ann", "Bob"])
    before = table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")["players"]
    assert before[0]["player"] == "Ann"
    table.ok("POST", f"/sessions/{sid}/reopen", {})
    table.ok("PUT", f"/sessions/{sid}/hands/1", {
        "results": [{"player": "Ann", "spots": 9}, {"player": "Bob", "spots": 1}]
    })  # fmt: skip
    assert table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")["players"] == []
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    after = table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")["players"]
    assert after[0]["player"] == "Bob" and after[0]["rating"] == before[0]["rating"]


def test_a_renamed_player_is_rated_and_placed_by_the_new_name_at_once(table):
    """The nights' results are kept between reads (services/league.py), each under its
    night's version: a rename changes every night it names, so the next read names Anna."""
    for order in ORDERS[:3]:
        spot_night(table, order)
    before = table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")["players"]
    ann = next(p["id"] for p in table.ok("GET", f"/groups/{table.slug}")["players"]
               if p["name"] == "Ann")  # fmt: skip
    table.client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    renamed = table.client.post(f"/g/{table.slug}/players/{ann}", data={"rename-name": "Anna"})
    assert renamed.status_code == 302
    after = table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")["players"]
    named = {"Anna" if p["player"] == "Ann" else p["player"]: p["rating"] for p in before}
    assert {p["player"]: p["rating"] for p in after} == named
    rivals = table.ok("GET", f"/groups/{table.slug}/players/Bob/rivals?game=spot")
    assert "Anna" in {r["opponent"] for r in rivals["rivals"]}


def test_any_game_is_rated_per_name(table):
    for name, ann, bob in (("Hearts", 10, 20), ("Whist", 30, 5)):
        sid = table.session(["Ann", "Bob"], dealer="Bob", game="tally", name=name, hands=1)["id"]
        table.hand(sid, {"results": [{"player": "Ann", "points": ann},
                                     {"player": "Bob", "points": bob}]})  # fmt: skip
    hearts = table.ok("GET", f"/groups/{table.slug}/ratings?game=tally&name=Hearts")
    assert hearts["game_name"] == "Hearts" and hearts["players"][0]["player"] == "Bob"
    whist = table.ok("GET", f"/groups/{table.slug}/ratings?game=tally&name=whist")
    assert whist["players"][0]["player"] == "Ann"
    assert error(table.get(f"/groups/{table.slug}/ratings"), 422, "game")
    assert error(table.get(f"/groups/{table.slug}/ratings?game=chess"), 422, "game")


def test_rivals_count_the_nights_together_and_name_nemesis_and_favourite(table):
    for order in ORDERS:
        spot_night(table, order)
    found = table.ok("GET", f"/groups/{table.slug}/players/ann/rivals")
    assert found["player"] == "Ann"
    by = {r["opponent"]: r for r in found["rivals"]}
    # Ann against Bob: nights 1, 2, 3, 5 together: above in 1 and 5, below in 2, tied in 3.
    assert by["Bob"] == {"opponent": "Bob", "nights": 4, "above": 2, "below": 1, "tied": 1}
    # Against Cas: 5 nights: above in 1, 4, 5; below in 2 and 3.
    assert by["Cas"] == {"opponent": "Cas", "nights": 5, "above": 3, "below": 2, "tied": 0}
    # Against Dee: above in 1, 2, 3, 5; below in 4.
    assert by["Dee"] == {"opponent": "Dee", "nights": 5, "above": 4, "below": 1, "tied": 0}
    assert found["nemesis"] == "Cas" and found["favourite"] == "Dee"
    assert table.ok("GET", f"/groups/{table.slug}/players/Ann/rivals?game=gin")["rivals"] == []


def test_a_name_with_a_slash_has_its_rivals_as_it_has_its_page(table):
    """Issue 46.6: the rivals of "AC/DC" answered 404; the name is taken whole, slashes and
    all, as the player's own address takes it (escaped or not), and the player's address
    still answers the player."""
    spot_night(table, ["AC/DC", "Bob"])
    spot_night(table, ["Bob", "AC/DC"])
    for spelled in ("AC/DC", "AC%2FDC", "ac/dc"):
        found = table.ok("GET", f"/groups/{table.slug}/players/{spelled}/rivals")
        assert found["player"] == "AC/DC"
        assert found["rivals"] == [
            {"opponent": "Bob", "nights": 2, "above": 1, "below": 1, "tied": 0}
        ]
    assert table.ok("GET", f"/groups/{table.slug}/players/AC/DC")["name"] == "AC/DC"
    bob = table.ok("GET", f"/groups/{table.slug}/players/Bob/rivals")
    assert [r["opponent"] for r in bob["rivals"]] == ["AC/DC"]


def test_every_address_that_holds_a_players_name_takes_it_whole(app):
    """Every route with a player's name in it, the API's and the pages', reads the name with
    its slashes (werkzeug's ``path``), as the player's page does."""
    not_a_player = {"hands.call"}  # a game's call ("bids"), not a name
    for rule in app.url_map.iter_rules():
        if "name" in rule.arguments and rule.endpoint not in not_a_player:
            converter = type(rule._converters["name"]).__name__
            assert converter == "PathConverter", (rule.rule, converter)


def test_another_groups_ratings_and_rivals_answer_404(table, other):
    spot_night(table, ["Ann", "Bob"])
    assert other.get(f"/groups/{table.slug}/ratings?game=spot").status_code == 404
    assert other.get(f"/groups/{table.slug}/players/Ann/rivals").status_code == 404
    error(other.get(f"/groups/{other.slug}/players/Ann/rivals"), 404)
    assert other.ok("GET", f"/groups/{other.slug}/ratings?game=spot")["players"] == []


def test_the_answers_validate_against_the_spec(app, client):
    Checked(app, client, yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")))
    table = Table(client)
    for order in ORDERS:
        spot_night(table, order)
    table.ok("GET", f"/groups/{table.slug}/ratings?game=spot")
    table.ok("GET", f"/groups/{table.slug}/players/Dee/rivals")
    assert table.get(f"/groups/{table.slug}/ratings").status_code == 422
    assert table.get(f"/groups/{table.slug}/players/Nobody/rivals").status_code == 404
