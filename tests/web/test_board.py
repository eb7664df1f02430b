"""The part of the scoreboard a new hand changes (ledger/web/board.py), as a player reads it:
the last hands newest first with a link to the rest, the undo of the last one, and names
written as typed wherever the part shows them."""

from __future__ import annotations

import re
from html import unescape

from tests.web.pages import HAND_1, Phone, html


def hands_listed(page: str) -> list[int]:
    found = re.search(r'<ul class="list hands">(.*?)</ul>', page, re.S)
    assert found is not None, page
    return [int(n) for n in re.findall(r'<span class="num">#(\d+)</span>', found.group(1))]


def test_a_long_night_shows_its_last_eight_hands_newest_first_and_links_to_the_rest(client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    for _ in range(10):
        assert phone.enter(HAND_1).status_code == 302
    page = html(client.get(phone.board))
    assert hands_listed(page) == [10, 9, 8, 7, 6, 5, 4, 3]
    more = re.search(r'<p><a href="([^"]+)">All hands \(2 more\)</a></p>', page)
    assert more is not None and more.group(1) == f"{phone.board}/hands"
    assert client.get(more.group(1)).status_code == 200
    # The undo takes back the last hand, and asks first.
    undo = re.search(r'<input type="hidden" name="number" value="(\d+)">\s*<button[^>]*>', page)
    assert undo is not None and undo.group(1) == "10"
    assert 'data-confirm="' in undo.group(0)
    # Each listed hand opens its own page.
    assert f'href="{phone.board}/hands/3"' in page and f'href="{phone.board}/hands/2"' not in page


def test_the_first_hands_of_a_night_need_no_link_to_more(client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    page = html(client.get(phone.board))
    assert '<ul class="list hands">' not in page and 'id="undo"' not in page
    phone.enter(HAND_1)
    page = html(client.get(phone.board))
    assert hands_listed(page) == [1] and "more)" not in page


def test_names_with_markup_characters_are_written_as_typed_in_every_place_of_the_part(client):
    name = 'Ann & "Bo" <b>'
    phone = Phone(client)
    phone.create_group()
    phone.start(players=(name, "John"), dealer=name)
    phone.seats = [name, "John"]
    assert phone.enter({name: "J 10", "John": "A 3"}).status_code == 302
    page = html(client.get(phone.board))
    assert "<b>" not in page
    written = "Ann &amp; &#34;Bo&#34; &lt;b&gt;"
    scores = re.search(r'<ul class="scores".*?</ul>', page, re.S)
    legend = re.search(r'<ul class="legend".*?</ul>', page, re.S)
    assert scores is not None and legend is not None
    assert written in scores.group(0) and written in legend.group(0)
    # The next dealer after hand 1 is John; the name's own link to the player's page.
    assert re.search(r'<strong id="dealer">John</strong>', page)
    link = re.search(r'<a href="([^"]+)">' + re.escape(written) + "</a>", scores.group(0))
    assert link is not None
    assert client.get(unescape(link.group(1))).status_code == 200
