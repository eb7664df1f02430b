"""Rounds in the downloads (RULES.md §6c): the night's and the group's Rounds sheet, the
Summary's rounds and total columns, and each part of a round in payments.csv — every number
the one the API answers."""

from __future__ import annotations

from decimal import Decimal

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
    assert [(r["Session"], r["Night"], r["Paid by"], money(r["Amount"])) for r in made] == [
        (sid, "Spot #1", "John", Decimal("18.40")),
        (sid, "Spot #1", "Rex", Decimal("7.50")),
        (rummy, "Rummy #1", "Bob", Decimal("3.00")),
    ]
    assert money(made[2]["Ann"]) == Decimal("3.00") and made[2]["Bob"] is None
    # The points night's own workbook settles its rounds alone.
    wb = load(t.ok("GET", f"/sessions/{rummy}/export.xlsx"))
    assert "Rounds" in wb.sheetnames
    assert [(r[0], money(r[2])) for r in rows(wb["Settlement"])[1:] if r] == [
        ("Ann", Decimal("3.00"))
    ]
