"""Rummy 500 (RULES.md §9): the points melded score, the cards left in hand count against.

Each hand every player adds what they melded or laid off less what is left in their hand; the
first to 500 ends the game and the highest total wins. A player's melded points are the cards
(with how many of their aces were laid low, at 1) or a total counted on the table; the cards
in hand are cards or, where the session allows, a total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.rules import entries, payout, rummy
from ledger.rules.base import (
    HandEntry,
    HandOutcome,
    PlayerResult,
    ResultEntry,
    State,
    canonical,
    index_results,
    left_of,
)
from ledger.rules.cards import Card, Cards, cards_read, check_deck, parse_cards, spot_total
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option
from ledger.rules.samples import SampleNight, Step
from ledger.rules.texts import N_

NAME = "Rummy 500"
ACE = 15  # an ace in hand, or melded high
LOW_ACE = 1  # an ace melded or laid off below the 2 of its suit
JOKER = 15  # wherever it lies
PACK_WORTH = 396  # 4 × (2 + … + 10) + 12 × 10 + 4 × 15
MAX_TARGET = 100_000


def packs(players: int) -> int:
    """One pack for 2 to 4 players, two from 5 ([P-500], the majority of the sources)."""
    return 1 if players <= 4 else 2


def deck_worth(players: int, options: Mapping[str, Any]) -> int:
    """What every card of the deck in play is worth together (one pack with its jokers: 426)."""
    n = packs(players)
    return n * PACK_WORTH + n * int(options["jokers"]) * JOKER


@dataclass(frozen=True)
class Part:
    """One side of a player's hand as checked: its cards, where given, and its points."""

    cards: tuple[Card, ...]
    points: int
    where: str


# --- A hand --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rummy500Result(ResultEntry):
    """A player's result in Rummy 500 (RULES.md §9): the cards left in hand (or their total)
    and what they melded or laid off this hand, as cards with the count of their aces that
    count 1 (``low_aces``), or as a whole total (``melded_points``)."""

    melded: str | None = entries.entry_field(entries.CARDS, example="7H 7S 7D")
    low_aces: int | None = entries.entry_field(entries.WHOLE)
    melded_points: int | None = entries.entry_field(entries.WHOLE)


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """Score one hand: each player adds melded − in hand; then the game's end."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    number = state.hands_played + 1
    melded, in_hand = _checked_hand(state, entry, opts, number)
    out = canonical(state, entry.out)
    points = {p: melded[p].points - in_hand[p].points for p in state.seats}
    scores = dict(state.scores)
    for p in state.seats:
        scores[p] = scores.get(p, 0) + points[p]
    finished = any(scores[p] >= opts["target"] for p in state.seats)
    results = tuple(
        PlayerResult(
            player=p,
            cards=in_hand[p].cards,
            spots=in_hand[p].points,
            points=points[p],
            melded=melded[p].points,
            melded_cards=melded[p].cards,
        )
        for p in state.seats
    )
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=results,
        out=out,
        winners=(out,) if out is not None else (),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=replace(
            state,
            scores=scores,
            hands_played=number,
            dealer=left_of(state.seats, state.dealer),
            finished=finished,
            winners=leaders(replace(state, scores=scores), opts) if finished else (),
        ),
    )


def leaders(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The highest total wins, even over another player past the target; equal share."""
    best = max(state.scores.get(p, 0) for p in state.seats)
    return tuple(p for p in state.seats if state.scores.get(p, 0) == best)


def melded_value(cards: Sequence[Card], low_aces: int) -> int:
    """What melded cards score: aces 15 but ``low_aces`` of them 1, jokers 15, J Q K 10."""
    return spot_total(cards, ace=ACE, joker=JOKER) - low_aces * (ACE - LOW_ACE)


def in_hand_value(cards: Sequence[Card]) -> int:
    """What the cards left in hand cost: aces and jokers 15, J Q K 10, 2–10 face value."""
    return spot_total(cards, ace=ACE, joker=JOKER)


# --- Checking a hand -----------------------------------------------------------------------------


def _checked_hand(
    state: State, entry: HandEntry, options: Mapping[str, Any], number: int
) -> tuple[dict[str, Part], dict[str, Part]]:
    """Each player's melded and in-hand parts, or a RuleError naming every problem: each
    player's own, who went out, then the deck (melded and in-hand cards together)."""
    problems = Problems()
    if entry.rummy:
        problems.add(_no_rummy())
    given = len(entry.results)
    named = {canonical(state, r.player) for r in entry.results}
    missing = tuple(ResultEntry(p) for p in state.seats if p not in named)
    by_player = index_results(state, replace(entry, results=entry.results + missing), problems)
    out = canonical(state, entry.out)
    worth = deck_worth(len(state.seats), options)
    melded: dict[str, Part] = {}
    in_hand: dict[str, Part] = {}
    nothing_left: list[str] = []
    for player in state.seats:
        if player not in by_player:
            continue
        i, r = by_player[player]
        where = f"results[{i}]" if i < given else "results"
        if r.sitting_out:
            problems.add(_plays_every_hand(player, where))
            continue
        reader = _Reader(
            player,
            entries.own(r, Rummy500Result),
            where,
            player == out,
            worth,
            options,
            entry.cards_language,
        )
        try:
            melded[player] = reader.melded()
        except RuleError as e:
            problems.add(e)
            melded[player] = _misread(e)  # the deck is checked over the cards that did read
        try:
            in_hand[player] = reader.in_hand(out is not None)
        except RuleError as e:
            problems.add(e)
            in_hand[player] = _misread(e)
            continue
        if player != out and in_hand[player].points == 0:
            nothing_left.append(player)
    if out is None and nothing_left:
        problems.add(
            RuleError(
                "Say who went out in hand {number}, or that nobody did.",
                field="out",
                players=tuple(nothing_left),
                number=number,
            )
        )
    _check_deck(melded, in_hand, len(state.seats), options, entry.cards_language, problems)
    problems.raise_found()
    return melded, in_hand


def _misread(error: RuleError) -> Part:
    """The cards that did read in a part refused, for the deck check alone (no points)."""
    return Part(cards_read(error), 0, error.field or "results")


def _no_rummy() -> RuleError:
    return RuleError(
        "{game} has no going-rummy bonus: mark the player who went out as out.",
        field="rummy",
        game=NAME,
    )


def _plays_every_hand(player: str, where: str) -> RuleError:
    return RuleError(
        "{player} plays every hand of {game}: enter what they melded and the cards left in "
        "their hand.",
        field=where,
        players=(player,),
        player=player,
        game=NAME,
    )


def _check_deck(
    melded: Mapping[str, Part],
    in_hand: Mapping[str, Part],
    players: int,
    options: Mapping[str, Any],
    language: str,
    problems: Problems,
) -> None:
    """No card more often than the deck in play has it, melded and in hand together."""
    cards: dict[str, tuple[Card, ...]] = {}
    fields: dict[str, str] = {}
    for p in dict.fromkeys([*melded, *in_hand]):
        mine = melded[p].cards if p in melded else ()
        held = in_hand[p].cards if p in in_hand else ()
        if mine or held:
            cards[p] = mine + held
            fields[p] = (melded[p] if mine else in_hand[p]).where
    n = packs(players)
    try:
        check_deck(cards, packs=n, jokers=n * options["jokers"], fields=fields, language=language)
    except RuleError as e:
        problems.add(e)


@dataclass(frozen=True)
class _Reader:
    """One player's result, read and checked: what they melded and what is left in hand."""

    player: str
    result: Rummy500Result
    where: str
    went_out: bool
    worth: int  # what the whole deck is worth
    options: Mapping[str, Any]
    language: str

    def _error(self, field: str, message: Phrase) -> RuleError:
        # A player with no result at all is pointed at the results, not at a field of one.
        where = self.where if self.where == "results" else f"{self.where}.{field}"
        return RuleError(message, field=where, players=(self.player,))

    def melded(self) -> Part:
        r = self.result
        if r.melded is not None and r.melded_points is not None:
            raise self._error(
                "melded_points",
                Phrase(
                    "{player}'s melded points are given twice: as cards and a total.",
                    player=self.player,
                ),
            )
        if r.melded_points is not None:
            part = self._melded_total(r.melded_points)
        elif r.melded is not None:
            part = self._melded_cards(r.melded)
        elif self.went_out:
            part = Part((), 0, f"{self.where}.melded")  # refused just below, as the player out's
        else:
            raise self._error(
                "melded",
                Phrase(
                    "{player}'s melded points are missing: enter 0 if they melded nothing.",
                    player=self.player,
                ),
            )
        if self.went_out and part.points == 0:
            field = part.where.rsplit(".", 1)[-1]
            raise self._error(
                field,
                Phrase(
                    "{player} went out, so they melded something: enter their melded points.",
                    player=self.player,
                ),
            )
        return part

    def _melded_total(self, total: object) -> Part:
        if self.result.low_aces is not None:
            raise self._error(
                "low_aces",
                Phrase(
                    "{player}'s low aces go with melded cards: a melded total already counts them.",
                    player=self.player,
                ),
            )
        if isinstance(total, bool) or not isinstance(total, int):
            raise self._error(
                "melded_points",
                Phrase("{player}'s melded points must be a whole number.", player=self.player),
            )
        if total < 0:
            raise self._error(
                "melded_points",
                Phrase(
                    "{player}'s melded points cannot be {total}: enter 0 if they melded nothing.",
                    player=self.player,
                    total=total,
                ),
            )
        if total > self.worth:
            raise self._error(
                "melded_points",
                Phrase(
                    "{player}'s melded points cannot be {total}: the deck is worth {worth}.",
                    player=self.player,
                    total=total,
                    worth=self.worth,
                ),
            )
        return Part((), total, f"{self.where}.melded_points")

    def _melded_cards(self, text: str) -> Part:
        cards = self._cards(text, "melded")
        low = self.result.low_aces
        low = 0 if low is None else low
        if isinstance(low, bool) or not isinstance(low, int) or low < 0:
            raise self._error(
                "low_aces",
                Phrase(
                    "{player}'s low aces must be a whole number, at least 0.", player=self.player
                ),
            )
        aces = sum(c.rank == "A" for c in cards)
        if low > aces:
            if aces == 1:
                raise self._error(
                    "low_aces",
                    Phrase(
                        "{player}'s low aces are {low}, but their melded cards hold {aces} ace.",
                        player=self.player,
                        low=low,
                        aces=aces,
                    ),
                )
            raise self._error(
                "low_aces",
                Phrase(
                    "{player}'s low aces are {low}, but their melded cards hold {aces} aces.",
                    player=self.player,
                    low=low,
                    aces=aces,
                ),
            )
        return Part(cards, melded_value(cards, low), f"{self.where}.melded")

    def in_hand(self, anyone_out: bool) -> Part:
        """The cards left in hand: none for the player out; some for everyone else, where
        somebody went out (with nobody out, an empty hand is the out's to name)."""
        r = self.result
        if r.spots is not None:
            return self._in_hand_total(r.spots, anyone_out)
        cards = self._cards(r.cards or "", "cards")
        if self.went_out and cards:
            shown = Cards(tuple(c.code for c in cards), True, self.language)
            raise self._error(
                "cards",
                Phrase(
                    "{player} went out, so has no cards left in hand: remove {cards}.",
                    player=self.player,
                    cards=shown,
                ),
            )
        if not self.went_out and not cards and anyone_out:
            raise self._error(
                "cards",
                Phrase(
                    "{player} did not go out, so has cards left in hand: enter them.",
                    player=self.player,
                ),
            )
        return Part(cards, in_hand_value(cards), f"{self.where}.cards")

    def _in_hand_total(self, total: object, anyone_out: bool) -> Part:
        where = f"{self.where}.spots"
        if self.options["entry"] != "totals" and not (self.went_out and total == 0):
            raise self._error(
                "spots",
                Phrase(
                    "This session asks for every player's cards: enter {player}'s cards.",
                    player=self.player,
                ),
            )
        if isinstance(total, bool) or not isinstance(total, int):
            raise self._error(
                "spots", Phrase("{player}'s total must be a whole number.", player=self.player)
            )
        if self.went_out and total != 0:
            raise self._error(
                "spots",
                Phrase("{player} went out, so their in-hand total is 0.", player=self.player),
            )
        if not self.went_out and total == 0 and anyone_out:
            raise self._error(
                "spots",
                Phrase(
                    "{player} did not go out, so has cards left in hand: enter them.",
                    player=self.player,
                ),
            )
        if total != 0 and total < 2:
            raise self._error(
                "spots",
                Phrase(
                    "{player}'s in-hand total cannot be {total}: the cheapest card is a two.",
                    player=self.player,
                    total=total,
                ),
            )
        if total > self.worth:
            raise self._error(
                "spots",
                Phrase(
                    "{player}'s in-hand total cannot be {total}: the deck is worth {worth}.",
                    player=self.player,
                    total=total,
                    worth=self.worth,
                ),
            )
        return Part((), total, where)

    def _cards(self, text: str, field: str) -> tuple[Card, ...]:
        return parse_cards(
            text,
            jokers=self.options["jokers"] > 0,
            game_name=NAME,
            player=self.player,
            field=f"{self.where}.{field}",
            language=self.language,
        )


class Rummy500(Game):
    result_type = Rummy500Result
    key = "rummy500"
    name = N_("Rummy 500")
    description = N_(
        "The melds score and the cards left in hand count against: the first to 500 ends "
        "the game, and the highest total wins."
    )
    min_players = 2
    max_players = 8
    money = False
    options = {
        "target": Option(
            500, minimum=1, maximum=MAX_TARGET, help=N_("The game ends when a score reaches this.")
        ),
        "jokers": Option(2, choices=(2, 0), help=N_("Jokers per pack, 15 points each.")),
        "entry": rummy.ENTRY,  # the same choice as Rummy's: cards, or totals
        **payout.OPTIONS,  # RULES.md §7: played for money
    }
    open_seating = True
    nobody_out = True
    rummy = False
    target_option = "target"
    preset = {"ace_value": ACE}

    def form_result(
        self,
        player: str,
        index: int,
        core: ResultEntry,
        posted: Mapping[str, Any],
        problems: Problems,
    ) -> Rummy500Result:
        """The cards left in hand, and what the player melded: points, or cards with the aces
        among them that counted 1."""
        melded = (posted.get("melded") or "").strip() or None
        found: dict[str, int | None] = {}
        for box in ("melded_points", "low_aces"):
            text = (posted.get(box) or "").strip()
            found[box] = entries.typed_whole(text) if text else None
            if text and found[box] is None:
                problems.add(RuleError("Give a whole number.", field=f"results[{index}].{box}"))
        return Rummy500Result(
            core.player, core.cards, core.spots, core.sitting_out, melded=melded, **found
        )

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return leaders(state, options)

    def packs(self, options: Mapping[str, Any], seated: int) -> int:
        return packs(seated)

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """Hands of melded points and cards left in hand, for a stake (samples.py)."""
        ann, bob = players[0], players[1]
        melded = {"player": bob, "melded": "AH 2H 3H", "low_aces": 1, "cards": "5D"}
        first = {"out": ann, "results": [{"player": ann, "melded_points": 30}, melded]}
        ann_left = {"player": ann, "melded_points": 0, "cards": "KD"}
        second = {"out": bob, "results": [ann_left, {"player": bob, "melded_points": 40}]}
        return SampleNight(
            (ann, bob), bob, {"stake": 1}, (Step("hand", first),), (Step("hand", second),), {}
        )


GAME = Rummy500()
