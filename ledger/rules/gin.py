"""Gin Rummy (RULES.md §8): two players, knock or gin, boxes and a game bonus at the end.

Each hand ends in a knock, a gin, a big gin (where the session plays it) or a draw; one player
scores it, from the deadwood both players are left with. The scores are the hands' points; the
bonuses are added once the game is over (``bonuses``, ``final_scores``), and §7's money is
worked out on those final totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

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
from ledger.rules.errors import Problems, RuleError
from ledger.rules.game import Game, Option
from ledger.rules.samples import SampleNight, Step
from ledger.rules.texts import N_

KNOCK, GIN, BIG_GIN, DRAW = "knock", "gin", "big_gin", "draw"
ENDINGS: tuple[str, ...] = (KNOCK, GIN, BIG_GIN, DRAW)
BIG_GIN_BONUS = 31  # 25 + 6, as [W-gin] and [GR]
KNOCK_MOST = 10  # a knock needs 10 or less
HAND_SIZE = 10
MOST_DEADWOOD = 100  # ten picture cards
MAX_BONUS = 10_000
MAX_TARGET = 100_000
NAME = "Gin Rummy"


@dataclass(frozen=True)
class Deadwood:
    """One player's deadwood in a hand, as entered and checked."""

    player: str
    cards: tuple[Card, ...]
    value: int


# --- A hand --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GinEntry(HandEntry):
    """A hand of Gin Rummy (RULES.md §8): how it ended, "knock", "gin", "big_gin" or "draw",
    beside the deadwood."""

    ending: str | None = entries.entry_field(entries.TEXT)


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """Score one hand: check it whole, then who scores what, the boxes and the game's end."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    number = state.hands_played + 1
    ending, out, dead = _checked_hand(state, entry, opts, number)
    if ending == DRAW or out is None:
        return _draw(state, number)
    other = next(p for p in state.seats if p != out)
    scorer, points = hand_points(ending, out, other, dead[out].value, dead[other].value, opts)
    scores = dict(state.scores)
    scores[scorer] = scores.get(scorer, 0) + points
    wins = dict(state.wins)
    wins[scorer] = wins.get(scorer, 0) + 1
    finished = scores[scorer] >= opts["target"]
    results = tuple(
        PlayerResult(
            player=p,
            cards=dead[p].cards,
            spots=dead[p].value,
            points=points if p == scorer else 0,
        )
        for p in state.seats
    )
    after = replace(
        state,
        scores=scores,
        wins=wins,
        hands_played=number,
        dealer=left_of(state.seats, state.dealer),  # the deal alternates
        finished=finished,
        winners=(scorer,) if finished else (),
    )
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=results,
        out=out,
        winners=(scorer,),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
        ending=ending,
    )


def hand_points(
    ending: str, out: str, other: str, knocker: int, defender: int, options: Mapping[str, Any]
) -> tuple[str, int]:
    """Who scores a hand and how much (RULES.md §8), from the deadwood of the player who
    knocked or went gin (``out``, K) and of the other player (D)."""
    if ending == GIN:
        return out, defender + options["gin_bonus"]
    if ending == BIG_GIN:
        return out, defender + BIG_GIN_BONUS
    if knocker < defender:
        return out, defender - knocker
    # Equal counts are an undercut too: the knocker chose to stop.
    return other, knocker - defender + options["undercut_bonus"]


def _draw(state: State, number: int) -> HandOutcome:
    """A draw: listed, nobody scores or wins the hand, and the same dealer deals again."""
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=tuple(PlayerResult(player=p, points=0) for p in state.seats),
        out=None,
        winners=(),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=replace(state, hands_played=number),
        ending=DRAW,
    )


# --- Checking a hand -----------------------------------------------------------------------------


def _checked_hand(
    state: State, entry: HandEntry, options: Mapping[str, Any], number: int
) -> tuple[str, str | None, dict[str, Deadwood]]:
    """How the hand ended, who knocked or went gin, and both players' deadwood; or a
    RuleError naming every problem: the ending, each player's deadwood, then the deck."""
    problems = Problems()
    ending = _checked_ending(entry, options, number, problems)
    if ending == DRAW:
        _check_draw(state, entry, number, problems)
        problems.raise_found()
        return DRAW, None, {}
    given = len(entry.results)
    named = {canonical(state, r.player) for r in entry.results}
    missing = tuple(ResultEntry(p) for p in state.seats if p not in named)
    by_player = index_results(state, replace(entry, results=entry.results + missing), problems)
    out = canonical(state, entry.out)
    if ending is not None and entry.out is None:
        problems.add(_say_how_it_ended(number, "out"))
    dead: dict[str, Deadwood] = {}
    misread: dict[str, tuple[Card, ...]] = {}
    fields: dict[str, str] = {}
    for player, (i, result) in by_player.items():
        where = f"results[{i}]" if i < given else "results"
        try:
            dead[player] = _deadwood(player, result, where, ending, out, state, options, entry)
        except RuleError as e:
            problems.add(e)
            if cards_read(e) and e.field:  # the deck is checked over the cards that did read
                misread[player], fields[player] = cards_read(e), e.field
            continue
        fields[player] = f"{where}.cards"
    try:
        hands = {p: dead[p].cards if p in dead else misread.get(p, ()) for p in by_player}
        check_deck(hands, fields=fields, language=entry.cards_language)
    except RuleError as e:
        problems.add(e)
    problems.raise_found()
    assert ending is not None and out is not None  # else a problem was raised
    return ending, out, dead


def _say_how_it_ended(number: int, where: str) -> RuleError:
    return RuleError(
        "Say how hand {number} ended: who knocked, who went gin, or that it was a draw.",
        field=where,
        number=number,
    )


def _checked_ending(
    entry: HandEntry, options: Mapping[str, Any], number: int, problems: Problems
) -> str | None:
    """The hand's ending, if it is one this session plays; else None, with the problem."""
    if entry.rummy:
        problems.add(
            RuleError(
                "{game} has no going-rummy bonus: mark the player who went out as out.",
                field="rummy",
                game=NAME,
            )
        )
    ending = entries.own(entry, GinEntry).ending
    if ending not in ENDINGS:
        problems.add(_say_how_it_ended(number, "ending"))
        return None
    if ending == BIG_GIN and options["big_gin"] != "on":
        problems.add(
            RuleError(
                "Big gin is not played in this session: enter it as gin, or turn on big_gin.",
                field="ending",
            )
        )
        return None
    return ending


def _check_draw(state: State, entry: HandEntry, number: int, problems: Problems) -> None:
    """A draw takes nobody out and no deadwood; a result may name a seated player only."""
    if entry.out is not None:
        problems.add(
            RuleError(
                "Hand {number} was a draw: nobody knocked or went gin.", field="out", number=number
            )
        )
    for i, r in enumerate(entry.results):
        player = canonical(state, r.player)
        if player is None:
            problems.add(
                RuleError(
                    "{player} is not seated in this session.",
                    field=f"results[{i}].player",
                    player=r.player,
                )
            )
        elif r.spots is not None or (r.cards or "").strip() or r.sitting_out:
            problems.add(
                RuleError(
                    "Hand {number} was a draw: it takes no deadwood.",
                    field=f"results[{i}]",
                    players=(player,),
                    number=number,
                )
            )


def _deadwood(
    player: str,
    result: ResultEntry,
    where: str,
    ending: str | None,
    out: str | None,
    state: State,
    options: Mapping[str, Any],
    entry: HandEntry,
) -> Deadwood:
    """One player's deadwood, checked for the part they played in the hand."""
    went_gin = player == out and ending in (GIN, BIG_GIN)
    knocked = player == out and ending == KNOCK
    if result.sitting_out:
        raise RuleError(
            "{player} plays every hand of {game}: enter their unmatched cards.",
            field=where,
            players=(player,),
            player=player,
            game=NAME,
        )
    if result.cards is None and result.spots is None:
        if went_gin or ending is None:  # with no ending, the ending's refusal says it all
            return Deadwood(player, (), 0)
        raise _missing(player, where, knocked)
    if result.spots is not None:
        value = _checked_total(player, result.spots, f"{where}.spots", went_gin, options)
        cards: tuple[Card, ...] = ()
    else:
        cards = _checked_cards(player, result.cards or "", f"{where}.cards", went_gin, entry)
        value = spot_total(cards)
    if knocked:
        other = next(p for p in state.seats if p != player)
        kind = "cards" if result.spots is None else "spots"
        _check_knock(player, other, value, f"{where}.{kind}")
    return Deadwood(player, cards, value)


def _missing(player: str, where: str, knocked: bool) -> RuleError:
    if knocked:
        return RuleError(
            "Knocker {player}'s deadwood is missing: enter their unmatched cards.",
            field=where,
            players=(player,),
            player=player,
        )
    return RuleError(
        "{player}'s deadwood is missing: enter their unmatched cards after laying off.",
        field=where,
        players=(player,),
        player=player,
    )


def _checked_cards(
    player: str, text: str, where: str, went_gin: bool, entry: HandEntry
) -> tuple[Card, ...]:
    """A player's unmatched cards: none after gin, at most the ten a player holds."""
    cards = parse_cards(
        text, game_name=NAME, player=player, field=where, language=entry.cards_language
    )
    if went_gin and cards:
        raise RuleError(
            "{player} went gin, so has no deadwood: remove {cards}.",
            field=where,
            players=(player,),
            player=player,
            cards=Cards(tuple(c.code for c in cards), True, entry.cards_language),
        )
    if len(cards) > HAND_SIZE:
        raise RuleError(
            "{player}'s deadwood has {count} cards: a player holds {most}.",
            field=where,
            players=(player,),
            player=player,
            count=len(cards),
            most=HAND_SIZE,
        )
    return cards


def _checked_total(
    player: str, total: object, where: str, went_gin: bool, options: Mapping[str, Any]
) -> int:
    """A deadwood total typed instead of the cards: whole, 0 to 100, 0 after gin."""
    if options["entry"] != "totals" and not (went_gin and total == 0):
        raise RuleError(
            "This session asks for every player's cards: enter {player}'s cards.",
            field=where,
            players=(player,),
            player=player,
        )
    if isinstance(total, bool) or not isinstance(total, int):
        raise RuleError(
            "{player}'s total must be a whole number.",
            field=where,
            players=(player,),
            player=player,
        )
    if went_gin and total != 0:
        raise RuleError(
            "{player} went gin, so their deadwood is 0.",
            field=where,
            players=(player,),
            player=player,
        )
    if total < 0:
        raise RuleError(
            "{player}'s deadwood cannot be {total}: it is 0 or more.",
            field=where,
            players=(player,),
            player=player,
            total=total,
        )
    if total > MOST_DEADWOOD:
        raise RuleError(
            "{player}'s deadwood cannot be {total}: ten cards are worth at most {most}.",
            field=where,
            players=(player,),
            player=player,
            total=total,
            most=MOST_DEADWOOD,
        )
    return total


def _check_knock(player: str, other: str, value: int, where: str) -> None:
    """A knock needs 1 to 10 points of deadwood: none is a gin."""
    if value == 0:
        raise RuleError(
            "Knocker {player}'s deadwood is 0: that is gin — enter it as {player}'s gin "
            "({other} lays nothing off).",
            field=where,
            players=(player,),
            player=player,
            other=other,
        )
    if value > KNOCK_MOST:
        raise RuleError(
            "Knocker {player}'s deadwood is {value}: a knock needs {most} or less.",
            field=where,
            players=(player,),
            player=player,
            value=value,
            most=KNOCK_MOST,
        )


# --- The end of the game -------------------------------------------------------------------------


@dataclass(frozen=True)
class Bonus:
    """What the end of a game adds to one player's hand points (RULES.md §8)."""

    hands: int  # the hand points as they count at the end (doubled for a shutout's winner
    # with ``double_hands``)
    game: int  # the game bonus: the winner's, doubled for a shutout with ``double_bonus``
    boxes: int  # hands won
    box_points: int  # boxes × ``box_bonus``
    shutout: bool  # the winner's opponent won no hand

    @property
    def total(self) -> int:
        return self.hands + self.game + self.box_points


def bonuses(state: State, options: Mapping[str, Any]) -> dict[str, Bonus]:
    """Each player's end of the game: the game bonus to the player who reached the target
    (none for a game ended at the table before anyone did), boxes for every hand won, the
    shutout's doubling. Not counted towards the target; the final totals are their sum."""
    opts = {**GAME.defaults(), **options}
    players = list(state.scores)
    reached = [p for p in players if state.scores[p] >= opts["target"]]
    winner = reached[0] if len(reached) == 1 else None
    shutout = winner is not None and all(not state.wins.get(p, 0) for p in players if p != winner)
    found: dict[str, Bonus] = {}
    for p in players:
        hands, game = state.scores[p], 0
        if p == winner:
            game = opts["game_bonus"]
            if shutout and opts["shutout"] == "double_bonus":
                game *= 2
            if shutout and opts["shutout"] == "double_hands":
                hands *= 2
        boxes = state.wins.get(p, 0)
        found[p] = Bonus(hands, game, boxes, boxes * opts["box_bonus"], shutout and p == winner)
    return found


def bonus_points(state: State, options: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Each player's end of the game in points, as the session answers it: the hand points
    as they count (doubled for a shutout's ``double_hands``), the game bonus, the boxes'
    points, the hands won and whether it was a shutout (1) or not (0)."""
    return {
        p: {
            "hands": b.hands,
            "game": b.game,
            "boxes": b.box_points,
            "hands_won": b.boxes,
            "shutout": int(b.shutout),
        }
        for p, b in bonuses(state, options).items()
    }


def final_scores(state: State, options: Mapping[str, Any]) -> dict[str, int]:
    """Each player's final total: hand points, game bonus and boxes (what §7 pays on)."""
    return {p: b.total for p, b in bonuses(state, options).items()}


def leaders(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    """Who wins where the game stands: the highest final total (a game ended at the table
    before the target has no game bonus, its boxes still count); equal best share."""
    totals = final_scores(state, options)
    seated = [p for p in state.seats if p in totals]
    best = max(totals[p] for p in seated)
    return tuple(p for p in seated if totals[p] == best)


# --- A hand in words -----------------------------------------------------------------------------


class Result(Protocol):
    """A player's result as the story reads it (the engine's PlayerResult, or a stored one)."""

    @property
    def player(self) -> str: ...
    @property
    def spots(self) -> int | None: ...
    @property
    def points(self) -> int | None: ...


@dataclass(frozen=True)
class Story:
    """What a hand did, for its line on the scoreboard: "Ann knocks 4 v 24: Ann +20", "Bob
    knocks 8, Ann undercuts with 6: Ann +27", "Bob gin v 29: Bob +54", "Draw"."""

    ending: str
    by: str | None  # who knocked or went gin
    deadwood: int | None  # theirs
    other: str | None
    against: int | None  # the other player's
    scorer: str | None
    points: int

    @property
    def undercut(self) -> bool:
        return self.ending == KNOCK and self.scorer is not None and self.scorer != self.by


def story(ending: str | None, out: str | None, results: Sequence[Result]) -> Story:
    """The story of a stored hand: its ending, who went out, its results."""
    if ending not in (KNOCK, GIN, BIG_GIN) or out is None:
        return Story(DRAW, None, None, None, None, None, 0)
    mine = next(r for r in results if r.player == out)
    theirs = next(r for r in results if r.player != out)
    scorer = next((r for r in results if r.points), None)
    return Story(
        ending=ending,
        by=out,
        deadwood=mine.spots,
        other=theirs.player,
        against=theirs.spots,
        scorer=scorer.player if scorer is not None else None,
        points=(scorer.points or 0) if scorer is not None else 0,
    )


def endings(options: Mapping[str, Any]) -> tuple[str, ...]:
    """How a hand may end in a session with these options: big gin only where it is played."""
    if options.get("big_gin") == "on":
        return ENDINGS
    return tuple(e for e in ENDINGS if e != BIG_GIN)


# --- The game ------------------------------------------------------------------------------------


def _bonus(default: int, words: str) -> Option:
    return Option(default, minimum=0, maximum=MAX_BONUS, help=words)


class GinRummy(Game):
    entry_type = GinEntry
    key = "gin"
    name = N_("Gin Rummy")
    description = N_(
        "Two players knock or go gin: the deadwood left scores, with bonuses for gin, an "
        "undercut, each hand won and the game."
    )
    min_players = 2
    max_players = 2
    money = False
    options = {
        "gin_bonus": _bonus(25, N_("Points for going gin, beside the other's deadwood.")),
        "undercut_bonus": _bonus(25, N_("Points for an undercut, beside the difference.")),
        "box_bonus": _bonus(25, N_("Points at the end for each hand won.")),
        "big_gin": Option(
            "off", choices=("off", "on"), help=N_("Big gin (all eleven cards melded): 31 points.")
        ),
        "target": Option(
            100, minimum=1, maximum=MAX_TARGET, help=N_("The game ends when a score reaches this.")
        ),
        "game_bonus": _bonus(100, N_("Points for the winner of the game.")),
        "shutout": Option(
            "double_bonus",
            choices=("double_bonus", "double_hands", "none"),
            help=N_(
                "When the loser won no hand: the game bonus doubled, the winner's hand points "
                "doubled, or nothing more."
            ),
        ),
        "entry": rummy.ENTRY,  # the same choice as Rummy's: cards, or totals
        **payout.OPTIONS,  # RULES.md §7: played for money, on the final totals
    }
    open_seating = False
    nobody_out = True
    rummy = False
    target_option = "target"
    out_empty_endings = (GIN, BIG_GIN)
    no_result_endings = (DRAW,)

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return leaders(state, options)

    def final_scores(self, state: State, options: Mapping[str, Any]) -> dict[str, int]:
        return final_scores(state, options)

    def bonuses(self, state: State, options: Mapping[str, Any]) -> dict[str, dict[str, int]] | None:
        return bonus_points(state, options)

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """A finished game's bonuses by player (RULES.md §8)."""
        if status != "finished":
            return {}
        return {"bonuses": bonus_points(state, {**self.defaults(), **options})}

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> GinEntry:
        """How the hand ended comes first; a draw takes no results at all."""
        ending = str(posted.get("ending") or "").strip() or None
        if ending in self.no_result_endings:
            core = replace(core, results=(), out=None)  # a draw: the page asks for nothing more
        return GinEntry(core.results, core.out, core.rummy, core.cards_language, ending=ending)

    def endings(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return endings(options)

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """A knock and two gins, for a stake, to 50: it ends by itself (samples.py)."""
        ann, bob = players[0], players[1]
        knock = {"out": ann, "ending": "knock", "results": _said({ann: "2C", bob: "KS QS"})}
        gin = {"out": bob, "ending": "gin", "results": _said({ann: "9H 9D"})}
        last = {"out": bob, "ending": "gin", "results": _said({ann: "KH KD KC 5H"})}
        before = (Step("hand", knock), Step("hand", gin))
        options = {"target": 50, "stake": 1}
        return SampleNight((ann, bob), bob, options, before, (Step("hand", last),), None)


def _said(cards: Mapping[str, str]) -> list[dict[str, str]]:
    """A hand's results as the API takes them: each player's cards left in hand."""
    return [{"player": p, "cards": c} for p, c in cards.items()]


GAME = GinRummy()
