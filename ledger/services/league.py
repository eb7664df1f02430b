"""Ratings and rivals (RULES.md §14), and a night's result as the league reads it.

- ``night_result``: a night's places, winnings and scores, read from the night's read model
  (ledger/services/night.py: the figures the scoreboard shows, never worked out again here);
  seasons, ratings and rivals all place a night's players the same way
  (ledger/rules/league.py ``night_places``). ``finished_results`` reads many nights at once.
- ``group_ratings``: every player's rating at one game (Any game: one game name).
- ``player_ratings``: a player's rating over time at each game they played.
- ``player_rivals``: each opponent's record against a player, their nemesis and favourite.

Everything is worked out from the finished nights each time (a correction or a reopened night
changes it from that night on): which nights and who played a hand from the stats' facts
(ledger/services/stats.py), each night's figures from its read model.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from flask import current_app
from sqlalchemy import select

from ledger.extensions import db
from ledger.lru import Kept
from ledger.models import GameSession, Player
from ledger.rules.errors import RuleError
from ledger.rules.league import NightResult, night_places
from ledger.rules.ratings import RatedNight, Ratings, rate
from ledger.rules.registry import GAMES, get_game
from ledger.rules.rivals import Meeting, Rivals, rivals
from ledger.services.errors import NotFound
from ledger.services.groups import name_key
from ledger.services.night import NightView, build_night
from ledger.services.stats import ALL_TIME, Period, SessionFacts, session_facts
from ledger.services.views.groups import GroupRef

# The groups whose nights' results are kept per process (``finished_results``).
KEPT_GROUPS = 32


@dataclass(frozen=True)
class GameRatings:
    """The ratings at one game (API.md "Ratings")."""

    game: str
    game_name: str | None
    ratings: Ratings

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "game_name": self.game_name,
            "players": [
                {
                    "player": r.player,
                    "rating": float(r.shown),
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "nights": r.nights,
                }
                for r in self.ratings.ratings
            ],
        }


@dataclass(frozen=True)
class RatingLine:
    """A player's rating after each night of one game they played (their page's chart)."""

    game: str
    game_name: str | None
    points: tuple[tuple[int, Decimal], ...]  # (session, rating shown)


def night_result(night: NightView, played: Collection[str]) -> NightResult:
    """A night's result as the league reads it, from the night's read model: the players who
    played a hand (``played``), in the night's order, what each won on the night (RULES.md §2,
    the kept pot left out; a points game for a stake, its payout), their final scores and
    the game's winners, as the scoreboard shows them."""
    view = night.session
    game = get_game(view.game)
    seated = tuple(s.player for s in night.standings if s.player in played)
    return NightResult(
        session=view.id,
        number=view.number,
        started_at=view.started_at,
        played=seated,
        winnings={p: night.standing(p).winnings or 0 for p in seated},
        scores={p: night.standing(p).score for p in seated},
        winners=tuple(view.winners),
        money=view.money,
        lowest_wins=game.penalty_points({**game.defaults(), **view.options}),
        # Who played together (a team game's partners): the game's sides of the seats.
        sides=tuple(
            tuple(p for p in side if p in seated)
            for side in game.sides(tuple(s.player for s in night.standings if s.active))
        ),
    )


def finished_results(
    group: GroupRef, facts: Sequence[SessionFacts]
) -> list[tuple[SessionFacts, NightResult]]:
    """Each of these finished nights with its result (``night_result``), in their order.

    A night's result is kept per process under its start and version (a correction or a
    reopened night is a new version), so a group's league reads its nights' versions (one
    query) and builds only the nights changed since, their rows read in one query more."""
    if not facts:
        return []
    table = GameSession.__table__
    wanted = {f.id for f in facts}
    where = (
        table.c.group_id == group.id,
        table.c.status == "finished",
        table.c.game.in_(sorted({f.game for f in facts})),
    )
    connection = db.session.connection()
    versions = {
        row.id: (row.started_at, row.version)
        for row in connection.execute(
            select(table.c.id, table.c.started_at, table.c.version).where(*where)
        )
        if row.id in wanted
    }
    kept = dict(_results().get(group.id) or {})
    changed = [i for i, version in versions.items() if i not in kept or kept[i][0] != version]
    if changed:
        for row in connection.execute(select(table).where(*where, table.c.id.in_(changed))):
            night = build_night(group, row)
            everyone = [s.player for s in night.standings]
            kept[row.id] = ((row.started_at, row.version), night_result(night, everyone))
        _results().put(group.id, kept)
    return [(f, _among(kept[f.id][1], played(f))) for f in facts if f.id in kept]


def _among(result: NightResult, played: Collection[str]) -> NightResult:
    """The night's result of the players who played a hand of it."""
    seated = tuple(p for p in result.played if p in played)
    return replace(
        result,
        played=seated,
        winnings={p: result.winnings[p] for p in seated},
        scores={p: result.scores[p] for p in seated},
    )


def played(facts: SessionFacts) -> set[str]:
    """Who played at least one hand of the night (dealt in, not sitting out)."""
    return {p for p, hands in facts.hands.items() if hands > 0}


def game_name_of(facts: SessionFacts) -> str | None:
    """Any game's name as the night was given it ("Hearts"); None for the other games."""
    return named_game(facts.game, facts.options)


def named_game(game: str, options: Mapping[str, Any]) -> str | None:
    """Any game's name in a night's ``options`` ("Hearts"); None for the other games."""
    if game not in GAMES or "name" not in GAMES[game].options:
        return None
    return " ".join(str(options.get("name") or "").split()) or None


def same_game(facts: SessionFacts, game: str, name: str | None) -> bool:
    """A night of ``game`` (Any game: of the name ``name``, whatever its case)."""
    if facts.game != game:
        return False
    named = game_name_of(facts)
    return (named or "").casefold() == (name or "").casefold()


def finished(group: GroupRef, period: Period = ALL_TIME) -> list[SessionFacts]:
    """The group's finished nights of the games it knows started in the period, oldest first."""
    return [f for f in session_facts(group, period) if f.status == "finished" and f.game in GAMES]


def group_ratings(group: GroupRef, game: str | None, name: str | None = None) -> GameRatings:
    """Every player's rating at ``game`` (Any game: ``name``), best first."""
    if not game:
        raise RuleError("Say which game the ratings are of, like ?game=spot.", field="game")
    key = get_game(game).key
    named = " ".join((name or "").split()) or None if "name" in GAMES[key].options else None
    facts = [f for f in finished(group) if same_game(f, key, named)]
    return GameRatings(key, named, rate([_rated(r) for _, r in finished_results(group, facts)]))


def all_ratings(group: GroupRef) -> list[GameRatings]:
    """The ratings at every game the group has finished nights of (Any game: per name)."""
    by_game = _by_game(group)
    found = [GameRatings(g, n, rate(nights)) for (g, n), nights in by_game.items()]
    return sorted(
        (r for r in found if r.ratings.ratings), key=lambda r: _game_order(r.game, r.game_name)
    )


def player_ratings(group: GroupRef, player: str) -> list[RatingLine]:
    """The player's rating after each night, at each game they played (Any game: per name),
    in the registry's order of games."""
    by_game = _by_game(group)
    lines = []
    for (game, named), nights in sorted(by_game.items(), key=lambda i: _game_order(*i[0])):
        history = rate(nights).history
        mine = next((h for p, h in history.items() if name_key(p) == name_key(player)), ())
        if mine:
            lines.append(RatingLine(game, named, mine))
    return lines


def player_rivals(
    group: GroupRef, player: str, game: str | None = None, name: str | None = None
) -> Rivals:
    """Each opponent's record against ``player`` over the finished nights both played (of
    ``game`` where given, Any game of ``name`` where given too); NotFound for a name the
    group does not know."""
    known = _named(group, player)
    key = get_game(game).key if game else None
    facts = [
        f
        for f in finished(group)
        if key is None or same_game(f, key, name if name is not None else game_name_of(f))
    ]
    met = [Meeting(night_places(r), r.sides) for _, r in finished_results(group, facts)]
    return rivals(known, met)


def _results() -> Kept[dict[int, tuple[Hashable, NightResult]]]:
    """This app's kept results, each group's by night (each app its own, as its database is
    its own), the group read least lately dropped first (ledger/lru.py)."""
    found: Kept[dict[int, tuple[Hashable, NightResult]]] = current_app.extensions.setdefault(
        "ledger_league", Kept[dict[int, tuple[Hashable, NightResult]]](KEPT_GROUPS)
    )
    return found


def _game_order(game: str, name: str | None) -> tuple[int, str]:
    return list(GAMES).index(game), (name or "").casefold()


def _by_game(group: GroupRef) -> dict[tuple[str, str | None], list[RatedNight]]:
    """The group's finished nights as the ratings read them, by game (Any game: by name)."""
    by_game: dict[tuple[str, str | None], list[RatedNight]] = {}
    for facts, result in finished_results(group, finished(group)):
        by_game.setdefault((facts.game, game_name_of(facts)), []).append(_rated(result))
    return by_game


def _rated(result: NightResult) -> RatedNight:
    return RatedNight(result.session, result.started_at, night_places(result))


def _named(group: GroupRef, player: str) -> str:
    """The group's player ``player`` (any case) as named now, or NotFound."""
    found = db.session.scalar(
        select(Player.name).where(Player.group_id == group.id, Player.name_key == name_key(player))
    )
    if found is None:
        raise NotFound("{player} is not a player of this group.", player=player)
    return found
