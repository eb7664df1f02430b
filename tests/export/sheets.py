"""Reading workbooks back in the tests: with openpyxl, and with LibreOffice as a person would."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")

# The user profile LibreOffice runs with (tests/export/conftest.py sets one for the run): a
# folder of its own keeps it clear of any other LibreOffice running.
PROFILE: Path | None = None

# Where LibreOffice must be there (.ci/run sets this), its tests fail instead of skipping.
REQUIRED = bool(os.environ.get("LEDGER_REQUIRE_SPREADSHEET"))

needs_soffice = pytest.mark.skipif(
    SOFFICE is None and not REQUIRED,
    reason="LibreOffice (soffice) is not installed here; .ci/run installs libreoffice-calc-nogui",
)


def load(data: bytes) -> Workbook:
    """The workbook as openpyxl reads a file: values, formats, panes, filters and charts."""
    return openpyxl.load_workbook(io.BytesIO(data))


def rows(ws: Worksheet) -> list[list[Any]]:
    """The sheet's values, row by row, without the empty cells at the end of each row."""
    out = []
    for row in ws.iter_rows(values_only=True):
        values = list(row)
        while values and values[-1] is None:
            values.pop()
        out.append(values)
    return out


def table(ws: Worksheet, header_row: int = 1) -> list[dict[str, Any]]:
    """The rows under a header row as dicts keyed by the header."""
    values = rows(ws)
    header = values[header_row - 1]
    return [
        dict(zip(header, row + [None] * (len(header) - len(row)), strict=False))
        for row in values[header_row:]
        if any(v is not None for v in row)
    ]


def money(value: Any) -> Decimal:
    """A money cell's value as the Decimal the API writes (openpyxl reads a float back)."""
    return Decimal(str(value)).quantize(Decimal("0.01"))


def soffice_convert(
    source: Path, convert_to: str, outdir: Path, *, infilter: str | None = None
) -> None:
    """LibreOffice headless converts ``source``, into ``outdir``."""
    if SOFFICE is None:
        pytest.fail("LibreOffice (soffice) must be installed here (LEDGER_REQUIRE_SPREADSHEET)")
    profile = PROFILE or outdir / "lo-profile"
    command = [SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore"]
    if infilter:
        command.append(f"--infilter={infilter}")
    command += ["--convert-to", convert_to, "--outdir", str(outdir), str(source)]
    subprocess.run(command, check=True, capture_output=True, timeout=180)


def soffice_csv(workbook: Path, outdir: Path) -> dict[str, str]:
    """Every sheet of ``workbook`` converted to CSV by LibreOffice, as displayed, by sheet name.

    The filter options ask for UTF-8, cells as shown (so money comes out as "€0.44") and,
    with the last token -1, one file per sheet (LibreOffice 7.2 and later).
    """
    options = "44,34,76,1,,0,false,true,true,false,false,-1"
    soffice_convert(workbook, f"csv:Text - txt - csv (StarCalc):{options}", outdir)
    sheets = {}
    for path in outdir.glob(f"{workbook.stem}-*.csv"):
        sheets[path.stem[len(workbook.stem) + 1 :]] = path.read_text(encoding="utf-8")
    if not sheets:  # an older LibreOffice writes the first sheet only
        sheets["(first)"] = (outdir / f"{workbook.stem}.csv").read_text(encoding="utf-8")
    return sheets


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
