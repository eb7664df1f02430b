"""Boerenbridge and Klaverjassen through the API (API.md fourth edition): the worked examples
of RULES.md §15 and §16, the bids call, the teams, and the refusals naming their fields."""

from __future__ import annotations

from typing import Any

from tests.api.helpers import error
from tests.rules.test_boerenbridge import SEATS, WORKED


def scores(session: dict[str, Any]) -> dict[str, int]:
    return session["scores"]


# --- Boerenbridge ------------------------------------------------------------------------------


def rows(bids: dict[str, int] | None, tricks: dict[str, int]) -> dict[str, Any]:
    return {
        "results": [
            {"player": p, "tricks": tricks.get(p, 0), **({"bid": bids[p]} if bids else {})}
            for p in SEATS
        ]
    }


def test_boerenbridge_worked_example_with_the_bids_saved_first(table):
    sid = table.session(list(SEATS), dealer="Ann", game="boerenbridge", max_cards=4)["id"]
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["round"] == {
        "number": 1, "cards": 1, "dealer": "Ann", "bids": {},
        "order": ["Bob", "Cas", "Dee", "Ann"], "hooked": False,
    }  # fmt: skip
    for number, (bids, tricks, points) in enumerate(WORKED, start=1):
        saved = table.ok("PUT", f"/sessions/{sid}/bids", {"bids": bids})
        assert saved["round"]["bids"] == bids and saved["round"]["number"] == number
        hand = table.hand(sid, rows(None, tricks))
        assert {r["player"]: r["points"] for r in hand["results"]} == points
        assert {r["player"]: r["bid"] for r in hand["results"]} == bids
        assert hand["cards"] == [1, 2, 3, 4, 3, 2, 1][number - 1]
    session = table.ok("GET", f"/sessions/{sid}")
    assert scores(session) == {"Ann": 48, "Bob": 50, "Cas": 54, "Dee": 52}
    assert session["status"] == "finished" and session["winners"] == ["Cas"]
    assert session["round"] is None
    refused = table.put(f"/sessions/{sid}/bids", {"bids": {p: 0 for p in SEATS}})
    assert refused.status_code == 409


def test_boerenbridge_bids_and_tricks_at_once_and_the_dealers_hook(table):
    sid = table.session(list(SEATS), dealer="Ann", game="boerenbridge", max_cards=4)["id"]
    for bids, tricks, _ in WORKED[:3]:
        table.hand(sid, rows(bids, tricks))
    four = {"Ann": 1, "Bob": 2, "Cas": 0, "Dee": 1}
    message = error(table.put(f"/sessions/{sid}/bids", {"bids": four}), 422, "bids.Dee")
    assert message == "Dee deals and may not bid 1: the bids would add up to 4, the round's cards."
    response = table.post(f"/sessions/{sid}/hands", rows(four, {p: 1 for p in SEATS}))
    assert error(response, 422, "results[3].bid") == message
    assert error(table.put(f"/sessions/{sid}/bids", {"bids": 3}), 422, "bids")
    assert error(table.put(f"/sessions/{sid}/trumps", {}), 404)
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 3


def test_a_card_games_field_is_refused_by_name_in_boerenbridge(table):
    sid = table.session(list(SEATS), dealer="Ann", game="boerenbridge", max_cards=4)["id"]
    body = {"results": [{"player": p, "cards": "AS", "bid": 0, "tricks": 0} for p in SEATS]}
    message = error(table.post(f"/sessions/{sid}/hands", body), 422, "results[0].cards")
    assert message == "Boerenbridge takes no cards in a player's result."


def test_the_games_list_describes_the_trick_games_entries(table):
    games = {g["key"]: g for g in table.ok("GET", "/games")}
    assert games["boerenbridge"]["entry"]["results"] == {
        "player": "text", "bid": "whole", "tricks": "whole",
    }  # fmt: skip
    assert games["klaverjassen"]["entry"]["teams"] == {
        "team": "whole", "points": "whole", "roem": "whole",
    }  # fmt: skip
    assert (games["klaverjassen"]["min_players"], games["klaverjassen"]["max_players"]) == (4, 4)


# --- Klaverjassen ---------------------------------------------------------------------------


def klaver(playing: int, points: dict[int, int], roem: dict[int, int], pit: int | None = None):
    return {
        "playing": playing,
        "teams": [
            {"team": t, "roem": roem.get(t, 0), **({"points": points[t]} if t in points else {})}
            for t in (1, 2)
        ],
        "pit": pit,
    }


def test_klaverjassen_worked_example(table):
    sid = table.session(list(SEATS), dealer="Dee", game="klaverjassen")["id"]
    session = table.ok("GET", f"/sessions/{sid}")
    assert [t["players"] for t in session["teams"]] == [["Ann", "Cas"], ["Bob", "Dee"]]
    hands = [
        (klaver(1, {1: 100}, {1: 20}), (120, 62), None),
        (klaver(2, {2: 70}, {1: 20, 2: 50}), (112, 120), None),
        (klaver(1, {1: 70}, {1: 20}), (0, 182), 1),
        (klaver(2, {}, {2: 40}, pit=2), (0, 302), None),
    ]
    for body, (one, two), nat in hands:
        hand = table.hand(sid, body)
        assert [t["score"] for t in hand["teams"]] == [one, two]
        assert [t["nat"] for t in hand["teams"]] == [nat == 1, nat == 2]
        assert hand["scores_after"]["Ann"] == hand["scores_after"]["Cas"]
    session = table.ok("GET", f"/sessions/{sid}")
    assert [t["score"] for t in session["teams"]] == [232, 666]
    assert scores(session) == {"Ann": 232, "Bob": 666, "Cas": 232, "Dee": 666}
    assert session["progress"]["hand"] == 5 and session["progress"]["hands_in_round"] == 16


def test_klaverjassen_refusals_name_their_fields(table):
    sid = table.session(list(SEATS), dealer="Dee", game="klaverjassen")["id"]
    response = table.post(f"/sessions/{sid}/hands", klaver(1, {1: 170}, {}))
    assert error(response, 422, "teams[0].points") == "Card points are 0 to 162: 170 is not."
    response = table.post(f"/sessions/{sid}/hands", klaver(1, {1: 100}, {2: 25}))
    assert error(response, 422, "teams[1].roem") == "Roem comes in tens, up to 500: 25 is not."
    response = table.post(f"/sessions/{sid}/hands", {"teams": [{"team": 1, "points": 90}]})
    assert error(response, 422, "playing") == "Say which team played."
    response = table.post(f"/sessions/{sid}/hands", {"playing": 1, "teams": "all"})
    assert error(response, 422, "teams")
    three = table.post(
        f"/groups/{table.slug}/sessions",
        {"game": "klaverjassen", "players": ["Ann", "Bob", "Cas"], "dealer": "Ann"},
    )
    assert error(three, 422, "players") == "Klaverjassen is for four players, two teams."
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 0
