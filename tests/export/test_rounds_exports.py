"""Rounds in the downloads (RULES.md §6c): the night's and the group's Rounds sheet, the
Summary's rounds and total columns, and each part of a round in payments.csv — every number
the one the API answers."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.backup import BackupError, backup_group, restore_group
from ledger.extensions import db
from tests.export.history import Table
from tests.export.sheets import csv_rows, load, money, rows, table

SEATS = ["Enda", "John", "Rex", "Finn"]
PINTS = {"what": "a round", "amount": "18.40", "paid_by": "John", "for": SEATS}
CRISPS = {"what": "crisps", "amount": "7.50", "paid_by": "Rex", "for": ["John", "Rex", "Finn"]}


def worked_example(t: Table) -> int:
    sid = t.new_session("spot", SEATS, "Finn", ante=0, entry="totals")
    t.hand(sid, {"Enda": 1, "John": 30, "Rex": 50, "Finn": 40})
    t.ok("POST", f"/sessions/{sid}/rounds", PINTS, 201)
    t.ok("POST", f"/sessions/{sid}/rounds", CRISPS, 201)
    return sid


def summary_players(ws) -> list[dict]:
    header_row = next(i for i, row in enumerate(rows(ws), 1) if row and row[0] == "Player")
    return table(ws, header_row)


def test_the_nights_workbook_has_a_rounds_sheet_and_the_summarys_totals(client):
    t = Table.new_group(client)
    sid = worked_example(t)
    wb = load(t.ok("GET", f"/sessions/{sid}/export.xlsx"))

    assert wb.sheetnames[-1] == "Rounds"
    made = table(wb["Rounds"])
    assert [(r["What"], r["Paid by"], money(r["Amount (EUR)"])) for r in made] == [
        ("a round", "John", Decimal("18.40")),
        ("crisps", "Rex", Decimal("7.50")),
    ]
    assert [money(made[0][p]) for p in SEATS] == [Decimal("4.60")] * 4
    assert made[1]["Enda"] is None and money(made[1]["Finn"]) == Decimal("2.50")
    assert wb["Rounds"]["E2"].number_format == '"€"#,##0.00'

    players = {r["Player"]: r for r in summary_players(wb["Summary"])}
    settled = t.get(f"/sessions/{sid}/settlement")
    for b in settled["balances"]:
        row = players[b["player"]]
        assert money(row["Rounds (EUR)"]) == Decimal(b["rounds"])
        assert money(row["Total (EUR)"]) == Decimal(b["total"])
    assert money(players["John"]["Total (EUR)"]) == Decimal("11.00")
    # No pot was brought back or kept: no Pot column between the Amount and the Rounds.
    assert "Pot (EUR)" not in players["John"]


def test_the_summarys_row_adds_up_with_the_pot_brought_back_and_kept(client):
    """A night with rounds whose pot John brought back (20) and Finn keeps (35): each row of
    the Summary reads Amount (won at the table, the pot left out), Pot, Rounds and Total side
    by side, as the settle-up does, and adds up to its Total."""
    t = Table.new_group(client)
    first = t.new_session("spot", ["Enda", "John", "Rex", "Finn"], "Finn")
    t.hand(first, {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"})  # pot 20
    t.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "John"})
    sid = t.new_session("spot", ["Enda", "John", "Finn"], "John")
    t.hand(sid, {"Enda": "5", "John": "6", "Finn": "7"})  # nobody out: pot 35
    pints = {"what": "a round", "amount": "12.00", "paid_by": "Enda", "for": ["John", "Finn"]}
    t.ok("POST", f"/sessions/{sid}/rounds", pints, 201)
    t.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "Finn"})
    wb = load(t.ok("GET", f"/sessions/{sid}/export.xlsx"))

    header_row = next(i for i, row in enumerate(rows(wb["Summary"]), 1) if row[:1] == ["Player"])
    header = rows(wb["Summary"])[header_row - 1]
    money_columns = ["Amount (EUR)", "Pot (EUR)", "Rounds (EUR)", "Total (EUR)"]
    start = header.index("Amount (EUR)")
    assert header[start : start + 4] == money_columns
    pot_cell = wb["Summary"].cell(header_row + 1, start + 2)
    assert pot_cell.number_format == '"€"#,##0.00'
    players = {r["Player"]: r for r in summary_players(wb["Summary"])}
    standings = {s["player"]: s for s in t.get(f"/sessions/{sid}")["standings"]}
    assert {p: money(r["Pot (EUR)"]) for p, r in players.items()} == {
        "Enda": Decimal("0.00"),
        "John": Decimal("-0.20"),
        "Finn": Decimal("0.35"),
    }
    for name, row in players.items():
        amount, pot, drinks, total = (money(row[c]) for c in money_columns)
        assert amount + pot + drinks == total, name
        assert amount == Decimal(standings[name]["winnings_amount"])
        assert total == Decimal(standings[name]["total"])


def test_payments_csv_has_each_part_of_each_round(client):
    t = Table.new_group(client)
    sid = worked_example(t)
    text = t.ok("GET", f"/sessions/{sid}/payments.csv").decode()
    parts = [r for r in csv_rows(text)[1:] if r[5].startswith("round")]
    assert [(r[1], r[2], r[4], r[5]) for r in parts] == [
        ("Enda", "John", "4.60", "round: a round"),
        ("Rex", "John", "4.60", "round: a round"),
        ("Finn", "John", "4.60", "round: a round"),
        ("John", "Rex", "2.50", "round: crisps"),
        ("Finn", "Rex", "2.50", "round: crisps"),
    ]


def test_the_group_workbook_has_every_nights_rounds(client):
    t = Table.new_group(client)
    sid = worked_example(t)
    # A points night without a stake has rounds too.
    rummy = t.new_session("rummy", ["Ann", "Bob"], "Bob")
    t.ok(
        "POST", f"/sessions/{rummy}/rounds", {"amount": "3", "paid_by": "Bob", "for": ["Ann"]}, 201
    )

    wb = load(t.ok("GET", f"/groups/{t.slug}/export.xlsx"))
    made = table(wb["Rounds"])
    # The night as the pages name it, its id beside it (API.md, fourth edition).
    assert [(r["Session"], r["Id"], r["Paid by"], money(r["Amount"])) for r in made] == [
        ("Spot #1", sid, "John", Decimal("18.40")),
        ("Spot #1", sid, "Rex", Decimal("7.50")),
        ("Rummy #1", rummy, "Bob", Decimal("3.00")),
    ]
    assert money(made[2]["Ann"]) == Decimal("3.00") and made[2]["Bob"] is None
    # The points night's own workbook settles its rounds alone.
    wb = load(t.ok("GET", f"/sessions/{rummy}/export.xlsx"))
    assert "Rounds" in wb.sheetnames
    assert [(r[0], money(r[2])) for r in rows(wb["Settlement"])[1:] if r] == [
        ("Ann", Decimal("3.00"))
    ]


# --- Backups ----------------------------------------------------------------------------------


def backed_up(app, t: Table) -> dict:
    with app.app_context():
        data = backup_group(t.slug)
        db.session.rollback()
    data["group"]["slug"] = "the-copy"
    return json.loads(json.dumps(data))


def without_ids(answer):
    if isinstance(answer, list):
        return [without_ids(a) for a in answer]
    if isinstance(answer, dict):
        return {k: without_ids(v) for k, v in answer.items() if k not in ("id", "session", "group")}
    return answer


def test_a_backup_carries_the_rounds_and_the_restore_answers_as_before(app, client):
    t = Table.new_group(client)
    sid = worked_example(t)
    extra = t.ok("POST", f"/sessions/{sid}/rounds", {**CRISPS, "request_id": "tap"}, 201)
    t.ok("PUT", f"/sessions/{sid}/rounds/{extra['id']}", {**CRISPS, "shares": {"Rex": 2}})
    t.ok("DELETE", f"/sessions/{sid}/rounds/{extra['id']}", status=204)
    paid = {"from": "Finn", "to": "John", "amount": "7.50"}
    payment = t.ok("POST", f"/sessions/{sid}/payments", paid, 201)
    t.ok("DELETE", f"/sessions/{sid}/payments/{payment['id']}", status=204)
    t.ok("POST", f"/sessions/{sid}/payments", {**paid, "amount": "1.00"}, 201)
    data = backed_up(app, t)
    assert [r["shares"] for r in data["rounds"]][1] == [
        [p["id"], 1]
        for name in ["John", "Rex", "Finn"]
        for p in data["players"]
        if p["name"] == name
    ]

    with app.app_context():
        copy = restore_group(data)
    c = Table(client, copy.slug)
    new = c.get(f"/groups/{copy.slug}")["sessions"][0]["id"]
    for path in ("", "/rounds", "/settlement", "/history", "/payments"):
        assert without_ids(c.get(f"/sessions/{new}{path}")) == without_ids(
            t.get(f"/sessions/{sid}{path}")
        ), path
    # The restored night goes on: a resend of the round taken back still records nothing.
    assert (
        c.call("POST", f"/sessions/{new}/rounds", {**CRISPS, "request_id": "tap"}).status_code
        == 409
    )
    c.ok("POST", f"/sessions/{new}/rounds", CRISPS, 201)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["rounds"][0].update(cents=0),
        lambda d: d["rounds"][0].update(shares=[]),
        lambda d: d["rounds"][0].update(shares=[[d["players"][0]["id"], 0]]),
        lambda d: d["rounds"][0]["shares"].append(d["rounds"][0]["shares"][0]),
        lambda d: d["rounds"][0].update(
            payer_id=next(p["id"] for p in d["players"] if p["name"] == "Dara")
        ),
        lambda d: d["rounds"][0].update(what="  spaced  "),
        lambda d: [r.update(request_id="same") for r in d["rounds"]],
    ],
    ids=[
        "no cents",
        "for nobody",
        "a share of 0",
        "a person twice",
        "a payer not at the night",
        "untidy words",
        "one request id twice",
    ],
)
def test_a_crafted_round_is_refused(app, client, damage):
    t = Table.new_group(client)
    t.ok("POST", f"/groups/{t.slug}/players", {"name": "Dara"}, 201)  # never played
    worked_example(t)
    data = backed_up(app, t)
    damage(data)
    with app.app_context(), pytest.raises(BackupError, match="round .* is not one the app"):
        restore_group(data)
