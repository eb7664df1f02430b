"""The workbooks built from the API's answers: sheets, numbers and formats (API.md "Workbooks").

These feed ledger/export.py the dicts the API answers, made by the card engine, so they need
no app; tests/export/test_api_exports.py checks the same through the real API.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from decimal import Decimal

from openpyxl.chart import LineChart

from ledger.export import (
    SessionData,
    group_workbook,
    money_format,
    payments_csv,
    session_workbook,
)
from tests.export.engine_data import EngineSession, seed_000_night
from tests.export.sheets import csv_rows, load, money, rows, table

SESSION_SHEETS = ["Summary", "Hands", "Payments", "Settlement"]


def night_workbook(night: EngineSession) -> bytes:
    return session_workbook(night.session, night.hands, night.settlement)


def players_table(ws) -> list[dict]:
    """Summary's players: the table under the header row that starts with "Player"."""
    header_row = next(i for i, row in enumerate(rows(ws), 1) if row and row[0] == "Player")
    return table(ws, header_row)


# --- Shape ------------------------------------------------------------------------------------


def test_a_session_workbook_has_the_api_sheets_in_order_each_with_header_filter_and_panes():
    wb = load(night_workbook(seed_000_night()))

    assert wb.sheetnames[:4] == SESSION_SHEETS
    for name in [*SESSION_SHEETS, "Scores"]:
        ws = wb[name]
        assert ws.freeze_panes, name
        assert ws.auto_filter.ref, name
        header_row = int(ws.auto_filter.ref.split(":")[0][1:])
        header = [c for c in next(ws.iter_rows(min_row=header_row, max_row=header_row))]
        assert all(c.font.b for c in header if c.value is not None), name
        assert all(ws.column_dimensions[c.column_letter].width >= 6 for c in header), name


def test_the_summary_gives_the_game_date_options_and_each_players_hands_score_and_money():
    night = seed_000_night()
    wb = load(night_workbook(night))
    ws = wb["Summary"]

    info = dict(zip(rows(ws)[0], rows(ws)[1], strict=False))
    assert info["Game"] == "Spot"
    assert info["Status"] == "open"
    assert info["Started (UTC)"] == datetime(2024, 5, 2, 20, 5)
    assert info["Hands"] == 2
    # The options as the new-session page labels them (issue 14), not their keys.
    assert info["Ante"] == 5
    assert info["Worth of one unit"] == 0.01  # a number, not the text "0.01"
    assert info["Currency"] == "EUR"
    assert info["The deal passes to the"] == "right (anticlockwise)"
    assert "dealer_rotation" not in info
    # The pot, and how the scores and the pot add up.
    assert (info["Pot carried in"], info["Pot at the end"]) == (0, 0)
    assert info["Pot"] == "The final scores add up to 0 and the pot holds 0."

    players = {p["Player"]: p for p in players_table(ws)}
    assert list(players) == ["Enda", "John", "Rex", "Finn"]
    settlement = {b["player"]: Decimal(b["amount"]) for b in night.settlement["balances"]}
    for name, p in players.items():
        assert p["Hands played"] == 2
        assert p["Final score (units)"] == night.session["scores"][name]
        assert money(p["Amount (EUR)"]) == settlement[name]
    assert players["Enda"]["Hands won"] == 1  # went out in hand 2
    assert players["John"]["Hands won"] == 1  # lowest in hand 1
    assert players["Rex"]["Hands won"] == 0
    assert (
        players["Enda"]["Final score (units)"] == 44
    )  # as API.md: -25 after hand 1, +69 in hand 2


def test_the_hands_sheet_has_a_row_per_hand_with_each_players_cards_and_spots_and_the_pot():
    wb = load(night_workbook(seed_000_night()))
    hands = table(wb["Hands"])

    assert [h["Hand"] for h in hands] == [1, 2]
    first, second = hands
    assert first["Dealer"] == "Finn"
    assert first["Out"] is None
    assert first["Winners"] == "John"
    assert first["Enda cards"] == "J 10"
    assert first["Enda spots"] == 20
    assert first["John spots"] == 4
    assert first["Rex spots"] == 11
    assert (first["Pot before"], first["Pot after"]) == (20, 20)
    assert second["Dealer"] == "Rex"  # the deal passes to the right
    assert second["Out"] == "Enda"
    assert second["Enda spots"] == 0
    assert second["John cards"] == "5 5 6"
    assert (second["Pot before"], second["Pot after"]) == (40, 0)


def test_payments_hold_every_movement_of_money_antes_and_pot_win_included():
    night = seed_000_night()
    wb = load(night_workbook(night))
    payments = table(wb["Payments"])

    antes = [p for p in payments if p["To"] == "(pot)"]
    assert len(antes) == 8 and all(p["Units"] == 5 for p in antes)
    assert {
        (p["Hand"], p["From"], p["To"], p["Units"]) for p in payments if p["From"] == "(pot)"
    } == {(2, "(pot)", "Enda", 40)}
    # Seed 000: John is paid 20 + 11 + 20 in hand 1; Enda collects 16 + 10 + 8 in hand 2.
    between = [
        (p["Hand"], p["From"], p["To"], p["Units"]) for p in payments if "(pot)" not in p.values()
    ]
    assert sorted(between) == sorted(
        [
            (1, "Enda", "John", 20),
            (1, "Rex", "John", 11),
            (1, "Finn", "John", 20),
            (2, "John", "Enda", 16),
            (2, "Rex", "Enda", 10),
            (2, "Finn", "Enda", 8),
        ]
    )
    # Every row's amount is its units at 0.01 each, and the rows add up to the balances.
    net: dict[str, int] = {}
    for p in payments:
        assert money(p["Amount (EUR)"]) == Decimal(p["Units"]) / 100
        net[p["From"]] = net.get(p["From"], 0) - p["Units"]
        net[p["To"]] = net.get(p["To"], 0) + p["Units"]
    assert {k: v for k, v in net.items() if k != "(pot)"} == night.session["scores"]
    assert net["(pot)"] == night.session["pot"]


def test_the_settlement_sheet_lists_each_transfer_as_an_amount():
    night = seed_000_night()
    wb = load(night_workbook(night))
    transfers = table(wb["Settlement"])

    assert [(t["From"], t["To"], money(t["Amount (EUR)"]), t["Units"]) for t in transfers] == [
        (t["from"], t["to"], Decimal(t["amount"]), t["units"])
        for t in night.settlement["transfers"]
    ]
    assert sum(money(t["Amount (EUR)"]) for t in transfers if t["To"] == "Enda") == Decimal("0.44")


def test_money_cells_are_numbers_with_the_currencys_format():
    wb = load(night_workbook(seed_000_night()))

    cells = [row[4] for row in wb["Payments"].iter_rows(min_row=2)]
    assert cells and all(isinstance(c.value, int | float) for c in cells)
    assert {c.number_format for c in cells} == {'"€"#,##0.00'}
    summary_amounts = [
        row[4] for row in wb["Summary"].iter_rows(min_row=5) if row[4].value is not None
    ]
    assert {c.number_format for c in summary_amounts} == {'"€"#,##0.00'}
    assert min(c.value for c in summary_amounts) < 0  # a debt is a negative number


def test_yen_have_no_decimals_and_a_currency_without_a_symbol_is_written_with_its_code():
    assert money_format("JPY") == '"¥"#,##0'
    assert money_format("CHF") == '"CHF "#,##0.00'
    assert money_format("BHD") == '"BHD "#,##0.000'
    assert money_format("GBP") == '"£"#,##0.00'

    night = seed_000_night(currency="JPY", unit_value="10")
    wb = load(night_workbook(night))
    payments = table(wb["Payments"])
    assert all(p["Amount (JPY)"] == p["Units"] * 10 for p in payments)
    assert {row[4].number_format for row in wb["Payments"].iter_rows(min_row=2)} == {'"¥"#,##0'}
    players = {p["Player"]: p for p in players_table(wb["Summary"])}
    assert players["Enda"]["Amount (JPY)"] == 440


def test_the_scores_sheet_charts_each_players_running_score():
    night = seed_000_night()
    wb = load(night_workbook(night))
    ws = wb["Scores"]

    assert rows(ws) == [
        ["Hand", "Enda", "John", "Rex", "Finn"],
        [1, -25, 46, -16, -25],
        [2, 44, 25, -31, -38],
    ]
    (chart,) = ws._charts
    assert isinstance(chart, LineChart)
    series = {s.tx.strRef.f: s.val.numRef.f for s in chart.series}
    assert series == {
        "'Scores'!B1": "'Scores'!$B$2:$B$3",
        "'Scores'!C1": "'Scores'!$C$2:$C$3",
        "'Scores'!D1": "'Scores'!$D$2:$D$3",
        "'Scores'!E1": "'Scores'!$E$2:$E$3",
    }


def test_a_points_game_has_points_no_pot_no_money_and_an_empty_settlement():
    game = EngineSession("rummy", ["Ann", "Bob", "Cas"], "Ann", {"target": 30})
    game.hand({"Ann": "K Q", "Bob": "", "Cas": "2 3"}, out="Bob")
    game.hand({"Ann": "", "Bob": "A", "Cas": "9"}, out="Ann")
    game.hand({"Ann": "", "Bob": "K", "Cas": "Q"}, out="Ann")
    assert game.status == "finished"
    wb = load(session_workbook(game.session, game.hands, None))

    assert wb.sheetnames[:4] == SESSION_SHEETS
    hands = table(wb["Hands"])
    assert list(hands[0]) == [
        "Hand",
        "Dealer",
        "Out",
        "Winners",
        "Ann cards",
        "Ann points",
        "Bob cards",
        "Bob points",
        "Cas cards",
        "Cas points",
    ]
    assert hands[0]["Bob points"] == 25 and hands[0]["Ann points"] == 0
    players = {p["Player"]: p for p in players_table(wb["Summary"])}
    assert list(players["Ann"]) == ["Player", "Hands played", "Hands won", "Final score (points)"]
    assert players["Ann"]["Final score (points)"] == game.session["scores"]["Ann"] == 30
    assert rows(wb["Payments"]) == [["Hand", "From", "To", "Units", "Amount", "Note"]]
    assert rows(wb["Settlement"]) == [["From", "To", "Amount", "Units", "Status", "Paid (UTC)"]]
    assert rows(wb["Scores"])[1:] == [[1, 0, 25, 0], [2, 10, 25, 0], [3, 30, 25, 0]]


def test_a_pot_refunded_at_the_end_shows_as_payments_out_of_the_pot_after_the_last_hand():
    night = EngineSession("spot", ["Enda", "John", "Rex"], "Enda", {"leftover_pot": "refund"})
    night.hand({"Enda": "J 10", "John": "A 3", "Rex": "2 9"})  # nobody out: the pot stays
    night.finish("refund")
    wb = load(night_workbook(night))
    payments = table(wb["Payments"])

    refunds = [p for p in payments if p["Hand"] is None]
    assert [(p["From"], p["To"], p["Units"]) for p in refunds] == [
        ("(pot)", p["to"], p["units"]) for p in night.refunds
    ]
    net: dict[str, int] = {}
    for p in payments:
        net[p["From"]] = net.get(p["From"], 0) - p["Units"]
        net[p["To"]] = net.get(p["To"], 0) + p["Units"]
    balances = {b["player"]: b["units"] for b in night.settlement["balances"]}
    assert {k: v for k, v in net.items() if k != "(pot)"} == balances


def summary_info(wb) -> dict:
    return dict(zip(rows(wb["Summary"])[0], rows(wb["Summary"])[1], strict=False))


def test_the_summary_gives_what_finishing_did_with_the_pot_not_the_option():
    for option, finished in [("carry", "refund"), ("refund", "carry")]:
        night = EngineSession("spot", ["Enda", "John", "Rex"], "Enda", {"leftover_pot": option})
        night.hand({"Enda": "J 10", "John": "A 3", "Rex": "2 9"})  # nobody out: the pot stays
        info = summary_info(load(night_workbook(night)))
        words = {"carry": "is carried to the next session", "refund": "is refunded to who paid in"}
        assert info["A pot left at the end"] == f"{words[option]} (not decided yet)"

        night.finish(finished)
        info = summary_info(load(night_workbook(night)))
        assert info["Status"] == "finished"
        assert info["A pot left at the end"] == words[finished]


def test_players_who_sit_out_join_or_leave_count_only_the_hands_they_played():
    night = EngineSession("spot", ["Enda", "John", "Rex"], "Enda")
    night.hand({"Enda": "J 10", "John": "", "Rex": None}, out="John")
    wb = load(night_workbook(night))

    hands = table(wb["Hands"])
    assert hands[0]["Rex cards"] == "sitting out"
    assert hands[0]["Rex spots"] is None
    players = {p["Player"]: p for p in players_table(wb["Summary"])}
    assert players["Rex"]["Hands played"] == 0
    assert players["John"]["Hands played"] == 1
    antes = [p for p in table(wb["Payments"]) if p["To"] == "(pot)"]
    assert {p["From"] for p in antes} == {"Enda", "John"}


def test_a_long_night_streams_every_hand_into_the_workbook():
    night = EngineSession("spot", ["Enda", "John", "Rex", "Finn"], "Finn")
    for _ in range(400):
        night.hand({"Enda": "", "John": "5 5 6", "Rex": "K", "Finn": "3 5"}, out="Enda")
    wb = load(night_workbook(night))

    assert len(table(wb["Hands"])) == 400
    assert len(table(wb["Payments"])) == 400 * 8
    assert rows(wb["Scores"])[-1] == [400, *night.session["scores"].values()]


# --- The group's workbook ---------------------------------------------------------------------


def a_groups_history() -> tuple[dict, list[EngineSession]]:
    spot = seed_000_night()
    spot.finish("carry")
    rummy = EngineSession("rummy", ["Enda", "John", "Nora"], "Nora", {"target": 30}, id=2)
    rummy.hand({"Enda": "K Q", "John": "", "Nora": "2 3"}, out="John")
    rummy.hand({"Enda": "", "John": "A", "Nora": "9"}, out="Enda")
    rummy.hand({"Enda": "", "John": "K", "Nora": "Q"}, out="Enda")
    spot2 = EngineSession("spot", ["Enda", "Rex"], "Rex", {"ante": 0}, id=3, number=2)
    spot2.hand({"Enda": "", "Rex": "K K"}, out="Enda")
    group = {
        "slug": "the-local",
        "name": "The Local",
        "players": [
            {"id": i, "name": n} for i, n in enumerate(["Enda", "Finn", "John", "Nora", "Rex"])
        ],
        "sessions": [
            {
                "id": s.id,
                "game": s.game.key,
                "status": s.status,
                "started_at": "2024-05-02T20:05:00Z",
            }
            for s in (spot, rummy, spot2)
        ],
    }
    return group, [spot, rummy, spot2]


def test_the_group_workbook_has_sessions_players_and_every_hand():
    group, sessions = a_groups_history()
    data = group_workbook(group, (SessionData(s.session, s.hands, s.settlement) for s in sessions))
    wb = load(data)

    assert wb.sheetnames[:3] == ["Sessions", "Players", "Hands"]
    listed = table(wb["Sessions"])
    # Each night as the pages name it, its id beside it (API.md's Workbooks, fourth edition).
    assert [(s["Session"], s["Id"], s["Game"], s["Status"], s["Hands"]) for s in listed] == [
        ("Spot #1", 1, "Spot", "finished", 2),
        ("Rummy #1", 2, "Rummy", "finished", 3),
        ("Spot #2", 3, "Spot", "open", 1),
    ]
    assert listed[0]["Players"] == "Enda, John, Rex, Finn"
    assert listed[0]["Winners"] is None  # a money night has no winner, as on the pages
    assert listed[1]["Winners"] == "Enda"  # reached the target
    assert listed[2]["Winners"] is None  # still open
    assert listed[0]["Started (UTC)"] == datetime(2024, 5, 2, 20, 5)

    players = {p["Player"]: p for p in table(wb["Players"])}
    assert players["Enda"] == {
        "Player": "Enda",
        "Sessions": 3,
        "Hands played": 6,
        "Hands won": 4,
        "Games won": 1,  # the Rummy game: a money night is not a game won, as on the pages
        "Net money (EUR)": players["Enda"]["Net money (EUR)"],
        "Points (Rummy)": 30,  # a column per game, never added across games
    }
    assert money(players["Enda"]["Net money (EUR)"]) == Decimal("0.44") + Decimal("0.20")
    assert players["Nora"]["Net money (EUR)"] == 0
    assert players["Nora"]["Points (Rummy)"] == 0
    assert players["John"]["Points (Rummy)"] == 25
    assert money(players["Rex"]["Net money (EUR)"]) == Decimal("-0.51")

    hands = table(wb["Hands"])
    assert [(h["Session"], h["Id"], h["Hand"]) for h in hands] == [
        ("Spot #1", 1, 1),
        ("Spot #1", 1, 2),
        ("Rummy #1", 2, 1),
        ("Rummy #1", 2, 2),
        ("Rummy #1", 2, 3),
        ("Spot #2", 3, 1),
    ]
    assert hands[2]["Enda spots or points"] == 0 and hands[2]["John spots or points"] == 25
    assert hands[2]["Finn cards"] is None
    assert hands[0]["Finn spots or points"] == 20 and hands[0]["Pot after"] == 20
    assert hands[2]["Pot before"] is None


def test_the_group_workbook_names_a_player_it_was_not_told_of_in_a_column_of_their_own():
    group, sessions = a_groups_history()
    group["players"] = [p for p in group["players"] if p["name"] != "Nora"]
    wb = load(group_workbook(group, [(s.session, s.hands, s.settlement) for s in sessions]))

    hands = table(wb["Hands"])
    assert hands[2]["Other players"] == "Nora: 2 3 (0)"
    assert "Nora" in {p["Player"] for p in table(wb["Players"])}


def test_a_session_without_hands_and_a_group_without_sessions_still_make_workbooks():
    night = EngineSession("spot", ["Enda", "John"], "Enda")
    wb = load(night_workbook(night))
    assert [len(table(wb[name])) for name in ["Hands", "Payments", "Settlement"]] == [0, 0, 0]
    assert wb["Scores"]._charts == []
    assert [p["Final score (units)"] for p in players_table(wb["Summary"])] == [0, 0]

    wb = load(group_workbook({"slug": "new", "name": "New", "players": [], "sessions": []}, []))
    assert wb.sheetnames == ["Sessions", "Players", "Hands"]
    assert [rows(wb[name])[1:] for name in wb.sheetnames] == [[], [], []]


def half_cent_night() -> EngineSession:
    """A unit of €0.005: each ante of 5 is €0.025, yet every balance is whole cents."""
    night = EngineSession("spot", ["Enda", "John", "Rex"], "Enda", {"unit_value": "0.005"})
    night.hand({"Enda": "J 10", "John": "A 3", "Rex": "2 8"})
    night.hand({"Enda": "", "John": "5 5 6", "Rex": "K"}, out="Enda")
    return night


def test_payments_at_half_a_cent_a_unit_add_up_to_each_players_balance():
    night = half_cent_night()
    wb = load(night_workbook(night))
    payments = table(wb["Payments"])
    lines = csv_rows(payments_csv(night.session, night.hands, night.settlement))
    assert [p["Amount (EUR)"] for p in payments[:3]] == [0.025, 0.025, 0.025]  # not 0.02 each
    assert [line[4] for line in lines[1:4]] == ["0.025", "0.025", "0.025"]
    assert {row[4].number_format for row in wb["Payments"].iter_rows(min_row=2)} == {'"€"#,##0.00'}

    balances = {b["player"]: Decimal(b["amount"]) for b in night.settlement["balances"]}
    assert balances == {"Enda": Decimal("0.13"), "John": Decimal("0.02"), "Rex": Decimal("-0.15")}
    for amounts in (
        [(p["From"], p["To"], Decimal(str(p["Amount (EUR)"]))) for p in payments],
        [(line[1], line[2], Decimal(line[4])) for line in lines[1:]],
    ):
        net: dict[str, Decimal] = defaultdict(Decimal)
        for source, target, value in amounts:
            net[source] -= value
            net[target] += value
        assert {p: net[p] for p in balances} == balances
        assert net["(pot)"] == 0


def test_a_refund_at_the_end_of_the_night_leaves_the_hand_number_cell_empty():
    night = EngineSession("spot", ["Enda", "John", "Rex"], "Enda", {"leftover_pot": "refund"})
    night.hand({"Enda": "J 10", "John": "A 3", "Rex": "2 9"})  # nobody out: the pot stays
    night.finish("refund")
    ws = load(night_workbook(night))["Payments"]

    assert rows(ws)[0] == ["Hand", "From", "To", "Units", "Amount (EUR)", "Note"]
    hands = [row[0].value for row in ws.iter_rows(min_row=2)]
    assert all(isinstance(h, int) for h in hands[: -len(night.refunds)])
    assert hands[-len(night.refunds) :] == [None] * len(night.refunds)
    notes = [row[5].value for row in ws.iter_rows(min_row=2)]
    assert set(notes[-len(night.refunds) :]) == {"pot given back at the end of the night"}
    assert set(notes[: -len(night.refunds)]) == {None}


def test_times_are_real_dates_in_utc_and_their_headers_say_so():
    night = seed_000_night()
    night.finish("carry")
    session = {**night.session, "started_at": "2024-05-02T22:05:00+02:00"}  # 20:05 UTC
    wb = load(session_workbook(session, night.hands, night.settlement))
    info = summary_info(wb)
    assert info["Started (UTC)"] == datetime(2024, 5, 2, 20, 5)
    assert info["Finished (UTC)"] == datetime(2024, 5, 2, 23, 40)
    assert "Started" not in info and "Finished" not in info

    group, _ = a_groups_history()
    data = SessionData(session, night.hands, night.settlement)
    listed = table(load(group_workbook(group, [data]))["Sessions"])
    assert listed[0]["Started (UTC)"] == datetime(2024, 5, 2, 20, 5)
    assert listed[0]["Finished (UTC)"] == datetime(2024, 5, 2, 23, 40)
