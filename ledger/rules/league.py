"""Seasons: a league across nights (RULES.md §13), worked out from the nights' results.

``night_places`` places the players of one night (money games by their winnings, points games
by the game's own ranking); ``standings`` turns the nights of a season into its table: each
night's league points, the nights that count (best N), the totals, the ranks with their
tie-breaks, the prize pot and who wins what; ``balances`` is then what each player gets or pays
at the close (prizes less the entry fee), which settles like a night (§6).

Nothing here is stored: an open season's table is worked out from its nights each time, so a
corrected night changes it at once; a closed season keeps the table it closed with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

PLACES, WINNINGS, POINTS = "places", "winnings", "points"
SCORINGS = (PLACES, WINNINGS, POINTS)
DEFAULT_PRIZES = (60, 30, 10)


@dataclass(frozen=True)
class NightResult:
    """One finished night of the season's game, as its result stands.

    ``played`` are the players who played at least one hand, in seat order; ``winnings`` what
    each won or lost in units (the kept pot left out; 0 where the night was not for money);
    ``scores`` each one's final score (points games); ``winners`` the game's own winners
    (points games); ``money`` whether places follow the winnings (a money game), and
    ``lowest_wins`` the direction of a points game's scores; ``sides`` who played on one side
    (a team game's partners, RULES.md §14: never rivals that night), each player alone where
    the game has no teams.
    """

    session: int
    number: int
    started_at: datetime
    played: tuple[str, ...]
    winnings: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    money: bool = True
    lowest_wins: bool = False
    sides: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Rules:
    """A season's options (RULES.md §13): how a night scores, which nights count, the money.

    ``lower_better``: with ``points`` scoring in a game where the lowest total wins, the
    lowest league total is best."""

    scoring: str = PLACES
    best_of: int | None = None
    min_nights: int = 0
    entry_fee: int = 0
    prizes: tuple[int, ...] = DEFAULT_PRIZES
    booby: int = 0
    lower_better: bool = False


@dataclass(frozen=True)
class SeasonNight:
    """A night of the season: the league points it gave each player, their places, and whose
    points ``best_of`` dropped."""

    session: int
    number: int
    started_at: datetime
    points: Mapping[str, int]
    places: Mapping[str, int]
    dropped: tuple[str, ...] = ()


@dataclass(frozen=True)
class Standing:
    """A player's line in the table: ``rank`` None below the line (fewer than ``min_nights``)."""

    player: str
    rank: int | None
    total: int
    nights: int
    counted: int
    best: int
    average: Decimal  # per night played, to one decimal
    won: int  # nights in first place
    below_line: bool = False


@dataclass(frozen=True)
class Prize:
    """What a player wins at the close: ``units`` in all, ``booby`` of it the booby prize."""

    player: str
    units: int
    booby: int = 0


@dataclass(frozen=True)
class SeasonTable:
    """A season's table: its nights, the standings (ranked first, best first, then those below
    the line), the prize pot and the prizes it would pay now."""

    nights: tuple[SeasonNight, ...]
    standings: tuple[Standing, ...]
    pot: int
    prizes: tuple[Prize, ...]
    entry_fee: int = 0

    def balances(self) -> dict[str, int]:
        """Each player's prize (and booby) less the entry fee, in units: they add up to zero."""
        if self.pot == 0 or not self.prizes:
            return {}  # nobody ranked: the entry fees stay with their players
        won = {p.player: p.units for p in self.prizes}
        return {s.player: won.get(s.player, 0) - self.entry_fee for s in self.standings}

    def tie_breaks(self) -> tuple[TieBreak, ...]:
        """Where equal points were ranked apart, and by what (``_ranked``'s tie-breaks)."""
        return tie_breaks(self.standings)

    def leader_gap(self) -> tuple[tuple[str, ...], int] | None:
        """The players ranked first and their lead over the next rank, or None unranked."""
        ranked = [s for s in self.standings if s.rank is not None]
        if not ranked:
            return None
        first = tuple(s.player for s in ranked if s.rank == 1)
        rest = [s for s in ranked if s.rank != 1]
        gap = abs(ranked[0].total - rest[0].total) if rest else 0
        return first, gap


@dataclass(frozen=True)
class TieBreak:
    """Two players next to each other in the table with equal points and different ranks,
    and what put ``above`` first: ``by`` "won" (more nights won) or "best" (a better best
    night), with each one's figure for it."""

    above: str
    below: str
    by: str
    above_value: int
    below_value: int


def tie_breaks(lines: Sequence[Standing]) -> tuple[TieBreak, ...]:
    """Each pair of neighbours in the ranked ``lines`` whose equal totals the tie-breaks split
    (RULES.md §13: nights won, then the best night): why equal points get unequal places,
    and so unequal prizes."""
    ranked = [s for s in lines if s.rank is not None]
    found = []
    for a, b in zip(ranked, ranked[1:], strict=False):
        if a.total != b.total or a.rank == b.rank:
            continue
        if a.won != b.won:
            found.append(TieBreak(a.player, b.player, "won", a.won, b.won))
        else:
            found.append(TieBreak(a.player, b.player, "best", a.best, b.best))
    return tuple(found)


def night_places(night: NightResult) -> dict[str, int]:
    """Each player's place on the night, 1 the best; equal results share the best place they
    cover (1, 2, 2, 4). A money game places by winnings, most first; a points game places its
    winners first, then each score in the game's direction."""
    players = night.played
    if night.money:
        value = {p: night.winnings.get(p, 0) for p in players}
        return {p: 1 + sum(v > value[p] for v in value.values()) for p in players}
    winners = [p for p in night.winners if p in players]
    sign = -1 if night.lowest_wins else 1
    score = {p: sign * night.scores.get(p, 0) for p in players if p not in winners}
    places = {p: 1 for p in winners}
    for p, s in score.items():
        places[p] = 1 + len(winners) + sum(v > s for v in score.values())
    return places


def league_points(
    night: NightResult, rules: Rules, places: Mapping[str, int] | None = None
) -> dict[str, int]:
    """The league points the night gives each of its players under the season's scoring
    (``places``: the night's places, where they are worked out already)."""
    if rules.scoring == WINNINGS:
        return {p: night.winnings.get(p, 0) for p in night.played}
    if rules.scoring == POINTS:
        return {p: night.scores.get(p, 0) for p in night.played}
    n = len(night.played)
    placed = night_places(night) if places is None else places
    return {p: n - place + 1 for p, place in placed.items()}


def standings(
    results: Sequence[NightResult],
    rules: Rules,
    placed: Mapping[int, Mapping[str, int]] | None = None,
) -> SeasonTable:
    """The season's table from its nights (in the order they started). ``placed``: nights'
    places by session, where worked out already (once for many seasons over the same nights)."""
    known = placed or {}
    nights = []
    for r in results:
        places = known[r.session] if r.session in known else night_places(r)
        points = league_points(r, rules, places)
        nights.append(SeasonNight(r.session, r.number, r.started_at, points, places))
    return table_of(nights, rules)


def table_of(nights: Sequence[SeasonNight], rules: Rules) -> SeasonTable:
    """The season's table from each night's league points and places (its ``dropped`` made
    anew): what the table derives from the nights, worked out once, for an open season's
    nights as they stand and for a closed season's nights as they closed (a restore)."""
    ordered = sorted(nights, key=lambda n: (n.started_at, n.session))
    points = [n.points for n in ordered]
    places = [n.places for n in ordered]
    per_player: dict[str, list[tuple[int, int]]] = {}  # (night index, points), oldest first
    for i, night_points in enumerate(points):
        for player, value in night_points.items():
            per_player.setdefault(player, []).append((i, value))
    dropped: dict[int, list[str]] = {}
    lines = []
    for player, played in per_player.items():
        line, kept = _line(player, played, places, rules)
        lines.append(line)
        for i, _ in played:
            if i not in kept:
                dropped.setdefault(i, []).append(player)
    ranked = _ranked(lines, rules)
    counted = tuple(replace(n, dropped=tuple(dropped.get(i, ()))) for i, n in enumerate(ordered))
    pot = rules.entry_fee * len(lines)
    return SeasonTable(counted, ranked, pot, prizes(ranked, pot, rules), rules.entry_fee)


def _line(
    player: str,
    played: Sequence[tuple[int, int]],
    places: Sequence[Mapping[str, int]],
    rules: Rules,
) -> tuple[Standing, set[int]]:
    """A player's line (unranked yet) and the nights that count for them: the best
    ``best_of`` (the earlier night first among equal points)."""
    sign = _sign(rules)
    kept = sorted(played, key=lambda iv: (sign * iv[1], iv[0]))[: rules.best_of]
    values = [v for _, v in played]
    line = Standing(
        player=player,
        rank=None,
        total=sum(v for _, v in kept),
        nights=len(played),
        counted=len(kept),
        best=min(values, key=lambda v: sign * v),
        average=(Decimal(sum(values)) / len(values)).quantize(Decimal("0.1"), ROUND_HALF_UP),
        won=sum(1 for i, _ in played if places[i][player] == 1),
    )
    return line, {i for i, _ in kept}


def _sign(rules: Rules) -> int:
    """-1 where more is better (a key sorts best first), 1 where the lowest total is best."""
    return 1 if rules.lower_better else -1


def _ranked(lines: Sequence[Standing], rules: Rules) -> tuple[Standing, ...]:
    """Ranked by total, then nights won, then the best night (equal on all three: the same
    rank), listed by name among equals; those below the line follow, unranked."""
    sign = _sign(rules)

    def key(s: Standing) -> tuple[int, int, int]:
        return (sign * s.total, -s.won, sign * s.best)

    def order(s: Standing) -> tuple[tuple[int, int, int], str, str]:
        return (key(s), s.player.casefold(), s.player)

    above = sorted((s for s in lines if s.nights >= rules.min_nights), key=order)
    below = sorted((s for s in lines if s.nights < rules.min_nights), key=order)
    ranked = [replace(s, rank=1 + sum(key(o) < key(s) for o in above)) for s in above]
    return tuple(ranked + [replace(s, below_line=True) for s in below])


def prizes(lines: Sequence[Standing], pot: int, rules: Rules) -> tuple[Prize, ...]:
    """What the pot pays (RULES.md §13): the booby prize to the last ranked player first,
    then the rest by the prize percentages in whole units, rounded down, the units left over
    (and the prizes of places nobody holds) to first place. Players sharing a rank share the
    prizes of the places they cover equally, odd units one each by name."""
    ranked = [s for s in lines if s.rank is not None]
    if not ranked or pot <= 0:
        return ()
    won: dict[str, int] = {s.player: 0 for s in ranked}
    booby: dict[str, int] = {}
    if len(ranked) > 1 and rules.booby > 0:
        last = max(s.rank or 0 for s in ranked)
        booby = _shared(min(rules.booby, pot), [s.player for s in ranked if s.rank == last])
    rest = pot - sum(booby.values())
    by_place = [rest * share // 100 for share in rules.prizes[: len(ranked)]]
    by_place[0] += rest - sum(by_place)
    for rank in sorted({s.rank or 0 for s in ranked}):
        holders = [s.player for s in ranked if s.rank == rank]
        covered = sum(by_place[rank - 1 : rank - 1 + len(holders)])
        for player, units in _shared(covered, holders).items():
            won[player] += units
    return tuple(
        Prize(s.player, won[s.player] + booby.get(s.player, 0), booby.get(s.player, 0))
        for s in ranked
        if won[s.player] or booby.get(s.player)
    )


def _shared(units: int, players: Sequence[str]) -> dict[str, int]:
    """``units`` shared equally, the odd ones one each to the players by name."""
    each, odd = divmod(units, len(players))
    named = sorted(players, key=lambda p: (p.casefold(), p))
    return {p: each + (1 if i < odd else 0) for i, p in enumerate(named)}


def nights_left(first: date, last: date, today: date, nights: int) -> int | None:
    """How many nights the season has left at the pace so far: its nights per day gone by
    (today included) times the days after today. None before a night or outside the period."""
    if nights == 0 or today < first or today > last:
        return None
    gone = (today - first).days + 1
    pace = Decimal(nights * (last - today).days) / gone
    return int(pace.quantize(Decimal(1), ROUND_HALF_UP))


# --- A closed season's table, kept as JSON ---------------------------------------------------


def table_to_dict(table: SeasonTable) -> dict[str, Any]:
    """The table as plain JSON, to keep a closed season as it closed."""
    return {
        "nights": [
            {
                "session": n.session,
                "number": n.number,
                "started_at": n.started_at.isoformat(),
                "points": dict(n.points),
                "places": dict(n.places),
                "dropped": list(n.dropped),
            }
            for n in table.nights
        ],
        "standings": [{**asdict(s), "average": str(s.average)} for s in table.standings],
        "pot": table.pot,
        "prizes": [asdict(p) for p in table.prizes],
        "entry_fee": table.entry_fee,
    }


def table_from_dict(data: Mapping[str, Any]) -> SeasonTable:
    """A table kept by ``table_to_dict``."""
    nights = tuple(
        SeasonNight(
            int(n["session"]),
            int(n["number"]),
            datetime.fromisoformat(n["started_at"]),
            {str(p): int(v) for p, v in n["points"].items()},
            {str(p): int(v) for p, v in n["places"].items()},
            tuple(n["dropped"]),
        )
        for n in data["nights"]
    )
    lines = tuple(Standing(**{**s, "average": Decimal(s["average"])}) for s in data["standings"])
    prizes = tuple(Prize(**p) for p in data["prizes"])
    return SeasonTable(nights, lines, int(data["pot"]), prizes, int(data["entry_fee"]))


def renamed_table(data: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """A kept table (``table_to_dict``) with the player ``old`` named ``new`` everywhere."""

    def name(player: Any) -> Any:
        return new if player == old else player

    nights = [
        {
            **n,
            "points": {name(p): v for p, v in n["points"].items()},
            "places": {name(p): v for p, v in n["places"].items()},
            "dropped": [name(p) for p in n["dropped"]],
        }
        for n in data["nights"]
    ]
    standings = [{**s, "player": name(s["player"])} for s in data["standings"]]
    prizes = [{**p, "player": name(p["player"])} for p in data["prizes"]]
    # The settle-up's ticks kept beside the table (services/seasons.py ``tick_season``).
    paid = [{**t, "from": name(t["from"]), "to": name(t["to"])} for t in data.get("paid", ())]
    more = {"paid": paid} if "paid" in data else {}
    return {**data, "nights": nights, "standings": standings, "prizes": prizes, **more}
