"""A small client for the JSON API (shared/API.md), as a script or a second phone would use it."""

from __future__ import annotations

import uuid
from typing import Any

import requests

TIMEOUT = 30


class Api:
    """Calls under ``/api/v1`` of one server, as one group (or as nobody, without a slug)."""

    def __init__(self, base_url: str, slug: str | None = None, passphrase: str | None = None):
        self.base_url = base_url
        self.slug = slug
        self.passphrase = passphrase

    def as_(self, slug: str | None, passphrase: str | None) -> Api:
        """The same server with other credentials."""
        return Api(self.base_url, slug, passphrase)

    def call(self, method: str, path: str, json: Any = None) -> requests.Response:
        """One request on a connection of its own (a new session each time, closed after),
        so any number of threads may call at once and no socket is left open."""
        auth = (self.slug, self.passphrase) if self.slug is not None else None
        return requests.request(
            method, f"{self.base_url}/api/v1{path}", json=json, auth=auth, timeout=TIMEOUT
        )

    def get(self, path: str) -> requests.Response:
        return self.call("GET", path)

    def post(self, path: str, json: Any = None) -> requests.Response:
        return self.call("POST", path, json)

    def put(self, path: str, json: Any = None) -> requests.Response:
        return self.call("PUT", path, json)

    def delete(self, path: str) -> requests.Response:
        return self.call("DELETE", path)

    def ok(self, method: str, path: str, json: Any = None, status: int = 200) -> Any:
        """The JSON answer of a call that must succeed with ``status``."""
        response = self.call(method, path, json)
        assert response.status_code == status, (
            f"{method} {path} answered {response.status_code}: {response.text}"
        )
        return response.json() if response.content else None


def new_group(base_url: str, name: str | None = None, passphrase: str | None = None) -> Api:
    """A new group on the server, and a client that acts as it."""
    name = name or f"Table {uuid.uuid4().hex[:8]}"
    passphrase = passphrase or f"pints-{uuid.uuid4().hex}"
    group = Api(base_url).ok("POST", "/groups", {"name": name, "passphrase": passphrase}, 201)
    assert group["name"] == name
    return Api(base_url, group["slug"], passphrase)


def new_spot_session(
    api: Api, players: list[str], dealer: str, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The players (added to the group first) at a new Spot session, in this seat order."""
    for name in players:
        api.ok("POST", f"/groups/{api.slug}/players", {"name": name}, 201)
    body = {"game": "spot", "players": players, "dealer": dealer, "options": options or {}}
    return api.ok("POST", f"/groups/{api.slug}/sessions", body, 201)


def hand_entry(
    cards: dict[str, str], out: str | None = None, request_id: str | None = None, **more: Any
) -> dict[str, Any]:
    """A hand entry: each player's leftover cards as typed (``{"Rex": "2-9"}``); the player
    who went out, if any, is left out of ``cards`` and named by ``out``."""
    entry: dict[str, Any] = {
        "results": [{"player": player, "cards": text} for player, text in cards.items()],
        "out": out,
    }
    if request_id is not None:
        entry["request_id"] = request_id
    return entry | more
