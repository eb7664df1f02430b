"""The paper's layout tests need Poppler's pdftoppm: without it they skip, as the spreadsheet
(LibreOffice) and browser (Chromium) tests do, so README's test command passes on a machine
without it; where they must run (LEDGER_REQUIRE_PDFTOPPM, set by .ci/run) they fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api import test_paper_layout as paper

ROOT = Path(__file__).resolve().parents[2]


def test_without_pdftoppm_the_layout_tests_skip(monkeypatch):
    monkeypatch.setattr(paper.shutil, "which", lambda name: None)
    monkeypatch.delenv("LEDGER_REQUIRE_PDFTOPPM", raising=False)
    with pytest.raises(pytest.skip.Exception, match="poppler-utils"):
        paper.pdftoppm_tool()


def test_where_they_must_run_they_fail_without_it(monkeypatch):
    monkeypatch.setattr(paper.shutil, "which", lambda name: None)
    monkeypatch.setenv("LEDGER_REQUIRE_PDFTOPPM", "1")
    with pytest.raises(pytest.fail.Exception, match="LEDGER_REQUIRE_PDFTOPPM"):
        paper.pdftoppm_tool()


def test_ci_installs_it_and_requires_the_tests():
    script = (ROOT / ".ci" / "run").read_text()
    tools = script.split("paper_tools() {")[1].split("}")[0]
    assert "apt_install poppler-utils" in tools
    assert "export LEDGER_REQUIRE_PDFTOPPM=1" in tools
