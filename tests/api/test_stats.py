"""A year of play read back: the stats and player calls, the pages and the group workbook all
say what the sessions' own answers (GET sessions/<id>, its hands, its settlement) say."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from datetime import datetime, timedelta
from decimal import Decimal
from io import BytesIO
from typing import Any
from urllib.parse import quote

import pytest
from openpyxl import load_workbook
from sqlalchemy import update

from ledger.extensions import db
from ledger.models import Change, GameSession
from ledger.rules.registry import GAMES
from ledger.services.stats import Night, SessionFacts, add_up, night_facts
from tests.api.helpers import PASSPHRASE, SEED_HAND_1, SEED_HAND_2, Table, error, hand_of
from tests.api.test_hands import count_queries
from tests.api.test_points_for_money import rummy_to_104

DECK = [f"{r}{s}" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "SHDC"]
PEOPLE = ["Enda", "John", "Rex", "Finn", "Nora", "Aoife"]


def a_hand(rng: random.Random, seated: list[str], out: str | None) -> dict[str, Any]:
    cards = rng.sample(DECK, 4 * len(seated))
    return {
        "results": [
            {"player": p, "cards": "" if p == out else " ".join(cards[i * 4 : i * 4 + 4])}
            for i, p in enumerate(seated)
        ],
        "out": out,
    }


def started(app, session_id: int, moment: datetime) -> None:
    """Move a session's start to ``moment`` (naive UTC): a year of play in a few seconds."""
    with app.app_context():
        db.session.execute(
            update(GameSession).where(GameSession.id == session_id).values(started_at=moment)
        )
        db.session.commit()


def play_a_year(table: Table, app, seed: int, nights: int) -> list[int]:
    """Nights of Spot for money (two currencies), Spots and Rummy (both scorings) over 2026:
    joins, leaves, corrections, undos, finishes with the pot carried or given back."""
    rng = random.Random(seed)
    day = datetime(2026, 1, 1, 19, 30)
    ids = []
    for n in range(nights):
        day += timedelta(days=rng.randint(3, 12), minutes=rng.randint(0, 200))
        game = rng.choice(["spot", "spot", "spots", "rummy"])
        seated = rng.sample(PEOPLE, rng.randint(3, 4))
        options: dict[str, Any] = {}
        if game == "spot" and n % 3 == 0:
            options = {"currency": "GBP", "unit_value": "0.05"}
        if game == "rummy":
            options = {"scoring": rng.choice(["winner", "penalty"]), "target": 300}
        sid = table.session(seated, seated[0], game, **options)["id"]
        started(app, sid, day)
        ids.append(sid)
        for h in range(rng.randint(1, 7)):
            out = rng.choice(seated) if game != "spot" else rng.choice([None, *seated])
            hand = table.call("POST", f"/sessions/{sid}/hands", a_hand(rng, seated, out))
            if hand.status_code != 201:
                break  # a points game that reached its end
            if h == 1 and rng.random() < 0.3:
                table.ok("PUT", f"/sessions/{sid}/hands/1", a_hand(rng, seated, seated[0]))
            if h == 2 and rng.random() < 0.2:
                table.ok("DELETE", f"/sessions/{sid}/hands/3", status=204)
            if h == 3 and game == "spot" and rng.random() < 0.4 and len(seated) > 3:
                table.ok("DELETE", f"/sessions/{sid}/players/{seated[-1]}")
                seated = seated[:-1]
        view = table.ok("GET", f"/sessions/{sid}")
        if view["status"] == "open" and rng.random() < 0.8:
            choice = {"leftover_pot": rng.choice(["carry", "refund"])} if game == "spot" else {}
            table.ok("POST", f"/sessions/{sid}/finish", choice)
    return ids


def expected(table: Table, ids: list[int]) -> dict[str, dict[str, Any]]:
    """Every player's totals worked out from the sessions' own API answers."""
    totals: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "sessions": 0,
            "hands": 0,
            "hands_won": 0,
            "games_won": defaultdict(int),
            "points": defaultdict(int),
            "money": defaultdict(Decimal),
            "units": defaultdict(int),
        }
    )
    for sid in ids:
        s = table.ok("GET", f"/sessions/{sid}")
        for h in table.ok("GET", f"/sessions/{sid}/hands"):
            for r in h["results"]:
                totals[r["player"]]["hands"] += not r["sitting_out"]
            for w in h["winners"]:
                totals[w]["hands_won"] += 1
        if s["money"] is not None:
            settled = table.ok("GET", f"/sessions/{sid}/settlement")
            balances = {b["player"]: b for b in settled["balances"]}
        for name, score in s["scores"].items():
            t = totals[name]
            t["sessions"] += 1
            if s["money"] is not None:
                assert Decimal(balances[name]["amount"]) == Decimal(s["money"][name])
                t["money"][s["currency"]] += Decimal(s["money"][name])
                # One unit value per currency in this year: the units add up as they are.
                t["units"][s["currency"]] += score
            else:
                penalty = s["game"] == "rummy" and s["options"]["scoring"] == "penalty"
                t["points"][s["game"] + (":penalty" if penalty else "")] += score
                if s["status"] == "finished" and name in s["winners"]:
                    t["games_won"][s["game"]] += 1
    return totals


def as_answered(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "sessions": t["sessions"],
        "hands": t["hands"],
        "hands_won": t["hands_won"],
        "games_won": dict(t["games_won"]),
        "points": dict(t["points"]),
        "amounts": {c: Decimal(v) for c, v in t["money"].items()},
        "money": dict(t["units"]),
    }


def answered(p: dict[str, Any]) -> dict[str, Any]:
    counts = {k: p[k] for k in ("sessions", "hands", "hands_won", "games_won", "points")}
    amounts = {c: Decimal(v) for c, v in p["amounts"].items()}
    return {**counts, "amounts": amounts, "money": p["money"]}


@pytest.fixture
def year(table: Table, app) -> tuple[Table, list[int]]:
    return table, play_a_year(table, app, seed=15, nights=36)


def test_a_years_stats_are_the_sessions_own_numbers(year):
    table, ids = year
    want = expected(table, ids)
    got = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    assert set(got) == set(want)
    for name, t in want.items():
        assert answered(got[name]) == as_answered(t), name
    # Money nights are money, not games won: only points games count as won.
    assert all(set(p["games_won"]) <= {"spots", "rummy"} for p in got.values())


def test_a_players_page_in_the_api_lists_their_nights_with_the_same_totals(year):
    table, ids = year
    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    for name in stats:
        mine = table.ok("GET", f"/groups/{table.slug}/players/{quote(name.lower())}")
        assert mine["name"] == name
        assert mine["totals"] == stats[name]
        assert [s["id"] for s in mine["sessions"]] == [
            sid for sid in ids if name in table.ok("GET", f"/sessions/{sid}")["scores"]
        ]
        for night in mine["sessions"][:6]:
            s = table.ok("GET", f"/sessions/{night['id']}")
            assert night["score"] == s["scores"][name]
            assert night["money"] == (s["money"][name] if s["money"] else None)
            assert night["won"] == (s["money"] is None and name in s["winners"])
            assert night["started_at"] == s["started_at"] and night["status"] == s["status"]


def test_periods_take_whole_utc_days_from_and_to_inclusive(table, app):
    first = table.session()["id"]
    table.hand(first, a_hand(random.Random(1), ["Enda", "John", "Rex", "Finn"], "Enda"))
    second = table.session()["id"]
    table.hand(second, a_hand(random.Random(2), ["Enda", "John", "Rex", "Finn"], "John"))
    started(app, first, datetime(2026, 3, 31, 23, 59, 59))
    started(app, second, datetime(2026, 4, 1, 0, 0, 0))

    def sessions(query: str) -> int:
        players = table.ok("GET", f"/groups/{table.slug}/stats{query}")["players"]
        return max((p["sessions"] for p in players), default=0)

    assert sessions("") == 2
    assert sessions("?from=2026-03-31&to=2026-03-31") == 1
    assert sessions("?from=2026-04-01") == 1
    assert sessions("?to=2026-03-31") == 1
    assert sessions("?from=2026-03-31&to=2026-04-01") == 2
    assert sessions("?from=2026-04-02") == 0


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?from=2026-13-01", "from"),
        ("?from=yesterday", "from"),
        ("?to=2026-02-30", "to"),
        ("?to=2026-1-5", "to"),
        ("?from=2026-05-02&to=2026-05-01", "to"),
    ],
)
def test_a_bad_date_is_refused_naming_the_field(table, query, field):
    message = error(table.get(f"/groups/{table.slug}/stats{query}"), 422, field)
    assert field in message and "ends" not in message or "before it starts" in message


def test_one_group_never_sees_another_groups_players_or_stats(table, other, app):
    sid = table.session()["id"]
    table.hand(sid, a_hand(random.Random(3), ["Enda", "John", "Rex", "Finn"], "Rex"))
    error(other.get(f"/groups/{table.slug}/stats"), 404)
    error(other.get(f"/groups/{table.slug}/players/Rex"), 404)
    error(other.get(f"/groups/{other.slug}/players/Rex"), 404)  # not a player of theirs
    assert other.ok("GET", f"/groups/{other.slug}/stats") == {"players": []}
    error(table.get(f"/groups/{table.slug}/players/Nobody"), 404)


def test_the_workbook_and_the_pages_show_the_stats_numbers(year, client):
    table, ids = year
    stats = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    listing = table.ok("GET", f"/groups/{table.slug}")["sessions"]
    numbers = {s["id"]: s["number"] for s in listing}
    game_names = {g["key"]: g["name"] for g in table.ok("GET", "/games")}
    wb = load_workbook(BytesIO(table.call("GET", f"/groups/{table.slug}/export.xlsx").data))
    assert wb.sheetnames[:3] == ["Sessions", "Players", "Hands"]
    rows = list(wb["Players"].values)
    header, lines = rows[0], {r[0]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    for name, p in stats.items():
        line = lines[name]
        assert (line["Sessions"], line["Hands played"], line["Hands won"]) == (
            p["sessions"],
            p["hands"],
            p["hands_won"],
        )
        assert line["Games won"] == sum(p["games_won"].values())
        for currency, value in p["amounts"].items():
            assert Decimal(str(line[f"Net money ({currency})"])) == Decimal(value)
        for key, points in p["points"].items():
            columns = [h for h in header if h and h.startswith("Points (") and key_of(h) == key]
            assert [line[h] for h in columns] == [points]
        sheet = list(wb[name[:31]].values)
        nights = table.ok("GET", f"/groups/{table.slug}/players/{name}")["sessions"]
        # A night as the pages name it, its game and number, its id beside it (issue 36).
        assert [r[:3] for r in sheet[1 : 1 + len(nights)]] == [
            (f"{game_names[n['game']]} #{numbers[n['id']]}", n["id"], game_names[n["game"]])
            for n in nights
        ]
        assert [n["number"] for n in nights] == [numbers[n["id"]] for n in nights]
    # The group's Sessions sheet: each night by name, its id beside it (API.md, "Workbooks").
    listed = {r[1]: r for r in list(wb["Sessions"].values)[1:]}
    for sid in ids:
        s = table.ok("GET", f"/sessions/{sid}")
        row = listed[sid]
        assert row[0] == f"{s['game_name']} #{s['number']}"
        assert (row[6] or "") == ", ".join(s["winners"])  # never "up the most"

    client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    page = client.get(f"/g/{table.slug}").get_data(as_text=True)
    board = page.split('id="leaderboard-heading"')[1].split("</table>")[0]
    for name, p in stats.items():
        row = re.search(rf">{name}</a></th>(.*?)</tr>", board, re.S).group(1)
        cells = re.findall(r'<td class="number">\s*(.*?)\s*</td>', row, re.S)
        assert cells[-1] == str(p["hands_won"])
        assert cells[-2] == str(sum(p["games_won"].values()))
        player_page = client.get(f"/g/{table.slug}/p/{name}")
        assert player_page.status_code == 200
        assert f"{p['sessions']} sessions" in player_page.get_data(as_text=True)


def key_of(header: str) -> str:
    inside = header[len("Points (") : -1]
    keys = {"Spots": "spots", "Rummy": "rummy", "Rummy, penalty": "rummy:penalty"}
    return keys.get(inside, inside)


def test_the_history_page_says_every_change_in_words(table, client, app):
    seated = ["Enda", "John", "Rex", "Finn"]
    sid = table.session(seated, "Finn", ante=5)["id"]
    table.hand(sid, hand_of(dict(zip(seated, ["J 10", "A 3", "9", "Q K"], strict=True))))
    corrected = hand_of(dict(zip(seated, ["J 10", "A 3", "K 9", "Q K"], strict=True)))
    table.ok("PUT", f"/sessions/{sid}/hands/1", corrected)
    table.ok("DELETE", f"/sessions/{sid}/players/Finn")
    table.ok("POST", f"/sessions/{sid}/finish", {"leftover_pot": "carry"})
    mistake = table.session(["Enda", "John", "Rex"], "Enda", ante=5)["id"]
    table.ok("DELETE", f"/sessions/{mistake}", status=204)
    tick = {"from": "Enda", "to": "John", "units": 5}
    paid = table.ok("POST", f"/sessions/{sid}/payments", tick, status=201)
    table.ok("DELETE", f"/sessions/{sid}/payments/{paid['id']}", status=204)
    with app.app_context():  # a kind of change a newer version records
        kind = "table.moved"
        db.session.add(Change(session_id=sid, kind=kind, version=99, after={"from": "Rex"}))
        db.session.commit()

    client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    response = client.get(f"/g/{table.slug}/s/{sid}/history")
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    text = re.sub(r"\s+", " ", text)
    assert "Spot started with Enda, John, Rex and Finn; Finn deals first. By a phone." in text
    assert "A phone entered hand 1:" in text
    assert "A phone corrected hand 1: Rex 9 → K 9." in text
    assert "Finn left the table. By a phone." in text
    assert "The night was finished; the pot of €0.20 is carried on. By a phone." in text
    # The session it went on to is gone: named as such, not by a number (issue 29: the
    # number is the session's among its game's in the group, and a deleted one has none).
    assert f"#{mistake}" not in text
    assert "The pot of €0.20 went on to a session since deleted." in text
    assert (
        "The session it went on to was deleted before its first hand: the pot of €0.20 waits "
        "again." in text
    )
    assert "Enda paid John €0.05." in text
    assert "The tick of Enda paying John €0.05 was taken back." in text
    assert "Something else changed (table.moved)." in text
    assert text.index("started with") < text.index("corrected") < text.index("left the table")
    board = client.get(f"/g/{table.slug}/s/{sid}").get_data(as_text=True)
    assert f'href="/g/{table.slug}/s/{sid}/history"' in board
    assert f'href="/g/{table.slug}/p/Rex"' in board


def test_the_pages_and_calls_cost_the_same_queries_however_many_sessions(table, client, app):
    play_a_year(table, app, seed=4, nights=3)
    client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    first = table.ok("GET", f"/groups/{table.slug}")["sessions"][0]["id"]
    paths = [
        (table, f"/api/v1/groups/{table.slug}/stats"),
        (table, f"/api/v1/groups/{table.slug}/players/Enda"),
        (client, f"/g/{table.slug}"),
        (client, f"/g/{table.slug}?period=year"),
        (client, f"/g/{table.slug}/p/Enda"),
        (client, f"/g/{table.slug}/s/{first}/history"),
    ]

    def counts() -> list[int]:
        out = []
        for who, path in paths:
            if who is table:
                call = lambda p=path: table.client.get(p, headers=table.headers)  # noqa: E731
            else:
                call = lambda p=path: client.get(p)  # noqa: E731
            call()  # once first: a first request may read what later ones find ready
            out.append(count_queries(app, call))
        return out

    few = counts()
    play_a_year(table, app, seed=5, nights=25)
    assert counts() == few


def test_another_groups_player_page_is_not_found_and_shows_nothing_of_theirs(table, other, client):
    sid = other.session(["Secretname", "Hiddenfella"], "Hiddenfella")["id"]
    other.hand(sid, a_hand(random.Random(6), ["Secretname", "Hiddenfella"], "Secretname"))
    client.post("/open", data={"open-group": table.slug, "open-passphrase": PASSPHRASE})
    response = client.get(f"/g/{table.slug}/p/Hiddenfella")
    assert response.status_code == 404
    assert "Secretname" not in response.get_data(as_text=True)
    assert client.get(f"/g/{other.slug}/p/Hiddenfella").status_code == 401


def test_a_place_follows_the_games_own_measure_and_a_spot_night_is_never_won():
    def places(
        game: str, scores: dict[str, int], winners: tuple[str, ...] = ("A",)
    ) -> dict[str, tuple[int, bool]]:
        when = datetime(2026, 1, 1)
        # A money night's winnings are its read model's (here: no pot brought back or kept).
        won = scores if GAMES[game].money else None
        facts = SessionFacts(1, game, {}, "finished", when, scores, winners, {}, {}, won)
        return {name: (night.place, night.won) for name, night in night_facts(facts)}

    # Spots counts penalties: the fewest lead, and equal places share the number.
    assert places("spots", {"A": 5, "B": 20, "C": 5}) == {
        "A": (1, True),
        "B": (3, False),
        "C": (1, False),
    }
    assert places("rummy", {"A": 5, "B": 20})["B"] == (1, False)  # the most points lead
    # Up the most on a Spot night is money, not a game won: a Spot night names no winners.
    assert places("spot", {"A": 15, "B": -15}, ()) == {"A": (1, False), "B": (2, False)}
    # Kaluki is won by the last player in (RULES.md §10), though it is played for money.
    assert places("kaluki", {"A": 400, "B": -400}) == {"A": (1, True), "B": (2, False)}


def test_money_at_different_unit_values_is_counted_in_a_unit_that_measures_both():
    """Two nights in euros, one at a cent a unit and one at five: 7 units and 3 units are
    €0.07 and €0.15, counted as 22 cents (the largest unit measuring both)."""
    nights = [
        Night(
            session=i,
            game="spot",
            started_at=datetime(2026, 3, 1 + i),
            status="finished",
            score=score,
            money=Decimal(score) * unit,
            currency="EUR",
            won=False,
            points_key=None,
            place=1,
            players=3,
            hands=4,
            hands_won=1,
            unit_value=unit,
        )
        for i, (score, unit) in enumerate([(7, Decimal("0.01")), (3, Decimal("0.05"))])
    ]
    answer = add_up("Enda", nights).to_json()
    assert answer["money"] == {"EUR": 22}
    assert answer["amounts"] == {"EUR": "0.22"}


def test_money_in_the_stats_is_what_the_settlements_pay_keepers_and_stakes_included(table):
    """Over the nights a kept pot's keeper has what the settlements paid (the pot kept one
    night, brought back the next); a Rummy game for a penny a point pays out as its
    settlement says (RULES.md §2, §7). Each player's money over the nights is the sum of
    their settlement balances."""
    first = table.session()["id"]
    table.hand(first, SEED_HAND_1)  # the pot of 20 stays
    table.ok("POST", f"/sessions/{first}/finish", {"leftover_pot": "carry", "pot_keeper": "John"})
    second = table.session()["id"]  # John brings the pot back
    table.hand(second, SEED_HAND_2)
    table.ok("POST", f"/sessions/{second}/finish", {"leftover_pot": "refund"})
    rummy = rummy_to_104(table, stake=1)

    paid: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for sid in (first, second, rummy):
        settled = table.ok("GET", f"/sessions/{sid}/settlement")
        for b in settled["balances"]:
            paid[b["player"]][settled["currency"]] += b["units"]
    got = {p["name"]: p for p in table.ok("GET", f"/groups/{table.slug}/stats")["players"]}
    assert {name: p["money"] for name, p in got.items()} == {
        name: dict(by_currency) for name, by_currency in paid.items()
    }
    assert (
        got["John"]["money"]["EUR"] == 66 + table.ok("GET", f"/sessions/{second}")["scores"]["John"]
    )
    assert got["Ann"]["money"] == {"EUR": 113}  # Bob pays 44, Cas 69
    # Issue 29: a night's money leaves the kept pot out (RULES.md §2): John won 46 on the
    # first night and kept 20; on the second his score started at -20, not lost there.
    john = table.ok("GET", f"/groups/{table.slug}/players/John")
    nights = {n["id"]: Decimal(n["money"]) for n in john["sessions"]}
    second_score = table.ok("GET", f"/sessions/{second}")["scores"]["John"]
    assert nights[first] == Decimal("0.46")
    assert nights[second] == Decimal(second_score + 20) / 100
