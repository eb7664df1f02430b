"""What the in-process benchmarks share (bench/ratings.py, skat.py, cribbage.py): a throwaway
app on SQLite in a temporary folder, and a group made through the JSON API whose calls check
their answers."""

from __future__ import annotations

import base64
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from ledger import create_app  # noqa: E402
from ledger.extensions import db  # noqa: E402

PASSPHRASE = "bench passphrase"


@contextmanager
def throwaway_app(**settings: Any) -> Iterator[Flask]:
    """An app on a new SQLite file, gone with its folder afterwards: a quick passphrase hash
    (the benchmarks time the games, not the sign-in) and no limit on groups."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
                "LEDGER_PASSPHRASE_HASH": "pbkdf2:sha256:1000",
                "LEDGER_GROUP_LIMIT": 0,
                **settings,
            }
        )
        with app.app_context():
            db.create_all()
        yield app


class Group:
    """A new group of ``app``'s, called through the JSON API in process with its passphrase."""

    def __init__(self, app: Flask) -> None:
        self.client = app.test_client()
        made = self.client.post("/api/v1/groups", json={"name": "Bench", "passphrase": PASSPHRASE})
        self.slug: str = made.get_json()["slug"]
        token = base64.b64encode(f"{self.slug}:{PASSPHRASE}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}"}

    def call(self, method: str, path: str, body: object = None, status: int | None = None) -> Any:
        """The answer's JSON (None for an empty one); a status other than ``status`` (by
        default: any 2xx) stops the benchmark, naming the call."""
        response = self.client.open(
            f"/api/v1{path}", method=method, json=body, headers=self.headers
        )
        ok = response.status_code < 300 if status is None else response.status_code == status
        assert ok, (method, path, response.status_code, response.get_json())
        return response.get_json()
