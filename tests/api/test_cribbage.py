"""Cribbage through the API (API.md fifth edition): the worked example of RULES.md §17 deal by
deal, its counts in parts, the games of the night, the money, points entry, the refusals
naming their fields, a correction recounting later deals, and a night of teams."""

from __future__ import annotations

from typing import Any

from tests.api.helpers import error

WORKED = (
    ("5H", {"Bob": ("5S 5D JH 10C", 4), "Ann": ("4C 6C 7C 8C", 3)}, "2D 3D KS QC"),
    ("JS", {"Ann": ("5H 5D 5C QD", 5), "Bob": ("7H 8H 9H 10H", 2)}, "AC 4S KD 2C"),
    ("6D", {"Bob": ("9C 9S 3H KC", 3), "Ann": ("4H 4D 5C 6H", 6)}, "2S 3S 7D 8D"),
)


def body(starter: Any, shows: dict[str, tuple[Any, int]], crib: Any, **more: Any) -> dict:
    results = [{"player": p, "show": s, "pegged": n} for p, (s, n) in shows.items()]
    return {"starter": starter, "results": results, "crib": crib, **more}


def by_player(hand: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["player"]: r for r in hand["results"]}


def worked_night(table) -> int:
    options = {"target": 61, "stake": 1, "unit_value": "0.50", "currency": "EUR"}
    return table.session(["Ann", "Bob"], dealer="Ann", game="cribbage", **options)["id"]


def test_the_worked_example_through_the_api(table):
    sid = worked_night(table)
    one = table.hand(sid, body(*WORKED[0]))
    assert one["scores_after"] == {"Ann": 24, "Bob": 25}
    bob = by_player(one)["Bob"]
    assert bob["points"] == 25 and bob["show_points"] == 21 and bob["pegged"] == 4
    assert bob["cards"] == ["5S", "5D", "JH", "10C"]
    assert {"what": "fifteen", "cards": ["5S", "JH"], "points": 2} in bob["counts"]
    assert bob["counts"][-1] == {"what": "nobs", "cards": ["JH"], "points": 1}
    assert sum(c["points"] for c in bob["counts"]) == 21
    assert one["crib"]["points"] == 8 and one["starter"] == "5H"
    two = table.hand(sid, body(*WORKED[1]))
    assert two["scores_after"] == {"Ann": 49, "Bob": 44}
    assert by_player(two)["Bob"]["counts"][0] == {
        "what": "his_heels", "cards": ["JS"], "points": 2,
    }  # fmt: skip
    three = table.hand(sid, body(*WORKED[2]))
    assert three["scores_after"] == {"Ann": 61, "Bob": 53}
    assert three["crib"]["counted"] is False
    session = table.ok("GET", f"/sessions/{sid}")
    assert session["games"] == [
        {
            "number": 1, "winner": "Ann", "winners": ["Ann"], "skunk": None,
            "scores": {"Ann": 61, "Bob": 53}, "lost": {"Bob": 1},
        }
    ]  # fmt: skip
    # Game 2 begins at 0, Bob to deal.
    assert session["scores"] == {"Ann": 0, "Bob": 0}
    assert session["dealer"] == "Bob" and session["status"] == "open"
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert [(t["from"], t["to"], t["amount"]) for t in settled["transfers"]] == [
        ("Bob", "Ann", "0.50")
    ]


def test_the_night_finished_ranks_by_games_and_pays_per_game(table):
    sid = worked_night(table)
    for deal in WORKED:
        table.hand(sid, body(*deal))
    finished = table.ok("POST", f"/sessions/{sid}/finish", {})
    assert finished["status"] == "finished" and finished["winners"] == ["Ann"]
    assert finished["scores"] == {"Ann": 1, "Bob": 0}
    balances = {
        b["player"]: b["amount"] for b in table.ok("GET", f"/sessions/{sid}/settlement")["balances"]
    }
    assert balances == {"Ann": "0.50", "Bob": "-0.50"}


def test_refusals_name_every_problem_and_store_nothing(table):
    sid = worked_night(table)
    twice = body("5H", {"Bob": ("5S 5D JH", 4), "Ann": ("4C 6C 5H 8C", 61)}, "2D 3D KS QC")
    response = table.post(f"/sessions/{sid}/hands", twice)
    assert error(response, 422, "results[0].show") == (
        "Bob's show has 3 cards: a show is four cards."
    )
    assert [(e["field"], e["message"]) for e in response.get_json()["errors"]] == [
        ("results[0].show", "Bob's show has 3 cards: a show is four cards."),
        ("results[1].pegged", "Ann pegged 61: the play gives 0 to 60."),
        ("results[1].show", "The 5♥ is typed in the starter and Ann's show: one pack has one."),
    ]
    assert table.ok("GET", f"/sessions/{sid}")["hands_played"] == 0
    missing = table.post(f"/sessions/{sid}/hands", body("5H", {"Bob": (5, 0)}, ""))
    assert error(missing, 422, "results") == "Ann has no show in this deal."
    assert [e["message"] for e in missing.get_json()["errors"][1:]] == [
        "Type the four cards of Bob's show.",
        "Type the four cards of the crib.",
    ]
    shape = table.post(f"/sessions/{sid}/hands", body("5H", {"Bob": (True, 0)}, ""))
    assert "show must be cards as text" in error(shape, 422, "results[0].show")


def test_both_pass_the_target_in_the_play(table):
    sid = worked_night(table)
    table.hand(sid, body(*WORKED[0]))
    table.hand(sid, body(*WORKED[1]))  # Ann 49, Bob 44; Ann deals
    both = body("6D", {"Bob": ("9C 9S 3H KC", 17), "Ann": ("4H 4D 5C 6H", 12)}, "2S 3S 7D 8D")
    message = error(table.post(f"/sessions/{sid}/hands", both), 422, "pegged_out")
    assert message == "Ann and Bob both pass 61 in the play: say who pegged out first."
    named = table.hand(sid, {**both, "pegged_out": "Bob"})
    assert named["scores_after"] == {"Ann": 60, "Bob": 61}
    assert table.ok("GET", f"/sessions/{sid}")["games"][0]["winner"] == "Bob"


def test_points_entry_and_the_nineteen(table):
    sid = table.session(["Ann", "Bob", "Cas"], dealer="Cas", game="cribbage", entry="points")["id"]
    nineteen = body("JH", {"Ann": (19, 2), "Bob": (8, 1), "Cas": (4, 0)}, 6)
    message = error(table.post(f"/sessions/{sid}/hands", nineteen), 422, "results[0].show")
    assert message == "No hand counts 19: at the table 'nineteen' means nothing, enter 0."
    hand = table.hand(sid, body("JH", {"Ann": (0, 2), "Bob": (8, 1), "Cas": (4, 0)}, 6))
    assert hand["scores_after"] == {"Ann": 2, "Bob": 9, "Cas": 2 + 4 + 6}
    assert by_player(hand)["Cas"]["counts"] == [{"what": "his_heels", "cards": ["JH"], "points": 2}]


def test_a_correction_recounts_the_deals_after_it(table):
    sid = worked_night(table)
    for deal in WORKED[:2]:
        table.hand(sid, body(*deal))
    starter, shows, crib = WORKED[0]
    fixed = table.ok(
        "PUT",
        f"/sessions/{sid}/hands/1",
        body(starter, {**shows, "Bob": ("5S 5D QH 10C", 4)}, crib),
    )
    assert fixed["scores_after"] == {"Ann": 24, "Bob": 24}  # no nobs: 20
    hands = table.ok("GET", f"/sessions/{sid}/hands")
    assert hands[1]["scores_after"] == {"Ann": 49, "Bob": 43}


def test_four_players_in_two_teams(table):
    seats = ["Ann", "Bob", "Cas", "Dee"]
    sid = table.session(seats, dealer="Dee", game="cribbage", stake=2)["id"]
    shows = {
        "Ann": ("5S 5D JH 10C", 2), "Bob": ("4C 6C 7C 8C", 1),
        "Cas": ("2S 3H 9D KD", 3), "Dee": ("AH 4H QS QH", 4),
    }  # fmt: skip
    hand = table.hand(sid, body("5H", shows, "2D 3D KS QC"))
    after = hand["scores_after"]
    assert after["Ann"] == after["Cas"] and after["Bob"] == after["Dee"]
    games = {g["key"]: g for g in table.ok("GET", "/games")}
    assert games["cribbage"]["entry"]["results"] == {
        "player": "text", "show": "cards_or_whole", "pegged": "whole",
    }  # fmt: skip
    assert games["cribbage"]["options"]["target"] == 121


def test_dutch_card_letters_are_read_and_kept_in_english(table):
    sid = worked_night(table)
    dutch = body("5h", {"Bob": ("5s 5r Bh 10k", 4), "Ann": ("4k 6k 7k 8k", 3)}, "2r 3r Hs Vk")
    hand = table.hand(sid, {**dutch, "cards_language": "nl"})
    assert hand["scores_after"] == {"Ann": 24, "Bob": 25}
    assert hand["entry"]["results"][0]["show"] == "5S 5D JH 10C"
    assert hand["entry"]["crib"] == "2D 3D KS QC" and hand["entry"]["starter"] == "5H"
