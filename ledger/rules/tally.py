"""Any game (RULES.md §12): a tally of the points the table works out for each hand.

For the games the app does not know (Whist, Hearts, Boerenbridge, Klaverjassen…): each hand
every player's points, or sitting out; the app adds them up and checks nothing of the game. It
ends after the hand in which a total reaches the ``target``, or after ``hands`` hands; with
neither, when the table finishes it. The best total wins: the highest, or with ``lowest_wins``
the lowest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.rules import entries, payout
from ledger.rules.base import (
    HandEntry,
    HandOutcome,
    PlayerResult,
    ResultEntry,
    State,
    canonical,
    index_results,
    left_of,
    tidy_name,
)
from ledger.rules.errors import Problems, RuleError
from ledger.rules.game import Game, Option, Progress
from ledger.rules.lengths import optional_whole
from ledger.rules.names import breaks_lines
from ledger.rules.texts import N_

# A hand's points as a page's box may hold them: whole, or a fraction the engine refuses.
_WHOLE = re.compile(r"^-?[0-9]{1,9}$")
_FRACTION = re.compile(r"^-?[0-9]{1,9}[.,][0-9]{1,6}$")

MOST_POINTS = 100_000  # a hand's points, either way
MAX_TARGET = 100_000
MAX_HANDS = 1_000
NAME_LENGTH = 40


@dataclass(frozen=True)
class TallyResult(ResultEntry):
    """A player's result in Any game (RULES.md §12): the hand's points as the table worked
    them out, typed as they arrive, so that a fraction can be refused in words ("not 7.5")."""

    points: int | float | None = entries.entry_field(entries.NUMBER)


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """Add one hand's points; then the game's end."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    number = state.hands_played + 1
    points = _checked_points(state, entry, number)
    scores = dict(state.scores)
    for p, added in points.items():
        scores[p] = scores.get(p, 0) + added
    finished = _game_over(scores, state.seats, number, opts)
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=tuple(
            PlayerResult(player=p, points=points[p])
            if p in points
            else PlayerResult(player=p, sitting_out=True)
            for p in state.seats
        ),
        out=None,
        winners=_best(points, list(points), opts),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=replace(
            state,
            scores=scores,
            hands_played=number,
            dealer=left_of(state.seats, state.dealer),
            finished=finished,
            winners=_best(scores, state.seats, opts) if finished else (),
        ),
    )


def _game_over(
    scores: Mapping[str, int], seats: Sequence[str], played: int, options: Mapping[str, Any]
) -> bool:
    """A total reached the target (at or past it, whichever way the game counts), or the
    game's number of hands is played."""
    target, hands = options["target"], options["hands"]
    if target is not None and any(scores[p] >= target for p in seats):
        return True
    return hands is not None and played >= hands


def _best(
    totals: Mapping[str, int], players: Sequence[str], options: Mapping[str, Any]
) -> tuple[str, ...]:
    """The players with the best total, the highest or with ``lowest_wins`` the lowest."""
    if not players:
        return ()
    best = (min if options["lowest_wins"] else max)(totals[p] for p in players)
    return tuple(p for p in players if totals[p] == best)


def leaders(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    """Who wins where the game stands: the best total among the seated; equal best share."""
    opts = {**GAME.defaults(), **options}
    return _best(state.scores, [p for p in state.seats if p in state.scores], opts)


def places(state: State, options: Mapping[str, Any]) -> dict[str, int]:
    """Each seated player's place by total, 1 the best (the highest, or with ``lowest_wins``
    the lowest); equal totals share a place and the next counts them all (1, 1, 3)."""
    sign = 1 if {**GAME.defaults(), **options}["lowest_wins"] else -1
    seated = [p for p in state.seats if p in state.scores]
    worse = {p: sign * state.scores[p] for p in seated}
    return {p: 1 + sum(1 for q in seated if worse[q] < worse[p]) for p in seated}


def progress(state: State, options: Mapping[str, Any]) -> Progress | None:
    """Hands played of ``hands`` ("hand 3 of 10"); None without a number of hands."""
    hands = {**GAME.defaults(), **options}["hands"]
    if hands is None or state.finished or state.hands_played >= hands:
        return None
    return Progress(round=1, hand=state.hands_played + 1, hands_in_round=hands, rounds=1)


# --- Checking a hand -----------------------------------------------------------------------------


def _checked_points(state: State, entry: HandEntry, number: int) -> dict[str, int]:
    """Each player's points in the hand, those sitting out left out; or a RuleError naming
    every problem."""
    problems = Problems()
    if entry.out is not None or entry.rummy:
        problems.add(
            RuleError(
                "Nobody goes out in {game}: enter each player's points.",
                field="out" if entry.out is not None else "rummy",
                game=GAME.name,
            )
        )
    given = len(entry.results)
    named = {canonical(state, r.player) for r in entry.results}
    missing = tuple(ResultEntry(p) for p in state.seats if p not in named)
    by_player = index_results(state, replace(entry, results=entry.results + missing), problems)
    points: dict[str, int] = {}
    sitting = 0
    for player in state.seats:
        if player not in by_player:
            continue
        i, given_result = by_player[player]
        result = entries.own(given_result, TallyResult)
        where = f"results[{i}]" if i < given else "results"
        if result.sitting_out and result.points is None:
            sitting += 1
            continue
        try:
            points[player] = _points(player, result, where)
        except RuleError as e:
            problems.add(e)
    if sitting == len(state.seats):
        problems.add(
            RuleError(
                "Everyone sits out hand {number}: at least one player has points.",
                field="results",
                number=number,
            )
        )
    problems.raise_found()
    return points


def _points(player: str, result: ResultEntry, where: str) -> int:
    """One player's points: given, whole, within ±100,000; nothing else of the hand."""
    result = entries.own(result, TallyResult)
    if result.sitting_out:
        raise RuleError(
            "{player} cannot both sit out and have points.",
            field=where,
            players=(player,),
            player=player,
        )
    if any(x is not None for x in (result.cards, result.spots)):
        raise RuleError(
            "{game} counts points, not cards: enter {player}'s points.",
            field=where,
            players=(player,),
            player=player,
            game=GAME.name,
        )
    value = result.points
    where = f"{where}.points" if where != "results" else where
    if value is None:
        raise RuleError(
            "{player}'s points are missing: enter 0 for none.",
            field=where,
            players=(player,),
            player=player,
        )
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            "{player}'s points must be a whole number, not {value}.",
            field=where,
            players=(player,),
            player=player,
            value=str(value),
        )
    if abs(value) > MOST_POINTS:
        raise RuleError(
            "{player}'s points cannot be {value}: −100,000 to 100,000.",
            field=where,
            players=(player,),
            player=player,
            value=value,
        )
    return value


# --- The game ------------------------------------------------------------------------------------


def _name(value: Any) -> str:
    """The game's name for the scoreboard ("Hearts"): free text, spaces tidied, 0 to 40
    characters with no control characters."""
    if breaks_lines(str(value if value is not None else "")):
        raise RuleError("The game's name cannot hold a line break.", field="options.name")
    text = tidy_name(str(value if value is not None else ""))
    if len(text) > NAME_LENGTH or any(not c.isprintable() for c in text):
        raise RuleError(
            "The game's name is at most {most} characters, without control characters.",
            field="options.name",
            most=NAME_LENGTH,
        )
    return text


_YES = ("true", "yes", "on", "1")
_NO = ("false", "no", "off", "0", "")


def _yes_or_no(value: Any) -> bool:
    """``lowest_wins`` as JSON's true or false, or as a form's text ("on", "yes", "0")."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if value is not None else ""
    if text in _YES or text in _NO:
        return text in _YES
    raise RuleError(
        "The option {option} cannot be '{value}': choose one of {allowed}.",
        field="options.lowest_wins",
        option="lowest_wins",
        value=str(value),
        allowed="false, true",
    )


class AnyGame(Game):
    result_type = TallyResult
    key = "tally"
    name = N_("Any game")
    description = N_(
        "For a game the app does not know: the table works out each hand's points, and the "
        "app adds them up."
    )
    min_players = 2
    max_players = 12
    money = False
    target_option = "target"  # the scoreboard says what each needs to reach it (§12)
    options = {
        "name": Option("", parse=_name, help=N_("The game's name for the scoreboard.")),
        "lowest_wins": Option(
            False, parse=_yes_or_no, help=N_("The lowest total wins (as in Hearts).")
        ),
        "target": Option(
            None,
            parse=optional_whole("target", 1, MAX_TARGET),
            help=N_("The game ends when a score reaches this; off: no target."),
        ),
        "hands": Option(
            None,
            parse=optional_whole("hands", 1, MAX_HANDS),
            help=N_("The game ends after this many hands; off: no fixed number."),
        ),
        **payout.OPTIONS,  # RULES.md §7: played for money
    }
    open_seating = False
    sitting_out = True
    nobody_out = True
    out_scores = False
    cards = False

    def form_result(
        self,
        player: str,
        index: int,
        core: ResultEntry,
        posted: Mapping[str, Any],
        problems: Problems,
    ) -> TallyResult:
        """The hand's points as typed: a whole number, maybe below zero; a fraction is
        passed on for the engine to refuse in words ("not 7.5")."""
        if core.sitting_out:
            return TallyResult(player, sitting_out=True)
        text = str(posted.get("points") or "").strip().replace("−", "-").replace(" ", "")
        if not text:
            return TallyResult(player)
        if _WHOLE.match(text):
            return TallyResult(player, points=int(text))
        if _FRACTION.match(text):
            number = float(text.replace(",", "."))
            return TallyResult(player, points=int(number) if number.is_integer() else number)
        problems.add(
            RuleError("Give a whole number, like 12 or -5.", field=f"results[{index}].points")
        )
        return TallyResult(player)

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        return progress(state, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return leaders(state, options)

    def places(self, state: State, options: Mapping[str, Any]) -> dict[str, int] | None:
        return places(state, options)

    def penalties(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("lowest_wins"))


GAME = AnyGame()
