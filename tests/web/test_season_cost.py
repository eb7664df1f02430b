"""What seasons cost (issue 46.2): a season counts toward the group's size, and its table is
built once per change of what it counts (its nights' versions, its options), not again on
every page that shows it: the group page, the seasons page, a player's page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, select

from ledger.extensions import db
from ledger.models import Group
from ledger.services import room
from tests.api.helpers import Table, basic, error
from tests.api.test_seasons import ORDERS, WORKED, spot_night
from tests.web.pages import PASSPHRASE, Phone, html
from tests.web.test_season_pages import text

FULL = "This group is full"


@pytest.fixture
def phone(client) -> Phone:
    phone = Phone(client)
    phone.create_group()
    return phone


@pytest.fixture
def api(phone) -> Table:
    """The JSON API of the phone's group."""
    table = Table.__new__(Table)
    table.client, table.slug = phone.client, phone.slug
    table.headers = basic(phone.slug, PASSPHRASE)
    return table


def night(api: Table, order, game: str = "spot") -> int:
    """A finished night whose players finish in ``order`` (tests/api/test_seasons.py's Spot
    night, or an Any game night of Hearts)."""
    if game == "spot":
        return spot_night(api, order)
    players = list(order)
    sid = api.session(players, dealer=players[-1], game="tally", name="Hearts")["id"]
    api.hand(sid, {"results": [{"player": p, "points": 9 - i} for i, p in enumerate(order)]})
    api.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "refund"})
    return sid


class Builds:
    """How many season tables were built (``rules.league.standings`` called for one)."""

    def __init__(self, monkeypatch) -> None:
        from ledger.services import season_tables

        self.count = 0
        made = season_tables.standings

        def counted(*args, **kwargs):
            self.count += 1
            return made(*args, **kwargs)

        monkeypatch.setattr(season_tables, "standings", counted)

    def since(self) -> int:
        found, self.count = self.count, 0
        return found


def size(app, slug: str) -> int:
    with app.app_context():
        group_id = db.session.scalar(select(Group.id).where(Group.slug == slug))
        return int(db.session.scalar(select(room.size_of(group_id))))


def test_a_season_counts_toward_the_groups_size_and_a_full_group_starts_none(app, phone, api):
    night(api, ORDERS[0])
    before = size(app, phone.slug)
    first = {**WORKED, "request_id": "first"}
    made = api.ok("POST", f"/groups/{phone.slug}/seasons", first, 201)
    assert size(app, phone.slug) == before + room.SEASON_HANDS
    # Room for one more season but not two.
    app.config["LEDGER_GROUP_HANDS"] = before + 2 * room.SEASON_HANDS + room.SEASON_HANDS - 1
    api.ok("POST", f"/groups/{phone.slug}/seasons", {**WORKED, "name": "Spring"}, 201)
    refused = api.client.post(
        f"/api/v1/groups/{phone.slug}/seasons",
        json={**WORKED, "name": "Summer"},
        headers=api.headers,
    )
    assert FULL in error(refused, 409)
    seasons = api.ok("GET", f"/groups/{phone.slug}/seasons")["seasons"]
    assert [s["name"] for s in seasons] == ["Spring", "Winter"]
    # A double tap on the first one still answers the season it made, full or not.
    again = api.ok("POST", f"/groups/{phone.slug}/seasons", first, 200)
    assert again["id"] == made["id"]
    # The page's form says so beside the form, and keeps what was typed.
    form = {k: str(v) for k, v in WORKED.items() if k != "prizes"}
    response = phone.client.post(f"/g/{phone.slug}/seasons", data={**form, "name": "Autumn"})
    assert response.status_code == 422
    page = html(response)
    assert FULL in page and 'value="Autumn"' in page


def test_a_backup_counts_its_seasons_as_the_group_does(app, phone, api):
    night(api, ORDERS[0])
    api.ok("POST", f"/groups/{phone.slug}/seasons", WORKED, 201)
    from ledger.backup import backup_group

    with app.app_context():
        data = backup_group(phone.slug)
    assert room.backup_size(data) == size(app, phone.slug)


def hand_reads(app, read) -> int:
    """How many SQL statements reading hands ``read`` makes."""
    seen = []

    def count(conn, cursor, statement, *args) -> None:
        if " hands" in statement:
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        read()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen)


def test_the_pages_read_no_night_again_for_their_seasons(app, phone, api):
    """The group page, the seasons page and a player's page read the nights' hands as often
    with six seasons under way as with none (issue 46: each season read all its nights)."""
    for order in ORDERS:
        night(api, order)
    pages = [f"/g/{phone.slug}", f"/g/{phone.slug}/seasons", f"/g/{phone.slug}/p/Ann"]

    def reads() -> list[int]:
        found = []
        for path in pages:
            phone.client.get(path)  # the first look builds what a change made stale
            found.append(hand_reads(app, lambda path=path: phone.client.get(path)))
        return found

    without = reads()
    for n in range(6):
        api.ok("POST", f"/groups/{phone.slug}/seasons", {**WORKED, "name": f"League {n}"}, 201)
    assert reads() == without
    assert "League 5: Ann leads by 1" in text(html(phone.client.get(f"/g/{phone.slug}")))


def test_a_seasons_table_is_built_once_per_change_of_what_it_counts(app, phone, api, monkeypatch):
    builds = Builds(monkeypatch)
    first = night(api, ORDERS[0])
    sid = api.ok("POST", f"/groups/{phone.slug}/seasons", {**WORKED, "best_of": None}, 201)["id"]
    builds.since()
    group, season = f"/g/{phone.slug}", f"/g/{phone.slug}/seasons/{sid}"
    shown = [group, f"{group}/seasons", season, f"{group}/p/Ann", f"{group}/p/Dee"]

    def look() -> str:
        pages = [text(html(phone.client.get(path))) for path in shown]
        pages.append(str(api.ok("GET", f"/groups/{phone.slug}/seasons/{sid}")))
        return " ".join(pages)

    assert "Winter: Ann leads by 1" in look()
    assert builds.since() == 0  # built when it was made, for its answer
    look()
    assert builds.since() == 0

    night(api, ORDERS[1])  # a night it counts
    page = look()
    assert builds.since() == 1 and "Winter: Bob leads by 1" in page
    look()
    assert builds.since() == 0

    night(api, ["Ann", "Bob", "Cas"], game="tally")  # another game's night: not counted
    look()
    assert builds.since() == 0

    api.ok("PUT", f"/groups/{phone.slug}/seasons/{sid}", {"best_of": 1})  # its options
    assert "Winter: Ann, Bob share the lead" in look() and builds.since() == 1

    api.ok("POST", f"/sessions/{first}/reopen", {})  # a night no longer finished
    page = look()
    assert builds.since() == 1 and "Winter: Bob leads by 1" in page
    api.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "refund"})
    assert "Winter: Ann, Bob share the lead" in look() and builds.since() == 1

    from ledger.backup import find_group
    from ledger.services import groups

    with app.test_request_context():
        ref = find_group(phone.slug)
        bob = next(p for p in groups.group_view(ref).players if p.name == "Bob")
        groups.rename_player(ref, bob.id, "Robert")  # a new version of each of Bob's nights
    page = look()
    assert builds.since() == 1 and "Winter: Ann, Robert share the lead" in page
    assert "Bob" not in page

    later = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()  # its period: no night in it
    api.ok("PUT", f"/groups/{phone.slug}/seasons/{sid}", {"from": later})
    look()
    assert builds.since() == 1
    assert api.ok("GET", f"/groups/{phone.slug}/seasons/{sid}")["nights"] == []
