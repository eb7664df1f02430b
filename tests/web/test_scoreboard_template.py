"""The scoreboard is a plain template: a line added to it (or to base.html) shows what is true
now, after every new hand and at every address, and one group's page never shows another's.

Each test puts edited copies of templates/sessions/show.html and templates/base.html in front
of the app's own, as a maintainer's edit would be, and looks with several phones (the first
look at a version builds the page, the next ones are served what it kept).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html

# Added to the scoreboard's template, inside its content, outside anything else.
BOARD_LINE = (
    '<p id="probe-board">hands {{ session.hands_played }} · pot {{ session.pot }} · '
    "{{ group.name }} · {{ request.path }}</p>"
)
# Added to the header of every page.
HEADER_LINE = (
    '<p id="probe-header">{{ group.name if group is defined else "" }} · {{ request.path }}</p>'
)


def edited_templates(app, folder: Path) -> None:
    """Copies of show.html and base.html with the probe lines, in front of the app's own."""
    own = app.jinja_loader
    (searchpath,) = [Path(p) for p in own.searchpath]
    show = (searchpath / "sessions" / "show.html").read_text(encoding="utf-8")
    base = (searchpath / "base.html").read_text(encoding="utf-8")
    show = show.replace('<div id="scoreboard"', BOARD_LINE + '\n<div id="scoreboard"', 1)
    assert BOARD_LINE in show
    base = base.replace(
        '<header class="site-header">', '<header class="site-header">\n' + HEADER_LINE, 1
    )
    assert HEADER_LINE in base
    (folder / "sessions").mkdir(parents=True)
    (folder / "sessions" / "show.html").write_text(show, encoding="utf-8")
    (folder / "base.html").write_text(base, encoding="utf-8")
    app.jinja_env.loader = ChoiceLoader([FileSystemLoader(str(folder)), own])


def probe(page: str, which: str) -> str:
    found = re.search(rf'<p id="probe-{which}">(.*?)</p>', page)
    assert found, f"no {which} line on the page"
    return found.group(1)


def signed_in(app, phone: Phone) -> Phone:
    other = app.test_client()
    response = other.post("/open", data={"open-group": phone.slug, "open-passphrase": PASSPHRASE})
    assert response.status_code == 302
    return Phone(other, phone.slug, phone.session_id, phone.seats)


@pytest.fixture
def edited(app, tmp_path):
    edited_templates(app, tmp_path / "templates")
    return app


def test_a_line_added_to_the_scoreboard_follows_every_new_hand_at_every_address(edited, client):
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    phone.start()
    others = [signed_in(edited, phone) for _ in range(2)]
    # Antes: 4 players × 2 units. Hand 1 leaves 20 in the pot, hand 2 (Enda out) more.
    for number, (cards, out) in enumerate([(HAND_1, None), (HAND_2, "Enda")], start=1):
        assert phone.enter(cards, out=out).status_code == 302
        addresses = [phone.board, f"{phone.board}?saved={number}"]
        pots = set()
        for address in addresses:
            for looker in [phone, *others, *others]:
                page = html(looker.client.get(address))
                board = probe(page, "board")
                assert board.startswith(f"hands {number} · pot ")
                assert board.endswith(f" · Thursday crowd · {phone.board}")
                assert probe(page, "header") == f"Thursday crowd · {phone.board}"
                pots.add(board)
        assert len(pots) == 1  # every phone, every address: the same, current pot


def test_a_page_of_one_group_never_shows_another_groups_words(edited, app):
    tables = []
    for name in ("Thursday crowd", "Friday crowd"):
        phone = Phone(app.test_client())
        phone.create_group(name=name)
        phone.add_players("Enda", "John", "Rex", "Finn")
        phone.start()
        tables.append((name, phone, signed_in(app, phone)))
    for cards, out in [(None, None), (HAND_1, None), (HAND_2, "Enda")]:
        for name, phone, other in tables:
            if cards is not None:
                assert phone.enter(cards, out=out).status_code == 302
            for looker in (phone, other, phone, other):
                for address in (phone.board, f"{phone.board}?saved=1", f"/g/{phone.slug}"):
                    page = html(looker.client.get(address))
                    strangers = [t for t in tables if t[0] != name]
                    for stranger_name, stranger, _ in strangers:
                        assert stranger_name not in page, address
                        assert stranger.slug not in page, address
                    assert probe(page, "header") == f"{name} · {address.split('?')[0]}"


def test_a_deleted_sessions_page_is_never_shown_for_the_next_one(client):
    """A session started by mistake, looked at, deleted and started again with the right
    players: the new night has an address of its own, and its page shows its own table."""
    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John", "Rex", "Finn")
    wrong = phone.start(players=("Enda", "John"), dealer="John")
    for _look in range(3):  # looked at from a phone or two: the page is kept
        assert client.get(wrong).status_code == 200
    delete = client.post(f"{wrong}/delete", data={})
    assert delete.status_code == 302
    right = phone.start(players=("Enda", "John", "Rex", "Finn"), dealer="Finn")
    assert right != wrong
    assert client.get(wrong).status_code == 404
    page = html(client.get(right))
    seated = re.findall(
        r'<li class="score[^"]*" id="score-\d+">\s*<span class="who">.*?>([^<]+)</a>', page, re.S
    )
    assert seated == ["Enda", "John", "Rex", "Finn"]


def test_a_template_read_again_when_it_changes_is_drawn_on_every_look(app, client, monkeypatch):
    """Under flask --debug templates are read again when they change: the scoreboard is then
    drawn on every look, so the edit shows at once, not at the next hand."""
    from ledger.web.nights import scoreboard as sessions

    phone = Phone(client)
    phone.create_group()
    phone.add_players("Enda", "John")
    board = phone.start(players=("Enda", "John"), dealer="John")
    client.get(board)  # the first look shows "started" once, drawn for this phone alone
    builds = []
    real = sessions._scoreboard

    def counted(*args):
        builds.append(args)
        return real(*args)

    monkeypatch.setattr(sessions, "_scoreboard", counted)
    for _look in range(3):
        client.get(board)
    assert len(builds) == 1  # kept after the first
    monkeypatch.setattr(app.jinja_env, "auto_reload", True)
    for _look in range(3):
        client.get(board)
    assert len(builds) == 4
