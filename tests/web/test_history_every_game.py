"""Every game's history in words (issue 49): each game of the registry plays its sample night
(``Game.sample_night``, ledger/rules/samples.py) and its history page has no line with nothing
said, such as "Hand 1 entered: ." where a game's entry is not one result per player; a game
whose entry is its own says it with ``Game.entry_phrases``, and a player's name typed in
another case in a correction is the same player. A new game needs nothing here."""

from __future__ import annotations

import html as markup
import re

import pytest

from ledger.rules.registry import GAMES
from tests.api.test_renamed_player import _play
from tests.export.history import PASSPHRASE, Table

# A phrase with nothing in it: a colon or arrow before the stop, an empty part of a list.
EMPTY = re.compile(r"(:\s*[.;]|:\s*$|→\s*[.;]|[.;,]\s*→|,\s*,|:\s*,|\(\s*\)|\[\s*\]|\{\s*\})")


def history_lines(table: Table, sid: int) -> list[str]:
    page = table.client.get(f"/g/{table.slug}/s/{sid}/history").get_data(as_text=True)
    items = re.findall(r"<li>.*?<span>(.*?)</span></li>", page, flags=re.S)
    return [" ".join(markup.unescape(re.sub(r"<[^>]*>", " ", i)).split()) for i in items]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_no_history_line_says_nothing(client, key):
    table = Table.new_group(client)
    opened = client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    assert opened.status_code == 302
    night = GAMES[key].sample_night(("Ann", "Bob", "Cas", "Dan"))
    sid = table.new_session(key, list(night.players), night.dealer, **night.options)
    _play(table, sid, night.before)
    _play(table, sid, night.after)
    if night.finish is not None:
        table.ok("POST", f"/sessions/{sid}/finish", dict(night.finish))
    lines = history_lines(table, sid)
    # Each entry says who entered it (RULES.md §20); no phone here is anyone's: "A phone".
    assert any(re.match(r"A phone entered hand \d+: ", line) for line in lines), lines
    for line in lines:
        assert not EMPTY.search(line), f"{key}: {line!r}"
        # The sample's correction types Bob as "bob" (samples.py): still Bob, and unchanged.
        assert "bob" not in line, f"{key}: {line!r}"
        assert not line.endswith((": .", ":", ": ")), f"{key}: {line!r}"
