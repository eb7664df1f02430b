"""A player renamed in the middle of a night, in every game: every figure stays theirs.

Two groups play the same nights of every game in ledger/rules/registry.py; in one, Bob is
renamed Robert on the group's page half-way through, and the night carries on under the new
name (more hands, a buy-in, a correction that replays the hands before the rename, a finish).
Every answer the API gives about the renamed group is the other group's with "Bob" read as
"Robert", and the renamed group's backup restores and answers the same again.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from ledger.rules.registry import GAMES
from tests.export.history import PASSPHRASE, Table

OLD, NEW = "Bob", "Robert"

# What differs between two groups playing the same nights: their ids, slugs and clocks, and
# the version a rename moves on.
UNCOMPARED = {"id", "group", "slug", "session", "version", "at"}
UNCOMPARED |= {"created_at", "updated_at", "started_at", "finished_at"}


def _hand(table: Table, sid: int, entry: dict[str, Any]) -> None:
    table.ok("POST", f"/sessions/{sid}/hands", entry, 201)


def _results(**given: Any) -> list[dict[str, Any]]:
    """{"Ann": "2C"} as results: text is cards, an int spots, a dict the result's fields."""
    listed = []
    for player, value in given.items():
        if isinstance(value, dict):
            listed.append({"player": player, **value})
        elif isinstance(value, int):
            listed.append({"player": player, "spots": value})
        else:
            listed.append({"player": player, "cards": value})
    return listed


def before_the_rename(table: Table, bob: str) -> dict[str, int]:
    """The first hands of every game, Bob in each of them: his name in every field a game
    keeps (scores, the pot's antes, Gin's boxes, Kaluki's totals, eliminations and buy-ins)."""
    ids: dict[str, int] = {}
    ids["spot"] = sid = table.new_session("spot", ["Ann", bob, "Cas"], "Cas")
    _hand(table, sid, {"results": _results(Ann="J 10", **{bob: "A 3"}, Cas="2 9")})
    table.ok("POST", f"/sessions/{sid}/players", {"name": "Dan", "after": bob}, 201)
    ids["spots"] = sid = table.new_session("spots", ["Ann", bob, "Cas"], "Ann")
    _hand(table, sid, {"out": "Ann", "results": _results(**{bob: "K Q"}, Cas="2 3")})
    ids["rummy"] = sid = table.new_session("rummy", ["Ann", bob, "Cas"], "Cas", target=60)
    _hand(table, sid, {"out": bob, "results": _results(Ann="K Q", Cas="9")})
    ids["spin"] = sid = table.new_session("spin", ["Ann", bob], "Ann")
    melds = {"melds": ["3S 3H 3D", "7C 8C 9C"]}
    _hand(table, sid, {"results": _results(Ann={"melds": ["4S 5S 6S"]}, **{bob: melds})})
    ids["gin"] = sid = table.new_session("gin", ["Ann", bob], bob, target=50, stake=1)
    _hand(table, sid, {"ending": "knock", "out": "Ann", "results": _results(Ann="2C", **{bob: "KS QS"})})  # fmt: skip
    _hand(table, sid, {"ending": "gin", "out": bob, "results": _results(Ann="9H 9D")})
    ids["rummy500"] = sid = table.new_session("rummy500", ["Ann", bob], bob, stake=1)
    bob_melds = {"melded": "AH 2H 3H", "low_aces": 1, "cards": "5D"}
    _hand(table, sid, {"out": "Ann", "results": _results(Ann={"melded_points": 30}, **{bob: bob_melds})})  # fmt: skip
    ids["kaluki"] = sid = table.new_session("kaluki", ["Ann", bob, "Cas"], "Cas", entry="totals")
    _hand(table, sid, {"out": "Ann", "results": _results(**{bob: 160}, Cas=20)})
    table.ok("POST", f"/sessions/{sid}/buy_in", {"player": bob}, 200)
    _hand(table, sid, {"out": "Ann", "results": _results(**{bob: 170}, Cas=20)})  # out again
    ids["jokeren"] = sid = table.new_session("jokeren", ["Ann", bob], bob, stake=1)
    _hand(table, sid, {"out": "Ann", "results": _results(**{bob: "JK 2C"})})
    ids["tally"] = sid = table.new_session("tally", ["Ann", bob, "Cas"], "Cas", name="Whist")
    points = {"Ann": {"points": -4}, bob: {"points": 9}, "Cas": {"sitting_out": True}}
    _hand(table, sid, {"results": _results(**points)})
    assert set(ids) == set(GAMES), "every game the app offers is played here"
    return ids


def after_the_rename(table: Table, ids: dict[str, int], bob: str) -> None:
    """The nights carry on under Bob's name as it is now: more hands, a correction that
    replays the hands before, Kaluki's buy-in, each game's end."""
    sid = ids["spot"]
    _hand(table, sid, {"out": bob, "results": _results(Ann="4", Dan="5", Cas="7 7")})
    fixed = {"results": _results(Ann="J 10", **{bob: "A 2"}, Cas="2 9")}
    table.ok("PUT", f"/sessions/{sid}/hands/1", fixed)
    _hand(table, sid, {"results": _results(Ann="9", **{bob: "3"}, Dan="2", Cas="K")})
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    _hand(table, ids["spots"], {"out": bob, "results": _results(Ann="5", Cas="2 3")})
    _hand(table, ids["rummy"], {"out": "Cas", "results": _results(Ann="K", **{bob: "Q J"})})
    _hand(table, ids["spin"], {"results": _results(Ann={"melds": []}, **{bob: {"melds": ["5H 5D 5C"]}})})  # fmt: skip
    _hand(table, ids["gin"], {"ending": "gin", "out": bob, "results": _results(Ann="KH KD KC 5H")})
    _hand(table, ids["rummy500"], {"out": bob, "results": _results(Ann={"melded_points": 0, "cards": "KD"}, **{bob: {"melded_points": 40}})})  # fmt: skip
    sid = ids["kaluki"]
    table.ok("POST", f"/sessions/{sid}/buy_in", {"player": bob}, 200)
    _hand(table, sid, {"out": "Cas", "results": _results(Ann=30, **{bob: 10})})
    fixed = {"out": "Ann", "results": _results(**{bob: 165}, Cas=20)}
    table.ok("PUT", f"/sessions/{sid}/hands/1", fixed)
    _hand(table, ids["jokeren"], {"out": bob, "results": _results(Ann="JK 5D")})
    points = {"Ann": {"points": 3}, bob: {"points": -2}, "Cas": {"points": 5}}
    _hand(table, ids["tally"], {"results": _results(**points)})
    for game in ("spots", "rummy", "spin", "rummy500", "kaluki", "jokeren", "tally"):
        table.ok("POST", f"/sessions/{ids[game]}/finish", {})


def answers(table: Table, ids: dict[str, int], bob: str) -> dict[str, Any]:
    """Everything the API says of the group's nights and players, ids and clocks left out."""
    paths = [f"/groups/{table.slug}", f"/groups/{table.slug}/stats"]
    paths += [f"/groups/{table.slug}/players/{bob}", f"/groups/{table.slug}/tab"]
    for sid in ids.values():
        paths += [f"/sessions/{sid}{what}" for what in ("", "/hands", "/settlement", "/payments")]
    return {f"{i}{path[path.rindex('/'):]}": _comparable(table.get(path)) for i, path in enumerate(paths)}


def _comparable(answer: Any) -> Any:
    if isinstance(answer, dict):
        return {k: _comparable(v) for k, v in answer.items() if k not in UNCOMPARED}
    if isinstance(answer, list):
        return [_comparable(v) for v in answer]
    return answer


def _as_renamed(answer: Any) -> Any:
    """An answer with Bob read as Robert, in names, keys and words."""
    return json.loads(re.sub(rf"\b{OLD}\b", NEW, json.dumps(answer)))


def _rename_on_the_page(table: Table, old: str, new: str) -> None:
    """What a player does: open the group's page and give the player another name."""
    client = table.client
    opened = client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    assert opened.status_code == 302
    page = client.get(f"/g/{table.slug}").get_data(as_text=True)
    # The player's rename form: its field is filled in with the name as it is.
    forms = re.findall(r'id="rename-(\d+)" name="rename-name" value="([^"]*)"', page)
    player_id = {name: pid for pid, name in forms}[old]
    renamed = client.post(f"/g/{table.slug}/players/{player_id}", data={"rename-name": new})
    assert renamed.status_code == 302
    assert f"Renamed to {new}." in client.get(f"/g/{table.slug}").get_data(as_text=True)


def test_a_player_renamed_mid_night_keeps_every_figure_in_every_game(app, client):
    kept = Table.new_group(client, "Kept names")
    kept_ids = before_the_rename(kept, OLD)
    after_the_rename(kept, kept_ids, OLD)

    renamed = Table.new_group(client, "Renamed")
    ids = before_the_rename(renamed, OLD)
    _rename_on_the_page(renamed, OLD, NEW)
    after_the_rename(renamed, ids, NEW)

    expected = _as_renamed(answers(kept, kept_ids, OLD))
    got = answers(renamed, ids, NEW)
    for path in expected:
        assert got[path] == expected[path], path

    # The renamed group's backup restores, and the copy answers as the group does.
    with app.app_context():
        data = json.loads(json.dumps(backup_group(renamed.slug)))
        db.session.rollback()
        copy = restore_group(data, slug="the-copy")
    restored = Table(client, copy.slug)
    new_ids = {g: s["id"] for g, s in zip(ids, restored.get(f"/groups/{copy.slug}")["sessions"])}
    assert answers(restored, new_ids, NEW) == got
