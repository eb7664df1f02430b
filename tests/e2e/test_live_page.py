"""Issue 36: a phone that follows the table shows what a reload would show, from the same
template. A line added to the scoreboard's template (here: a test's copy of
templates/sessions/show.html with one line more) follows a hand entered on another phone,
without a reload, and what this phone holds (a form opened, a name typed, the focus) stays."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.live.api import new_group, new_spot_session

PLAYERS = ["Enda", "John", "Rex", "Finn"]
PASSPHRASE = "pints of plain"
# The scoreboard asks for the session's version every 3 s, then for the page.
FOLLOW_TIMEOUT = 10_000
# The line the test adds, right under the scoreboard's heading: outside every part of the
# page the live update used to swap, so only following the whole page can show it.
ADDED_LINE = (
    '<p id="added-line">Added line: {{ session.hands_played }} played,'
    " {{ session.dealer }} deals next.</p>"
)


@pytest.fixture
def live_server(tmp_path, monkeypatch, empty_database) -> Iterator[str]:
    """The app in this process, served on a free port, with the scoreboard's template as the
    repository has it plus ``ADDED_LINE`` (a template folder of the test's own, looked in
    first). Otherwise as `ledger serve`: form tokens checked, templates not read again, so
    phones are served the kept page of each version (ledger/web/nights/pagecache.py)."""
    from jinja2 import ChoiceLoader, FileSystemLoader
    from werkzeug.serving import make_server

    from ledger import create_app, web_folder
    from tests.conftest import close_connections

    scoreboard = (web_folder("templates") / "sessions" / "show.html").read_text()
    heading = "</h1>\n"
    assert scoreboard.count(heading) == 1, "the scoreboard has one heading to put the line under"
    folder = tmp_path / "templates"
    (folder / "sessions").mkdir(parents=True)
    (folder / "sessions" / "show.html").write_text(
        scoreboard.replace(heading, f"{heading}  {ADDED_LINE}\n")
    )

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    app = create_app({"SECRET_KEY": "live-page", "LEDGER_GROUP_LIMIT": 0} | empty_database.config)
    app.jinja_loader = ChoiceLoader([FileSystemLoader(str(folder)), app.jinja_loader])
    empty_database.create_tables(app)
    assert not app.jinja_env.auto_reload
    server = make_server("127.0.0.1", 0, app, threaded=True)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        serving.join(10)
        close_connections(app)


def test_a_line_added_to_the_scoreboards_template_follows_a_hand_on_another_phone(
    new_phone, live_server
):
    api = new_group(live_server, passphrase=PASSPHRASE)
    new_spot_session(api, PLAYERS, dealer="Finn")
    mine, theirs = new_phone("added-line-mine"), new_phone("added-line-theirs")
    for phone in (mine, theirs):
        phone.sign_in(api.slug or "", PASSPHRASE)
        phone.link(re.compile(r"^Spot #\d+")).tap()
        expect(phone.page.locator("#added-line")).to_have_text(
            "Added line: 0 played, Finn deals next."
        )
    theirs.page.evaluate("window.notReloaded = true")
    # Their phone holds things a reload would lose: a form opened, a name typed and not yet
    # sent, the focus in its box, the page scrolled down to it.
    theirs.page.get_by_text("Someone sits down").tap()
    name = theirs.page.get_by_label("Name", exact=True)
    name.fill("Sadhbh")
    expect(name).to_be_focused()
    assert theirs.page.evaluate("window.scrollY") > 0, "the form is below the first screen"
    where = name.bounding_box()
    theirs.shot("before")

    mine.enter_hand(1, {"Enda": "J-10", "John": "A-3", "Rex": "2-9", "Finn": "Q-K"})
    expect(mine.page.locator("#added-line")).to_have_text("Added line: 1 played, Rex deals next.")

    # Their phone never reloads, and shows what the reload of mine shows, the line included.
    theirs.next_look()
    expect(theirs.page.locator("#added-line")).to_have_text(
        "Added line: 1 played, Rex deals next.", timeout=FOLLOW_TIMEOUT
    )
    theirs.expect_scores({"Enda": -25, "John": 46, "Rex": -16, "Finn": -25})
    expect(theirs.region("Last hands").get_by_role("link")).to_have_count(1)
    assert theirs.page.evaluate("window.notReloaded === true"), "the page was reloaded"
    expect(name).to_have_value("Sadhbh")
    expect(name).to_be_focused()
    expect(theirs.page.locator("#seats-heading ~ details").first).to_have_attribute("open", "")
    # New lines came in above it (the hand, its chart): the box stays where the eye is.
    moved = name.bounding_box()
    assert where and moved and abs(moved["y"] - where["y"]) < 5, (where, moved)
    theirs.shot("followed")
