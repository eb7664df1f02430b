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


def play_the_newer_kinds(table: Table, ids: dict[str, int]) -> dict[str, int]:
    """The kinds added since (issue 46.4) on top of ``play_a_history``: rounds of drinks
    recorded, changed and taken back on the open Spots night and paid in the currency (one
    payment taken back), a Kaluki night with a buy-in
    played on, one taken back and one still waiting, a Boerenbridge night with its bids saved,
    a Klaverjassen night with its teams, a season of places closed onto the tab with its
    best nights and a booby prize, and Finn renamed Fionn after all of it."""
    spots = ids["spots"]
    pints = {"what": "pints", "amount": "18.40", "paid_by": "John", "for": ["Nora", "Enda", "John"]}
    first = table.ok("POST", f"/sessions/{spots}/rounds", {**pints, "request_id": "r-1"}, 201)
    crisps = {"what": "crisps 🥔", "amount": "7.50", "paid_by": "Nora", "for": ["Nora", "Finn"]}
    table.ok("POST", f"/sessions/{spots}/rounds", crisps, 201)
    gone = table.ok("POST", f"/sessions/{spots}/rounds", {**pints, "amount": "3"}, 201)
    table.ok("PUT", f"/sessions/{spots}/rounds/{first['id']}", {**pints, "shares": {"Enda": 2}})
    table.ok("DELETE", f"/sessions/{spots}/rounds/{gone['id']}", status=204)
    # The rounds alone settle in the currency: payments given as amounts, one taken back.
    owed = table.get(f"/sessions/{spots}/settlement")["transfers"]
    for t in owed[:2]:
        paid = table.ok("POST", f"/sessions/{spots}/payments",
                        {"from": t["from"], "to": t["to"], "amount": t["amount"]}, 201)  # fmt: skip
    table.ok("DELETE", f"/sessions/{spots}/payments/{paid['id']}", status=204)

    kaluki = ids["kaluki"] = table.new_session(
        "kaluki", ["Ann", "Bob", "Cas"], "Cas", entry="totals"
    )
    totals = {"Ann": 0, "Bob": 160, "Cas": 20}
    table.ok("POST", f"/sessions/{kaluki}/hands", kaluki_entry("Ann", totals), 201)
    table.ok("POST", f"/sessions/{kaluki}/buy_in", {"player": "Bob"})
    table.ok("POST", f"/sessions/{kaluki}/hands", kaluki_entry("Bob", {"Ann": 30, "Cas": 140}), 201)
    table.ok("POST", f"/sessions/{kaluki}/buy_in", {"player": "Cas"})
    table.ok("POST", f"/sessions/{kaluki}/buy_in/take_back", {"player": "Cas"})
    table.ok("POST", f"/sessions/{kaluki}/buy_in", {"player": "Cas", "request_id": "b-2"})

    bridge = ids["boerenbridge"] = table.new_session(
        "boerenbridge", ["Ann", "Bob", "Cas", "Dee"], "Ann", max_cards=4
    )
    table.ok("PUT", f"/sessions/{bridge}/bids", {"bids": {"Bob": 0, "Cas": 1, "Dee": 0, "Ann": 0}})
    tricks = [{"player": p, "tricks": int(p == "Cas")} for p in ("Ann", "Bob", "Cas", "Dee")]
    table.ok("POST", f"/sessions/{bridge}/hands", {"results": tricks}, 201)
    table.ok("PUT", f"/sessions/{bridge}/bids", {"bids": {"Cas": 1, "Dee": 1, "Ann": 0, "Bob": 1}})

    klaver = ids["klaverjassen"] = table.new_session(
        "klaverjassen", ["Ann", "Bob", "Cas", "Dee"], "Dee"
    )
    hand = {"playing": 1, "teams": [{"team": 1, "points": 100, "roem": 20}, {"team": 2, "roem": 0}]}
    table.ok("POST", f"/sessions/{klaver}/hands", {**hand, "pit": None}, 201)

    period = {"from": "2000-01-01", "to": "2999-12-31"}
    spring = {"name": "Spring", "game": "spot", **period, "entry_fee": 50, "booby": 5,
              "best_of": 1, "min_nights": 1, "prizes": [70, 30]}  # fmt: skip
    season = table.ok("POST", f"/groups/{table.slug}/seasons", spring, 201)["id"]
    table.ok("POST", f"/groups/{table.slug}/seasons/{season}/close", {"settle": "tab"})
    group = table.get(f"/groups/{table.slug}")
    finn = next(p["id"] for p in group["players"] if p["name"] == "Finn")
    opened = {"open-group": table.slug, "open-passphrase": PASSPHRASE}
    assert table.client.post("/open", data=opened).status_code == 302  # renamed on its page
    renamed = table.client.post(f"/g/{table.slug}/players/{finn}", data={"rename-name": "Fionn"})
    assert renamed.status_code in (302, 303), renamed.get_data(as_text=True)[:500]
    return ids


def kaluki_entry(out: str, totals: dict[str, int]) -> dict[str, Any]:
    """A Kaluki hand entered as totals: who went out, each other player's penalty."""
    results = [{"player": p, "spots": n} for p, n in totals.items() if p != out]
    return {"out": out, "results": results}


EIGHT = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus", "Hal"]


def skat_deal(table: Table, session: int, declarer: str, won: bool) -> None:
    """A Skat deal (RULES.md §18): clubs with one, declared by ``declarer``, won or lost."""
    deal = {"bid": 18, "game": "clubs", "matadors": 1, "tricks": "some", "declarer": declarer}
    table.ok("POST", f"/sessions/{session}/hands", {**deal, "card_points": 78 if won else 40}, 201)


def play_club_evenings(table: Table) -> dict[str, int]:
    """Club evenings (RULES.md §19): a Preisskat of eight over two rounds of two tables, closed
    and settled now, a payment of its settle-up ticked, then Hal renamed Hank; a second Skat
    evening mid-round (one table finished, the other at its first deal); a Skat evening of
    three closed onto the tab. Answers the evenings' ids by name."""
    at = f"/groups/{table.slug}/evenings"
    money = {"entry_fee": 1000, "prizes": [50, 30, 20], "lost_game_fee": 50}
    ids = {}
    for name, players, more in (
        ("Preisskat", EIGHT, money),
        ("Open drive", EIGHT, {"entry_fee": 500}),
        ("Small one", EIGHT[:3], {"entry_fee": 200, "prizes": [100], "rounds": 1}),
    ):
        body = {"name": name, "game": "skat", "rounds": 2, **more}
        evening = ids[name] = table.ok("POST", at, body, 201)["id"]
        for player in players:
            table.ok("POST", f"{at}/{evening}/players", {"player": player}, 201)
    for number in (1, 2):
        drawn = table.ok("POST", f"{at}/{ids['Preisskat']}/rounds", {}, 201)["tables"]
        for t in drawn:  # seat 1 deals and sits out at four: seats 2 and 3 declare
            skat_deal(table, t["session"], t["players"][1], won=True)
            skat_deal(table, t["session"], t["players"][2], won=number == 1)
            table.ok("POST", f"/sessions/{t['session']}/finish", {})
    table.ok("POST", f"{at}/{ids['Preisskat']}/close", {"settle": "now"})
    drawn = table.ok("POST", f"{at}/{ids['Open drive']}/rounds", {}, 201)["tables"]
    skat_deal(table, drawn[0]["session"], drawn[0]["players"][1], won=False)
    table.ok("POST", f"/sessions/{drawn[0]['session']}/finish", {})
    skat_deal(table, drawn[1]["session"], drawn[1]["players"][2], won=True)
    small = table.ok("POST", f"{at}/{ids['Small one']}/rounds", {}, 201)["tables"][0]
    skat_deal(table, small["session"], small["players"][0], won=True)
    table.ok("POST", f"/sessions/{small['session']}/finish", {})
    table.ok("POST", f"{at}/{ids['Small one']}/close", {"settle": "tab"})
    group = table.get(f"/groups/{table.slug}")
    hal = next(p["id"] for p in group["players"] if p["name"] == "Hal")
    opened = {"open-group": table.slug, "open-passphrase": PASSPHRASE}
    assert table.client.post("/open", data=opened).status_code == 302  # renamed on its page
    # The Preisskat's settle-up: its first payment ticked on the evening's page.
    paying = table.get(f"{at}/{ids['Preisskat']}")["settlement"]["transfers"][0]
    tick = {"from": paying["from"], "to": paying["to"], "paid": "yes"}
    page = f"/g/{table.slug}/evenings/{ids['Preisskat']}"
    assert table.client.post(page, data=tick).status_code == 303
    renamed = table.client.post(f"/g/{table.slug}/players/{hal}", data={"rename-name": "Hank"})
    assert renamed.status_code in (302, 303), renamed.get_data(as_text=True)[:500]
    return ids
