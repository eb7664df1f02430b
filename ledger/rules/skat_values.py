"""Skat's game values (RULES.md §18, the ISkO): a declared game's base and multiplier, won or
lost, the overbid, the matadors counted from the declarer's twelve cards, and the reason a
table reads ("with 1, game 2, hand 3 × 10 = 30: overbid at 40").

Pure arithmetic on what the declarer declared and took; reading and refusing an entry is
skat.py's.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ledger.rules.errors import Phrase
from ledger.rules.texts import N_

# The suit games' base values, and their suits' letters in the cards' codes.
SUIT_GAMES: dict[str, int] = {"clubs": 12, "spades": 11, "hearts": 10, "diamonds": 9}
SUIT_OF: dict[str, str] = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
GRAND = "grand"
NULL = "null"
GRAND_BASE = 24
GAME_KEYS: tuple[str, ...] = (*SUIT_GAMES, GRAND, NULL)

# Null's fixed values, by (hand, ouvert).
NULL_VALUES: dict[tuple[bool, bool], int] = {
    (False, False): 23,
    (True, False): 35,
    (False, True): 46,
    (True, True): 59,
}

CARD_POINTS = 120  # in the pack, the skat's included
WON_AT = 61  # the declarer's card points that win a suit game or Grand
SCHNEIDER_AT = 30  # a side with this many card points or fewer is schneider
MOST_IN_SKAT = 22  # two aces: all a declarer who took no trick can have
LOWEST_BID = 18

TRICKS: tuple[str, ...] = ("all", "none", "some")

# The trumps from the top: the four jacks, then (in a suit game) the trump suit's A 10 K Q 9 8 7.
JACKS: tuple[str, ...] = ("JC", "JS", "JH", "JD")
TRUMP_RANKS: tuple[str, ...] = ("A", "10", "K", "Q", "9", "8", "7")
SKAT_RANKS: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")
HAND_AND_SKAT = 12  # the declarer's cards after taking the skat


def base_value(game: str) -> int:
    """What a suit game or Grand is worth for each step of its multiplier."""
    return GRAND_BASE if game == GRAND else SUIT_GAMES[game]


def most_matadors(game: str) -> int:
    """With or without at most 4 in Grand (the jacks), 11 in a suit game (jacks and suit)."""
    return len(JACKS) if game == GRAND else len(JACKS) + len(TRUMP_RANKS)


def null_value(hand: bool, ouvert: bool) -> int:
    return NULL_VALUES[(hand, ouvert)]


def null_name(hand: bool, ouvert: bool) -> str:
    """ "Null", "Null hand", "Null ouvert", "Null ouvert hand": as a table names them."""
    return "Null" + (" ouvert" if ouvert else "") + (" hand" if hand else "")


def _all_values() -> tuple[int, ...]:
    """Every value some game can have, from the lowest bid: what a bid may be."""
    found = set(NULL_VALUES.values())
    # A multiplier runs from "with/without 1, game 2" to matadors + game + the six levels.
    for game in (*SUIT_GAMES, GRAND):
        found.update(base_value(game) * m for m in range(2, most_matadors(game) + 8))
    return tuple(sorted(v for v in found if v >= LOWEST_BID))


BIDS: tuple[int, ...] = _all_values()  # 18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, …


def trump_order(game: str) -> tuple[str, ...]:
    """The trumps from the top, as card codes: ♣J ♠J ♥J ♦J, and in a suit game its A 10 K …"""
    if game == GRAND:
        return JACKS
    suit = SUIT_OF[game]
    return JACKS + tuple(rank + suit for rank in TRUMP_RANKS)


def count_matadors(codes: Collection[str], game: str) -> int:
    """The matadors of a declarer holding ``codes`` (their twelve cards): the run of trumps
    from the top held ("with", positive) or missing ("without", negative)."""
    order = trump_order(game)
    holds_top = order[0] in codes
    run = 0
    for code in order:
        if (code in codes) != holds_top:
            break
        run += 1
    return run if holds_top else -run


@dataclass(frozen=True)
class Declared:
    """What the declarer declared: the game and, for a suit game or Grand, the matadors
    (positive "with", negative "without") and the announcements."""

    game: str
    matadors: int | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False


@dataclass(frozen=True)
class Valued:
    """What a declared game came to: its ``value`` (after an overbid, the overbid value),
    ``won``, ``overbid``; the multiplier's steps as a table counts them and the value they
    reach (``reached``), and whether either side was schneider or schwarz."""

    value: int
    won: bool
    overbid: bool
    base: int | None  # None for Null
    steps: tuple[tuple[str, int], ...]  # ("with", 1), ("game", 2), ("hand", 3)…
    reached: int
    schneider: bool = False
    schwarz: bool = False


def value_of(declared: Declared, bid: int, card_points: int | None, tricks: str) -> Valued:
    """The value of a declared game played out: the declarer's ``card_points`` (not for
    Null) and whether they took ``all`` the tricks, ``none`` or ``some``."""
    if declared.game == NULL:
        value = null_value(declared.hand, declared.ouvert)
        return Valued(value, tricks == "none", False, None, (), value)
    points = card_points if card_points is not None else 0
    schneider = points <= SCHNEIDER_AT or points >= CARD_POINTS - SCHNEIDER_AT
    schwarz = tricks in ("all", "none")
    steps = _steps(declared, schneider, schwarz)
    base = base_value(declared.game)
    reached = base * steps[-1][1]
    made = (
        points >= WON_AT
        and (not declared.schneider_announced or points >= CARD_POINTS - SCHNEIDER_AT)
        and (not declared.schwarz_announced or tricks == "all")
    )
    if reached < bid:
        # Overbid: lost, at the smallest multiple of the base that reaches the bid.
        value = -(-bid // base) * base
        return Valued(value, False, True, base, steps, reached, schneider, schwarz)
    return Valued(reached, made, False, base, steps, reached, schneider, schwarz)


def _steps(declared: Declared, schneider: bool, schwarz: bool) -> tuple[tuple[str, int], ...]:
    """The multiplier counted as a table counts it: matadors, game, then each level, with the
    running count. An announced level counts the level too, reached or not."""
    matadors = declared.matadors or 0
    levels = (
        ("game", True),
        ("hand", declared.hand),
        ("schneider", schneider or declared.schneider_announced),
        ("schneider_announced", declared.schneider_announced),
        ("schwarz", schwarz or declared.schwarz_announced),
        ("schwarz_announced", declared.schwarz_announced),
        ("ouvert", declared.ouvert),
    )
    count = abs(matadors)
    steps = [("with" if matadors > 0 else "without", count)]
    for name, counts in levels:
        if counts:
            count += 1
            steps.append((name, count))
    return tuple(steps)


# --- The reason, in the table's words -----------------------------------------------------------

_STEP_WORDS: dict[str, str] = {
    "with": N_("with {count}"),
    "without": N_("without {count}"),
    "game": N_("game {count}"),
    "hand": N_("hand {count}"),
    "schneider": N_("schneider {count}"),
    "schneider_announced": N_("announced {count}"),
    "schwarz": N_("schwarz {count}"),
    "schwarz_announced": N_("announced {count}"),
    "ouvert": N_("ouvert {count}"),
}


def reason(valued: Valued, game_name: Phrase | str | None = None) -> Phrase:
    """How the value came about: "with 1, game 2, hand 3 × 10 = 30: overbid at 40"; a Null
    game "Null hand = 35: lost". ``game_name`` names a Null game (as ``null_name``)."""
    verdict = verdict_phrase(valued)
    if valued.base is None:
        return Phrase(
            "{game} = {value}: {verdict}",
            game=game_name or "Null",
            value=valued.value,
            verdict=verdict,
        )
    counted: Phrase | None = None
    for name, count in valued.steps:
        step = Phrase(_STEP_WORDS[name], count=count)
        counted = (
            step if counted is None else Phrase("{counted}, {step}", counted=counted, step=step)
        )
    assert counted is not None
    return Phrase(
        "{steps} × {base} = {reached}: {verdict}",
        steps=counted,
        base=valued.base,
        reached=valued.reached,
        verdict=verdict,
    )


def verdict_phrase(valued: Valued) -> Phrase:
    if valued.overbid:
        return Phrase("overbid at {value}", value=valued.value)
    return Phrase("won") if valued.won else Phrase("lost")
