"""Text typed at the table never becomes a formula in Excel or LibreOffice, in a workbook or a CSV.

A name like ``=HYPERLINK("http://evil","Click")`` is stored as text with a leading
apostrophe (ledger/export.py says why); numbers, negative ones included, stay numbers.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from ledger.export import hands_csv, payments_csv, safe_text, session_workbook
from tests.export.engine_data import EngineSession
from tests.export.sheets import (
    csv_rows,
    load,
    needs_soffice,
    rows,
    soffice_convert,
    soffice_csv,
    table,
)

EVIL = [
    '=HYPERLINK("http://x.test","Hi")',
    "+SUM(1,2)",
    "-2+3",
    "@SUM(1+1)",
    "#N/A",
]


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@A1", "'@A1"),
        ("\t=1+2", "'\t=1+2"),
        ("\r=1+2", "'\r=1+2"),
        ("  =1+2", "'  =1+2"),
        ("＝1+2", "'＝1+2"),
        ("#N/A", "'#N/A"),
        ("#div/0!", "'#div/0!"),
        ("Enda\tJohn", "'Enda\tJohn"),
        ("Enda\n=1+2", "'Enda\n=1+2"),
        ("Bell\x07", "Bell\ufffd"),
        ("Enda", "Enda"),
        ("O'Neill", "O'Neill"),
        ("Mary-Kate", "Mary-Kate"),
        ("J 10", "J 10"),
        ("", ""),
    ],
)
def test_text_that_a_spreadsheet_could_run_is_written_with_a_leading_apostrophe(typed, written):
    assert safe_text(typed) == written


def evil_night() -> EngineSession:
    night = EngineSession("spot", EVIL[:4], EVIL[0], group="=cmd|' /C calc'!A0")
    night.hand({EVIL[0]: "J 10", EVIL[1]: "", EVIL[2]: "A 3", EVIL[3]: "Q K"}, out=EVIL[1])
    night.hand({EVIL[0]: "J 10", EVIL[1]: "2 2", EVIL[2]: "A 3", EVIL[3]: "Q K"})
    return night


def test_a_workbook_holds_typed_text_as_plain_strings_and_no_formula_at_all():
    night = evil_night()
    wb = load(session_workbook(night.session, night.hands, night.settlement))

    for ws in wb:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type in ("s", "n", "d"), (ws.title, cell.coordinate, cell.value)
    summary = rows(wb["Summary"])
    assert summary[1][3] == "'=cmd|' /C calc'!A0"  # the group's slug, as an example of text
    names = [row[0] for row in summary[4:]]
    assert names == ["'" + n for n in EVIL[:4]]
    hands = table(wb["Hands"])
    assert hands[0]["Dealer"] == "'" + EVIL[0]
    assert hands[0]["Out"] == "'+SUM(1,2)"
    assert hands[0]["'-2+3 spots"] == 4
    # Negative numbers are numbers, not text.
    scores = rows(wb["Scores"])
    assert any(isinstance(v, int) and v < 0 for v in scores[1])


def test_an_error_code_as_a_name_is_text_not_an_error_cell():
    night = EngineSession("spot", ["#N/A", "#REF!"], "#N/A")
    night.hand({"#N/A": "", "#REF!": "K"}, out="#N/A")
    wb = load(session_workbook(night.session, night.hands, night.settlement))

    cells = [c for row in wb["Summary"].iter_rows(min_row=5) for c in row[:1]]
    assert [(c.value, c.data_type) for c in cells] == [("'#N/A", "s"), ("'#REF!", "s")]


def test_csv_files_escape_typed_text_too():
    night = evil_night()
    hands = csv_rows(hands_csv(night.session, night.hands))
    payments = csv_rows(payments_csv(night.session, night.hands, night.settlement))

    assert hands[0][4] == "'" + EVIL[0] + " cards"
    assert hands[1][1] == "'" + EVIL[0]
    assert {row[1] for row in payments[1:]} >= {"'" + n for n in EVIL[:4]}
    for row in hands + payments:
        for field in row:
            assert not field.lstrip().startswith(("=", "+", "@")), field
            assert not field.startswith("-") or field.lstrip("-").isdigit(), field


# --- As LibreOffice reads them -----------------------------------------------------------------


@needs_soffice
def test_libreoffice_shows_typed_text_and_computes_nothing_from_it(tmp_path: Path):
    night = evil_night()
    path = tmp_path / "night.xlsx"
    path.write_bytes(session_workbook(night.session, night.hands, night.settlement))

    sheets = soffice_csv(path, tmp_path)

    assert {"Summary", "Hands", "Payments", "Settlement", "Scores"} <= set(sheets)
    summary = csv_rows(sheets["Summary"])
    assert summary[1][3] == "'=cmd|' /C calc'!A0"
    # The rows are as wide as the session's row above them (its options and its pot).
    rest = [""] * (len(summary[0]) - 5)
    assert summary[4:] == [
        ["'" + EVIL[0], "2", "0", "-50", "-€0.50"] + rest,
        ["'" + EVIL[1], "2", "2", "74", "€0.74"] + rest,
        ["'" + EVIL[2], "2", "1", "6", "€0.06"] + rest,
        ["'" + EVIL[3], "2", "0", "-50", "-€0.50"] + rest,
    ]
    # Wherever a name shows, it shows as typed after the apostrophe: nothing was computed.
    for name, text in sheets.items():
        for row in csv_rows(text):
            for field in row:
                if any(evil in field for evil in EVIL):
                    assert field.startswith("'"), (name, field)
                assert field not in ("Hi", "#NAME?") and not field.startswith("Err:"), (name, field)


@needs_soffice
def test_the_libreoffice_check_would_catch_a_formula(tmp_path: Path):
    """The check above means something: an unescaped formula does get computed."""
    wb = openpyxl.Workbook()
    wb.active.append(["=1+2", "=SUM(40,2)"])
    path = tmp_path / "formula.xlsx"
    wb.save(path)

    (text,) = soffice_csv(path, tmp_path).values()
    assert csv_rows(text)[0] == ["3", "42"]


@needs_soffice
def test_libreoffice_opens_our_csv_files_as_text(tmp_path: Path):
    """The CSV files go through LibreOffice's own import and come out with no formula."""
    night = evil_night()
    path = tmp_path / "hands.csv"
    path.write_text(hands_csv(night.session, night.hands), encoding="utf-8")

    soffice_convert(path, "xlsx", tmp_path, infilter="CSV:44,34,76,1")
    wb = load((tmp_path / "hands.xlsx").read_bytes())
    cells = [c for row in wb.active.iter_rows() for c in row if c.value is not None]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    assert wb.active["B2"].value == "'" + EVIL[0]
