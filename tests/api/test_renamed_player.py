"""A player renamed in the middle of a night, in every game: every figure stays theirs.

Two groups play the same nights of every game in ledger/rules/registry.py; in one, Bob is
renamed Bert on the group's page half-way through, and the night carries on under the new
name (more hands, a buy-in, a correction that replays the hands before the rename, a finish).
Every answer the API gives about the renamed group is the other group's with "Bob" read as
"Bert", and the renamed group's backup restores and answers the same again.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from ledger.rules.registry import GAMES
from tests.export.history import PASSPHRASE, Table

# The new name sorts where the old one did: where amounts tie, who pays whom goes by name.
OLD, NEW = "Bob", "Bert"

# What differs between two groups playing the same nights: their ids, slugs and clocks, and
# the version a rename moves on.
UNCOMPARED = {"id", "group", "slug", "session", "carried_from", "carried_into", "version", "at"}
UNCOMPARED |= {"created_at", "updated_at", "started_at", "finished_at"}


def _hand(table: Table, sid: int, given: dict[str, Any], out: str | None = None, **more: Any):
    """A hand: each player's cards (text), spots (int) or the result's own fields (a dict)."""
    results = []
    for player, value in given.items():
        if isinstance(value, dict):
            results.append({"player": player, **value})
        elif isinstance(value, int):
            results.append({"player": player, "spots": value})
        else:
            results.append({"player": player, "cards": value})
    entry = {"results": results, "out": out, **more}
    return table.ok("POST", f"/sessions/{sid}/hands", entry, 201)["entry"]


def before_the_rename(table: Table, bob: str) -> dict[str, int]:
    """The first hands of every game, Bob in each of them: his name in every field a game
    keeps (scores, the pot's antes, Gin's boxes, Kaluki's totals, eliminations and buy-ins)."""
    ids: dict[str, int] = {}
    # A night over, its pot carried (Bob's antes in it) into a night Bob does not sit in.
    ids["spot, carried"] = sid = table.new_session("spot", ["Ann", bob, "Cas"], "Cas")
    _hand(table, sid, {"Ann": "J 10", bob: "A 3", "Cas": "2 9"})
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "Ann"})
    ids["spot, pot carried in"] = sid = table.new_session("spot", ["Ann", "Cas"], "Ann")
    ids["spot, refunded"] = sid = table.new_session("spot", ["Ann", bob], "Ann")
    _hand(table, sid, {"Ann": "5", bob: "6"})
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})  # Bob's antes back
    ids["spot"] = sid = table.new_session("spot", ["Ann", bob, "Cas"], "Cas")
    _hand(table, sid, {"Ann": "J 10", bob: "A 3", "Cas": "2 9"})  # nobody out: the pot grows
    table.ok("POST", f"/sessions/{sid}/players", {"name": "Dan", "after": bob}, 201)
    ids["spots"] = sid = table.new_session("spots", ["Ann", bob, "Cas"], "Ann")
    _hand(table, sid, {bob: "K Q", "Cas": "2 3"}, out="Ann")
    ids["rummy"] = sid = table.new_session("rummy", ["Ann", bob, "Cas"], "Cas", target=60)
    _hand(table, sid, {"Ann": "K Q", "Cas": "9"}, out=bob)
    ids["spin"] = sid = table.new_session("spin", ["Ann", bob], "Ann")
    _hand(table, sid, {"Ann": {"melds": ["4S 5S 6S"]}, bob: {"melds": ["3S 3H 3D", "7C 8C 9C"]}})
    ids["gin"] = sid = table.new_session("gin", ["Ann", bob], bob, target=50, stake=1)
    _hand(table, sid, {"Ann": "2C", bob: "KS QS"}, out="Ann", ending="knock")
    _hand(table, sid, {"Ann": "9H 9D"}, out=bob, ending="gin")
    ids["rummy500"] = sid = table.new_session("rummy500", ["Ann", bob], bob, stake=1)
    melded = {"melded": "AH 2H 3H", "low_aces": 1, "cards": "5D"}
    _hand(table, sid, {"Ann": {"melded_points": 30}, bob: melded}, out="Ann")
    ids["kaluki"] = sid = table.new_session("kaluki", ["Ann", bob, "Cas"], "Cas", entry="totals")
    _hand(table, sid, {bob: 160, "Cas": 20}, out="Ann")
    table.ok("POST", f"/sessions/{sid}/buy_in", {"player": bob}, 200)
    _hand(table, sid, {bob: 170, "Cas": 20}, out="Ann")  # out again: may buy in after it
    ids["jokeren"] = sid = table.new_session("jokeren", ["Ann", bob], bob, stake=1)
    _hand(table, sid, {bob: "JK 2C"}, out="Ann")
    ids["tally"] = sid = table.new_session("tally", ["Ann", bob, "Cas"], "Cas", name="Whist")
    _hand(table, sid, {"Ann": {"points": -4}, bob: {"points": 9}, "Cas": {"sitting_out": True}})
    table.ok("POST", f"/sessions/{sid}/finish", {})  # over before the rename: Bob won it
    # Boerenbridge: Bob's bid kept in the state, saved before a round and waiting over the
    # rename; Klaverjassen: Bob in a team, its players on the wij/zij sheet.
    ids["boerenbridge"] = sid = table.new_session("boerenbridge", ["Ann", bob, "Cas"], "Ann")
    table.ok("PUT", f"/sessions/{sid}/bids", {"bids": {bob: 1, "Cas": 0, "Ann": 0}})
    _hand(table, sid, {"Ann": {"tricks": 0}, bob: {"tricks": 1}, "Cas": {"tricks": 0}})
    table.ok("PUT", f"/sessions/{sid}/bids", {"bids": {"Cas": 1, "Ann": 0, bob: 0}})
    ids["klaverjassen"] = sid = table.new_session("klaverjassen", ["Ann", bob, "Cas", "Dan"], "Dan")
    body = {"playing": 2, "teams": [{"team": 2, "points": 100, "roem": 20}]}
    table.ok("POST", f"/sessions/{sid}/hands", body, 201)
    # Cribbage: Bob wins a game to 61 (his name in the night's games) and a game goes on.
    ids["cribbage"] = sid = table.new_session("cribbage", ["Ann", bob], "Ann", target=61, stake=1)
    crib = {"starter": "5H", "crib": "2D 3D KS QC"}
    shows = [{"player": bob, "show": "5S 5D JH 10C", "pegged": 40}]
    shows += [{"player": "Ann", "show": "4C 6C 7C 8C", "pegged": 3}]
    table.ok("POST", f"/sessions/{sid}/hands", {**crib, "results": shows}, 201)
    table.ok("POST", f"/sessions/{sid}/hands", {**crib, "results": shows}, 201)
    assert {table.get(f"/sessions/{sid}")["game"] for sid in ids.values()} == set(GAMES)
    return ids


def after_the_rename(table: Table, ids: dict[str, int], bob: str) -> None:
    """The nights carry on under Bob's name as it is now: more hands, a correction that
    replays the hands before, Kaluki's buy-in, each game's end."""
    sid = ids["spot"]  # nobody out again, then the hand corrected: replayed on the last
    _hand(table, sid, {"Ann": "4", bob: "A 9", "Dan": "5", "Cas": "7 7"})
    fixed = {"results": [{"player": bob.lower(), "cards": "A 8"}]}  # typed as it comes
    fixed["results"] += [
        {"player": p, "cards": c} for p, c in {"Ann": "4", "Dan": "5", "Cas": "7"}.items()
    ]
    table.ok("PUT", f"/sessions/{sid}/hands/2", fixed)
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    sid = ids["spot, pot carried in"]
    _hand(table, sid, {"Ann": "4", "Cas": "7 7"})
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})  # Bob's antes back
    _hand(table, ids["spots"], {"Ann": "5", "Cas": "2 3"}, out=bob)
    _hand(table, ids["rummy"], {"Ann": "K", bob: "Q J"}, out="Cas")
    _hand(table, ids["spin"], {"Ann": {"melds": []}, bob: {"melds": ["5H 5D 5C"]}})
    _hand(table, ids["gin"], {"Ann": "KH KD KC 5H"}, out=bob, ending="gin")
    ann = {"melded_points": 0, "cards": "KD"}
    _hand(table, ids["rummy500"], {"Ann": ann, bob: {"melded_points": 40}}, out=bob)
    sid = ids["kaluki"]
    table.ok("POST", f"/sessions/{sid}/buy_in", {"player": bob}, 200)
    _hand(table, sid, {"Ann": 30, bob: 10}, out="Cas")
    fixed = {
        "out": "Ann",
        "results": [{"player": bob, "spots": 175}, {"player": "Cas", "spots": 20}],
    }
    table.ok("PUT", f"/sessions/{sid}/hands/2", fixed)  # replays a buy-in from either side
    _hand(table, ids["jokeren"], {"Ann": "JK 5D"}, out=bob)
    _hand(
        table, ids["boerenbridge"], {"Cas": {"tricks": 1}, "Ann": {"tricks": 0}, bob: {"tricks": 1}}
    )
    body = {"playing": 1, "teams": [{"team": 1, "points": 70, "roem": 20}]}  # nat
    table.ok("POST", f"/sessions/{ids['klaverjassen']}/hands", body, 201)
    shows = [{"player": bob, "show": "5S 5D JH 10C", "pegged": 2}]
    shows += [{"player": "Ann", "show": "4C 6C 7C 8C", "pegged": 3}]
    deal = {"starter": "5H", "crib": "2D 3D KS QC", "results": shows}
    table.ok("PUT", f"/sessions/{ids['cribbage']}/hands/2", deal)  # replays the game won
    for game in ("spots", "rummy", "spin", "rummy500", "kaluki", "jokeren", "boerenbridge"):
        table.ok("POST", f"/sessions/{ids[game]}/finish", {})
    table.ok("POST", f"/sessions/{ids['cribbage']}/finish", {})


def answers(table: Table, ids: dict[str, int], bob: str) -> dict[str, Any]:
    """Everything the API says of the group's nights and players, ids and clocks left out;
    by what was asked, the group and the nights named alike in either group."""
    group = f"/groups/{table.slug}"
    paths = {"group": group, "stats": f"{group}/stats", "tab": f"{group}/tab"}
    paths["player"] = f"{group}/players/{bob}"
    for game, sid in ids.items():
        for what in ("", "/hands", "/settlement", "/payments"):
            paths[f"{game}{what}"] = f"/sessions/{sid}{what}"
    found = {}
    for asked, path in paths.items():
        response = table.call("GET", path)  # a points night has no settlement: 422, said
        found[asked] = [response.status_code, _comparable(response.json)]
    return found


def scoreboards(table: Table, ids: dict[str, int]) -> dict[str, str]:
    """What each night's scoreboard page shows, its words and its chart (tags left out)."""
    client = table.client
    opened = client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    assert opened.status_code == 302
    found = {}
    for game, sid in ids.items():
        page = client.get(f"/g/{table.slug}/s/{sid}").get_data(as_text=True)
        shown = re.sub(
            r"<(script|style)\b.*?</\1>|<(?!/?(svg|polyline|title)\b)[^>]*>", " ", page, flags=re.S
        )
        found[game] = " ".join(shown.split())
    return found


def _comparable(answer: Any) -> Any:
    if isinstance(answer, dict):
        return {k: _comparable(v) for k, v in answer.items() if k not in UNCOMPARED}
    if isinstance(answer, list):
        return [_comparable(v) for v in answer]
    return answer


def _same_but_renamed(got: dict[str, Any], kept: dict[str, Any]) -> None:
    expected = _as_renamed(kept)
    for path in expected:
        assert got[path] == expected[path], (path, _diff(got[path], expected[path]))
    assert got == expected


def _diff(a, b, at=""):
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in set(a) | set(b) for d in _diff(a.get(k), b.get(k), f"{at}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in _diff(x, y, f"{at}[{i}]")
        ]
    return [] if a == b else [(at, a, b)]


def _as_renamed(answer: Any) -> Any:
    """An answer with Bob read as Bert, in names, keys and words."""
    text = re.sub(rf"\b{OLD}\b", NEW, json.dumps(answer))
    return json.loads(re.sub(rf"\b{OLD.lower()}\b", NEW.lower(), text))  # as typed


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
    kept, renamed = Table.new_group(client), Table.new_group(client)
    kept_ids, ids = before_the_rename(kept, OLD), before_the_rename(renamed, OLD)
    _rename_on_the_page(renamed, OLD, NEW)
    _same_but_renamed(answers(renamed, ids, NEW), answers(kept, kept_ids, OLD))
    _same_but_renamed(scoreboards(renamed, ids), scoreboards(kept, kept_ids))

    after_the_rename(kept, kept_ids, OLD)
    after_the_rename(renamed, ids, NEW)
    got = answers(renamed, ids, NEW)
    _same_but_renamed(got, answers(kept, kept_ids, OLD))
    _same_but_renamed(scoreboards(renamed, ids), scoreboards(kept, kept_ids))

    # The renamed group's backup restores, and the copy answers as the group does.
    with app.app_context():
        data = json.loads(json.dumps(backup_group(renamed.slug)))
        db.session.rollback()
        copy = restore_group(data, slug="the-copy")
    restored = Table(client, copy.slug)
    new_ids = {
        g: s["id"]
        for g, s in zip(ids, restored.get(f"/groups/{copy.slug}")["sessions"], strict=True)
    }
    assert answers(restored, new_ids, NEW) == got
