"""A small client for the API tests: one group's Basic auth on Flask's test client."""

from __future__ import annotations

import base64
from typing import Any

from flask.testing import FlaskClient

PASSPHRASE = "pints of plain"
SEED_PLAYERS = ["Enda", "John", "Rex", "Finn"]
SEED_HAND_1 = {
    "results": [
        {"player": "Enda", "cards": "J-10"},
        {"player": "John", "cards": "A-3"},
        {"player": "Rex", "cards": "2-9"},
        {"player": "Finn", "cards": "Q-K"},
    ]
}
SEED_HAND_2 = {
    "results": [
        {"player": "John", "cards": "5-5-6"},
        {"player": "Rex", "cards": "K"},
        {"player": "Finn", "cards": "3-5"},
    ],
    "out": "Enda",
}


def basic(slug: str, passphrase: str) -> dict[str, str]:
    token = base64.b64encode(f"{slug}:{passphrase}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


class Table:
    """One group at the table: calls under /api/v1 with its credentials (flaskr's AuthActions)."""

    def __init__(self, client: FlaskClient, name: str = "Thursday Crowd", passphrase=PASSPHRASE):
        self.client = client
        response = client.post("/api/v1/groups", json={"name": name, "passphrase": passphrase})
        assert response.status_code == 201, response.get_json()
        self.slug: str = response.get_json()["slug"]
        self.passphrase = passphrase
        self.headers = basic(self.slug, passphrase)

    def call(self, method: str, path: str, json: Any = None, **kwargs: Any):
        headers = kwargs.pop("headers", self.headers)
        return self.client.open(
            f"/api/v1{path}", method=method, json=json, headers=headers, **kwargs
        )

    def get(self, path: str, **kwargs: Any):
        return self.call("GET", path, **kwargs)

    def post(self, path: str, json: Any = None, **kwargs: Any):
        return self.call("POST", path, json, **kwargs)

    def put(self, path: str, json: Any = None, **kwargs: Any):
        return self.call("PUT", path, json, **kwargs)

    def delete(self, path: str, json: Any = None, **kwargs: Any):
        return self.call("DELETE", path, json, **kwargs)

    def ok(self, method: str, path: str, json: Any = None, status: int = 200) -> Any:
        response = self.call(method, path, json)
        assert response.status_code == status, (method, path, response.get_json())
        return response.get_json()

    def session(
        self,
        players: list[str] | None = None,
        dealer: str = "Finn",
        game: str = "spot",
        **options: Any,
    ) -> dict[str, Any]:
        body = {
            "game": game,
            "players": players or SEED_PLAYERS,
            "dealer": dealer,
            "options": options,
        }
        return self.ok("POST", f"/groups/{self.slug}/sessions", body, 201)

    def hand(self, sid: int, entry: dict[str, Any], status: int = 201) -> dict[str, Any]:
        return self.ok("POST", f"/sessions/{sid}/hands", entry, status)


def error(response, status: int, field: str | None = None) -> str:
    """The error's message, after checking the status, the JSON shape and the field."""
    assert response.status_code == status, response.get_json()
    assert response.content_type == "application/json"
    body = response.get_json()
    # A 422 for a hand also lists every problem, the first being ``error`` (API.md "Additions").
    assert set(body) == {"error"} or (status == 422 and set(body) == {"error", "errors"}), body
    if "errors" in body:
        assert body["errors"][0] == body["error"], body
    assert set(body["error"]) == {"message", "field"}
    assert body["error"]["message"]
    assert body["error"]["field"] == field, body
    return body["error"]["message"]


def hand_of(cards: dict[str, str], out: str | None = None, **more: Any) -> dict[str, Any]:
    return {
        "results": [{"player": p, "cards": c} for p, c in cards.items()],
        "out": out,
        **more,
    }
