"""The downloads through the API: every number in a workbook or CSV is the one the JSON gives."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest

from ledger.words.games import CHOICE_LABELS, OPTION_LABELS
from tests.export.history import Table, play_a_history
from tests.export.sheets import csv_rows, load, money, needs_soffice, rows, soffice_csv, table

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def history(client) -> tuple[Table, dict[str, int]]:
    table = Table.new_group(client)
    return table, play_a_history(table)


def players_table(ws) -> list[dict]:
    header_row = next(i for i, row in enumerate(rows(ws), 1) if row and row[0] == "Player")
    return table(ws, header_row)


def movements_of(hands: list[dict]) -> list[tuple]:
    return [
        (h["number"], m["from"] or "(pot)", m["to"] or "(pot)", m["units"])
        for h in hands
        for m in h["movements"]
    ]


@pytest.mark.parametrize("name", ["spot", "spot2", "rummy", "spots", "spin"])
def test_a_sessions_workbook_holds_the_numbers_the_api_answers(history, name):
    t, ids = history
    session_id = ids[name]
    session = t.get(f"/sessions/{session_id}")
    hands = t.get(f"/sessions/{session_id}/hands")
    money_game = session["pot"] is not None
    settlement = t.get(f"/sessions/{session_id}/settlement") if money_game else None

    wb = load(t.ok("GET", f"/sessions/{session_id}/export.xlsx"))

    assert wb.sheetnames[:4] == ["Summary", "Hands", "Payments", "Settlement"]
    info = dict(zip(rows(wb["Summary"])[0], rows(wb["Summary"])[1], strict=False))
    assert info["Game"] == session["game_name"]
    # The night as the pages name it, by its number among its game's in the group, and its
    # id beside it (issue 36, API.md's Workbooks in the fourth edition).
    listed = t.get(f"/groups/{t.slug}")["sessions"]
    numbers = {s["id"]: s["number"] for s in listed}
    assert numbers[session_id] == session["number"] == (2 if name == "spot2" else 1)
    assert info["Session"] == f"{session['game_name']} #{session['number']}"
    assert info["Id"] == session_id
    assert info["Status"] == session["status"]
    assert info["Hands"] == session["hands_played"] == len(hands)
    assert info["Group"] == "The Local"  # the group's name, not its slug
    for option, value in session["options"].items():
        # Labelled as the new-session page labels the option and its choices (issue 14).
        label, shown = OPTION_LABELS[option], CHOICE_LABELS.get((option, str(value)), value)
        if option == "leftover_pot":  # what finishing did with the pot, not the option
            assert session["status"] == "finished"
            assert info[label] == CHOICE_LABELS[(option, session["leftover_pot"])]
        else:
            assert str(info[label]) == str(shown)

    players = {p["Player"]: p for p in players_table(wb["Summary"])}
    assert set(players) == set(session["scores"])
    for player, p in players.items():
        played = [
            h for h in hands for r in h["results"] if r["player"] == player and not r["sitting_out"]
        ]
        assert p["Hands played"] == len(played)
        assert p["Hands won"] == sum(player in h["winners"] for h in hands)
        # The night's figure as the pages show it: a money night's winnings (issue 36).
        score = "Final score (units)" if money_game else "Final score (points)"
        figure = session["winnings"][player] if money_game else session["scores"][player]
        assert p[score] == figure
    if money_game:
        currency = settlement["currency"]
        unit = Decimal(session["options"]["unit_value"])
        amounts = {b["player"]: b["winnings"] * unit for b in settlement["balances"]}
        assert {n: money(p[f"Amount ({currency})"]) for n, p in players.items()} == amounts

    sheet_hands = table(wb["Hands"])
    assert [h["Hand"] for h in sheet_hands] == [h["number"] for h in hands]
    for row, hand in zip(sheet_hands, hands, strict=True):
        assert row["Dealer"] == hand["dealer"]
        assert row["Out"] == hand["out"]
        assert row["Winners"] == ", ".join(hand["winners"])
        for r in hand["results"]:
            kind = "spots" if money_game else "points"
            expected = None if r["sitting_out"] else r[kind]
            assert row[f"{r['player']} {kind}"] == expected
            if r["cards"]:
                assert row[f"{r['player']} cards"] == " ".join(r["cards"])
        if money_game:
            assert (row["Pot before"], row["Pot after"]) == (hand["pot_before"], hand["pot_after"])

    payments = table(wb["Payments"])
    if not money_game:
        assert payments == []
        assert table(wb["Settlement"]) == []
        return
    in_hands = [p for p in payments if p["Hand"] is not None]
    assert [(p["Hand"], p["From"], p["To"], p["Units"]) for p in in_hands] == movements_of(hands)
    unit = Decimal(session["options"]["unit_value"])
    assert all(money(p[f"Amount ({currency})"]) == p["Units"] * unit for p in payments)
    # Every movement, refunds at the end included, adds up to the balances the API answers.
    net = Counter()
    for p in payments:
        net[p["From"]] -= p["Units"]
        net[p["To"]] += p["Units"]
    assert {p: net[p] for p in session["scores"]} == session["scores"]
    assert net["(pot)"] == session["pot"] - session["carried_in"]

    sheet = table(wb["Settlement"])
    transfers = [t for t in sheet if t["Status"] == "to pay"]
    assert [(t["From"], t["To"], money(t[f"Amount ({currency})"])) for t in transfers] == [
        (t["from"] or "(pot)", t["to"] or "(pot)", Decimal(t["amount"]))
        for t in settlement["transfers"]
    ]
    # What was paid at the table, and when, after what is still to pay.
    paid = [t for t in sheet if t["Status"] == "paid"]
    assert sheet == transfers + paid
    assert [(p["From"], p["To"], p["Units"], p["Paid (UTC)"]) for p in paid] == [
        (p["from"], p["to"], p["units"], datetime.fromisoformat(p["at"][:-1]))
        for p in settlement["payments"]
    ]


def test_a_refunded_pot_shows_in_payments_as_paid_back_at_the_end(history):
    t, ids = history
    wb = load(t.ok("GET", f"/sessions/{ids['spot2']}/export.xlsx"))

    refunds = [
        (p["From"], p["To"], p["Units"], p["Note"])
        for p in table(wb["Payments"])
        if p["Hand"] is None
    ]
    # Each gets back the antes they paid since the pot was last won: 5 on the night the pot
    # was carried from and 5 tonight. Seán's 5 from that night stay in the pot, his.
    assert refunds == [
        ("(pot)", name, 10, "pot given back at the end of the night")
        for name in ("Enda", "John", "Finn")
    ]
    assert t.ok("GET", f"/sessions/{ids['spot2']}")["pot"] == 5


def test_the_downloads_are_attachments_with_a_telling_name(history):
    t, ids = history
    response = t.call("GET", f"/sessions/{ids['spot']}/export.xlsx")
    assert response.status_code == 200
    assert response.mimetype == XLSX
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;")
    # The night as its pages name it, "Spot #1", not its id (issue 36).
    number = t.get(f"/sessions/{ids['spot']}")["number"]
    assert f"{t.slug}-spot-{number}-" in disposition and disposition.endswith(".xlsx")

    response = t.call("GET", f"/groups/{t.slug}/export.xlsx")
    assert response.mimetype == XLSX
    assert response.headers["Content-Disposition"] == f"attachment; filename={t.slug}.xlsx"

    for what in ("hands", "payments"):
        response = t.call("GET", f"/sessions/{ids['spot']}/{what}.csv")
        assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
        assert response.headers["Content-Disposition"].endswith(f"-{what}.csv")


def test_the_downloads_need_the_groups_passphrase_and_hide_other_groups(history, client):
    t, ids = history
    other = Table.new_group(client, "The Other Place")
    paths = [
        f"/sessions/{ids['spot']}/export.xlsx",
        f"/sessions/{ids['spot']}/hands.csv",
        f"/sessions/{ids['spot']}/payments.csv",
        f"/groups/{t.slug}/export.xlsx",
        f"/groups/{t.slug}/backup.json",
    ]
    for path in paths:
        assert client.get(f"/api/v1{path}").status_code == 401
        answer = other.call("GET", path)
        assert answer.status_code == 404, path
        assert answer.get_json()["error"]["message"]
    assert t.call("GET", "/sessions/999/export.xlsx").status_code == 404


def test_the_csv_files_hold_the_hands_and_every_movement(history):
    t, ids = history
    hands = t.get(f"/sessions/{ids['spot']}/hands")
    wb = load(t.ok("GET", f"/sessions/{ids['spot']}/export.xlsx"))

    lines = csv_rows(t.ok("GET", f"/sessions/{ids['spot']}/hands.csv").decode())
    assert lines[0] == rows(wb["Hands"])[0]
    assert [int(line[0]) for line in lines[1:]] == [h["number"] for h in hands]

    lines = csv_rows(t.ok("GET", f"/sessions/{ids['spot']}/payments.csv").decode())
    assert lines[0] == ["Hand", "From", "To", "Units", "Amount (EUR)", "Note"]
    assert [(int(a), b, c, int(d)) for a, b, c, d, _, _ in lines[1:]] == movements_of(hands)
    assert all(Decimal(line[4]) == int(line[3]) * Decimal("0.01") for line in lines[1:])


def test_the_groups_workbook_has_every_session_player_and_hand(history):
    t, ids = history
    group = t.get(f"/groups/{t.slug}")
    sessions = {s["id"]: t.get(f"/sessions/{s['id']}") for s in group["sessions"]}
    hands = {sid: t.get(f"/sessions/{sid}/hands") for sid in sessions}

    wb = load(t.ok("GET", f"/groups/{t.slug}/export.xlsx"))

    assert wb.sheetnames[:3] == ["Sessions", "Players", "Hands"]
    listed = table(wb["Sessions"])
    # The group's sheets name each night as the pages do, its id in a column of its own
    # (API.md's Workbooks, fourth edition).
    names = {s["id"]: f"{sessions[s['id']]['game_name']} #{s['number']}" for s in group["sessions"]}
    assert [(s["Session"], s["Id"], s["Status"], s["Hands"]) for s in listed] == [
        (names[s["id"]], s["id"], s["status"], s["hands_played"]) for s in group["sessions"]
    ]
    assert listed[2]["Session"] == "Spot #2"
    assert [s["Game"] for s in listed] == [
        sessions[s["id"]]["game_name"] for s in group["sessions"]
    ]
    assert listed[1]["Winners"] == "Enda"  # Rummy, to the target

    players = {p["Player"]: p for p in table(wb["Players"])}
    assert set(players) == {p["name"] for p in group["players"]}
    for name, p in players.items():
        in_sessions = [s for s in sessions.values() if name in s["scores"]]
        assert p["Sessions"] == len(in_sessions)
        money_total = sum(
            (Decimal(s["money"][name]) for s in in_sessions if s["money"]), Decimal(0)
        )
        assert money(p["Net money (EUR)"]) == money_total
        # Points in a column per game, never added across games (issue 14).
        for game in {s["game_name"] for s in in_sessions if s["money"] is None}:
            points = sum(s["scores"][name] for s in in_sessions if s["game_name"] == game)
            assert p[f"Points ({game})"] == points
        assert "Net points" not in p
        assert p["Hands won"] == sum(name in h["winners"] for hs in hands.values() for h in hs)

    all_hands = table(wb["Hands"])
    assert [(h["Session"], h["Id"], h["Game"], h["Hand"]) for h in all_hands] == [
        (names[sid], sid, sessions[sid]["game_name"], h["number"])
        for sid, hs in hands.items()
        for h in hs
    ]


def test_a_name_typed_as_a_formula_stays_text_in_every_download(client):
    t = Table.new_group(client, '=HYPERLINK("http://x.test","Hi")')
    night = t.new_session("spot", ["=1+2", "@SUM(1,1)", "-3+4", "+5"], "=1+2")
    t.hand(night, {"=1+2": "K", "@SUM(1,1)": "", "-3+4": "2", "+5": "3"}, out="@SUM(1,1)")

    session_wb = load(t.ok("GET", f"/sessions/{night}/export.xlsx"))
    group_wb = load(t.ok("GET", f"/groups/{t.slug}/export.xlsx"))
    for wb in (session_wb, group_wb):
        for ws in wb:
            for row in ws.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
    names = [p["Player"] for p in players_table(session_wb["Summary"])]
    assert names == ["'=1+2", "'@SUM(1,1)", "'-3+4", "'+5"]
    assert {p["Player"] for p in table(group_wb["Players"])} == set(names)
    seen = set()
    for what in ("hands", "payments"):
        text = t.ok("GET", f"/sessions/{night}/{what}.csv").decode()
        for line in csv_rows(text):
            seen.update(line)
            for f in line:
                # Only a number may start with "-"; nothing may start with = + @, a tab or a CR.
                assert not f.lstrip(" ").startswith(("=", "@", "+", "\t", "\r")), line
                assert not f.startswith("-") or re.fullmatch(r"-\d+(\.\d+)?", f), line
    assert {"'=1+2", "'@SUM(1,1)", "'-3+4", "'+5"} <= seen


@needs_soffice
def test_libreoffice_opens_the_groups_workbook(history, tmp_path: Path):
    t, ids = history
    path = tmp_path / "group.xlsx"
    path.write_bytes(t.ok("GET", f"/groups/{t.slug}/export.xlsx"))

    sheets = soffice_csv(path, tmp_path)

    assert {"Sessions", "Players", "Hands"} <= set(sheets)
    players = {row[0]: row for row in csv_rows(sheets["Players"])}
    assert players["Player"][5] == "Net money (EUR)"
    assert players["Rex"][5] == "-€0.41"
    assert len(csv_rows(sheets["Hands"])) == 1 + 10
