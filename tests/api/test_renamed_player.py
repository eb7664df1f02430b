"""A player renamed in the middle of a night, in every game: every figure stays theirs.

Two groups play the same nights of every game in ledger/rules/registry.py, each game's own
sample night (``Game.sample_night``: a new game needs nothing here); in one, Bob is renamed
Bert on the group's page half-way through, and the night carries on under the new name (more
hands, a buy-in, a call, a correction that replays the hands before the rename, a finish).
Every answer the API gives about the renamed group is the other group's with "Bob" read as
"Bert", and the renamed group's backup restores and answers the same again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from ledger.rules.registry import GAMES
from ledger.rules.samples import SampleNight, Step
from tests.export.history import PASSPHRASE, Table

# The new name sorts where the old one did: where amounts tie, who pays whom goes by name.
OLD, NEW = "Bob", "Bert"

# What differs between two groups playing the same nights: their ids, slugs and clocks, and
# the version a rename moves on.
UNCOMPARED = {"id", "group", "slug", "session", "carried_from", "carried_into", "version", "at"}
UNCOMPARED |= {"created_at", "updated_at", "started_at", "finished_at"}


def _play(table: Table, sid: int, steps: Sequence[Step]) -> None:
    """What a sample night's steps do, through the API (ledger/rules/samples.py)."""
    for step in steps:
        body = dict(step.body)
        if step.kind == "hand":
            refused = table.call("POST", f"/sessions/{sid}/hands", body)
            assert refused.status_code == 201, (
                f"Its sample night's hand {body} is refused: {refused.get_data(as_text=True)}. "
                "A game whose hands need more than its entry's fields says its own sample "
                "night (Game.sample_night; docs/layout.md, Adding a game)."
            )
        elif step.kind == "correct":
            table.ok("PUT", f"/sessions/{sid}/hands/{step.number}", body)
        elif step.kind == "call":
            table.ok("PUT", f"/sessions/{sid}/{step.name}", body)
        elif step.kind == "buy_in":
            table.ok("POST", f"/sessions/{sid}/buy_in", body, 200)
        elif step.kind == "join":
            table.ok("POST", f"/sessions/{sid}/players", body, 201)
        else:
            raise AssertionError(f"A sample night's step this test does not know: {step.kind}.")


def _night(key: str, *names: str) -> SampleNight:
    """The game's own sample night (``Game.sample_night``), with these players."""
    return GAMES[key].sample_night(names)


def _start(table: Table, key: str, night: SampleNight) -> int:
    return table.new_session(key, list(night.players), night.dealer, **night.options)


def _first_hand(steps: Sequence[Step]) -> list[Step]:
    return [next(s for s in steps if s.kind == "hand")]


# The pot carried between nights (RULES.md §2), in the first game whose pot is carried on.
CARRIER = next(key for key, game in GAMES.items() if "carry" in game.pot_choices())


def before_the_rename(table: Table, bob: str) -> dict[str, int]:
    """Every game's sample night up to its half-way mark, Bob in each of them: his name in
    every field a game keeps (scores, the pot's antes, a game's own parts, buy-ins, calls).
    First a pot: a night over, its pot carried (Bob's antes in it) into a night Bob does not
    sit in, and a night whose pot is given back."""
    ids: dict[str, int] = {}
    night = _night(CARRIER, "Ann", bob, "Cas")
    ids["pot carried"] = sid = _start(table, CARRIER, night)
    _play(table, sid, _first_hand(night.before))
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry", "pot_keeper": "Ann"})
    ids["pot carried in"] = _start(table, CARRIER, _night(CARRIER, "Ann", "Cas"))
    night = _night(CARRIER, "Ann", bob)
    ids["pot refunded"] = sid = _start(table, CARRIER, night)
    _play(table, sid, _first_hand(night.before))
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})  # Bob's antes back
    for key in GAMES:
        night = _night(key, "Ann", bob, "Cas", "Dan")
        ids[key] = sid = _start(table, key, night)
        _play(table, sid, night.before)
    return ids


def after_the_rename(table: Table, ids: dict[str, int], bob: str) -> None:
    """Every night carries on under Bob's name as it is now: the rest of its sample night (a
    correction that replays the hands before, a buy-in, a call waiting), and its end."""
    night = _night(CARRIER, "Ann", "Cas")
    sid = ids["pot carried in"]
    _play(table, sid, _first_hand(night.after))
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})  # Bob's antes back
    for key in GAMES:
        night = _night(key, "Ann", bob, "Cas", "Dan")
        _play(table, ids[key], night.after)
        if night.finish is not None:
            table.ok("POST", f"/sessions/{ids[key]}/finish", dict(night.finish))


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
