"""Spin Rummy (RULES.md §5): two players or solo, four contract rounds, the melds in hand score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
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
)
from ledger.rules.cards import SUITS, Card, Cards, cards_read, check_deck, parse_cards
from ledger.rules.errors import Param, Phrase, Problems, RuleError
from ledger.rules.game import Game, Progress
from ledger.rules.samples import SampleNight, Step
from ledger.rules.texts import N_

SPIN_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # aces high, no 2s
VALUES = {rank: value for value, rank in enumerate(SPIN_RANKS, start=3)}  # J 11 … A 14
ROUNDS = 4
HAND_SIZE = 6
SOLO_TARGET = 60

Meld = tuple[Card, ...]


@dataclass(frozen=True)
class Contract:
    """A round's goal: the most runs and sets that score, and the most melds in all."""

    words: str
    runs: int
    sets: int
    melds: int = 2


CONTRACTS = (
    Contract(N_("two melds"), runs=2, sets=2),
    Contract(N_("two runs"), runs=2, sets=0),
    Contract(N_("one run and one set"), runs=1, sets=1),
    Contract(N_("two sets"), runs=0, sets=2),
)


def contract(round_no: int) -> Contract:
    """The contract of a round; tie-break rounds after the fourth replay round 4's."""
    return CONTRACTS[min(round_no, ROUNDS) - 1]


def kind(meld: Sequence[Card]) -> str | None:
    """``"set"``, ``"run"`` or None: three of a rank in different suits, or three in suit."""
    if len(meld) != 3:
        return None
    ranks = {c.rank for c in meld}
    suits = {c.suit for c in meld}
    if len(ranks) == 1 and len(suits) == 3:
        return "set"
    places = sorted(SPIN_RANKS.index(c.rank) for c in meld if c.rank in SPIN_RANKS)
    # Aces are high only: A is the last place, so A-3-4 never counts as a sequence.
    if len(suits) == 1 and len(places) == 3 and places[2] - places[0] == 2 and len(ranks) == 3:
        return "run"
    return None


def score(meld: Sequence[Card]) -> int:
    """A set scores its rank, a run its lowest card: both are the lowest value in the meld."""
    return min(VALUES[c.rank or ""] for c in meld)


def best(melds: Sequence[Meld], goal: Contract) -> tuple[Meld, ...]:
    """The melds, no card used twice and within the contract, that score the most."""
    chosen: tuple[Meld, ...] = ()
    top = 0
    for size in range(1, goal.melds + 1):
        for pick in combinations(melds, size):
            cards = [c.code for m in pick for c in m]
            runs = sum(kind(m) == "run" for m in pick)
            if len(set(cards)) < len(cards) or runs > goal.runs or size - runs > goal.sets:
                continue
            total = sum(score(m) for m in pick)
            if total > top:
                chosen, top = pick, total
    return chosen


def melds_in(cards: Sequence[Card]) -> list[Meld]:
    """Every meld three of these cards make (at most 20 triples in a hand of 6)."""
    return [_ordered(m) for m in combinations(cards, 3) if kind(m)]


@dataclass(frozen=True)
class SpinResult(ResultEntry):
    """A player's result in Spin Rummy: the cards in hand, or the melds laid out, one text
    each (RULES.md §5)."""

    melds: tuple[str, ...] | None = entries.entry_field(entries.CARD_LIST, alternative=True)


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """Score one round: each player's best melds for the contract, then the game's end."""
    seats, dealer = state.seats, state.dealer
    round_no = state.hands_played + 1
    goal = contract(round_no)
    hands, offered = _checked_hands(state, entry)

    scoring = {p: best(offered[p], goal) for p in seats}
    points = {p: sum(score(m) for m in scoring[p]) for p in seats}
    scores = dict(state.scores)
    for p in seats:
        scores[p] = scores.get(p, 0) + points[p]

    finished = False
    winners: tuple[str, ...] = ()
    if round_no >= ROUNDS:
        ahead = _leaders(scores, seats)
        # Solo ends after round 4 won or lost; a tie plays round 4's contract again.
        finished = len(seats) == 1 or len(ahead) == 1
        winners = ahead if finished else ()

    round_top = max(points.values())
    results = tuple(
        PlayerResult(player=p, cards=hands[p], spots=points[p], points=points[p], melds=scoring[p])
        for p in seats
    )
    after = replace(
        state,
        scores=scores,
        hands_played=round_no,
        dealer=left_of(seats, dealer),  # the starting player alternates every round
        finished=finished,
        winners=winners,
    )
    return HandOutcome(
        number=round_no,
        dealer=dealer,
        leader=dealer,  # the starting player deals and plays first
        results=results,
        out=canonical(state, entry.out),  # who called rummy: recorded, it scores nothing
        winners=tuple(p for p in seats if round_top > 0 and points[p] == round_top),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
    )


def progress(state: State, options: Mapping[str, Any]) -> Progress | None:
    """The round to be entered next and its contract (None once the game is over)."""
    if state.finished:
        return None
    n = state.hands_played + 1
    return Progress(round=n, hand=1, hands_in_round=1, rounds=ROUNDS, contract=contract(n).words)


def _ordered(meld: Sequence[Card]) -> Meld:
    return tuple(
        sorted(meld, key=lambda c: (SPIN_RANKS.index(c.rank or ""), SUITS.index(c.suit or "S")))
    )


def _checked_hands(
    state: State, entry: HandEntry
) -> tuple[dict[str, tuple[Card, ...]], dict[str, list[Meld]]]:
    """Each player's cards and the melds they may score from, or a RuleError naming every
    problem: each player's own, then the deck's."""
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    if entry.rummy:
        raise RuleError(
            "Spin Rummy has no going-rummy bonus: name who called rummy as the player out.",
            field="rummy",
        )
    problems = Problems()
    by_player = index_results(state, entry, problems)
    hands: dict[str, tuple[Card, ...]] = {}
    offered: dict[str, list[Meld]] = {}
    fields: dict[str, str] = {}
    for player in state.seats:
        try:
            if player not in by_player:
                raise RuleError(
                    "{player} has no result in this round: the player who called rummy "
                    "shows their hand too.",
                    field="results",
                    players=(player,),
                    player=player,
                )
            i, result = by_player[player]
            hands[player], offered[player], fields[player] = _checked_player(
                player, i, result, entry.cards_language
            )
        except RuleError as e:
            # index_results has told of a player with no result already, unless it was out.
            if player in by_player or player == canonical(state, entry.out):
                problems.add(e)
            if cards_read(e) and e.field:  # the deck is checked over the cards that did read
                hands[player], fields[player] = cards_read(e), e.field
    try:
        check_deck(
            {p: c for p, c in hands.items() if c},
            packs=1,
            jokers=0,
            fields=fields,
            language=entry.cards_language,
        )
    except RuleError as e:
        problems.add(e)
    problems.raise_found()
    return hands, offered


def _checked_player(
    player: str, i: int, result: ResultEntry, language: str
) -> tuple[tuple[Card, ...], list[Meld], str]:
    """One player's cards, the melds they may score from, and the field they were given in."""
    result = entries.own(result, SpinResult)
    if result.sitting_out or result.spots is not None:
        raise RuleError(
            "Spin Rummy scores the melds in hand: enter {player}'s cards or melds.",
            field=f"results[{i}]",
            players=(player,),
            player=player,
        )
    if result.melds is not None:
        where = f"results[{i}].melds"
        problems = Problems()
        melds = []
        for j, text in enumerate(result.melds):
            try:
                melds.append(_checked_meld(player, text, f"{where}[{j}]", j, language))
            except RuleError as e:
                problems.add(e)
        problems.raise_found()
        cards = tuple(c for m in melds for c in m)
        offered = melds
    else:
        where = f"results[{i}].cards"
        cards = _parse(player, result.cards or "", where, language)
        offered = melds_in(cards)
    if len(cards) > HAND_SIZE:
        raise RuleError(
            "{player} holds at most {most} cards at the tally, not {count}.",
            field=where,
            players=(player,),
            player=player,
            most=HAND_SIZE,
            count=len(cards),
        )
    return cards, offered, where


def _parse(player: str, text: str, where: str, language: str) -> tuple[Card, ...]:
    return parse_cards(
        text,
        ranks=SPIN_RANKS,
        suits_required=True,
        game_name="Spin Rummy",
        player=player,
        field=where,
        language=language,
    )


def _checked_meld(player: str, text: str, where: str, j: int, language: str) -> Meld:
    meld = _parse(player, text, where, language)
    if kind(meld) is None:
        shown: Param = Phrase("empty")
        if meld:
            shown = Cards(tuple(c.code for c in meld), language=language)
        raise RuleError(
            "{player}'s meld {number} ({cards}) is not a meld: a set is three cards of one rank "
            "in different suits, a run three cards of one suit in sequence (aces high only).",
            field=where,
            players=(player,),
            player=player,
            number=j + 1,
            cards=shown,
        )
    return _ordered(meld)


def contract_misfits(
    round_no: int, player: str, row: int, melds: Sequence[str], language: str = "en"
) -> list[RuleError]:
    """The melds ``player`` (result ``row``) laid out that round ``round_no``'s contract does
    not take: a kind it has no room for (a set in "two runs", a second run in "one run and
    one set"). What is no meld at all, or a bad card, the round's scoring names."""
    goal = contract(round_no)
    room = {"run": goal.runs, "set": goal.sets}
    problems: list[RuleError] = []
    for j, text in enumerate(melds):
        try:
            meld = _parse(player, text, "", language)
        except RuleError:
            continue
        found = kind(meld)
        if found is None:
            continue
        room[found] -= 1
        if room[found] < 0:
            problems.append(
                RuleError(
                    "{player}'s meld {number} ({cards}) does not fit round {round}'s contract: "
                    "{contract}.",
                    field=f"results[{row}].melds[{j}]",
                    players=(player,),
                    player=player,
                    number=j + 1,
                    cards=Cards(tuple(c.code for c in meld), language=language),
                    round=round_no,
                    contract=Phrase(goal.words),
                )
            )
    return problems


def _leaders(scores: Mapping[str, int], seats: Sequence[str]) -> tuple[str, ...]:
    """Who is winning: solo, the player with at least the target; else the highest total
    (equal highest share it)."""
    if len(seats) == 1:
        return tuple(p for p in seats if scores[p] >= SOLO_TARGET)
    top = max(scores[p] for p in seats)
    return tuple(p for p in seats if scores[p] == top)


class SpinRummy(Game):
    result_type = SpinResult
    key = "spin"
    name = N_("Spin Rummy")
    description = N_("Two players (or solo), four contract rounds: the melds in hand score.")
    min_players = 1
    max_players = 2
    money = False
    options = {**payout.OPTIONS}
    ranks = SPIN_RANKS
    values = VALUES
    melds_score = True
    rounds = True
    meld_boxes = max(c.melds for c in CONTRACTS)
    out_scores = False

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        return progress(state, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return _leaders(state.scores, state.seats)

    def first_player(self, state: State) -> str:
        return state.dealer

    def form_result(
        self,
        player: str,
        index: int,
        core: ResultEntry,
        posted: Mapping[str, Any],
        problems: Problems,
    ) -> SpinResult:
        """The cards in hand, or the melds laid out, one box each (empty boxes left out)."""
        typed = posted.get("melds") or ()
        melds = tuple(t.strip() for t in typed[: self.meld_boxes] if t and t.strip())
        if not melds:
            return entries.own(core, SpinResult)
        if core.cards:
            problems.add(
                RuleError(
                    "Give either {name}'s cards or the melds, not both.",
                    field=f"results[{index}]",
                    name=player,
                )
            )
        return SpinResult(player, melds=melds)

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> HandEntry:
        """The page's own check before the engine scores: a player lays out the contract's
        melds, so a set typed in a round of two runs is a slip to fix, not a meld that
        silently scores 0 (each beside its row)."""
        for i, result in enumerate(core.results):
            melds = entries.own(result, SpinResult).melds or ()
            for problem in contract_misfits(number, result.player, i, melds, core.cards_language):
                problems.add(problem)
        return core

    def meld_value(self, cards: Sequence[Card]) -> int | None:
        return score(cards)

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """Hands entered as melds laid out, both players' (ledger/rules/samples.py)."""
        ann, bob = players[0], players[1]
        first = {ann: ["4S 5S 6S"], bob: ["3S 3H 3D", "7C 8C 9C"]}
        second = {ann: [], bob: ["5H 5D 5C"]}
        hands = [
            {"results": [{"player": p, "melds": m} for p, m in h.items()]} for h in (first, second)
        ]
        return SampleNight(
            (ann, bob), ann, {}, (Step("hand", hands[0]),), (Step("hand", hands[1]),), {}
        )


GAME = SpinRummy()
