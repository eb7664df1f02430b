"""Parts of a kept scoreboard drawn once (``{% kept %}``, ledger/web/fragments.py) and the
page's frame kept whole around what a new hand changes never show anything but what drawing
the whole page would: walked through a night, the page built with kept parts and frames is the
page built without them, letter for letter."""

from __future__ import annotations

import pytest

from ledger import services
from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html, table_of_four

# A hand of Rummy: Enda goes out, the others count their cards.
RUMMY_HAND = {"Enda": "", "John": "K Q", "Rex": "2 3", "Finn": "A"}


def page_both_ways(app, browser, path: str, **kwargs) -> str:
    """The page drawn with kept parts and frames (the first time, and again with them kept),
    and drawn whole with none kept: all three the same. The first drawing takes the frame
    the page's last version left, if nothing the frame shows has changed since."""
    from ledger.web.pagecache import scoreboards

    with app.app_context():
        pages = scoreboards()
    browser.get(path, **kwargs)  # any message waiting for this phone is shown, then gone
    kept_frames = app.extensions.get("ledger_kept_frames")
    frames_before = len(kept_frames._pages) if kept_frames is not None else 0
    drawn = []
    for keep_parts in (True, True, False):
        app.config["TEMPLATES_AUTO_RELOAD"] = not keep_parts
        pages._pages.clear()  # built anew, not served as kept
        response = browser.get(path, **kwargs)
        assert response.status_code == 200
        drawn.append(html(response))
    app.config["TEMPLATES_AUTO_RELOAD"] = None
    assert drawn[0] == drawn[1] == drawn[2]
    assert app.extensions["ledger_kept_parts"]._pages, "no part was kept: nothing was compared"
    if "?" in path:
        # Only the plain address is framed: ?saved=N is a new address after every hand.
        assert len(frames_of(app)) == frames_before, "a frame was kept for a query string"
    else:
        assert any(key[2][1][0] == path for key in frames_of(app)), "no frame was kept"
    return drawn[0]


def frames_of(app) -> dict:
    return app.extensions["ledger_kept_frames"]._pages


@pytest.fixture
def phone(client) -> Phone:
    return table_of_four(client)


def test_a_spot_night_shows_the_same_with_kept_parts_at_every_step(app, phone):
    phone.start()
    board = phone.board
    first = page_both_ways(app, phone.client, board)
    assert "Delete this session" in first  # no hands yet
    phone.enter(HAND_1)
    assert "Delete this session" not in page_both_ways(app, phone.client, board)
    phone.client.post(f"{board}/join", data={"join-name": "Aoife", "after": "Rex"})
    joined = page_both_ways(app, phone.client, board)
    assert 'value="Aoife"' in joined  # she can now be chosen to leave
    phone.client.post(f"{board}/leave", data={"name": "John"})
    left = page_both_ways(app, phone.client, board)
    assert '<option value="John">' not in left
    phone.seats = ["Enda", "Rex", "Aoife", "Finn"]
    phone.enter(HAND_2 | {"Aoife": "4"}, out="Enda")
    page_both_ways(app, phone.client, f"{board}?saved=2")
    page_both_ways(app, phone.client, board, headers={"Accept-Language": "nl"})
    page_both_ways(app, phone.client, board, base_url="http://localhost/ledger")
    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        services.finish_session(group, phone.session_id, leftover_pot="refund")
    finished = page_both_ways(app, phone.client, board)
    assert "Joining or leaving" not in finished


def test_a_renamed_player_is_renamed_in_the_kept_seating_forms(app, phone):
    phone.start()
    page_both_ways(app, phone.client, phone.board)
    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        rex = next(p for p in services.group_view(group).players if p.name == "Rex")
        services.rename_player(group, rex.id, "Rexie")
    page = page_both_ways(app, phone.client, phone.board)
    assert '<option value="Rexie">' in page and '<option value="Rex">' not in page


def test_two_sessions_and_two_games_keep_their_own_parts(app, phone):
    phone.start()
    spot = phone.board
    phone.start("rummy", dealer="Enda")
    phone.enter(RUMMY_HAND, out="Enda")
    rummy = page_both_ways(app, phone.client, phone.board)
    assert f"#{phone.session_id}" in rummy
    spot_page = page_both_ways(app, phone.client, spot)
    assert f"/s/{phone.session_id}/" not in spot_page


def test_what_a_version_shows_is_drawn_once_for_all_its_addresses(app, phone):
    """The status, scores, last hands and chart of a version are kept under the version: the
    phone that entered the hand lands on ``?saved=N``, the others read the plain page, and the
    second build takes the part the first drew. A new version draws it anew."""
    phone.start()
    phone.enter(HAND_1)
    board = phone.board
    phone.client.get(f"{board}?saved=1")  # where the hand form lands: its message shown, then gone
    saved = html(phone.client.get(f"{board}?saved=1"))
    version = int(saved.split('data-version="')[1].split('"')[0])
    parts = app.extensions["ledger_kept_parts"]._pages
    live = [
        k
        for k in parts
        if k[3] == (phone.slug, phone.session_id, version) and "Balances" in parts[k]
    ]
    assert len(live) == 1
    # Marked, the kept part shows wherever the version is drawn from it: the plain page, a
    # build of its own (another address than the one that drew the part).
    parts[live[0]] = parts[live[0]].replace(">Balances<", ">Balances (kept)<")
    assert ">Balances (kept)<" in html(phone.client.get(board))
    # The next hand is a new version, drawn anew: its line is there, the mark is not.
    phone.enter(HAND_2, out="Enda")
    phone.client.get(f"{board}?saved=2")
    after = html(phone.client.get(f"{board}?saved=2"))
    assert ">Balances<" in after and "(kept)" not in after and "#2" in after


def test_a_later_value_is_made_once_and_only_when_a_template_asks():
    from markupsafe import Markup, escape

    from ledger.web.fragments import Later

    made: list[int] = []

    def make() -> Markup:
        made.append(1)
        return Markup("<svg></svg>")

    chart = Later(make)
    assert made == []  # a part kept already never asks
    assert chart and str(escape(chart)) == "<svg></svg>" and list(Later(lambda: [1, 2])) == [1, 2]
    assert made == [1]
    assert not Later(lambda: [])


def test_a_new_hand_draws_only_the_slots_of_the_kept_frame(app, phone):
    """After a hand the page is its address's frame, kept, with what the hand changed put in:
    no template is drawn. Marked, the frame shows the mark on the next version's page, with
    that version's number, scores, hands and forms in it (a points game: its form to end the
    game carries the version; the session, no longer empty, cannot be deleted); a change the
    frame shows (a player sits down) draws a new one."""
    phone.start("rummy", dealer="Enda")
    board = phone.board
    phone.client.get(board)  # any message waiting for this phone is shown, then gone
    empty = html(phone.client.get(board))
    assert 'id="delete-session"' in empty and '<span class="num">' not in empty
    frames = frames_of(app)
    (key,) = [k for k in frames if k[2][1][0] == board.removeprefix("http://localhost")]
    frame = frames[key]
    assert frame.slots == ("version", "saved", "board", "ending")
    frames[key] = type(frame)(
        tuple(piece.replace(">More<", ">More (kept)<") for piece in frame.pieces), frame.slots
    )
    phone.enter(RUMMY_HAND, out="Enda")
    phone.client.get(board)
    page = html(phone.client.get(board))
    version = services_version(app, phone)
    assert ">More (kept)<" in page and len(frames_of(app)) == 1
    assert f'data-version="{version}"' in page
    assert f'<input type="hidden" name="version" value="{version}">' in page
    assert '<span class="num">#1</span>' in page
    assert 'id="delete-session"' not in page
    phone.client.post(f"{board}/join", data={"join-name": "Aoife", "after": "Rex"})
    phone.client.get(board)
    seated = html(phone.client.get(board))
    assert "(kept)" not in seated and '<option value="Aoife">' in seated


def services_version(app, phone) -> int:
    with app.app_context():
        group = services.authenticate(phone.slug, PASSPHRASE)
        return services.session_view(group, phone.session_id).version


def test_a_frame_is_cut_at_its_marks_only():
    """A slot is found only by the mark of this process: a value that looks like one (a NUL,
    a name in it) stays text."""
    from ledger.web.fragments import Frame, slot_marks

    marks = slot_marks(["version", "board"])
    version, board = marks["version"], marks["board"]
    drawn = f"<div v={version}>\x00forged:board\x00{board}</div>{version}"
    frame = Frame.cut(drawn)
    assert frame.slots == ("version", "board", "version")
    assert frame.fill({"version": "7", "board": "<ul></ul>"}) == (
        "<div v=7>\x00forged:board\x00<ul></ul></div>7"
    )
    assert Frame.cut("no slots").fill({}) == "no slots"


def test_a_slot_is_escaped_as_the_template_would_show_it():
    """A slot's value that is text, not markup, is escaped in the frame as Jinja escapes it
    in a page drawn whole: the same page either way, never a player's ``<`` written as is."""
    from markupsafe import Markup, escape

    from ledger.web.fragments import Later, Where
    from ledger.web.pagecache import PageCache

    where = Where("en", "", PageCache(), PageCache())
    slots = {"name": lambda: "<b>Rex</b>", "board": lambda: Markup("<ul></ul>"), "n": lambda: 3}

    def render(values) -> str:
        return f"<p>{escape(values['name'])}</p>{escape(values['board'])}{escape(values['n'])}"

    whole = render({name: Later(make) for name, make in slots.items()})
    assert whole == "<p>&lt;b&gt;Rex&lt;/b&gt;</p><ul></ul>3"
    assert where.framed("page", render, slots) == whole  # the frame's first drawing
    assert where.framed("page", render, slots) == whole  # and from the kept frame
