"""Skat (RULES.md §18): a deal entered as the declarer declared and took it, its value checked
against the bid, and the list as clubs keep it (Seeger–Fabian, or the plain values).

Three players, or four with the dealer sitting out each deal. A deal is who declared (or that
all passed), the bid, the game, the matadors (or the declarer's twelve cards, counted here),
hand and the announcements, the declarer's card points and tricks; the value and the verdict
are skat_values.py's arithmetic, the entry and its checks skat_deal.py's. The night is
``deals`` deals; money as §7, each pair settling the gap by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ledger.rules import entries, payout
from ledger.rules.base import HandEntry, HandOutcome, PlayerResult, State, left_of, next_seat
from ledger.rules.book_columns import HandColumn, hand_field, yes_no
from ledger.rules.cards import AsTyped
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, Preview, Progress, Typed
from ledger.rules.lengths import optional_whole
from ledger.rules.samples import SampleNight, Step
from ledger.rules.skat_deal import Deal, SkatEntry, checked_deal, form_deal, sitting_out
from ledger.rules.skat_values import (
    BIDS,
    GAME_KEYS,
    GRAND,
    NULL,
    Valued,
    null_name,
    null_value,
    reason,
)
from ledger.rules.table import PaperRows
from ledger.rules.texts import N_

__all__ = ["BIDS", "GAME", "SkatEntry", "null_value"]

SEEGER = "seeger"
PLAIN = "plain"
WON_BONUS = 50  # the Seeger–Fabian list: a won game is its value + 50, a lost one −2v − 50
OTHERS_SCORE = {3: 40, 4: 30}  # each other player's, for every game lost, by the table's size
DEALS_EACH = 12  # a night's deals for each player at the table, unless ``deals`` says
MAX_DEALS = 400
LIST = "list"  # where the state keeps the list, a line per deal
WON = "won_games"
LOST = "lost_games"
OVERBID = 2  # a kept line's verdict for an overbid game (1 won, 0 lost)
PASSED = "-"  # a kept line for a deal all passed

# --- The list ------------------------------------------------------------------------------------


def list_points(seats: Sequence[str], declarer: str, valued: Valued, kind: str) -> dict[str, int]:
    """What a deal adds to each player's line of the list: the declarer's won value (+ 50 on
    the Seeger–Fabian list) or twice the lost value against (− 50), and on that list 40 to
    each other player at the table for a lost game (30 at four, the dealer sitting out too)."""
    return points_of(seats, declarer, valued.value, valued.won, kind)


def points_of(
    seats: Sequence[str], declarer: str, value: int, won: bool, kind: str
) -> dict[str, int]:
    """``list_points`` from a deal's value and verdict alone (a line of the kept list)."""
    points = dict.fromkeys(seats, 0)
    seeger = kind == SEEGER
    if won:
        points[declarer] = value + (WON_BONUS if seeger else 0)
        return points
    points[declarer] = -2 * value - (WON_BONUS if seeger else 0)
    if seeger:
        for player in seats:
            if player != declarer:
                points[player] = OTHERS_SCORE[len(seats)]
    return points


def deals_in_night(options: Mapping[str, Any], seats: int) -> int:
    """The night's deals: the ``deals`` option, else 12 for each player at the table."""
    deals = options.get("deals")
    return int(deals) if isinstance(deals, int) and deals > 0 else DEALS_EACH * seats


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
        more=_kept(state.more, seats, deal, valued),
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
    more: Mapping[str, Any], seats: Sequence[str], deal: Deal | None, valued: Valued | None
) -> dict[str, Any]:
    """The games won and lost, and the list's new line, kept between deals. The list is one
    text, a line per deal: "seat,game,value,verdict" (the declarer's seat, the game's place in
    GAME_KEYS, the value, 1 won, 0 lost, 2 overbid), "-" for all passed, lines joined by ";".
    The points, who dealt and the running totals follow from them and the seats
    (``list_lines``): a long night's state stays small and quick to store, so each deal costs
    what the first did (bench/skat.py)."""
    won = dict(more.get(WON, {}))
    lost = dict(more.get(LOST, {}))
    line = PASSED
    if deal is not None and valued is not None:
        tally = won if valued.won else lost
        tally[deal.declarer] = tally.get(deal.declarer, 0) + 1
        verdict = OVERBID if valued.overbid else int(valued.won)
        seat, game = list(seats).index(deal.declarer), GAME_KEYS.index(deal.declared.game)
        line = f"{seat},{game},{valued.value},{verdict}"
    kept = str(more.get(LIST) or "")
    return {**more, WON: won, LOST: lost, LIST: f"{kept};{line}" if kept else line}


def list_lines(state: State, kind: str) -> list[dict[str, Any]]:
    """The list as clubs keep it, from the kept lines: per deal its number, who dealt and who
    sat out, the declarer, game, value and verdict, each player's points and running total."""
    seats = state.seats
    text = str(state.more.get(LIST) or "")
    lines_kept = text.split(";") if text else []
    kept = [[int(n) for n in line.split(",")] if line != PASSED else [-1] for line in lines_kept]
    first = (seats.index(state.dealer) - len(kept)) % len(seats)
    running = dict.fromkeys(state.scores, 0)
    lines = []
    for number, line in enumerate(kept, start=1):
        dealer = seats[(first + number - 1) % len(seats)]
        said: dict[str, Any] = {"declarer": None, "game": None, "value": None, "won": None}
        points = dict.fromkeys(seats, 0)
        if line[0] >= 0:
            declarer, value, won = seats[line[0]], int(line[2]), line[3] == 1
            points = points_of(seats, declarer, value, won, kind)
            said = {"declarer": declarer, "game": GAME_KEYS[line[1]], "value": value, "won": won}
        for player, got in points.items():
            running[player] = running.get(player, 0) + got
        lines.append(
            {
                **said,
                "number": number,
                "overbid": line[0] >= 0 and line[3] == OVERBID,
                "dealer": dealer,
                "sitting_out": sitting_out(seats, dealer),
                "points": points,
                "totals": dict(running),
            }
        )
    return lines


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


def _declared_game(hand: Mapping[str, Any], _result: Mapping[str, Any]) -> str | None:
    """The game declared as the pages name it ("♥ hearts", "Grand"; the workbooks are in
    English), not its key; nothing where all passed."""
    game = hand.get("game")
    return GAME_WORDS.get(str(game), str(game)) if game else None


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


def entry_phrases(entry: Mapping[str, Any]) -> tuple[Phrase, ...]:
    """A deal as entered, for the history: "Cas: ♥ hearts, bid 40, with 1, hand, 70 card
    points"; "all passed"."""
    declarer, game = entry.get("declarer"), str(entry.get("game") or "")
    if not declarer:
        return (Phrase("all passed"),)
    parts = [Phrase(GAME_WORDS.get(game, game)), Phrase("bid {bid}", bid=str(entry.get("bid")))]
    matadors = entry.get("matadors")
    if isinstance(matadors, int) and matadors:
        word = "with {count}" if matadors > 0 else "without {count}"
        parts.append(Phrase(word, count=abs(matadors)))
    if entry.get("cards"):
        parts.append(Phrase("cards {cards}", cards=AsTyped(str(entry["cards"]))))
    parts += [Phrase(FLAG_WORDS[flag]) for flag in FLAG_WORDS if entry.get(flag)]
    if entry.get("card_points") is not None:
        parts.append(Phrase("{points} card points", points=int(entry["card_points"])))
    tricks = entry.get("tricks")
    if tricks in TRICK_WORDS and (game == NULL or tricks != "some"):
        parts.append(Phrase(TRICK_WORDS[tricks]))
    said = parts[0]
    for part in parts[1:]:
        said = Phrase("{said}, {part}", said=said, part=part)
    return (Phrase("{player}: {said}", player=str(declarer), said=said),)


FLAG_WORDS: dict[str, str] = {
    "hand": N_("hand"),
    "schneider_announced": N_("schneider announced"),
    "schwarz_announced": N_("schwarz announced"),
    "ouvert": N_("ouvert"),
}
TRICK_WORDS: dict[str, str] = {
    "all": N_("all tricks"),
    "none": N_("no trick"),
    "some": N_("a trick"),
}


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
    evening_scoring = "points"  # a Preisskat lists the list points (RULES.md §19)
    counts_deals = True  # the list's deals: "3 of 36 deals played" ("Spielen")
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
    # What the deal's form offers (templates/games/skat/entry.html): the values a bid can
    # take, and the game buttons with their words.
    bids = BIDS
    game_buttons = tuple(GAME_WORDS.items())
    game_words = GAME_WORDS
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
        """Each player's games won and lost and the list, a line per deal with the running
        totals (API.md fifth edition; who sits out the deal to come is every game's
        ``sits_out``, answered as the session's ``sitting_out``)."""
        players = list(state.scores)
        opts = {**self.defaults(), **options}
        won, lost = state.more.get(WON, {}), state.more.get(LOST, {})
        return {
            WON: {p: int(won.get(p, 0)) for p in players},
            LOST: {p: int(lost.get(p, 0)) for p in players},
            "deals": deals_in_night(opts, len(state.seats)),
            LIST: list_lines(state, str(opts[LIST])),
        }

    def hand_phrases(self, hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
        return deal_phrases(hand)

    def entry_phrases(self, entry: Mapping[str, Any]) -> tuple[Phrase, ...]:
        return entry_phrases(entry)

    def preview(self, state: State, typed: Typed, options: Mapping[str, Any]) -> Preview:
        """The whole deal's value, verdict and reason on the state before it (a RuleError: why
        not yet); nothing while the form itself has mistakes (they are shown instead)."""
        if typed.entry is None:
            return Preview()
        return Preview(said=preview_phrases(state, typed.entry))

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> SkatEntry:
        return form_deal(core, posted, problems)

    def paper_rows(
        self, options: Mapping[str, Any], seats: Sequence[str], dealer: str | None, played: int
    ) -> PaperRows:
        """The blank list: a line for every deal of the night with who deals it (at four the
        dealer sits it out), the deal passing to the left from the night's first dealer."""
        deals = deals_in_night({**self.defaults(), **options}, len(seats))
        known = dealer if dealer in seats else None
        first = seats[0] if known is None else next_seat(seats, known, -played)
        return PaperRows(
            (N_("Dealer"),), tuple((next_seat(seats, first, i),) for i in range(deals))
        )

    def workbook_columns(self) -> tuple[HandColumn, ...]:
        """Each deal's declarer, the game declared and the bid, the card points the
        declarer took, the game's value and whether it was won (an empty deal: nothing)."""
        return (
            hand_field("Declarer", "declarer"),
            HandColumn("Declared game", _declared_game, per_player=False),
            hand_field("Bid", "bid"),
            hand_field("Card points", "card_points"),
            hand_field("Value", "value"),
            HandColumn("Won", lambda hand, _result: yes_no(hand.get("won")), per_player=False),
        )

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """At four, the dealer sitting out (samples.py): the followed player (``players[1]``)
        wins a suit game with the cards typed and loses a Null on the Seeger–Fabian list (the
        others, the dealer sitting out too, score 30); then all pass while they deal and sit
        out, and deal 1 is corrected to a won Grand; played for a stake, each pair settling
        the gap."""
        seats = tuple(players[:4])
        player = seats[1]
        cards = "JC JH AH 10H KH 9H 7H AS 10S KD 8C 7C"
        won = {"declarer": player, "bid": 30, "game": "hearts", "cards": cards, "hand": True,
               "card_points": 70}  # fmt: skip
        null = {"declarer": player, "bid": 23, "game": "null", "tricks": "some"}
        grand = {"declarer": player, "bid": 18, "game": "grand", "matadors": -2,
                 "card_points": 95}  # fmt: skip
        before = (Step("hand", won), Step("hand", null))
        after = (Step("hand", {"declarer": None}), Step("correct", grand, number=1))
        return SampleNight(seats, seats[-1], {"stake": 1}, before, after)


GAME = Skat()
