"""Issue 46.4: a restore derives what it can from the facts and holds every line of history to
the facts it describes. A closed season's table is worked out again from its nights and
options; a buy-in's, a round's and a payment's lines must be the buy-ins, rounds and
payments the night holds; a
round's `what`, like a name, holds nothing the API refuses (46.6: nothing hidden either).
Each crafted file is refused with one sentence saying where, and nothing of it is stored;
the untouched file, with every newer kind in it, restores."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from ledger.backup import backup_group, restore_group
from ledger.extensions import db
from tests.export.history import Table, play_a_history, play_the_newer_kinds
from tests.export.test_restore_refusals import every_row, refused

# The backup made once for the module (playing the history takes seconds): each test
# restores it into its own fresh database.
_MADE: dict[str, Any] = {}


@pytest.fixture
def made(app, client) -> dict[str, Any]:
    """A backup of a group with every kind, and its sessions' ids by name."""
    if not _MADE:
        table = Table.new_group(client)
        table.ok("POST", f"/groups/{table.slug}/players", {"name": "Dara"}, 201)  # never played
        ids = play_the_newer_kinds(table, play_a_history(table))
        with app.app_context():
            _MADE["data"] = json.loads(json.dumps(backup_group(table.slug)))
            db.session.rollback()
        _MADE["data"]["group"]["slug"] = "the-copy"  # beside the group it was made from
        _MADE["ids"] = ids
    return {"data": json.loads(json.dumps(_MADE["data"])), "ids": _MADE["ids"]}


def season(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in data["seasons"] if s["name"] == name)


def line(data: dict[str, Any], kind: str, n: int = 0) -> dict[str, Any]:
    return [c for c in data["changes"] if c["kind"] == kind][n]


def kaluki(data: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    return next(s for s in data["sessions"] if s["id"] == ids["kaluki"])


def standing(data: dict[str, Any], **change: Any) -> None:
    season(data, "Winter")["closed"]["standings"][0].update(change)


def points(data: dict[str, Any]) -> None:
    night = season(data, "Winter")["closed"]["nights"][0]
    first = next(iter(night["points"]))
    night["points"][first] += 1


def wrong_units(data: dict[str, Any]) -> None:
    line(data, "player.bought_in")["after"]["units"] += 100


def unknown_buyer(data: dict[str, Any]) -> None:
    line(data, "player.bought_in")["after"]["player"] = "Zed"


def no_such_hand(data: dict[str, Any]) -> None:
    bought = line(data, "player.bought_in")
    bought["after"]["after_hand"] = bought["hand_number"] = 7


def taken_back_unmade(data: dict[str, Any]) -> None:
    line(data, "player.buy_in_taken_back")["before"]["total"] += 1


def round_amount(data: dict[str, Any]) -> None:
    line(data, "round.added", 1)["after"]["amount"] = "8.50"


def changed_round(data: dict[str, Any]) -> None:
    line(data, "round.changed")["after"]["shares"]["Enda"] = 3


def what(text: str) -> Callable[[dict[str, Any]], None]:
    def damage(data: dict[str, Any]) -> None:
        crisps = next(r for r in data["rounds"] if (r["what"] or "").startswith("crisps"))
        crisps["what"] = text
        line(data, "round.added", 1)["after"]["what"] = text

    return damage


def deleted_what(data: dict[str, Any]) -> None:
    line(data, "round.deleted")["before"]["what"] = "pints\u202e"
    line(data, "round.added", 2)["after"]["what"] = "pints\u202e"


def renamed(name: str) -> Callable[[dict[str, Any]], None]:
    """A player who never played (Dara) named ``name`` in the file."""

    def damage(data: dict[str, Any]) -> None:
        dara = next(p for p in data["players"] if p["name"] == "Dara")
        dara["name"], dara["name_key"] = name, name.casefold()

    return damage


def group_named(name: str) -> Callable[[dict[str, Any]], None]:
    def damage(data: dict[str, Any]) -> None:
        data["group"]["name"] = name

    return damage


CRAFTED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a closed season's pot of 999,999": (
        lambda d: season(d, "Winter")["closed"].update(pot=999_999),
        r"Season \d+ of the backup is refused: its prize pot is not what its entry fee and "
        "players make.",
    ),
    "prizes shared otherwise": (
        lambda d: season(d, "Spring")["closed"]["prizes"][0].update(units=1),
        "its prizes are not what its pot and options make",
    ),
    'an average of "NaN"': (
        lambda d: standing(d, average="NaN"),
        "its standings are not what its nights and options make",
    ),
    'an average of "1E+999999"': (
        lambda d: standing(d, average="1E+999999"),
        "its standings are not what its nights and options make",
    ),
    "a rank bumped": (lambda d: standing(d, rank=2), "its standings are not"),
    # A tick naming its payer by an object tripped the check (a dict is no key of balances).
    "a tick from an object": (
        lambda d: season(d, "Winter")["closed"].update(
            paid=[{"from": {}, "to": "Enda", "amount": "1.00", "at": "2026-01-01T00:00:00"}]
        ),
        "its ticks are not payments of its settle-up",
    ),
    "a best night dropped otherwise": (
        lambda d: season(d, "Spring")["closed"]["nights"][0].update(
            dropped=list(season(d, "Spring")["closed"]["nights"][0]["points"])
        ),
        "the nights its best nights leave out are not those its options leave out",
    ),
    "a night's league points": (points, "gives league points its places do not give"),
    "a night's place": (
        lambda d: season(d, "Winter")["closed"]["nights"][0]["places"].update(Enda=99),
        "night 1 of its table places its players as no night's result can",
    ),
    "a night of another game": (
        lambda d: season(d, "Winter")["closed"]["nights"][0].update(
            session=next(s["id"] for s in d["sessions"] if s["game"] == "rummy")
        ),
        "is a night of another game",
    ),
    "a buy-in's line with other units": (wrong_units, "the buy-ins after hand 1 of session"),
    "a buy-in's line naming a stranger": (unknown_buyer, "the buy-ins after hand 1 of session"),
    "a buy-in's line after a hand that does not exist": (no_such_hand, "buy-ins after hand"),
    "a buy-in taken back that was not made": (taken_back_unmade, "a buy-in taken back"),
    "a round's line of another amount": (round_amount, "the rounds of session"),
    "a round's changed line": (changed_round, "the rounds of session"),
    "a payment's line of other units": (
        lambda d: line(d, "payment.recorded")["after"].update(units=1),
        "the payments of session .* are not as its history says",
    ),
    "a payment taken back that was not made": (
        lambda d: line(d, "payment.deleted")["before"].update(to="Nora"),
        "a payment taken back that was not made",
    ),
    "a round's what with a bell": (what("crisps\x07"), "round .* is not one the app could"),
    "a round's what turned around": (what("\u202espirc"), "round .* is not one the app could"),
    "a round's what with a zero-width space": (what("cr\u200bisps"), "round .* is not one"),
    "a round taken back, its line's what turned around": (deleted_what, "what a round was"),
    "a player named with a right-to-left override": (
        renamed("\u202eArad"),
        "in players.name is not a name Pub Ledger allows",
    ),
    "a player named with an invisible joiner": (renamed("Da\u200dra"), "not a name"),
    "a group named with an isolate": (group_named("\u2066The Local\u2069"), "not a name"),
}


@pytest.mark.parametrize("attack", list(CRAFTED))
def test_a_file_that_says_what_its_facts_do_not_is_refused_where_it_says_it(app, made, attack):
    data = json.loads(json.dumps(made["data"]))
    damage, message = CRAFTED[attack]
    damage(data)
    refused(app, data, message)


def test_the_untouched_file_restores_its_closed_seasons_as_they_closed(app, client, made):
    data = json.loads(json.dumps(made["data"]))
    before = every_row(app)
    with app.app_context():
        copy = restore_group(data)
        restored = json.loads(json.dumps(backup_group(copy.slug)))
        db.session.rollback()
    assert every_row(app)["seasons"] == before["seasons"] + 3
    table = Table(client, copy.slug)
    seasons = table.get(f"/groups/{copy.slug}/seasons")["seasons"]
    spring = next(s for s in seasons if s["name"] == "Spring")
    assert spring["status"] == "closed" and spring["pot"] > 0
    assert sum(p["units"] for p in spring["prizes"]) == spring["pot"]
    kept = {s["name"]: s["closed"] for s in made["data"]["seasons"] if s["closed"]}
    again = {s["name"]: s["closed"] for s in restored["seasons"] if s["closed"]}
    assert {n: t["standings"] for n, t in again.items()} == {
        n: t["standings"] for n, t in kept.items()
    }
    assert any("Fionn" in json.dumps(t) for t in again.values())  # renamed after the close


@pytest.mark.parametrize(
    "name", ["👩‍💻 Dara", "🏳️‍🌈", "Dara 👍🏽", "❤️‍🔥", "🇮🇪 Dara", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Dara", "葛󠄀飾"]
)
def test_a_name_of_emoji_sequences_restores_as_it_was_typed(app, client, made, name):
    """Issue 46.6, the other way: joiners, variation selectors, skin tones, flags and the
    tags of a subdivision flag inside emoji are kept, in a file as through the API."""
    data = json.loads(json.dumps(made["data"]))
    renamed(name)(data)
    with app.app_context():
        copy = restore_group(data)
    names = [p["name"] for p in Table(client, copy.slug).get(f"/groups/{copy.slug}")["players"]]
    assert name in names
