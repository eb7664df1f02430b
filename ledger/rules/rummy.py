"""Rummy (RULES.md §4): basic rummy in points, scored to the player out or as penalties.

The engine also plays Rummy's presets (Jokeren, RULES.md §11: ledger/rules/jokeren.py) through
``play_variant``, and reads the options §11 adds to §4 (``DEAL_OPTIONS``): ``cards`` dealt to
each player, ``joker_value`` and a fixed number of ``hands``. Where a session does not give
them they are §4's: the cards each from players and packs, jokers 15, no fixed length.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ledger.rules import payout
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
from ledger.rules.cards import (
    RANKS,
    Card,
    cards_read,
    check_deck,
    parse_cards,
    spot_total,
    spot_value,
)
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, Progress, start_state
from ledger.rules.table import RummyReward
from ledger.rules.texts import N_

JOKER_VALUE = 15
RUMMY_BONUS = 10  # rummy_bonus=bonus10: points for the winner, or off the winner's penalties
# The highest target (API.md "Bounds"): a game to it lasts years, not a night.
MAX_TARGET = 100_000
# The most hands a game of a fixed length may have (``hands``).
MAX_HANDS = 1_000
# ``hands``: each player deals twice (Jokeren's length, RULES.md §11).
TWICE_ROUND = "twice"
# What a session that does not give the options of RULES.md §11 plays with: §4's deal.
DEAL_DEFAULTS: Mapping[str, Any] = {"cards": None, "joker_value": JOKER_VALUE, "hands": None}


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """Score one hand: check every result, then the points, the new scores and the game's end.

    Options not given take their defaults, as in the other games.
    """
    return play_variant(GAME, state, entry, options)


def play_variant(
    game: Game, state: State, entry: HandEntry, options: Mapping[str, Any]
) -> HandOutcome:
    """One hand of Rummy or of one of its presets (``game``: its defaults, its name in the
    messages): check every result, then the points, the new scores and the game's end."""
    options = {**DEAL_DEFAULTS, **game.defaults(), **options}
    seats, dealer = state.seats, state.dealer
    hands, values = _checked_hands(state, entry, options, game.name)
    out = canonical(state, entry.out)
    assert out is not None  # _checked_hands insists on it

    reward = rummy_reward(options) if entry.rummy else RummyReward()
    factor, bonus = reward.factor, reward.bonus
    if options["scoring"] == "winner":
        points = {p: 0 for p in seats}
        points[out] = factor * sum(values.values()) + bonus
    else:  # penalty: everyone keeps their own hand's value; going rummy takes 10 off instead
        points = {p: factor * values[p] for p in seats}
        points[out] = -bonus

    scores = dict(state.scores)
    for p in seats:
        scores[p] = scores.get(p, 0) + points[p]
    # Only the players still seated can end or win the game: one who left is out of it.
    finished = game_over(scores, seats, state.hands_played + 1, options)
    winners = _best(scores, seats, options) if finished else ()

    results = tuple(
        PlayerResult(player=p, cards=hands[p], spots=values[p], points=points[p]) for p in seats
    )
    after = replace(
        state,
        scores=scores,
        hands_played=state.hands_played + 1,
        dealer=left_of(seats, dealer),  # the deal passes clockwise
        finished=finished,
        winners=winners,
    )
    return HandOutcome(
        number=state.hands_played + 1,
        dealer=dealer,
        leader=left_of(seats, dealer),
        results=results,
        out=out,
        winners=(out,),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
    )


def game_over(
    scores: Mapping[str, int], seats: Sequence[str], played: int, options: Mapping[str, Any]
) -> bool:
    """Whether the game ends after hand ``played``: a seated player's score reached the
    ``target``, or the game's fixed number of ``hands`` is played (either may be off)."""
    target = options.get("target")
    if target is not None and any(scores[p] >= target for p in seats):
        return True
    length = hands_in_game(options, len(seats))
    return length is not None and played >= length


def hands_in_game(options: Mapping[str, Any], players: int) -> int | None:
    """The hands a game lasts with this many seated (``hands``); None where it has no fixed
    length. ``twice``: each player deals twice."""
    hands = options.get("hands")
    if hands == TWICE_ROUND:
        return 2 * players
    return hands if isinstance(hands, int) else None


def progress(state: State, options: Mapping[str, Any]) -> Progress | None:
    """Where a game of a fixed number of hands stands ("round 2 · hand 1 of 4": a round is
    one deal by each player, where the hands make whole rounds); None without one."""
    n = len(state.seats)
    length = hands_in_game(options, n)
    if length is None or state.finished or state.hands_played >= length or not n:
        return None
    per_round = n if length % n == 0 else length
    return Progress(
        round=state.hands_played // per_round + 1,
        hand=state.hands_played % per_round + 1,
        hands_in_round=per_round,
        rounds=length // per_round,
    )


# --- Checking a hand --------------------------------------------------------------------------


def _best(
    scores: Mapping[str, int], seats: Sequence[str], options: Mapping[str, Any]
) -> tuple[str, ...]:
    """The seated players with the best score: the highest with ``winner`` scoring, the
    lowest with ``penalty``; equal best share the win."""
    best = (max if options["scoring"] == "winner" else min)(scores[p] for p in seats)
    return tuple(p for p in seats if scores[p] == best)


def rummy_reward(options: Mapping[str, Any]) -> RummyReward:
    """What going rummy is worth: the hand doubled (``double``) or 10 points (``bonus10``)."""
    options = {**GAME.defaults(), **options}
    if options["rummy_bonus"] == "bonus10":
        return RummyReward(bonus=RUMMY_BONUS, off=options["scoring"] == "penalty")
    return RummyReward(factor=2)


def penalty_scoring(options: Mapping[str, Any]) -> bool:
    """Whether each player adds their own hand's value (``penalty``), the fewest winning."""
    return bool({**GAME.defaults(), **options}["scoring"] == "penalty")


def leaders(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    """Who wins if the table ends the game where it stands."""
    return _best(state.scores, state.seats, options)


def cards_each(players: int, packs: int) -> int:
    """The cards each player is dealt, which is also the most a leftover hand can hold."""
    if packs == 2 or players == 2:
        return 10
    return 7 if players <= 4 else 6


def most_players(packs: int) -> int:
    return 7 if packs == 2 else 6


def check_seats(seats: Sequence[str], options: Mapping[str, Any]) -> None:
    """One pack seats 6 players at most and two packs 7; a RuleError says so."""
    packs = {**GAME.defaults(), **options}["packs"]
    limit = most_players(packs)
    if len(seats) > limit:
        if packs == 2:
            raise RuleError(
                "Rummy with two packs is played by at most {most} players, not {count}.",
                field="players",
                most=limit,
                count=len(seats),
            )
        raise RuleError(
            "Rummy with one pack is played by at most {most} players, not {count} "
            "(with two packs up to 7 can play).",
            field="players",
            most=limit,
            count=len(seats),
        )


def dealt(players: int, options: Mapping[str, Any]) -> int:
    """The cards each player is dealt under these options: ``cards`` where the session gives
    it (Jokeren 13), else §4's count from players and packs."""
    cards = options.get("cards")
    return cards if isinstance(cards, int) else cards_each(players, options["packs"])


def joker_value(options: Mapping[str, Any]) -> int:
    """What a joker left in hand is worth: 15 (§4), or the session's ``joker_value``."""
    value = options.get("joker_value")
    return value if isinstance(value, int) else JOKER_VALUE


def highest_hand(cards: int, options: Mapping[str, Any]) -> int:
    """What the most valuable leftover hand of ``cards`` cards in this deck is worth."""
    packs, ace, joker = options["packs"], options["ace_value"], joker_value(options)
    deck = [spot_value(Card(rank, None), ace=ace, joker=joker) for rank in RANKS]
    deck = deck * 4 * packs + [joker] * (options["jokers"] * packs)
    return sum(sorted(deck, reverse=True)[:cards])


def least_total(options: Mapping[str, Any]) -> int:
    """The least total of a player who did not go out: RULES.md §1's 1 with §4's deal (as
    sessions have always had it), and with §11's ``cards`` what the cheapest card is worth
    (2 where aces count 11: Jokeren)."""
    if not isinstance(options.get("cards"), int):
        return 1
    return min(2, int(options["ace_value"]))


def _checked_hands(
    state: State, entry: HandEntry, options: Mapping[str, Any], name: str = "Rummy"
) -> tuple[dict[str, tuple[Card, ...]], dict[str, int]]:
    """Each seated player's leftover cards and their value, or a RuleError naming every
    problem: who went out, each player's own, then the deck's."""
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    check_seats(state.seats, options)
    problems = Problems()
    by_player = index_results(state, entry, problems)
    out = canonical(state, entry.out)
    if out is None:
        problems.add(_say_who_went_out(name))
    most = dealt(len(state.seats), options)
    hands: dict[str, tuple[Card, ...]] = {p: () for p in state.seats}
    values: dict[str, int] = {p: 0 for p in state.seats}
    fields: dict[str, str] = {}
    for player in state.seats:
        if player not in by_player:
            continue  # only the player out may leave out their result
        i, result = by_player[player]
        try:
            if result.spots is not None:
                values[player] = _checked_total(player, result, i, out, most, options)
                continue
            hands[player] = _checked_cards(player, result, i, out, state, options, entry, name)
        except RuleError as e:
            problems.add(e)
            hands[player] = cards_read(e)  # the deck is checked over the cards that did read
            if e.field:
                fields[player] = e.field
            continue
        joker = joker_value(options)
        values[player] = spot_total(hands[player], ace=options["ace_value"], joker=joker)
        fields[player] = f"results[{i}].cards"
    try:
        check_deck(
            {p: c for p, c in hands.items() if c},
            packs=options["packs"],
            jokers=options["jokers"] * options["packs"],
            fields=fields,
            language=entry.cards_language,
        )
    except RuleError as e:
        problems.add(e)
    problems.raise_found()
    return hands, values


def _say_who_went_out(name: str) -> RuleError:
    if name == "Rummy":
        return RuleError(
            "Exactly one player goes out in each hand of Rummy: say who went out.", field="out"
        )
    return RuleError(
        "Exactly one player goes out in each hand of {game}: say who went out.",
        field="out",
        game=name,
    )


def _checked_cards(
    player: str,
    result: ResultEntry,
    i: int,
    out: str | None,
    state: State,
    options: Mapping[str, Any],
    entry: HandEntry,
    name: str = "Rummy",
) -> tuple[Card, ...]:
    """The cards left in one player's hand: none for the player out, some for everyone else.

    With nobody named out (refused on its own), an empty hand may be the one out's: it is
    not refused a second time here.
    """
    _refuse_sitting_out_or_melds(player, result, i, name)
    where = f"results[{i}].cards"
    cards = parse_cards(
        result.cards or "",
        jokers=options["jokers"] > 0,
        game_name=name,
        player=player,
        field=where,
        language=entry.cards_language,
    )
    if player == out and cards:
        raise RuleError(
            "{player} went out, so has no cards left.",
            field=where,
            players=(player,),
            player=player,
        )
    if player != out and not cards and out is not None:
        if options["entry"] == "totals":
            raise RuleError(
                "{player} did not go out, so has cards left: enter them or their total.",
                field=where,
                players=(player,),
                player=player,
            )
        raise RuleError(
            "{player} did not go out, so has cards left: enter them.",
            field=where,
            players=(player,),
            player=player,
        )
    if isinstance(options.get("cards"), int):
        _check_cards_each(player, len(cards), where, options["cards"])
    else:
        _check_dealt(player, len(cards), where, len(state.seats), options["packs"])
    return cards


def _check_cards_each(player: str, count: int, where: str, most: int) -> None:
    """Where the session says how many cards each player is dealt, nobody has more left."""
    if count > most:
        raise RuleError(
            "{player} cannot have {count} cards left: each player is dealt {most}.",
            field=where,
            players=(player,),
            player=player,
            count=count,
            most=most,
        )


def _refuse_sitting_out_or_melds(player: str, result: ResultEntry, i: int, name: str) -> None:
    """Everyone seated plays every hand of Rummy, and only the cards left in hand count."""
    if name != "Rummy" and result.sitting_out:
        raise RuleError(
            "{player} plays every hand of {game}: enter the cards left in their hand "
            "(to miss hands, leave the table and join again).",
            field=f"results[{i}]",
            players=(player,),
            player=player,
            game=name,
        )
    if result.sitting_out:
        raise RuleError(
            "{player} cannot sit out in Rummy: enter the cards left in their hand "
            "(to miss hands, leave the table and join again).",
            field=f"results[{i}]",
            players=(player,),
            player=player,
        )


def _check_dealt(player: str, count: int, where: str, n: int, packs: int) -> None:
    """Nobody can have more cards left than each player is dealt."""
    most = cards_each(n, packs)
    if count <= most:
        return
    if packs == 2:
        raise RuleError(
            "With {n} players and two packs each player is dealt {most} cards, "
            "so {player} cannot have {count} left.",
            field=where,
            players=(player,),
            n=n,
            most=most,
            player=player,
            count=count,
        )
    raise RuleError(
        "With {n} players each player is dealt {most} cards, so {player} cannot have {count} left.",
        field=where,
        players=(player,),
        n=n,
        most=most,
        player=player,
        count=count,
    )


def _checked_total(
    player: str,
    result: ResultEntry,
    i: int,
    out: str | None,
    most: int,
    options: Mapping[str, Any],
) -> int:
    """A spot total typed instead of cards, checked against what the deck allows."""
    where = f"results[{i}].spots"
    total = result.spots

    def wrong(message: Phrase) -> RuleError:
        return RuleError(message, field=where, players=(player,))

    # The player out may say 0 whatever the session asks for: there are no cards to give.
    if options["entry"] != "totals" and not (player == out and total == 0):
        raise wrong(
            Phrase(
                "This session asks for every player's cards: enter {player}'s cards.",
                player=player,
            )
        )
    if isinstance(total, bool) or not isinstance(total, int):
        raise wrong(Phrase("{player}'s total must be a whole number.", player=player))
    if player == out:
        if total != 0:
            raise wrong(Phrase("{player} went out, so their total is 0.", player=player))
        return 0
    if total < 1 and least_total(options) == 1:
        raise wrong(Phrase("{player} did not go out, so their total is at least 1.", player=player))
    if total < least_total(options):
        raise wrong(
            Phrase(
                "{player}'s total cannot be {total}: the cheapest card is a two.",
                player=player,
                total=total,
            )
        )
    top = highest_hand(most, options)
    if total > top:
        raise wrong(
            Phrase(
                "{player}'s total cannot be {total}: {cards} cards are worth at most {top}.",
                player=player,
                total=total,
                cards=most,
                top=top,
            )
        )
    return total


def start(players: Sequence[str], dealer: str, options: Mapping[str, Any], pot: int = 0) -> State:
    # A points game has no pot, so a pot carried from a Spot session cannot open it.
    state = start_state(GAME, players, dealer)
    check_seats(state.seats, options)
    return state


# What a hand's leftover cards are entered as; Gin Rummy and Rummy 500 offer the same.
ENTRY = Option(
    "cards",
    choices=("cards", "totals"),
    help=N_("Every player's cards, or a spot total (or the cards) for each."),
)


class Rummy(Game):
    key = "rummy"
    name = N_("Rummy")
    description = N_("Basic rummy: the first out scores the cards left in the others' hands.")
    min_players = 2
    max_players = 7
    money = False
    options = {
        "scoring": Option(
            "winner",
            choices=("winner", "penalty"),
            help=N_(
                "The player out scores the cards left in the other hands, or each player adds "
                "their own (penalty points)."
            ),
        ),
        "rummy_bonus": Option(
            "double",
            choices=("double", "bonus10"),
            help=N_(
                "Going rummy doubles the hand's points, or is worth 10 points more "
                "(with penalty points: 10 off)."
            ),
        ),
        "ace_value": Option(1, choices=(1, 11, 15), help=N_("What an ace left in hand is worth.")),
        "jokers": Option(0, choices=(0, 2), help=N_("Jokers per pack, 15 points each.")),
        "packs": Option(1, choices=(1, 2), help=N_("Two packs: up to 7 players, 10 cards each.")),
        "target": Option(
            100, minimum=1, maximum=MAX_TARGET, help=N_("The game ends when a score reaches this.")
        ),
        "entry": ENTRY,
        **payout.OPTIONS,  # RULES.md §7: played for money
    }
    open_seating = True
    nobody_out = False
    rummy = True
    target_option = "target"

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def start(
        self, players: Sequence[str], dealer: str, options: Mapping[str, Any], carried_pot: int
    ) -> State:
        return start(players, dealer, options, carried_pot)

    def check_seats(self, seats: Sequence[str], options: Mapping[str, Any]) -> None:
        return check_seats(seats, options)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        return leaders(state, options)

    def rummy_reward(self, options: Mapping[str, Any]) -> RummyReward | None:
        return rummy_reward(options)

    def penalties(self, options: Mapping[str, Any]) -> bool:
        return penalty_scoring(options)


GAME = Rummy()
