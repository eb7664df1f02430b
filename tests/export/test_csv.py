"""hands.csv and payments.csv: the Hands and Payments sheets as plain text for any program."""

from __future__ import annotations

from ledger.export import hands_csv, payments_csv, session_workbook
from tests.export.engine_data import EngineSession, seed_000_night
from tests.export.sheets import csv_rows, load, rows


def as_text(value) -> str:
    return "" if value is None else str(value)


def test_hands_csv_has_the_hands_sheets_columns_and_values():
    night = seed_000_night()
    text = hands_csv(night.session, night.hands)
    sheet = rows(load(session_workbook(night.session, night.hands, night.settlement))["Hands"])

    lines = csv_rows(text)
    assert lines[0] == sheet[0]
    assert lines[1] == ["1", "Finn", "", "John", "J 10", "20", "A 3", "4", "2 9", "11"] + [
        "Q K",
        "20",
        "20",
        "20",
    ]
    assert [[as_text(v) for v in r] + [""] * (len(lines[0]) - len(r)) for r in sheet] == lines


def test_payments_csv_has_every_movement_with_the_amount_as_a_plain_decimal():
    night = seed_000_night()
    lines = csv_rows(payments_csv(night.session, night.hands, night.settlement))

    assert lines[0] == ["Hand", "From", "To", "Units", "Amount (EUR)", "Note"]
    assert lines[1:5] == [
        ["1", name, "(pot)", "5", "0.05", ""] for name in ["Enda", "John", "Rex", "Finn"]
    ]
    assert ["2", "(pot)", "Enda", "40", "0.40", ""] in lines
    assert ["1", "Rex", "John", "11", "0.11", ""] in lines
    assert len(lines) == 1 + 8 + 1 + 6


def test_csv_files_start_with_a_byte_order_mark_so_excel_reads_them_as_utf8():
    night = EngineSession("spot", ["Seán", "Zoë"], "Seán")
    night.hand({"Seán": "", "Zoë": "K♠"}, out="Seán")

    text = hands_csv(night.session, night.hands)
    assert text.startswith("\ufeffHand,")
    assert "Zoë cards" in text and "KS" in text
    assert payments_csv(night.session, night.hands, night.settlement).startswith("\ufeffHand,")


def test_a_points_games_payments_csv_is_only_its_header():
    game = EngineSession("spots", ["Ann", "Bob", "Cas"], "Ann")
    game.hand({"Ann": "K Q", "Bob": "", "Cas": "2 3"}, out="Bob")

    assert csv_rows(payments_csv(game.session, game.hands)) == [
        ["Hand", "From", "To", "Units", "Amount", "Note"]
    ]
    assert csv_rows(hands_csv(game.session, game.hands))[1][:4] == ["1", "Ann", "Bob", "Bob"]
