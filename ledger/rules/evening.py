"""A club evening's list and money (RULES.md §19), from each table's result: pure arithmetic.

Each table's night gives its players their points for the round (``TableResult``: Skat's list
points, Klaverjassen's team points, other games by §13's scoring, worked out by the caller
from the night's read model). ``evening_list`` adds them up per player, ranks them (equal
totals by games won less games lost where the game counts them, else by the best round; then
shared) and shares the prize pot as a season's (ledger/rules/league.py ``prizes``): the booby
prize first, then the percentages. ``EveningList.balances`` is each player's prize less their
fees (the entry fee and, in Skat, the lost-game fees): they add up to zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ledger.rules import league
from ledger.rules.league import DEFAULT_PRIZES, Prize


@dataclass(frozen=True)
class TableResult:
    """One table's night as the evening reads it: the round, each player's points for it,
    and the games each won and lost where the game counts them (Skat), else empty."""

    round: int
    points: Mapping[str, int]
    won: Mapping[str, int] = field(default_factory=dict)
    lost: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Money:
    """The evening's money options (RULES.md §19, as §13): units per player and per game lost."""

    entry_fee: int = 0
    prizes: tuple[int, ...] = DEFAULT_PRIZES
    booby: int = 0
    lost_game_fee: int = 0


@dataclass(frozen=True)
class Line:
    """A player's line of the evening's list: ``rounds`` their points per round (None where
    they sat none of its tables), ``best`` the best round."""

    player: str
    rank: int
    total: int
    rounds: tuple[int | None, ...]
    won_games: int
    lost_games: int
    best: int

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rank": self.rank,
            "total": self.total,
            "rounds": list(self.rounds),
            "won_games": self.won_games,
            "lost_games": self.lost_games,
        }


@dataclass(frozen=True)
class EveningList:
    """The list (best first), the prize pot, the prizes it pays and each player's fees."""

    lines: tuple[Line, ...]
    pot: int
    prizes: tuple[Prize, ...]
    fees: Mapping[str, int]
    by_games: bool = False  # equal totals were split by games won less lost (Skat)

    def balances(self) -> dict[str, int]:
        """Each player's prize less their fees, in units; nothing where the pot is empty."""
        if self.pot <= 0 or not self.prizes:
            return {}
        won = {p.player: p.units for p in self.prizes}
        return {
            line.player: won.get(line.player, 0) - self.fees[line.player] for line in self.lines
        }


def evening_list(
    players: Sequence[str], results: Sequence[TableResult], rounds: int, money: Money
) -> EveningList:
    """The evening's list over the tables' results so far (``rounds``: how many rounds the
    evening has, each line's ``rounds`` one a round)."""
    by_games = any(r.won or r.lost for r in results)
    points: dict[str, list[int | None]] = {p: [None] * rounds for p in players}
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    for result in results:
        for player, value in result.points.items():
            if player not in points or not 1 <= result.round <= rounds:
                continue
            points[player][result.round - 1] = (points[player][result.round - 1] or 0) + value
            won[player] += result.won.get(player, 0)
            lost[player] += result.lost.get(player, 0)

    def key(p: str) -> tuple[int, int]:
        total = sum(v or 0 for v in points[p])
        played = [v for v in points[p] if v is not None]
        second = won[p] - lost[p] if by_games else max(played, default=0)
        return (-total, -second)

    ordered = sorted(players, key=lambda p: (key(p), p.casefold(), p))
    lines = tuple(
        Line(
            player=p,
            rank=1 + sum(key(o) < key(p) for o in players),
            total=sum(v or 0 for v in points[p]),
            rounds=tuple(points[p]),
            won_games=won[p],
            lost_games=lost[p],
            best=max((v for v in points[p] if v is not None), default=0),
        )
        for p in ordered
    )
    fees = {p: money.entry_fee + money.lost_game_fee * lost[p] for p in players}
    pot = sum(fees.values())
    rules = league.Rules(prizes=money.prizes, booby=money.booby)
    paid = league.prizes([_standing(line) for line in lines], pot, rules)
    return EveningList(lines, pot, paid, fees, by_games)


def _standing(line: Line) -> league.Standing:
    """The line as a season's standing, for the season's sharing of the pot (``prizes``)."""
    played = sum(v is not None for v in line.rounds)
    return league.Standing(
        line.player, line.rank, line.total, played, played, line.best, Decimal(0), 0
    )


def list_to_dict(found: EveningList) -> dict[str, Any]:
    """The list as plain JSON, kept as the evening closed."""
    return {
        "lines": [{**line.to_json(), "best": line.best} for line in found.lines],
        "pot": found.pot,
        "prizes": [{"player": p.player, "units": p.units, "booby": p.booby} for p in found.prizes],
        "fees": dict(found.fees),
        "by_games": found.by_games,
    }


def list_from_dict(data: Mapping[str, Any]) -> EveningList:
    """A list kept by ``list_to_dict``."""
    lines = tuple(
        Line(
            str(d["player"]),
            int(d["rank"]),
            int(d["total"]),
            tuple(None if v is None else int(v) for v in d["rounds"]),
            int(d["won_games"]),
            int(d["lost_games"]),
            int(d["best"]),
        )
        for d in data["lines"]
    )
    prizes = tuple(
        Prize(str(p["player"]), int(p["units"]), int(p["booby"])) for p in data["prizes"]
    )
    fees = {str(p): int(u) for p, u in data["fees"].items()}
    return EveningList(lines, int(data["pot"]), prizes, fees, bool(data["by_games"]))


def renamed_list(data: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """A kept list (``list_to_dict``, with its settle-up's ticks under "paid") with the player
    ``old`` named ``new`` everywhere, as a season's kept table is (league.renamed_table)."""

    def name(player: Any) -> Any:
        return new if player == old else player

    lines = [{**line, "player": name(line["player"])} for line in data["lines"]]
    prizes = [{**p, "player": name(p["player"])} for p in data["prizes"]]
    fees = {name(p): units for p, units in data["fees"].items()}
    paid = [{**t, "from": name(t["from"]), "to": name(t["to"])} for t in data.get("paid", ())]
    more = {"paid": paid} if "paid" in data else {}
    return {**data, "lines": lines, "prizes": prizes, "fees": fees, **more}
