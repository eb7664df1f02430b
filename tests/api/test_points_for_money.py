"""Points games played for money over the API (RULES.md §7, API.md "Additions")."""

from __future__ import annotations

import pytest

from ledger.rules.payout import STAKE
from ledger.rules.registry import GAMES
from tests.api.helpers import error

PLAYERS = ["Ann", "Bob", "Cas"]


def totals(out: str | None, **spots: int) -> dict:
    return {"results": [{"player": p, "spots": n} for p, n in spots.items()], "out": out}


def rummy_to_104(table, **options) -> int:
    """The worked example of RULES.md §7: Ann 104, Bob 60, Cas 35, the game over at 100."""
    sid = table.session(PLAYERS, dealer="Cas", game="rummy", entry="totals", **options)["id"]
    table.hand(sid, totals("Bob", Ann=20, Cas=40))
    table.hand(sid, totals("Cas", Ann=15, Bob=20))
    table.hand(sid, totals("Ann", Bob=50, Cas=54))
    return sid


def balances(settlement: dict) -> dict[str, int]:
    return {b["player"]: b["units"] for b in settlement["balances"]}


def test_rummy_for_a_penny_a_point_settles_the_winner_payout(table):
    sid = rummy_to_104(table, stake=1)

    session = table.ok("GET", f"/sessions/{sid}")
    assert session["status"] == "finished"
    assert session["scores"] == {"Ann": 104, "Bob": 60, "Cas": 35}
    assert session["payout"] == {"Ann": 113, "Bob": -44, "Cas": -69}
    assert session["money"] == {"Ann": "1.13", "Bob": "-0.44", "Cas": "-0.69"}
    settled = table.ok("GET", f"/sessions/{sid}/settlement")
    assert balances(settled) == {"Ann": 113, "Bob": -44, "Cas": -69}
    assert (settled["pot"], settled["currency"]) == (0, "EUR")
    assert {(t["from"], t["to"], t["amount"]) for t in settled["transfers"]} == {
        ("Bob", "Ann", "0.44"),
        ("Cas", "Ann", "0.69"),
    }


def test_rummy_with_everyone_paying_everyone_ahead(table):
    sid = rummy_to_104(table, stake=1, payout="everyone")

    settled = table.ok("GET", f"/sessions/{sid}/settlement")

    assert balances(settled) == {"Ann": 113, "Bob": -19, "Cas": -94}
    assert len(settled["transfers"]) == 2  # the fewest: Cas pays Bob 19 and Ann 75


def test_spots_stake_two_ended_at_the_table(table):
    sid = table.session(["Enda", "John", "Rex"], dealer="Rex", game="spots", entry="totals",
                        stake=2)["id"]  # fmt: skip
    table.hand(sid, totals("Enda", John=30, Rex=50))
    table.hand(sid, totals(None, Enda=40, John=25, Rex=40))  # the stock ran out
    session = table.ok("POST", f"/sessions/{sid}/finish", {})

    assert session["scores"] == {"Enda": 40, "John": 55, "Rex": 90}
    assert session["winners"] == ["Enda"]
    assert session["payout"] == {"Enda": 130, "John": -30, "Rex": -100}


def test_without_a_stake_a_points_game_has_no_settlement(table):
    sid = rummy_to_104(table)

    error(table.get(f"/sessions/{sid}/settlement"), 422)
    assert table.ok("GET", f"/sessions/{sid}")["payout"] is None


def test_the_money_waits_until_the_game_ends(table):
    sid = table.session(PLAYERS, dealer="Cas", game="rummy", entry="totals", stake=1)["id"]
    table.hand(sid, totals("Bob", Ann=20, Cas=40))

    message = error(table.get(f"/sessions/{sid}/settlement"), 422)

    assert "ends" in message
    assert table.ok("GET", f"/sessions/{sid}")["money"] is None


@pytest.mark.parametrize("stake", [1001, -1, "many", 2.5])
def test_a_stake_out_of_bounds_is_refused_naming_it(table, stake):
    body = {"game": "rummy", "players": PLAYERS, "dealer": "Ann", "options": {"stake": stake}}

    error(table.post(f"/groups/{table.slug}/sessions", body), 422, "options.stake")

    assert table.ok("GET", f"/groups/{table.slug}")["sessions"] == []


def test_solo_spin_rummy_has_no_money(table):
    body = {"game": "spin", "players": ["Ann"], "dealer": "Ann", "options": {"stake": 1}}

    error(table.post(f"/groups/{table.slug}/sessions", body), 422, "options.stake")


def test_the_games_list_offers_the_money_options(table):
    games = {g["key"]: g for g in table.ok("GET", "/games")}

    staked = [key for key, game in GAMES.items() if STAKE in game.options]
    assert {"spots", "rummy", "spin"} <= set(staked)  # RULES.md §7's points games
    for key in staked:
        assert games[key]["options"]["stake"] == 0
        # §7's gap in points is paid to the winner or by every pair (the winner, unless a
        # game says otherwise: Skat's every pair); a stake a game won (Cribbage, §17) has no
        # such choice.
        payout = games[key]["options"].get("payout")
        if GAMES[key].stake_per_game:
            assert payout is None
        else:
            assert payout in ("winner", "everyone")
    for key in ("spots", "rummy", "spin"):
        assert games[key]["options"]["payout"] == "winner"
    assert "stake" not in games["spot"]["options"]
