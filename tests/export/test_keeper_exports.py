"""Pot keepers and points games for money in the backup and the session workbook (issue 14):
a restore carries them and checks them, and the Summary explains the pot."""

from __future__ import annotations

import pytest

from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from tests.export.history import Table
from tests.export.sheets import load, rows, table
from tests.export.test_backup import count_rows, every_answer, sqlite_app


def play_with_keepers(made: Table) -> dict[str, int]:
    """Three Spot nights whose pots are kept and brought back, and Rummy for a stake."""
    ids = {}
    first = ids["first"] = made.new_session("spot", ["Enda", "John", "Rex", "Finn"], "Finn")
    made.hand(first, {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"})  # pot 20
    made.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "John"})
    second = ids["second"] = made.new_session("spot", ["Enda", "John", "Finn"], "John")
    made.hand(second, {"Enda": "5", "John": "6", "Finn": "7"})  # nobody out: pot 35
    made.ok("POST", f"/sessions/{second}/finish", {"leftover_pot": "carry", "pot_keeper": "Finn"})
    third = ids["third"] = made.new_session("spot", ["Finn", "Rex"], "Rex")
    made.hand(third, {"Finn": "", "Rex": "K"}, out="Finn")
    rummy = ids["rummy"] = made.new_session("rummy", ["Ann", "Bob"], "Bob", stake=2, target=30)
    made.hand(rummy, {"Ann": "", "Bob": "K Q J"}, out="Ann")  # Ann 30: the game is over
    return ids


def test_keepers_and_a_stake_survive_a_restore_into_another_database(
    app, client, tmp_path, monkeypatch
):
    with sqlite_app(tmp_path, monkeypatch, "source") as source:
        made = Table.new_group(source.test_client())
        ids = play_with_keepers(made)
        before = every_answer(source, made)
        backup = made.call("GET", f"/groups/{made.slug}/backup.json").data

    from ledger.backup import loads

    with app.app_context():
        restore_group(loads(backup))
    restored = Table(client, made.slug)

    assert every_answer(app, restored) == before
    second = restored.get(f"/sessions/{ids['second']}")
    assert (second["carried_in_keeper"], second["pot_keeper"]) == ("John", "Finn")
    assert restored.get(f"/sessions/{ids['rummy']}/settlement")["balances"][0]["units"] == 60


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        # The pot of the first night was brought by John, not by Enda.
        (lambda d, p: d["sessions"][1].update(carried_in_keeper_id=p["Enda"]), "start_state"),
        (lambda d, p: d["sessions"][1].update(carried_in_keeper_id=None), "start_state"),
        (lambda d, p: d["sessions"][0].update(pot_keeper_id=p["Enda"]), "keeper"),
        # Rex did not play on the second night, so cannot keep its pot.
        (lambda d, p: d["sessions"][1].update(pot_keeper_id=p["Rex"]), "keeper"),
        # The third night ended with an empty pot: nobody keeps it.
        (lambda d, p: d["sessions"][2].update(pot_keeper_id=p["Finn"]), "keeper"),
    ],
)
def test_a_backup_whose_keepers_do_not_add_up_is_refused(app, client, damage, message):
    made = Table.new_group(client)
    play_with_keepers(made)
    with app.app_context():
        data = backup_group(made.slug)
        db.session.rollback()
    data["group"]["slug"] = "restored-here"
    players = {p["name"]: p["id"] for p in data["players"]}
    damage(data, players)
    counted = count_rows(app)

    with app.app_context(), pytest.raises(BackupError, match=message):
        restore_group(data)
    assert count_rows(app) == counted


def summary(workbook: bytes) -> tuple[dict, list[dict]]:
    ws = load(workbook)["Summary"]
    info = dict(zip(rows(ws)[0], rows(ws)[1], strict=False))
    return info, table(ws, 4)


def test_the_summary_says_who_brought_and_who_keeps_the_pot_and_how_it_adds_up(client):
    made = Table.new_group(client)
    ids = play_with_keepers(made)

    first, _players = summary(made.ok("GET", f"/sessions/{ids['first']}/export.xlsx"))
    second, players = summary(made.ok("GET", f"/sessions/{ids['second']}/export.xlsx"))

    assert first["Group"] == "The Local"
    assert (first["Pot at the end"], first["Kept by"]) == (20, "John")
    assert "John keeps the pot for the next Spot night" in first["Pot"]
    assert (second["Pot carried in"], second["Brought by"]) == (20, "John")
    assert (second["Pot at the end"], second["Kept by"]) == (35, "Finn")
    # The night by its number (issue 36); the scores are what each won or lost on the night,
    # the pot John brought back left out (RULES.md §2): with the pot they add up to it.
    assert "John brought the pot of 20 from Spot #1 back" in second["Pot"]
    scores = {p["Player"]: p["Final score (units)"] for p in players}
    assert sum(scores.values()) + second["Pot at the end"] == second["Pot carried in"] == 20


def test_the_summary_of_a_points_game_for_money_shows_the_money(client):
    made = Table.new_group(client)
    ids = play_with_keepers(made)

    info, players = summary(made.ok("GET", f"/sessions/{ids['rummy']}/export.xlsx"))

    assert info["Stake: units a point (0: not for money)"] == 2
    assert {p["Player"]: p["Amount (EUR)"] for p in players} == {"Ann": 0.6, "Bob": -0.6}


def test_the_amount_is_the_nights_winnings_without_the_pot_kept_or_brought_back(client):
    """Issue 29 (RULES.md §2): John won 46 on the first night and kept the pot of 20; on the
    second he brought it back (his score started at -20, not a loss there); Finn kept the
    second pot of 35. The Amount is what each won; the group workbook's net money over all
    the nights is what the settlements paid."""
    made = Table.new_group(client)
    ids = play_with_keepers(made)

    _info, first = summary(made.ok("GET", f"/sessions/{ids['first']}/export.xlsx"))
    _info, second = summary(made.ok("GET", f"/sessions/{ids['second']}/export.xlsx"))

    assert {p["Player"]: p["Amount (EUR)"] for p in first}["John"] == 0.46
    second_scores = made.get(f"/sessions/{ids['second']}")["scores"]
    amounts = {p["Player"]: p["Amount (EUR)"] for p in second}
    assert amounts["John"] == pytest.approx((second_scores["John"] + 20) / 100)
    assert amounts["Finn"] == pytest.approx(second_scores["Finn"] / 100)  # not + the 35 kept
    paid: dict[str, int] = {}
    for key in ("first", "second", "third"):
        for b in made.get(f"/sessions/{ids[key]}/settlement")["balances"]:
            paid[b["player"]] = paid.get(b["player"], 0) + b["units"]
    players = table(load(made.ok("GET", f"/groups/{made.slug}/export.xlsx"))["Players"], 1)
    net = {p["Player"]: p[next(k for k in p if str(k).startswith("Net money"))] for p in players}
    for name, units in paid.items():
        assert net[name] == pytest.approx(units / 100), name
