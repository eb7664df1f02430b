"""The group page's periods and a player's page, through the pages as a phone sees them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import update

from ledger.extensions import db
from ledger.models import GameSession, utcnow
from tests.api.helpers import basic
from tests.web.pages import PASSPHRASE, Phone, html

HAND_1 = {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"}  # John wins
HAND_2 = {"Enda": "", "John": "5 5 6", "Rex": "K", "Finn": "3 5"}  # Enda out, John pays


def started(app, session_id: int, moment: datetime) -> None:
    with app.app_context():
        db.session.execute(
            update(GameSession).where(GameSession.id == session_id).values(started_at=moment)
        )
        db.session.commit()


def money(client, phone: Phone, session_id: int, name: str) -> Decimal:
    """The player's money in the session, as the session's own API answer says."""
    answer = client.get(f"/api/v1/sessions/{session_id}", headers=basic(phone.slug, PASSPHRASE))
    return Decimal(answer.get_json()["money"][name])


def euros(value: Decimal) -> str:
    return f"-€{-value:.2f}" if value < 0 else f"€{value:.2f}"


def leaderboard(page: str) -> dict[str, list[str]]:
    """Each player's cells on the leaderboard, by name."""
    table = page.split('id="leaderboard-heading"')[1].split("</table>")[0]
    rows = re.findall(r'<th scope="row"><a href="[^"]*">([^<]+)</a></th>(.*?)</tr>', table, re.S)
    return {
        name: [re.sub(r"<[^>]+>|\s+", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
        for name, r in rows
    }


def test_the_leaderboard_shows_tonight_this_month_this_year_or_all_time(client, app):
    phone = Phone(client)
    phone.create_group()
    now = utcnow()
    nights = {}
    for when, cards in [
        ("tonight", HAND_1),
        ("this month", HAND_2),
        ("this year", HAND_1),
        ("last year", HAND_2),
    ]:
        phone.start()
        phone.enter(cards, out="Enda" if cards is HAND_2 else None)
        nights[when] = phone.session_id
    moments = {
        "tonight": now,
        "this month": now.replace(day=1, hour=0, minute=0, second=1, microsecond=0),
        "this year": datetime(now.year, 1, 1, 0, 0, 0),
        "last year": datetime(now.year - 1, 12, 31, 23, 59, 59),
    }
    for when in ("this month", "this year", "last year"):
        started(app, nights[when], moments[when])
    m = {when: money(client, phone, sid, "John") for when, sid in nights.items()}

    def john(query: str) -> str:
        return leaderboard(html(client.get(f"/g/{phone.slug}{query}")))["John"][0]

    def since(start: datetime) -> str:
        return euros(sum((m[w] for w in m if moments[w] >= start), Decimal(0)))

    assert john("?period=tonight") == since(now - timedelta(hours=12))
    assert john("?period=month") == since(moments["this month"].replace(second=0))
    assert john("?period=year") == since(moments["this year"])
    assert john("") == john("?period=all") == euros(sum(m.values(), Decimal(0)))
    last_year = f"?from={now.year - 1}-12-31&to={now.year - 1}-12-31"
    assert john(last_year) == euros(m["last year"])
    page = html(client.get(f"/g/{phone.slug}?period=month"))
    assert re.search(r'href="[^"]*period=month[^"]*" aria-current="page"', page)
    assert re.search(r'<a href="[^"]*period=tonight[^"]*">Tonight</a>', page)  # a plain link


def test_a_date_typed_wrong_says_so_and_shows_all_time(client):
    phone = Phone(client)
    phone.create_group()
    phone.start()
    phone.enter(HAND_1)
    page = html(client.get(f"/g/{phone.slug}?from=2026-02-30"))
    assert "from must be a date written YYYY-MM-DD" in page
    assert "Showing all time." in page
    assert leaderboard(page)["John"][0] == euros(money(client, phone, 1, "John"))
    page = html(client.get(f"/g/{phone.slug}?from=2030-01-01"))
    assert "Nobody played in this period." in page


def test_a_players_page_lists_their_nights_totals_chart_and_best_and_worst(client):
    phone = Phone(client)
    phone.create_group()
    phone.start()
    phone.enter(HAND_1)  # John +51
    phone.start()
    phone.enter(HAND_2, out="Enda")  # John -16
    phone.start(game="spots", dealer="Enda")
    phone.enter(HAND_1)

    page = html(client.get(f"/g/{phone.slug}/p/john"))  # any case
    assert "<h1>John</h1>" in page
    assert "3 sessions" in page
    first, second = (money(client, phone, sid, "John") for sid in (1, 2))
    assert euros(first + second) in page  # net, in the money section
    best = page.split('id="best-heading"')[1].split("</section>")[0]
    assert best.index(euros(max(first, second))) < best.index(euros(min(first, second)))
    assert page.count('<svg class="chart"') == 2  # money in EUR, points in Spots
    assert page.count(f'href="/g/{phone.slug}/s/') >= 3

    client.post("/language", data={"lang": "nl"})
    page = html(client.get(f"/g/{phone.slug}/p/John"))
    assert "Beste en slechtste avond" in page and "3 sessies" in page
    assert client.get(f"/g/{phone.slug}/p/Nobody").status_code == 404
