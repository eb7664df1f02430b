"""Hearts (§17): penalty points, 26 a hand, the lowest total wins at 100.

Each hand every player's penalty points: a heart 1, the queen of spades 13, so a hand's
points add up to 26; a player who took them all shoots the moon, and the others take 26
each instead. The game ends after the hand in which a total reaches 100.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.rules import entries
from ledger.rules.base import (
    HandEntry,
    HandOutcome,
    PlayerResult,
    ResultEntry,
    State,
    canonical,
    left_of,
)
from ledger.rules.errors import Problems, RuleError
from ledger.rules.game import Game
from ledger.rules.samples import SampleNight, Step
from ledger.rules.texts import N_

_WHOLE = re.compile(r"^[0-9]{1,2}$")
HAND_POINTS = 26
TARGET = 100


@dataclass(frozen=True)
class HeartsResult(ResultEntry):
    """A player's penalty points in a hand of Hearts."""

    points: int | None = entries.entry_field(entries.WHOLE)


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """Add one hand's penalty points; the game ends when a total reaches 100."""
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    number = state.hands_played + 1
    points = _checked(state, entry)
    scores = {p: state.scores.get(p, 0) + points[p] for p in state.seats}
    finished = any(total >= TARGET for total in scores.values())
    low = min(scores.values())
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=tuple(PlayerResult(player=p, points=points[p]) for p in state.seats),
        out=None,
        winners=tuple(p for p in state.seats if points[p] == min(points.values())),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=replace(
            state,
            scores=scores,
            hands_played=number,
            dealer=left_of(state.seats, state.dealer),
            finished=finished,
            winners=tuple(p for p in state.seats if scores[p] == low) if finished else (),
        ),
    )


def _checked(state: State, entry: HandEntry) -> dict[str, int]:
    """Every player's points, whole, adding up to 26 (or 26 each but one: the moon)."""
    points: dict[str, int] = {}
    for i, given in enumerate(entry.results):
        result = entries.own(given, HeartsResult)
        player = canonical(state, result.player)
        if player is None:
            raise RuleError(
                "{player} is not at this table.", field=f"results[{i}]", player=result.player
            )
        if result.points is None or not 0 <= result.points <= HAND_POINTS:
            raise RuleError(
                "{player}'s points are 0 to 26.", field=f"results[{i}].points", player=player
            )
        points[player] = result.points
    missing = [p for p in state.seats if p not in points]
    if missing:
        raise RuleError("{player}'s points are missing.", field="results", player=missing[0])
    moon = sorted(points.values()) == [0] + [HAND_POINTS] * (len(points) - 1)
    if sum(points.values()) != HAND_POINTS and not moon:
        raise RuleError(
            "A hand's points add up to 26 (or 26 each but the player who shot the moon), "
            "not {total}.",
            field="results",
            total=sum(points.values()),
        )
    return points


class Hearts(Game):
    result_type = HeartsResult
    key = "hartenjagen"
    name = N_("Hearts")
    description = N_(
        "Penalty points: a heart 1, the queen of spades 13; the lowest total wins when "
        "someone reaches 100."
    )
    min_players = 3
    max_players = 6
    money = False
    options = {}
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
    ) -> HeartsResult:
        """The hand's penalty points as typed: a whole number, 0 to 26."""
        text = str(posted.get("points") or "").strip()
        if _WHOLE.match(text):
            return HeartsResult(player, points=int(text))
        if text:
            problems.add(
                RuleError("Give a whole number, like 13.", field=f"results[{index}].points")
            )
        return HeartsResult(player)

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        low = min((state.scores[p] for p in state.seats), default=0)
        return tuple(p for p in state.seats if state.scores.get(p) == low)

    def penalties(self, options: Mapping[str, Any]) -> bool:
        return True

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """Hands whose points add up to 26, one of them the moon (samples.py)."""
        seats = tuple(players[:3])
        hands = [dict(zip(seats, points, strict=True)) for points in ((13, 10, 3), (0, 26, 26))]
        said = [{"results": [{"player": p, "points": n} for p, n in h.items()]} for h in hands]
        last = {
            "results": [{"player": p, "points": n} for p, n in zip(seats, (1, 12, 13), strict=True)]
        }
        before = (Step("hand", said[0]), Step("hand", said[1]))
        return SampleNight(seats, seats[-1], {}, before, (Step("hand", last),), {})


GAME = Hearts()
