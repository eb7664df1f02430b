"""A game's sample night: a few hands of it as the API takes them, for the tests that go
through every game in the registry (a player renamed half-way: tests/api/test_renamed_player.py).

Every game answers one (``Game.sample_night``); the default is made from what the game says of
itself (its players, its entry's fields, whether someone goes out, its target and buy-ins),
so a new game needs none of its own unless its hands need more than that: its own calls
(Boerenbridge's bids), its own entry (Klaverjassen's teams), points that must add up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

# What a sample hand's players score, seat by seat: spot totals or points, small and unequal.
VALUES = (5, 12, 7, 3, 9, 4, 8, 6, 11, 2, 10, 1)


@dataclass(frozen=True)
class Step:
    """One thing the table does, as the API takes it: ``hand`` (a hand entry, API.md "Hand
    entry"), ``correct`` (hand ``number`` entered again), ``call`` (a call between hands,
    ``PUT …/sessions/<id>/<name>``), ``buy_in`` (``body``: the player) or ``join``."""

    kind: str
    body: Mapping[str, Any]
    name: str = ""
    number: int = 0


@dataclass(frozen=True)
class SampleNight:
    """A short night of a game: its ``players`` in seat order and its first ``dealer``, its
    ``options``, what is played ``before`` and ``after`` the half-way mark, and the body of
    its finish (``POST …/finish``; None: the night ends by itself or is left open)."""

    players: tuple[str, ...]
    dealer: str
    options: Mapping[str, Any]
    before: tuple[Step, ...]
    after: tuple[Step, ...]
    finish: Mapping[str, Any] | None = field(default_factory=dict)  # None: not finished


class Described(Protocol):
    """What the default sample night reads of a game (ledger/rules/game.py's Game)."""

    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def money(self) -> bool: ...
    @property
    def buys_in(self) -> bool: ...
    @property
    def open_seating(self) -> bool: ...
    @property
    def cards(self) -> bool: ...
    @property
    def out_scores(self) -> bool: ...
    @property
    def options(self) -> Mapping[str, Any]: ...

    def entry_fields(self) -> dict[str, Any]: ...
    def says_out(self) -> bool: ...
    def pot_choices(self) -> tuple[str, ...]: ...
    def target(self, options: Mapping[str, Any]) -> int | None: ...


def default_night(game: Described, names: Sequence[str]) -> SampleNight:
    """A sample night from what ``game`` says of itself. ``names[1]`` always plays: the
    player the tests follow. Where the game takes spot totals (its ``entry`` option) they are
    entered; else each player's points, or their cards. In a card game where who goes out
    counts, who goes out turns round the table, never the followed player, so their result
    is in every hand. A game with open seating has one more player sit down after the
    followed one; a game whose players buy back in puts the followed player over its target,
    and they buy in. After the half-way mark: a hand, and hand 1 corrected."""
    count = min(max(game.min_players, 3), game.max_players)
    players = tuple(names[:count])
    options = {"entry": "totals"} if _takes_totals(game) else {}
    before = [Step("hand", _hand(game, players, 0)), Step("hand", _hand(game, players, 1))]
    seated = players
    if game.open_seating and len(names) > count and count < game.max_players:
        seated = (*players, names[count])
        before.append(Step("join", {"name": names[count], "after": names[1]}))
    if game.buys_in:
        before += _bought_in(game, seated, options)
    first = dict(_hand(game, players, 0))
    first["results"] = [
        {**r, "player": r["player"].lower()} if r["player"] == players[1] else r
        for r in first["results"]
    ]  # a correction typed as it comes: the name in lower case
    after = (Step("hand", _hand(game, seated, 2)), Step("correct", first, number=1))
    finish = {"leftover_pot": "refund"} if "refund" in game.pot_choices() else {}
    return SampleNight(players, players[-1], options, tuple(before), after, finish)


def _takes_totals(game: Described) -> bool:
    option = game.options.get("entry")
    return option is not None and "totals" in (getattr(option, "choices", None) or ())


def _hand(game: Described, players: tuple[str, ...], number: int) -> dict[str, Any]:
    """Hand ``number`` (from 0): each player's spot total, points or cards by the entry's
    fields; who is out turns round the table, passing over the followed player."""
    results = game.entry_fields().get("results")
    kinds = results if isinstance(results, dict) else {}
    others = [p for i, p in enumerate(players) if i != 1]
    out = others[number % len(others)] if game.cards and game.out_scores else None
    shown: list[dict[str, Any]] = []
    for seat, player in enumerate(players):
        if player == out:
            continue
        value = VALUES[(seat + number) % len(VALUES)]
        if _takes_totals(game) or ("spots" in kinds and "cards" not in kinds):
            shown.append({"player": player, "spots": value})
        elif "points" in kinds:
            shown.append({"player": player, "points": value})
        else:
            shown.append({"player": player, "cards": _cards(value)})
    return {"results": shown, "out": out}


def _cards(value: int) -> str:
    """A small hand of cards, different for each value: an ace and a number card."""
    return f"A {2 + value % 9}"


def _bought_in(game: Described, players: tuple[str, ...], options: Mapping[str, Any]) -> list[Step]:
    """The followed player over the game's target (out of the game), then back in."""
    target = game.target(options) or 0
    hand = _hand(game, players, 3)
    for r in hand["results"]:
        if r["player"] == players[1]:
            r.pop("cards", None)
            r["spots"] = target + 10
    return [Step("hand", hand), Step("buy_in", {"player": players[1]})]
