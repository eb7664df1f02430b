"""A group with a varied history, made through the JSON API as a phone at the table makes it.

Four kinds of game, a correction, an undo, players joining, leaving and sitting out, a pot
carried into the next night and one refunded, payments made at the table (one taken back):
everything a workbook or a backup must carry.
"""

from __future__ import annotations

import base64
from typing import Any

from flask.testing import FlaskClient

PASSPHRASE = "pints-of-plain"


class Table:
    """The API as one group: ``ok()`` asserts the status and answers the JSON."""

    def __init__(self, client: FlaskClient, slug: str, passphrase: str = PASSPHRASE) -> None:
        self.client = client
        self.slug = slug
        token = base64.b64encode(f"{slug}:{passphrase}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}"}

    @classmethod
    def new_group(cls, client: FlaskClient, name: str = "The Local") -> Table:
        response = client.post("/api/v1/groups", json={"name": name, "passphrase": PASSPHRASE})
        assert response.status_code == 201, response.get_data(as_text=True)
        return cls(client, response.get_json()["slug"])

    def call(self, method: str, path: str, json: Any = None):
        return self.client.open(f"/api/v1{path}", method=method, json=json, headers=self.headers)

    def ok(self, method: str, path: str, json: Any = None, status: int = 200) -> Any:
        response = self.call(method, path, json)
        assert response.status_code == status, (
            f"{method} {path} answered {response.status_code}: {response.get_data(as_text=True)}"
        )
        return response.get_json() if response.is_json else response.data

    def get(self, path: str) -> Any:
        return self.ok("GET", path)

    def new_session(self, game: str, players: list[str], dealer: str, **options: Any) -> int:
        body = {"game": game, "players": players, "dealer": dealer, "options": options}
        return self.ok("POST", f"/groups/{self.slug}/sessions", body, 201)["id"]

    def hand(self, session: int, results: dict[str, Any], out: str | None = None) -> dict:
        return self.ok("POST", f"/sessions/{session}/hands", entry(results, out), 201)


def entry(results: dict[str, Any], out: str | None = None) -> dict[str, Any]:
    """A hand entry: each player's cards text, a spot total (int) or None for sitting out."""
    listed = []
    for player, given in results.items():
        if given is None:
            listed.append({"player": player, "sitting_out": True})
        elif isinstance(given, int):
            listed.append({"player": player, "spots": given})
        else:
            listed.append({"player": player, "cards": given})
    return {"results": listed, "out": out}


def play_a_history(table: Table) -> dict[str, int]:
    """The group's history; answers the sessions' ids by name."""
    ids = {}
    # A night of Spot: seed 000's two hands, a correction, an undo, a join, a sit-out, a leave.
    night = ids["spot"] = table.new_session("spot", ["Enda", "John", "Rex", "Finn"], "Finn")
    table.hand(night, {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"})
    table.hand(night, {"Enda": "", "John": "5 5 6", "Rex": "K", "Finn": "3 5"}, out="Enda")
    corrected = entry({"Enda": "J 10", "John": "A 3", "Rex": "2 8", "Finn": "Q K"})
    table.ok("PUT", f"/sessions/{night}/hands/1", {**corrected, "by": "Rex"})  # RULES.md §20
    table.hand(night, {"Enda": "4", "John": "", "Rex": "7 7", "Finn": "K K"}, out="John")
    table.ok("DELETE", f"/sessions/{night}/hands/3", status=204)
    table.ok("POST", f"/sessions/{night}/players", {"name": "Seán", "after": "John"}, 201)
    table.hand(night, {"Enda": "9", "John": "2", "Seán": "", "Rex": "3 3", "Finn": None}, "Seán")
    table.ok("DELETE", f"/sessions/{night}/players/Rex")
    table.hand(night, {"Enda": "9", "John": "2", "Seán": "4", "Finn": "K"})
    table.ok("POST", f"/sessions/{night}/finish", {"leftover_pot": "carry"})
    # Paying up at the table: one transfer paid, another ticked and taken back.
    owed = [t for t in table.get(f"/sessions/{night}/settlement")["transfers"] if t["to"]]
    for t in owed[:2]:
        paid = {"from": t["from"], "to": t["to"], "units": t["units"]}
        last = table.ok("POST", f"/sessions/{night}/payments", {**paid, "by": t["to"]}, 201)
    table.ok("DELETE", f"/sessions/{night}/payments/{last['id']}", status=204)

    # Rummy to a target of 30: finished by the game itself.
    rummy = ids["rummy"] = table.new_session("rummy", ["Enda", "John", "Nora"], "Nora", target=30)
    table.hand(rummy, {"Enda": "K Q", "John": "", "Nora": "2 3"}, out="John")
    table.hand(rummy, {"Enda": "", "John": "A", "Nora": "9"}, out="Enda")
    table.hand(rummy, {"Enda": "", "John": "K", "Nora": "Q"}, out="Enda")

    # The next Spot night takes up the carried pot, and refunds what is left of it.
    spot2 = ids["spot2"] = table.new_session("spot", ["Enda", "John", "Finn"], "John")
    table.hand(spot2, {"Enda": "5", "John": "6", "Finn": "7"})
    table.ok("POST", f"/sessions/{spot2}/finish", {"leftover_pot": "refund"})

    # Dutch Spots, still open; and a game of Spin Rummy for its melds.
    spots = ids["spots"] = table.new_session("spots", ["Nora", "Enda", "John", "Finn"], "Nora")
    table.hand(spots, {"Nora": "K Q", "Enda": "", "John": "2 3", "Finn": "10"}, out="Enda")
    spin = ids["spin"] = table.new_session("spin", ["Nora", "John"], "Nora")
    table.hand(spin, {"Nora": "3S 3H 3D 7C 8C 9C", "John": "4S 5S"})

    # Seasons (RULES.md §13): a Spot league closed and settled, a Rummy one still open.
    period = {"from": "2000-01-01", "to": "2999-12-31"}
    league = {"name": "Winter", "game": "spot", **period, "entry_fee": 100, "booby": 10}
    closed = table.ok("POST", f"/groups/{table.slug}/seasons", league, 201)["id"]
    table.ok("POST", f"/groups/{table.slug}/seasons/{closed}/close", {"settle": "now"})
    rummy_league = {"name": "Rummy league", "game": "rummy", **period, "scoring": "points"}
    table.ok("POST", f"/groups/{table.slug}/seasons", rummy_league, 201)
    return ids
