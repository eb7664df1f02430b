"""What a wheel must carry, and where the app looks for its templates and static files.

.ci/wheel.sh is the real proof (a wheel built, installed outside the checkout and served);
these check the two halves it rests on without building anything.
"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import ledger
from ledger import create_app, web_folder

ROOT = Path(__file__).resolve().parent.parent


def test_installed_the_package_folders_win_over_the_checkouts(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    (site / "ledger" / "templates").mkdir(parents=True)
    (tmp_path / "templates").mkdir()  # what would sit beside an installed package by chance
    monkeypatch.setattr(ledger, "PACKAGE", site / "ledger")

    assert web_folder("templates") == site / "ledger" / "templates"


def test_from_the_checkout_the_top_level_folders_are_used(tmp_path, monkeypatch):
    (tmp_path / "ledger").mkdir()
    monkeypatch.setattr(ledger, "PACKAGE", tmp_path / "ledger")

    assert web_folder("static") == tmp_path / "static"


def test_this_app_finds_templates_and_static_files(tmp_path, monkeypatch):
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path))
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.template_folder and (Path(app.template_folder) / "index.html").is_file()
    assert app.static_folder and (Path(app.static_folder) / "style.css").is_file()


def test_every_file_the_app_reads_at_run_time_is_package_data():
    """The files under ledger/ that are not Python: each is matched by package-data, or a
    wheel would leave it behind (as it once left alembic.ini and the catalogues)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["ledger"]
    package = ROOT / "ledger"
    data = [
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]

    assert "migrations/alembic.ini" in data and "translations/nl/LC_MESSAGES/messages.mo" in data
    assert [f for f in data if not any(fnmatch(f, pattern) for pattern in patterns)] == []
