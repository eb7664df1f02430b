"""Fixtures of the export tests: one LibreOffice profile for the whole run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.export import sheets


@pytest.fixture(scope="session", autouse=True)
def libreoffice_profile(tmp_path_factory) -> Path:
    """A LibreOffice user profile made once: a fresh one costs seconds on every conversion."""
    profile = tmp_path_factory.mktemp("lo-profile")
    sheets.PROFILE = profile
    return profile
