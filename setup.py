"""Builds the package with the top-level templates/ and static/ folders inside it.

The repository keeps templates/ and static/ beside ledger/ (the product's layout), where a
checkout and an editable install find them. A wheel holds only the package, so the build
copies both folders into ``ledger/`` there; create_app() uses whichever of the two places
has them. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
WEB_FOLDERS = ("templates", "static")


class BuildWithWebFolders(build_py):
    """build_py, then templates/ and static/ copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # an editable install runs from the checkout, where the folders are
        for folder in WEB_FOLDERS:
            source = ROOT / folder
            if not source.is_dir():
                raise SystemExit(f"{source} is missing: the package cannot be built without it.")
            target = Path(self.build_lib) / "ledger" / folder
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))


setup(cmdclass={"build_py": BuildWithWebFolders})
