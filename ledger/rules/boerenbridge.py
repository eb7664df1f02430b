"""Boerenbridge (RULES.md §15): each round every player says how many tricks they will take;
only an exact prediction scores.

The rounds are dealt with a growing and then shrinking number of cards (``order``), up to
``max_cards``; the deal passes to the left. The bids of the next round may be saved before it
is played (``save_bids``, the game's ``bids`` call, kept in the state), the tricks entered
after; or both at once. The dealer bids last and, under ``hook``, may not make the bids add up
to the round's cards. An exact bid scores ``made`` plus ``per_trick`` a trick; any other
result loses ``missed`` a trick over or under. The game ends after the last round; the highest
total wins. Money as §7.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.rules import entries, payout
from ledger.rules.base import (
    HandEntry,
    HandOutcome,
    PlayerResult,
    ResultEntry,
    State,
    canonical,
    in_play_order,
    left_of,
    next_seat,
)
from ledger.rules.book_columns import HandColumn, hand_field, result_field
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, Progress, check_players
from ledger.rules.lengths import optional_whole
from ledger.rules.samples import SampleNight, Step
from ledger.rules.table import PaperRows
from ledger.rules.texts import N_

NAME = "Boerenbridge"
PACK = 52
MOST_CARDS = 10  # the most cards a round deals, whatever the players
UP_DOWN, DOWN_UP = "up_down", "down_up"
OVER_THREE, ALWAYS, NEVER = "over_three", "always", "never"
SCORING_MOST = 100  # the most ``made``, ``per_trick`` or ``missed`` may be
BIDS = "bids"  # the game's call, and where the state keeps the bids saved


@dataclass(frozen=True)
class BidResult:
    """A player's round (API.md fourth edition): their bid and the tricks they took. A bid
    saved before the round (``save_bids``) may be left out."""

    player: str = field(metadata={"kind": entries.TEXT})
    bid: int | None = entries.entry_field(entries.WHOLE)
    tricks: int | None = entries.entry_field(entries.WHOLE)


@dataclass(frozen=True)
class RoundEntry:
    """A round of Boerenbridge as entered: one result per player."""

    results: tuple[BidResult, ...] = field(metadata={"kind": entries.RESULTS})


# --- The rounds ----------------------------------------------------------------------------------


def most_cards(players: int, options: Mapping[str, Any]) -> int:
    """The cards of the longest round: ``max_cards``, or 52 ÷ players, at most 10."""
    chosen = options.get("max_cards")
    if isinstance(chosen, int) and not isinstance(chosen, bool):
        return chosen
    return min(PACK // max(players, 1), MOST_CARDS)


def rounds(players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The cards dealt in each round, in order: 1 … max … 1, or max … 1 … max."""
    top = most_cards(players, options)
    up, down = list(range(1, top + 1)), list(range(top, 0, -1))
    if options.get("order") == DOWN_UP:
        return tuple(down + up[1:])
    return tuple(up + down[1:])


def round_cards(state: State, options: Mapping[str, Any]) -> int | None:
    """The cards of the round to come; None once the last round is played."""
    dealt = rounds(len(state.seats), {**GAME.defaults(), **options})
    return dealt[state.hands_played] if state.hands_played < len(dealt) else None


def saved_bids(state: State) -> dict[str, int]:
    """The bids saved for the round to come (empty until they are)."""
    return {str(p): int(n) for p, n in (state.more.get(BIDS) or {}).items()}


def hooked(cards: int, options: Mapping[str, Any]) -> bool:
    """Whether the dealer may not make the bids add up to the round's cards in this round."""
    hook = options.get("hook", OVER_THREE)
    return hook == ALWAYS or (hook == OVER_THREE and cards > 3)


def forbidden_bid(cards: int, others: Sequence[int], options: Mapping[str, Any]) -> int | None:
    """The bid the dealer may not make after the others' bids, or None where any will do."""
    if not hooked(cards, options):
        return None
    left = cards - sum(others)
    return left if 0 <= left <= cards else None


def round_score(bid: int, tricks: int, options: Mapping[str, Any]) -> int:
    """An exact bid: ``made`` plus ``per_trick`` a trick; else minus ``missed`` a trick off."""
    if bid == tricks:
        return int(options["made"]) + int(options["per_trick"]) * tricks
    return -int(options["missed"]) * abs(tricks - bid)


# --- Playing a round -----------------------------------------------------------------------------


def play(state: State, entry: RoundEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One round: the bids (given, or saved before) and the tricks, checked whole, scored."""
    opts = {**GAME.defaults(), **options}
    cards = round_cards(state, opts)
    if state.finished or cards is None:
        raise RuleError("The game is over: no more rounds can be added.")
    bids, tricks = _checked_round(state, entries.own(entry, RoundEntry), cards, opts)
    points = {p: round_score(bids[p], tricks[p], opts) for p in state.seats}
    scores = dict(state.scores)
    for p, won in points.items():
        scores[p] = scores.get(p, 0) + won
    number = state.hands_played + 1
    finished = number == len(rounds(len(state.seats), opts))
    winners = _best(scores, state.seats) if finished else ()
    after = replace(
        state,
        dealer=next_seat(state.seats, state.dealer, 1),
        scores=scores,
        hands_played=number,
        finished=finished,
        winners=winners,
        more={},  # the bids saved were this round's
    )
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(state.seats, state.dealer),
        results=tuple(
            PlayerResult(p, points=points[p], more={"bid": bids[p], "tricks": tricks[p]})
            for p in state.seats
        ),
        out=None,
        winners=_round_winners(bids, tricks, state.seats),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
        more={"cards": cards},
    )


def _round_winners(
    bids: Mapping[str, int], tricks: Mapping[str, int], seats: Sequence[str]
) -> tuple[str, ...]:
    """The players whose bid was exact: the round's winners."""
    return tuple(p for p in seats if bids[p] == tricks[p])


def _best(scores: Mapping[str, int], seats: Sequence[str]) -> tuple[str, ...]:
    """The highest total among the seated; equal totals share the win."""
    top = max(scores[p] for p in seats)
    return tuple(p for p in seats if scores[p] == top)


def leaders(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    return _best(state.scores, [p for p in state.seats if p in state.scores])


def _checked_round(
    state: State, entry: RoundEntry, cards: int, options: Mapping[str, Any]
) -> tuple[dict[str, int], dict[str, int]]:
    """Every player's bid and tricks, checked; or a RuleError naming every problem."""
    problems = Problems()
    given = _by_player(state, entry.results, problems)
    saved = saved_bids(state)
    bids: dict[str, int] = {}
    tricks: dict[str, int] = {}
    for p in state.seats:
        if p not in given:
            continue
        i, r = given[p]
        where = f"results[{i}]"
        bid = r.bid if r.bid is not None else saved.get(p)
        for value, name, into in ((bid, "bid", bids), (r.tricks, "tricks", tricks)):
            try:
                into[p] = _in_round(p, value, name, cards, f"{where}.{name}")
            except RuleError as e:
                problems.add(e)
    if len(bids) == len(state.seats):
        _check_hook(state, bids, cards, options, problems, lambda p: f"results[{given[p][0]}].bid")
    if len(tricks) == len(state.seats) and sum(tricks.values()) != cards:
        problems.add(
            RuleError(
                "The tricks add up to {total}, but {round}: every trick is won by one player.",
                field="results",
                total=sum(tricks.values()),
                round=_round_has(cards),
            )
        )
    problems.raise_found()
    return bids, tricks


def _by_player(
    state: State, results: Sequence[BidResult], problems: Problems
) -> dict[str, tuple[int, BidResult]]:
    """Each seated player's result and its place in the entry: one each, nobody else's."""
    found: dict[str, tuple[int, BidResult]] = {}
    for i, r in enumerate(results):
        name = canonical(state, r.player)
        if name is None:
            problems.add(
                RuleError(
                    "{player} is not seated in this session.",
                    field=f"results[{i}].player",
                    player=r.player,
                )
            )
        elif name in found:
            problems.add(
                RuleError(
                    "{player} has two results in this hand.",
                    field=f"results[{i}].player",
                    players=(name,),
                    player=name,
                )
            )
        else:
            found[name] = (i, r)
    for p in state.seats:
        if p not in found:
            problems.add(
                RuleError(
                    "{player} has no result in this hand.",
                    field="results",
                    players=(p,),
                    player=p,
                )
            )
    return found


def _round_has(cards: int) -> Phrase:
    if cards == 1:
        return Phrase("this round has one card")
    return Phrase("this round has {cards} cards", cards=cards)


def _in_round(player: str, value: int | None, name: str, cards: int, where: str) -> int:
    """A bid or a number of tricks: given, 0 to the round's cards."""
    named = {"field": where, "players": (player,), "player": player}
    if value is None and name == "bid":
        raise RuleError("{player}'s bid is missing.", **named)  # type: ignore[arg-type]
    if value is None:
        raise RuleError("{player}'s tricks are missing.", **named)  # type: ignore[arg-type]
    if 0 <= value <= cards:
        return value
    if name == "bid":
        raise RuleError(
            "{player}'s bid cannot be {value}: {round}.",
            value=value,
            round=_round_has(cards),
            **named,  # type: ignore[arg-type]
        )
    raise RuleError(
        "{player}'s tricks cannot be {value}: {round}.",
        value=value,
        round=_round_has(cards),
        **named,  # type: ignore[arg-type]
    )


def _check_hook(
    state: State,
    bids: Mapping[str, int],
    cards: int,
    options: Mapping[str, Any],
    problems: Problems,
    where: Any,
) -> None:
    """The dealer, bidding last, may not make the bids add up to the round's cards."""
    dealer = state.dealer
    others = [bids[p] for p in state.seats if p != dealer]
    if forbidden_bid(cards, others, options) == bids[dealer]:
        problems.add(
            RuleError(
                "{player} deals and may not bid {bid}: the bids would add up to {cards}, "
                "the round's cards.",
                field=where(dealer),
                players=(dealer,),
                player=dealer,
                bid=bids[dealer],
                cards=cards,
            )
        )


# --- Saving the bids before a round --------------------------------------------------------------


def save_bids(state: State, body: Mapping[str, Any], options: Mapping[str, Any]) -> State:
    """The next round's bids, saved before it is played (API.md: ``PUT …/bids``): every
    player's, each 0 to the round's cards, the dealer's within the hook. A refusal names
    ``bids.<name>``."""
    opts = {**GAME.defaults(), **options}
    cards = round_cards(state, opts)
    if state.finished or cards is None:
        raise RuleError("The game is over: no more rounds can be added.")
    given = body.get(BIDS)
    if not isinstance(given, dict):
        raise entries.ShapeError("bids must be an object: each player's bid by name.", BIDS)
    problems = Problems()
    bids: dict[str, int] = {}
    for name, value in given.items():
        where = f"{BIDS}.{name}"
        player = canonical(state, str(name))
        if isinstance(value, bool) or not (value is None or isinstance(value, int)):
            raise entries.ShapeError(f"{where} must be a whole number.", where)
        if player is None:
            problems.add(
                RuleError("{player} is not seated in this session.", field=where, player=name)
            )
            continue
        try:
            bids[player] = _in_round(player, value, "bid", cards, where)
        except RuleError as e:
            problems.add(e)
    for p in state.seats:
        if p not in bids and not any(canonical(state, str(n)) == p for n in given):
            problems.add(
                RuleError("{player}'s bid is missing.", field=f"{BIDS}.{p}", players=(p,), player=p)
            )
    if len(bids) == len(state.seats):
        names = {canonical(state, str(n)): str(n) for n in given}
        _check_hook(state, bids, cards, opts, problems, lambda p: f"{BIDS}.{names.get(p, p)}")
    problems.raise_found()
    ordered = {p: bids[p] for p in in_play_order(state.seats, state.dealer)}
    return replace(state, more={**state.more, BIDS: ordered})


# --- The game ------------------------------------------------------------------------------------


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points).replace("-", "−")


def _start(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> None:
    """A longest round the pack can deal to everyone."""
    opts = {**GAME.defaults(), **options}
    seats = check_players(GAME, players, dealer)
    most = min(PACK // len(seats), MOST_CARDS)
    if most_cards(len(seats), opts) > most:
        raise RuleError(
            "With {count} players a round deals at most {most} cards each, not {cards}.",
            field="options.max_cards",
            count=len(seats),
            most=most,
            cards=most_cards(len(seats), opts),
        )


def _scoring(default: int, help_text: str, label: str) -> Option:
    return Option(default, minimum=0, maximum=SCORING_MOST, help=help_text, label=label)


class Boerenbridge(Game):
    key = "boerenbridge"
    name = N_("Boerenbridge")
    description = N_(
        "Dutch Oh Hell: each round everyone says how many tricks they will take, and only an "
        "exact bid scores."
    )
    min_players = 3
    max_players = 7
    options = {
        "max_cards": Option(
            None,
            parse=optional_whole("max_cards", 1, MOST_CARDS),
            help=N_("The cards of the longest round; off: 52 shared out, at most 10."),
            label=N_("Cards in the longest round (off: as many as the pack allows)"),
        ),
        "order": Option(
            UP_DOWN,
            choices=(UP_DOWN, DOWN_UP),
            help=N_("Rounds of 1 card up to the most and back, or the most down to 1 and back."),
            label=N_("The rounds go"),
            choice_labels={
                UP_DOWN: N_("up from 1 card to the most, and back"),
                DOWN_UP: N_("down from the most to 1 card, and back"),
            },
        ),
        "hook": Option(
            OVER_THREE,
            choices=(OVER_THREE, ALWAYS, NEVER),
            help=N_(
                "The dealer may not make the bids add up to the cards dealt (in rounds of more "
                "than three cards, always, or never)."
            ),
            label=N_("The dealer may not make the bids add up"),
            choice_labels={
                OVER_THREE: N_("in rounds of more than three cards"),
                ALWAYS: N_("in every round"),
                NEVER: N_("never: any bid will do"),
            },
        ),
        "made": _scoring(10, N_("Points for an exact bid."), N_("An exact bid scores")),
        "per_trick": _scoring(
            2, N_("Points for each trick taken with an exact bid."), N_("And a trick taken")
        ),
        "missed": _scoring(
            2, N_("Points off for each trick over or under the bid."), N_("A trick off costs")
        ),
        **payout.OPTIONS,  # RULES.md §7: played for money
    }
    entry_type = RoundEntry
    result_type = BidResult
    cards = False
    out_scores = False
    rounds = True
    calls = (BIDS,)

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def paper_columns(self, options: Mapping[str, Any], seated: int) -> tuple[str, ...]:
        """On paper a Boerenbridge table writes each player's bid, the tricks they took and
        the points the round scored them."""
        return (N_("Bid"), N_("Tricks"), N_("Points"))

    def workbook_columns(self) -> tuple[HandColumn, ...]:
        """The cards each player was dealt in the round, then each player's bid and tricks
        beside the points they scored."""
        return (
            hand_field("Cards dealt", "cards"),
            result_field("bid", "bid"),
            result_field("tricks", "tricks"),
        )

    def paper_rows(
        self, options: Mapping[str, Any], seats: Sequence[str], dealer: str | None, played: int
    ) -> PaperRows:
        """A row per round: the cards it deals and who deals it (the deal passes left)."""
        dealt = rounds(len(seats), {**self.defaults(), **options})
        known = dealer if dealer in seats else None
        first = seats[0] if known is None else next_seat(seats, known, -played)
        return PaperRows(
            (N_("Cards"), N_("Dealer")),
            tuple((str(cards), next_seat(seats, first, i)) for i, cards in enumerate(dealt)),
        )

    def start(
        self, players: Sequence[str], dealer: str, options: Mapping[str, Any], carried_pot: int
    ) -> State:
        _start(players, dealer, options)
        return super().start(players, dealer, options, carried_pot)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        total = len(rounds(len(state.seats), {**self.defaults(), **options}))
        if state.finished or state.hands_played >= total:
            return None
        return Progress(round=state.hands_played + 1, hand=1, hands_in_round=1, rounds=total)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return leaders(state, options)

    def call(
        self, name: str, state: State, body: Mapping[str, Any], options: Mapping[str, Any]
    ) -> State:
        if name != BIDS:
            return super().call(name, state, body, options)
        return save_bids(state, body, options)

    def hand_phrases(self, hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
        """ "Round of 4 cards. Ann bid 1 and took 1: 12. …" (the stored outcome's words)."""
        cards = hand.get("cards")
        if not isinstance(cards, int):
            return ()
        head = (
            Phrase("A round of one card.")
            if cards == 1
            else Phrase("A round of {cards} cards.", cards=cards)
        )
        lines = [
            Phrase(
                "{player} bid {bid} and took {tricks}: {points}.",
                player=str(r["player"]),
                bid=int(r.get("bid", 0)),
                tricks=int(r.get("tricks", 0)),
                points=_signed(int(r.get("points") or 0)),
            )
            for r in hand.get("results", ())
        ]
        return (head, *lines)

    def call_phrase(self, name: str, body: Mapping[str, Any], number: int) -> Phrase | None:
        """ "Bids saved for round 4: Ann 1, Bob 2, Cas 0, Dee 0." (the history's words)."""
        bids = body.get(BIDS)
        if name != BIDS or not isinstance(bids, dict):
            return None
        said = ", ".join(f"{player} {bid}" for player, bid in bids.items())
        return Phrase("Bids saved for round {number}: {bids}.", number=number, bids=said)

    def form_call(self, name: str, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The bids as typed in the form's rows (a box left empty: no bid)."""
        return {BIDS: {r["player"]: entries.typed_whole(str(r.get("bid") or "")) for r in rows}}

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """The round to come: its number, its cards, who deals and the bids saved."""
        cards = round_cards(state, options)
        if status != "open" or cards is None:
            return {"round": None}
        opts = {**self.defaults(), **options}
        order = in_play_order(state.seats, state.dealer)
        return {
            "round": {
                "number": state.hands_played + 1,
                "cards": cards,
                "dealer": state.dealer,
                "bids": saved_bids(state),
                "order": list(order),
                "hooked": hooked(cards, opts),
            }
        }

    def form_result(
        self,
        player: str,
        index: int,
        core: ResultEntry,
        posted: Mapping[str, Any],
        problems: Problems,
    ) -> BidResult:
        """A player's bid and tricks as typed in their row."""
        values: dict[str, int | None] = {}
        for box in ("bid", "tricks"):
            text = str(posted.get(box) or "").strip()
            values[box] = entries.typed_whole(text) if text else None
            if text and values[box] is None:
                problems.add(RuleError("Give a whole number.", field=f"results[{index}].{box}"))
        return BidResult(player, **values)

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> RoundEntry:
        return RoundEntry(tuple(entries.own(r, BidResult) for r in core.results))

    def entry_phrases(self, entry: Mapping[str, Any]) -> tuple[Phrase, ...]:
        """A round as entered, for the history: "tricks taken: Ann 0, Bob 1, Cas 0" (a
        player's number alone would read as their bid or their points)."""
        taken = [
            f"{r.get('player')} {int(r['tricks'])}"
            for r in entry.get("results") or ()
            if isinstance(r, Mapping) and isinstance(r.get("tricks"), int)
        ]
        if not taken:
            return ()
        return (Phrase("tricks taken: {tricks}", tricks=", ".join(taken)),)

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """Bids made before each round, the second round's bids waiting over the half-way
        mark, and tricks taken (ledger/rules/samples.py)."""
        ann, bob, cas = players[0], players[1], players[2]
        bids = [{"bids": {bob: 1, cas: 0, ann: 0}}, {"bids": {cas: 1, ann: 0, bob: 0}}]
        tricks = [{ann: 0, bob: 1, cas: 0}, {cas: 1, ann: 0, bob: 1}]
        hands = [{"results": [{"player": p, "tricks": n} for p, n in t.items()]} for t in tricks]
        before = (
            Step("call", bids[0], name=BIDS),
            Step("hand", hands[0]),
            Step("call", bids[1], name=BIDS),  # waiting over the half-way mark
        )
        return SampleNight((ann, bob, cas), ann, {}, before, (Step("hand", hands[1]),), {})


GAME = Boerenbridge()
