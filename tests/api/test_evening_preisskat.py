"""RULES.md §19's worked example, a Preisskat of seven, played for real through the API: the
evening made, the players checked in, both rounds drawn, Skat deals entered at every table
until each player's list points and lost games are the example's, the evening closed; then
its list, ranks, prize pot and each player's money must be exactly the example's figures.

The draw is at random (the API takes no seed: a seed chosen by whoever draws would let them
choose the seating), so the deals are worked out from the tables drawn: each player's losses
per round are fixed first, which fixes what the others at their table score for them (40 each
at a table of three, 30 at four, RULES.md §18), and then the games each player wins are
chosen to bring them to their round's total.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from tests.api.helpers import Table
from tests.api.test_evenings import SEVEN, evenings

TOTALS = {"Ann": 1210, "Bob": 980, "Cas": 980, "Dee": 640, "Eve": 515, "Fay": 410, "Gus": -60}
LOST = {"Ann": 1, "Bob": 2, "Cas": 2, "Dee": 3, "Eve": 2, "Fay": 2, "Gus": 2}  # 14 in all
# Cas won 9, Bob 8 (the example's tie-break); the others' wins are not given: these will do.
WON = {"Ann": 8, "Bob": 8, "Cas": 9, "Dee": 5, "Eve": 4, "Fay": 3, "Gus": 2}
# How the evening falls over its two rounds: round 1's list points, games won and lost (round
# 2 has the rest). Chosen so that ``plan`` finds deals for every player at every 4 + 3 split
# of the seven, in either round: whatever the draw, the test plays (the last test checks).
FIRST_TOTAL = {"Ann": 600, "Bob": 500, "Cas": 480, "Dee": 150, "Eve": 250, "Fay": 100, "Gus": -30}
FIRST_WON = {"Ann": 4, "Bob": 4, "Cas": 5, "Dee": 2, "Eve": 2, "Fay": 1, "Gus": 1}
FIRST_LOST = {"Ann": 1, "Bob": 1, "Cas": 1, "Dee": 2, "Eve": 1, "Fay": 1, "Gus": 1}
ROUND_TWO = tuple(
    {p: whole[p] - part[p] for p in SEVEN}
    for whole, part in ((TOTALS, FIRST_TOTAL), (WON, FIRST_WON), (LOST, FIRST_LOST))
)

SUITS = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12}
NULLS = {23: {}, 35: {"hand": True}, 46: {"ouvert": True}, 59: {"hand": True, "ouvert": True}}


def games() -> dict[int, dict[str, Any]]:
    """A game for every value a plain deal can have (RULES.md §18): a suit or Grand "with"
    1 to 11 (Grand 1 to 4), no hand, no schneider; Null and its hand and ouvert forms."""
    found: dict[int, dict[str, Any]] = {}
    for game, base, most in [*((s, b, 11) for s, b in SUITS.items()), ("grand", 24, 4)]:
        for matadors in range(1, most + 1):
            found.setdefault(base * (matadors + 1), {"game": game, "matadors": matadors})
    for value, extra in NULLS.items():
        found.setdefault(value, {"game": "null", **extra})
    return dict(sorted(found.items()))


VALUES = tuple(games())


@cache
def sums(count: int) -> dict[int, tuple[int, ...]]:
    """Every total of ``count`` game values, with one way to make it."""
    if count == 0:
        return {0: ()}
    made: dict[int, tuple[int, ...]] = {}
    for total, parts in sums(count - 1).items():
        for value in VALUES:
            made.setdefault(total + value, (*parts, value))
    return made


def plan(total: int, bonus: int, won: int, lost: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The values of ``won`` games won and ``lost`` games lost that bring a player to
    ``total`` list points, with ``bonus`` from the others' lost games at their table:
    total = bonus + Σ(value + 50) over games won − Σ(2 × value + 50) over games lost."""
    for losses in combinations_with_replacement(VALUES, lost):
        needed = total - bonus + sum(2 * v + 50 for v in losses) - 50 * won
        if needed in sums(won):
            return sums(won)[needed], losses
    raise AssertionError(f"no {won} won and {lost} lost games make {total} after {bonus}")


def deal(declarer: str, value: int, won: bool) -> dict[str, Any]:
    """A deal of that value, won (70 card points; a Null without a trick) or lost (40 card
    points, not schneider; a Null with a trick), bid 18."""
    game = games()[value]
    if game["game"] == "null":
        return {"declarer": declarer, "bid": 18, **game, "tricks": "none" if won else "some"}
    points = 70 if won else 40
    return {"declarer": declarer, "bid": 18, **game, "card_points": points, "tricks": "some"}


def play_table(
    table: Table, drawn: dict, totals: dict[str, int], won: dict[str, int], lost: dict[str, int]
) -> None:
    """Every player's deals at one table, each declared by a player in the deal (at four the
    dealer sits out: the next player with deals to play declares, or all pass)."""
    seats = drawn["players"]
    rate = 40 if len(seats) == 3 else 30
    queue: dict[str, list[dict[str, Any]]] = {}
    for p in seats:
        bonus = rate * sum(lost[o] for o in seats if o != p)
        wins, losses = plan(totals[p], bonus, won[p], lost[p])
        queue[p] = [deal(p, v, True) for v in wins] + [deal(p, v, False) for v in losses]
    sid = drawn["session"]
    while any(queue.values()):
        out = table.ok("GET", f"/sessions/{sid}")["sitting_out"]
        ready = [p for p in seats if queue[p] and p != out]
        declarer = max(ready, key=lambda p: len(queue[p])) if ready else None
        table.hand(sid, queue[declarer].pop(0) if declarer else {"declarer": None})
    table.ok("POST", f"/sessions/{sid}/finish", {})
    night = table.ok("GET", f"/sessions/{sid}")
    assert night["scores"] == {p: totals[p] for p in seats}
    assert night["won_games"] == {p: won[p] for p in seats}
    assert night["lost_games"] == {p: lost[p] for p in seats}


def test_the_preisskat_of_seven_deal_by_deal_gives_the_examples_list_and_money(table):
    body = {
        "name": "Preisskat", "game": "skat", "rounds": 2, "entry_fee": 1000, "unit_value": "0.01",
        "currency": "EUR", "prizes": [50, 30, 20], "lost_game_fee": 50,
    }  # fmt: skip
    evening = table.ok("POST", evenings(table), body, 201)
    at = f"{evenings(table)}/{evening['id']}"
    for name in SEVEN:
        table.ok("POST", f"{at}/players", {"player": name}, 201)

    first = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]
    assert sorted(len(t["players"]) for t in first) == [3, 4]  # "a table of 4 and one of 3"
    for t in first:
        play_table(table, t, FIRST_TOTAL, FIRST_WON, FIRST_LOST)
    second = table.ok("POST", f"{at}/rounds", {}, 201)["tables"]
    assert sorted(p for t in second for p in t["players"]) == sorted(SEVEN)
    for t in second:
        play_table(table, t, *ROUND_TWO)

    now = table.ok("GET", at)
    assert [(s["player"], s["rank"], s["total"]) for s in now["standings"]] == [
        ("Ann", 1, 1210), ("Cas", 2, 980), ("Bob", 3, 980), ("Dee", 4, 640), ("Eve", 5, 515),
        ("Fay", 6, 410), ("Gus", 7, -60),
    ]  # fmt: skip
    lines = {s["player"]: s for s in now["standings"]}
    assert (lines["Cas"]["won_games"], lines["Cas"]["lost_games"]) == (9, 2)
    assert (lines["Bob"]["won_games"], lines["Bob"]["lost_games"]) == (8, 2)
    assert sum(s["lost_games"] for s in now["standings"]) == 14
    assert now["pot"] == 7000 + 700

    closed = table.ok("POST", f"{at}/close", {"settle": "now"})
    assert {p["player"]: p["units"] for p in closed["prizes"]} == {
        "Ann": 3850, "Cas": 2310, "Bob": 1540,
    }  # fmt: skip
    settlement = closed["settlement"]
    assert {b["player"]: b["units"] for b in settlement["balances"]} == {
        "Ann": 2800, "Cas": 1210, "Bob": 440, "Dee": -1150, "Eve": -1100, "Fay": -1100,
        "Gus": -1100,
    }  # fmt: skip
    assert {b["player"]: b["amount"] for b in settlement["balances"]}["Dee"] == "-11.50"
    paid = {}
    for t in settlement["transfers"]:
        paid[t["from"]] = paid.get(t["from"], 0) - t["units"]
        paid[t["to"]] = paid.get(t["to"], 0) + t["units"]
    assert paid == {b["player"]: b["units"] for b in settlement["balances"]}


def test_every_draw_of_seven_can_play_the_example():
    """Each round's plan has deals for every player at every table of 4 and of 3 it may draw."""
    for totals, won, lost in ((FIRST_TOTAL, FIRST_WON, FIRST_LOST), ROUND_TWO):
        for four in combinations(SEVEN, 4):
            for seats in (four, tuple(p for p in SEVEN if p not in four)):
                rate = 40 if len(seats) == 3 else 30
                for p in seats:
                    bonus = rate * sum(lost[o] for o in seats if o != p)
                    wins, losses = plan(totals[p], bonus, won[p], lost[p])
                    made = sum(v + 50 for v in wins) - sum(2 * v + 50 for v in losses)
                    assert bonus + made == totals[p]
