"""Skat (RULES.md §18): a deal entered as the declarer declared and took it, its value checked
against the bid, and the list as clubs keep it (Seeger–Fabian, or the plain values).

Three players, or four with the dealer sitting out each deal. A deal is who declared (or that
all passed), the bid, the game, the matadors (or the declarer's twelve cards, counted here),
hand and the announcements, the declarer's card points and tricks; the value and the verdict
are skat_values.py's arithmetic. The night is ``deals`` deals; money as §7, each pair settling
the gap by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.rules import entries, payout
from ledger.rules.base import HandEntry, HandOutcome, PlayerResult, State, left_of, next_seat
from ledger.rules.cards import parse_cards
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, Progress
from ledger.rules.lengths import optional_whole
from ledger.rules.skat_values import (
    BIDS,
    CARD_POINTS,
    GAME_KEYS,
    GRAND,
    HAND_AND_SKAT,
    LOWEST_BID,
    MOST_IN_SKAT,
    NULL,
    SKAT_RANKS,
    TRICKS,
    Declared,
    Valued,
    count_matadors,
    most_matadors,
    null_name,
    null_value,
    reason,
    value_of,
)
from ledger.rules.texts import N_

NAME = "Skat"
SEEGER = "seeger"
PLAIN = "plain"
WON_BONUS = 50  # the Seeger–Fabian list: a won game is its value + 50, a lost one −2v − 50
OTHERS_SCORE = {3: 40, 4: 30}  # each other player's, for every game lost, by the table's size
DEALS_EACH = 12  # a night's deals for each player at the table, unless ``deals`` says
MAX_DEALS = 400
LIST = "list"  # where the state keeps the list, a line per deal
WON = "won_games"
LOST = "lost_games"
SOME = "some"


@dataclass(frozen=True)
class SkatEntry:
    """A deal of Skat (API.md fifth edition): the declarer (None: all passed), the bid, the
    game, the matadors ("with" positive, "without" negative) or the declarer's twelve cards,
    hand and the announcements, the declarer's card points and tricks."""

    declarer: str | None = entries.entry_field(entries.TEXT, always=True, blank_none=True)
    bid: int | None = entries.entry_field(entries.WHOLE)
    game: str | None = entries.entry_field(entries.TEXT, blank_none=True)
    matadors: int | None = entries.entry_field(entries.WHOLE)
    cards: str | None = entries.entry_field(entries.CARDS, example="JC JH AH 10H KH 9H …")
    hand: bool = entries.entry_field(entries.FLAG, False)
    schneider_announced: bool = entries.entry_field(entries.FLAG, False)
    schwarz_announced: bool = entries.entry_field(entries.FLAG, False)
    ouvert: bool = entries.entry_field(entries.FLAG, False)
    card_points: int | None = entries.entry_field(entries.WHOLE)
    tricks: str | None = entries.entry_field(entries.TEXT, blank_none=True)
    cards_language: str = entries.entry_field(entries.LANGUAGE, "en")


@dataclass(frozen=True)
class Deal:
    """A deal as checked: the declarer, the bid, what was declared and what the declarer took."""

    declarer: str
    bid: int
    declared: Declared
    card_points: int | None
    tricks: str

    def valued(self) -> Valued:
        return value_of(self.declared, self.bid, self.card_points, self.tricks)


# --- Who sits out, and the list ------------------------------------------------------------------


def sitting_out(seats: Sequence[str], dealer: str) -> str | None:
    """At a table of four the dealer sits the deal out; at three nobody does."""
    return dealer if len(seats) == 4 else None


def list_points(seats: Sequence[str], declarer: str, valued: Valued, kind: str) -> dict[str, int]:
    """What a deal adds to each player's line of the list: the declarer's won value (+ 50 on
    the Seeger–Fabian list) or twice the lost value against (− 50), and on that list 40 to
    each other player at the table for a lost game (30 at four, the dealer sitting out too)."""
    points = dict.fromkeys(seats, 0)
    seeger = kind == SEEGER
    if valued.won:
        points[declarer] = valued.value + (WON_BONUS if seeger else 0)
        return points
    points[declarer] = -2 * valued.value - (WON_BONUS if seeger else 0)
    if seeger:
        for player in seats:
            if player != declarer:
                points[player] = OTHERS_SCORE[len(seats)]
    return points


def deals_in_night(options: Mapping[str, Any], seats: int) -> int:
    """The night's deals: the ``deals`` option, else 12 for each player at the table."""
    deals = options.get("deals")
    return int(deals) if isinstance(deals, int) and deals > 0 else DEALS_EACH * seats


# --- Checking a deal ----------------------------------------------------------------------------


def checked_deal(state: State, entry: SkatEntry) -> Deal | None:
    """The deal as entered, every problem found at once; None when all passed."""
    problems = Problems()
    if entry.declarer is None:
        _all_passed(entry, problems)
        problems.raise_found()
        return None
    declarer = _declarer(state, entry.declarer, problems)
    game = _game(entry.game, problems)
    bid = _bid(entry.bid, problems)
    if game is None:
        problems.raise_found()
    assert game is not None
    if game == NULL:
        declared, points, tricks = _null(entry, bid, problems)
    else:
        declared, points, tricks = _suit_or_grand(entry, game, problems)
    problems.raise_found()
    assert declarer is not None and bid is not None
    return Deal(declarer, bid, declared, points, tricks)


def _all_passed(entry: SkatEntry, problems: Problems) -> None:
    played = (
        entry.bid,
        entry.game,
        entry.matadors,
        entry.cards,
        entry.card_points,
        entry.tricks,
    )
    flags = (entry.hand, entry.schneider_announced, entry.schwarz_announced, entry.ouvert)
    if any(v is not None for v in played) or any(flags):
        problems.add(
            RuleError(
                "With all passed nothing is played: name the declarer, or leave the game out.",
                field="declarer",
            )
        )


def _declarer(state: State, name: str, problems: Problems) -> str | None:
    found = next((p for p in state.seats if p.casefold() == name.strip().casefold()), None)
    if found is None:
        problems.add(
            RuleError(
                "{player}, the declarer, is not seated in this session.",
                field="declarer",
                player=name,
            )
        )
        return None
    if found == sitting_out(state.seats, state.dealer):
        problems.add(
            RuleError(
                "{player} deals and sits out this deal.",
                field="declarer",
                players=(found,),
                player=found,
            )
        )
        return None
    return found


def _game(game: str | None, problems: Problems) -> str | None:
    if game is None:
        problems.add(
            RuleError(
                "Say which game was played: clubs, spades, hearts, diamonds, grand or null.",
                field="game",
            )
        )
        return None
    key = game.strip().lower()
    if key not in GAME_KEYS:
        problems.add(
            RuleError(
                "'{game}' is not a game of Skat: clubs, spades, hearts, diamonds, grand or null.",
                field="game",
                game=game[:20],
            )
        )
        return None
    return key


def _bid(bid: int | None, problems: Problems) -> int | None:
    if bid is None:
        problems.add(RuleError("Give the bid: 18 or more.", field="bid"))
        return None
    if bid not in BIDS:
        problems.add(
            RuleError(
                "{lowest} is the lowest bid; {bid} is no game's value.",
                field="bid",
                lowest=LOWEST_BID,
                bid=bid,
            )
        )
        return None
    return bid


def _null(entry: SkatEntry, bid: int | None, problems: Problems) -> tuple[Declared, None, str]:
    """A Null game: hand and ouvert, whether the declarer took a trick; nothing else."""
    if entry.matadors is not None or entry.cards is not None:
        field = "matadors" if entry.matadors is not None else "cards"
        problems.add(RuleError("A Null game has no matadors.", field=field))
    if entry.schneider_announced or entry.schwarz_announced:
        problems.add(
            RuleError(
                "A Null game has no schneider or schwarz to announce.",
                field="schneider_announced" if entry.schneider_announced else "schwarz_announced",
            )
        )
    if entry.card_points is not None:
        problems.add(
            RuleError(
                "A Null game counts no card points: say only whether the declarer took a trick.",
                field="card_points",
            )
        )
    tricks = _tricks(entry.tricks, problems, required=True)
    value = null_value(entry.hand, entry.ouvert)
    if bid is not None and bid > value:
        problems.add(
            RuleError(
                "A {game} game is worth {value}: after a bid of {bid}, declare a Null worth at "
                "least that.",
                field="bid",
                game=null_name(entry.hand, entry.ouvert),
                value=value,
                bid=bid,
            )
        )
    return Declared(NULL, hand=entry.hand, ouvert=entry.ouvert), None, tricks


def _suit_or_grand(
    entry: SkatEntry, game: str, problems: Problems
) -> tuple[Declared, int | None, str]:
    """A suit game or Grand: its matadors (given or counted), announcements, card points and
    tricks, each checked."""
    matadors = _matadors(entry, game, problems)
    _announcements(entry, problems)
    points = _card_points(entry.card_points, problems)
    tricks = _tricks(entry.tricks, problems, required=False)
    if points is not None and tricks == "all" and points != CARD_POINTS:
        problems.add(
            RuleError(
                "A declarer who took every trick has all 120 card points: {points} is not.",
                field="card_points",
                points=points,
            )
        )
    if points is not None and tricks == "none" and points > MOST_IN_SKAT:
        problems.add(
            RuleError(
                "A declarer who took no trick has only the skat's card points, at most 22: "
                "{points} is not.",
                field="card_points",
                points=points,
            )
        )
    declared = Declared(
        game,
        matadors=matadors,
        hand=entry.hand,
        schneider_announced=entry.schneider_announced,
        schwarz_announced=entry.schwarz_announced,
        ouvert=entry.ouvert,
    )
    return declared, points, tricks


def _matadors(entry: SkatEntry, game: str, problems: Problems) -> int | None:
    if entry.matadors is not None and entry.cards is not None:
        problems.add(
            RuleError("Give the matadors or the declarer's cards, not both.", field="cards")
        )
        return None
    if entry.cards is not None:
        return _counted(entry.cards, game, entry.cards_language, problems)
    most = most_matadors(game)
    if entry.matadors is None:
        problems.add(
            RuleError(
                "Give the matadors, with or without 1 to {most}, or the declarer's twelve cards.",
                field="matadors",
                most=most,
            )
        )
        return None
    count = abs(entry.matadors)
    if count == 0 or count > most:
        if game == GRAND:
            message = "Grand has at most 4 matadors: {count} is not."
        else:
            message = "A suit game has with or without 1 to 11 matadors: {count} is not."
        problems.add(RuleError(message, field="matadors", count=count))
        return None
    return entry.matadors


def _counted(text: str, game: str, language: str, problems: Problems) -> int | None:
    """The matadors counted from the declarer's twelve cards (hand and skat), as typed."""
    try:
        cards = parse_cards(
            text, suits_required=True, game_name=NAME, field="cards", language=language
        )
    except RuleError as error:
        problems.add(error)
        return None
    found = Problems()
    for card in cards:
        if card.rank not in SKAT_RANKS:
            found.add(
                RuleError(
                    "Skat is played with 7 to ace: {card} is not in the pack.",
                    field="cards",
                    card=str(card),
                )
            )
    codes = [card.code for card in cards]
    twice = sorted({str(c) for c in cards if codes.count(c.code) > 1})
    if twice:
        found.add(
            RuleError(
                "The declarer's cards hold {cards} twice: the pack has one of each.",
                field="cards",
                cards=", ".join(twice),
            )
        )
    if len(cards) != HAND_AND_SKAT:
        found.add(
            RuleError(
                "The declarer's cards are twelve, hand and skat: {count} were typed.",
                field="cards",
                count=len(cards),
            )
        )
    if found:
        for problem in found.found:
            problems.add(problem)
        return None
    return count_matadors(set(codes), game)


def _announcements(entry: SkatEntry, problems: Problems) -> None:
    """Schwarz announced needs schneider announced, both need a hand game; ouvert (in a suit
    game or Grand) is a hand game with schwarz announced."""
    if (entry.schwarz_announced and not entry.schneider_announced) or (
        entry.schneider_announced and not entry.hand
    ):
        problems.add(
            RuleError(
                "Schwarz announced needs schneider announced, and both need a hand game.",
                field="schwarz_announced" if entry.schwarz_announced else "schneider_announced",
            )
        )
    if entry.ouvert and not (entry.schwarz_announced and entry.hand):
        problems.add(
            RuleError(
                "Ouvert is a hand game with schwarz announced: announce schneider and schwarz "
                "with it.",
                field="ouvert",
            )
        )


def _card_points(points: int | None, problems: Problems) -> int | None:
    if points is None:
        problems.add(RuleError("Give the declarer's card points, 0 to 120.", field="card_points"))
        return None
    if not 0 <= points <= CARD_POINTS:
        problems.add(
            RuleError(
                "Card points are 0 to 120: {points} is not.", field="card_points", points=points
            )
        )
        return None
    return points


def _tricks(tricks: str | None, problems: Problems, *, required: bool) -> str:
    """All, none or some: the tricks the declarer took (a suit game's default: some)."""
    if tricks is None:
        if required:
            problems.add(
                RuleError(
                    "Say whether the declarer took a trick: tricks none (won) or some (lost).",
                    field="tricks",
                )
            )
        return SOME
    key = tricks.strip().lower()
    if key not in TRICKS:
        problems.add(
            RuleError(
                "The declarer's tricks are all, none or some: '{tricks}' is not.",
                field="tricks",
                tricks=tricks[:20],
            )
        )
        return SOME
    return key


# --- Playing a deal -----------------------------------------------------------------------------


def play(state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
    """One deal: checked whole, valued, put on the list; the deal passes to the left."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    deal = checked_deal(state, entries.own(entry, SkatEntry))
    seats = state.seats
    number = state.hands_played + 1
    out = sitting_out(seats, state.dealer)
    valued = deal.valued() if deal is not None else None
    if deal is None or valued is None:
        points = dict.fromkeys(seats, 0)
    else:
        points = list_points(seats, deal.declarer, valued, str(opts[LIST]))
    scores = {p: state.scores.get(p, 0) + points.get(p, 0) for p in state.scores}
    finished = number >= deals_in_night(opts, len(seats))
    after = replace(
        state,
        dealer=next_seat(seats, state.dealer, 1),
        scores=scores,
        hands_played=number,
        finished=finished,
        winners=_best(scores, seats) if finished else (),
        more=_kept(state.more, deal, valued, points, state.dealer, out),
    )
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(seats, state.dealer),
        results=tuple(PlayerResult(p, points=points[p], sitting_out=p == out) for p in seats),
        out=None,
        winners=_deal_winners(seats, deal, valued, out),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
        more=deal_facts(deal, valued, out),
    )


def _best(scores: Mapping[str, int], seats: Sequence[str]) -> tuple[str, ...]:
    top = max(scores[p] for p in seats)
    return tuple(p for p in seats if scores[p] == top)


def _deal_winners(
    seats: Sequence[str], deal: Deal | None, valued: Valued | None, out: str | None
) -> tuple[str, ...]:
    """Who won the deal: the declarer, or the two who played against a lost game."""
    if deal is None or valued is None:
        return ()
    if valued.won:
        return (deal.declarer,)
    return tuple(p for p in seats if p not in (deal.declarer, out))


def _kept(
    more: Mapping[str, Any],
    deal: Deal | None,
    valued: Valued | None,
    points: Mapping[str, int],
    dealer: str,
    out: str | None,
) -> dict[str, Any]:
    """The list's new line and the games won and lost, kept between deals."""
    won = dict(more.get(WON, {}))
    lost = dict(more.get(LOST, {}))
    if deal is not None and valued is not None:
        tally = won if valued.won else lost
        tally[deal.declarer] = tally.get(deal.declarer, 0) + 1
    line = {
        "declarer": deal.declarer if deal is not None else None,
        "game": deal.declared.game if deal is not None else None,
        "value": valued.value if valued is not None else None,
        "won": valued.won if valued is not None else None,
        "overbid": valued.overbid if valued is not None else False,
        "dealer": dealer,
        "sitting_out": out,
        "points": dict(points),
    }
    return {**more, WON: won, LOST: lost, LIST: [*more.get(LIST, []), line]}


def deal_facts(deal: Deal | None, valued: Valued | None, out: str | None) -> dict[str, Any]:
    """What the deal answers beside every hand's (API.md fifth edition): the declared game,
    ``value``, ``won``, ``overbid``, ``matadors`` as counted, and the reason's steps."""
    if deal is None or valued is None:
        return {
            "declarer": None,
            "game": None,
            "bid": None,
            "value": None,
            "won": None,
            "overbid": False,
            "matadors": None,
            "sitting_out": out,
        }
    declared = deal.declared
    return {
        "declarer": deal.declarer,
        "game": declared.game,
        "bid": deal.bid,
        "value": valued.value,
        "won": valued.won,
        "overbid": valued.overbid,
        "matadors": declared.matadors,
        "hand": declared.hand,
        "schneider_announced": declared.schneider_announced,
        "schwarz_announced": declared.schwarz_announced,
        "ouvert": declared.ouvert,
        "card_points": deal.card_points,
        "tricks": deal.tricks,
        "schneider": valued.schneider,
        "schwarz": valued.schwarz,
        "base": valued.base,
        "reached": valued.reached,
        "steps": [[name, count] for name, count in valued.steps],
        "sitting_out": out,
    }


# --- In words -------------------------------------------------------------------------------------

GAME_WORDS: dict[str, str] = {
    "clubs": N_("♣ clubs"),
    "spades": N_("♠ spades"),
    "hearts": N_("♥ hearts"),
    "diamonds": N_("♦ diamonds"),
    GRAND: N_("Grand"),
    NULL: N_("Null"),
}


def stored_valued(facts: Mapping[str, Any]) -> Valued | None:
    """A deal's value as its stored facts keep it (``deal_facts``), to say it again."""
    if facts.get("value") is None:
        return None
    steps = tuple((str(name), int(count)) for name, count in facts.get("steps") or ())
    base = facts.get("base")
    return Valued(
        value=int(facts["value"]),
        won=bool(facts.get("won")),
        overbid=bool(facts.get("overbid")),
        base=int(base) if base is not None else None,
        steps=steps,
        reached=int(facts.get("reached") or facts["value"]),
    )


def facts_reason(facts: Mapping[str, Any]) -> Phrase | None:
    """ "with 1, game 2, hand 3 × 10 = 30: overbid at 40", from a deal's stored facts."""
    valued = stored_valued(facts)
    if valued is None:
        return None
    name = null_name(bool(facts.get("hand")), bool(facts.get("ouvert")))
    return reason(valued, name if facts.get("game") == NULL else None)


def deal_phrases(hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
    """A deal in words: who played what after which bid, what they took, the value and its
    reason, and the list's points."""
    declarer = hand.get("declarer")
    said: list[Phrase] = []
    if hand.get("sitting_out"):
        said.append(Phrase("{player} dealt and sat out.", player=str(hand["sitting_out"])))
    if not declarer:
        return (*said, Phrase("All passed: the deal counts, nothing is scored."))
    game = str(hand.get("game"))
    words = Phrase(GAME_WORDS.get(game, game))
    if game == NULL:
        took = Phrase("took no trick") if hand.get("tricks") == "none" else Phrase("took a trick")
    else:
        took = Phrase("took {points} card points", points=int(hand.get("card_points") or 0))
    said.append(
        Phrase(
            "{player} played {game} after a bid of {bid} and {took}.",
            player=str(declarer),
            game=words,
            bid=int(hand.get("bid") or 0),
            took=took,
        )
    )
    why = facts_reason(hand)
    if why is not None:
        said.append(Phrase("{reason}.", reason=why).capitalized())
    points = [
        f"{r['player']} {_signed(int(r.get('points') or 0))}"
        for r in hand.get("results", ())
        if r.get("points")
    ]
    if points:
        said.append(Phrase("The list: {points}.", points=", ".join(points)))
    return tuple(said)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


def preview_phrases(state: State, entry: Any) -> tuple[Phrase, ...]:
    """What the deal typed so far comes to, before it is saved: its value with the reason
    and the verdict; a RuleError for a deal that cannot be valued yet."""
    deal = checked_deal(state, entries.own(entry, SkatEntry))
    if deal is None:
        return (Phrase("All passed: the deal counts, nothing is scored."),)
    valued = deal.valued()
    declared = deal.declared
    name = null_name(declared.hand, declared.ouvert) if declared.game == NULL else None
    return (Phrase("{reason}", reason=reason(valued, name)).capitalized(),)


# --- The game -------------------------------------------------------------------------------------


class Skat(Game):
    key = "skat"
    name = N_("Skat")
    description = N_(
        "Germany's club game for three, or four with the dealer sitting out: bids, matadors, "
        "hand and schneider, and the Seeger–Fabian list."
    )
    min_players = 3
    max_players = 4
    options = {
        "deals": Option(
            None,
            parse=optional_whole("deals", 1, MAX_DEALS),
            help=N_("How many deals the night has; none: 12 for each player at the table."),
            label=N_("Deals in the night"),
        ),
        LIST: Option(
            SEEGER,
            choices=(SEEGER, PLAIN),
            help=N_(
                "Seeger–Fabian: a won game +50, a lost game −50 and twice its value, 40 to each "
                "other player (30 at four); plain: the values alone."
            ),
            label=N_("The list"),
            choice_labels={SEEGER: N_("Seeger–Fabian"), PLAIN: N_("plain values")},
        ),
        **payout.OPTIONS,  # RULES.md §7: played for money, each pair settling the gap
        payout.PAYOUT: replace(payout.OPTIONS[payout.PAYOUT], default="everyone"),
    }
    entry_type = SkatEntry
    cards = False
    out_scores = False
    dealer_sits_out_with = 4

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        deals = deals_in_night({**self.defaults(), **options}, len(state.seats))
        if state.finished or state.hands_played >= deals:
            return None
        return Progress(round=1, hand=state.hands_played + 1, hands_in_round=deals, rounds=1)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        seated = [p for p in state.seats if p in state.scores]
        return _best(state.scores, seated) if seated else ()

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """Each player's games won and lost, who sits out the deal to come, and the list:
        a line per deal with the running totals (API.md fifth edition)."""
        players = list(state.scores)
        running = dict.fromkeys(players, 0)
        lines = []
        for number, line in enumerate(state.more.get(LIST, []), start=1):
            for player, points in line.get("points", {}).items():
                running[player] = running.get(player, 0) + int(points)
            lines.append({**line, "number": number, "totals": dict(running)})
        won, lost = state.more.get(WON, {}), state.more.get(LOST, {})
        return {
            WON: {p: int(won.get(p, 0)) for p in players},
            LOST: {p: int(lost.get(p, 0)) for p in players},
            "sitting_out": None if state.finished else self.sits_out(state),
            "deals": deals_in_night({**self.defaults(), **options}, len(state.seats)),
            LIST: lines,
        }

    def hand_phrases(self, hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
        return deal_phrases(hand)

    def preview(self, state: State, entry: Any, options: Mapping[str, Any]) -> tuple[Phrase, ...]:
        return preview_phrases(state, entry)

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> SkatEntry:
        return form_deal(core, posted, problems)


def form_deal(core: HandEntry, posted: Mapping[str, Any], problems: Problems) -> SkatEntry:
    """A deal from the page's boxes: declarer ("" for all passed), bid, game, with/without and
    the number (or the twelve cards), the flags, card points and tricks."""
    text = {k: str(v or "").strip() for k, v in posted.items() if not isinstance(v, list)}
    numbers: dict[str, int | None] = {}
    for box in ("bid", "matadors", "card_points"):
        numbers[box] = entries.typed_whole(text.get(box)) if text.get(box) else None
        if text.get(box) and numbers[box] is None:
            problems.add(RuleError("Give a whole number.", field=box))
    matadors = numbers["matadors"]
    if matadors is not None and text.get("with") == "without":
        matadors = -matadors
    declarer = text.get("declarer") or None
    game = text.get("game") or None
    flags = {
        f: text.get(f) in ("1", "on", "true", "yes")
        for f in ("hand", "schneider_announced", "schwarz_announced", "ouvert")
    }
    if declarer is None:
        return SkatEntry(declarer=None, cards_language=core.cards_language)
    cards = text.get("cards") or None if game not in (NULL, None) else None
    return SkatEntry(
        declarer=declarer,
        bid=numbers["bid"],
        game=game,
        matadors=None if game == NULL or cards else matadors,
        cards=cards,
        card_points=None if game == NULL else numbers["card_points"],
        tricks=text.get("tricks") or None,
        cards_language=core.cards_language,
        **flags,
    )


GAME = Skat()
