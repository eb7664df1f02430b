"""What a game's table looks like to a form and to a summary, as facts the engine gives.

``TableRules`` are each game's answers (its module gives them, ``Game.table``): which ranks and
values its cards have, what a player's row may hold, who may sit out, whether a hand may end
with nobody out, whether a player can go rummy, whether its hands are called rounds.
``EntryForm`` is what the hand form offers under a session's options and seating, and
``PotStory`` what a money hand did with the pot and between the players. Pages only put these
facts into words: no page needs to know a game by its key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ledger.rules.cards import JOKER, RANKS, SUITS, Card, spot_value
from ledger.rules.errors import RuleError
from ledger.rules.texts import N_


@dataclass(frozen=True)
class EntryForm:
    """What a hand's form offers for a game under these options and this many seated."""

    ranks: tuple[str, ...]  # the card buttons, in order
    values: Mapping[str, int]  # what each rank counts, for the running total
    suits: tuple[str, ...]
    suits_required: bool  # every card needs its suit (melds are checked)
    show_total: bool  # a spot total means something (not where melds score)
    totals: bool  # a player's spot total may be typed instead of the cards
    sitting_out: bool  # a player may sit a hand out
    nobody_out: bool  # a hand may end with nobody out
    rummy: bool  # the player out may have gone rummy
    out_folds: bool  # the player out has no cards to enter
    dealer_sits_out: bool  # the dealer is not dealt in: sits every hand out
    total_unit: str = N_("spots")  # what a running total of the cards counts
    total_unit_one: str = N_("spot")  # and of a total of 1 ("A = 1 spot")
    melds: int = 0  # boxes for the melds laid out, one meld each, beside the cards (0: none)
    out_choice: bool = True  # who went out changes the score (not where it scores nothing)
    # How a hand may end, to choose one of (Gin Rummy: knock, gin, big gin where played, draw);
    # empty where a hand's end is only who went out.
    endings: tuple[str, ...] = ()
    melded: bool = False  # each player's melded points are asked for too (Rummy 500)
    points_only: bool = False  # each player's points are typed, no cards (Any game)
    packs: int = 1  # how many of each card the deck holds (a card typed more often is refused)
    # Of ``endings``: those after which the player named has no cards to enter (Gin Rummy's
    # gin), and those that take no results at all (a draw).
    out_empty_endings: tuple[str, ...] = ()
    no_result_endings: tuple[str, ...] = ()
    # What going rummy is called at this table (Kaluki: going kaluki).
    rummy_label: str = N_("Went rummy (out in one turn, nothing laid down before)")

    def dealt_in(self, seated: Sequence[str], dealer: str | None) -> tuple[str, ...]:
        """The players seated who are dealt this hand, in seat order."""
        if not self.dealer_sits_out:
            return tuple(seated)
        return tuple(p for p in seated if p != dealer)


@dataclass(frozen=True)
class RummyReward:
    """Going rummy under a session's options: the hand's points times ``factor``, and
    ``bonus`` points more (Rummy: doubled, or 10 points more); with ``off`` (penalty points)
    the bonus is taken off the player out's score instead of added."""

    factor: int = 1
    bonus: int = 0
    off: bool = False
    # The hand's words where the game has its own name for it (Kaluki), with ``{name}``
    # for the player; None: the page's own words for going rummy.
    said: str | None = None


@dataclass(frozen=True)
class TableRules:
    """A game's answers to what a form and a summary need to know about it.

    The defaults are those of a game scored by the spots left in hand with one pack's ranks.
    """

    # The ranks a card may have and what each counts; None: a card's spot value, with the
    # session's ``ace_value`` and ``jokers`` options where the game has them.
    ranks: tuple[str, ...] | None = None
    values: Mapping[str, int] | None = None
    melds_score: bool = False  # the melds in hand score (Spin Rummy): cards need suits
    sitting_out: bool = False  # a player may sit a hand out (Spot)
    nobody_out: bool = True  # a hand may end with nobody out (not Rummy)
    rummy: bool = False  # the player out may have gone rummy (Rummy)
    dealer_sits_out_with: int | None = None  # with this many seated the dealer sits out (Spots)
    rounds: bool = False  # its table calls a hand a round (Spin Rummy)
    # How many melds a player may lay out in a box each (Spin Rummy: a contract's melds).
    meld_boxes: int = 0
    out_scores: bool = True  # who went out changes the score (Spin Rummy: it is recorded only)
    target_option: str | None = None  # the option naming the score that ends the game (Rummy)
    # What going rummy is worth under the session's options (Rummy).
    rummy_reward: Callable[[Mapping[str, Any]], RummyReward] | None = None
    # How a hand may end under the session's options (Gin Rummy); None: by who went out.
    endings: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    melded: bool = False  # each player's melded points are entered too (Rummy 500)
    points_only: bool = False  # each player's points are entered, no cards (Any game)
    out_empty_endings: tuple[str, ...] = ()  # as EntryForm's
    no_result_endings: tuple[str, ...] = ()
    rummy_label: str = N_("Went rummy (out in one turn, nothing laid down before)")
    # The melds laid out that the round's contract does not take, each a RuleError naming its
    # box: (round number, the player, the player's row, the melds as typed).
    contract_misfits: Callable[[int, str, int, Sequence[str], str], list[RuleError]] | None = None
    # Options a preset fixes and a session does not list (Jokeren: two packs, two jokers
    # each), read with the session's own when the form's cards are worked out.
    preset: Mapping[str, Any] = field(default_factory=dict)
    # What one meld laid out scores, where melds score (Spin Rummy); None where they do not.
    meld_value: Callable[[Sequence[Card]], int] | None = None
    # Whether a hand's points are penalty points (the fewest win) under the session's options.
    penalties: Callable[[Mapping[str, Any]], bool] | None = None
    # How many packs the deck has with this many seated (Rummy 500); None: the ``packs``
    # option (preset or the session's), else one.
    packs: Callable[[int], int] | None = None

    def entry_form(self, options: Mapping[str, Any], seated: int) -> EntryForm:
        """What the hand form offers under the session's ``options`` with ``seated`` players."""
        ranks, values = self._cards({**options, **self.preset})
        return EntryForm(
            ranks=ranks,
            values=values,
            suits=SUITS,
            suits_required=self.melds_score,
            show_total=not (self.melds_score or self.points_only),
            totals=not self.melds_score and options.get("entry") == "totals",
            sitting_out=self.sitting_out,
            nobody_out=self.nobody_out,
            rummy=self.rummy,
            out_folds=not self.melds_score,
            dealer_sits_out=seated == self.dealer_sits_out_with,
            melds=self.meld_boxes,
            out_choice=self.out_scores,
            endings=self.endings(options) if self.endings is not None else (),
            melded=self.melded,
            points_only=self.points_only,
            packs=self._packs({**options, **self.preset}, seated),
            out_empty_endings=self.out_empty_endings,
            no_result_endings=self.no_result_endings,
            rummy_label=self.rummy_label,
        )

    def _packs(self, options: Mapping[str, Any], seated: int) -> int:
        if self.packs is not None:
            return self.packs(seated)
        return int(options.get("packs", 1))

    def target(self, options: Mapping[str, Any]) -> int | None:
        """The score that ends the game under the session's ``options``; None without one."""
        if self.target_option is None or options.get(self.target_option) is None:
            return None
        return int(options[self.target_option])

    def penalty_points(self, options: Mapping[str, Any]) -> bool:
        """Whether a hand's points under the session's ``options`` are penalty points."""
        return self.penalties is not None and self.penalties({**options, **self.preset})

    def went_rummy(self, options: Mapping[str, Any]) -> RummyReward | None:
        """What going rummy was worth under the session's ``options``; None where nobody can."""
        if not self.rummy or self.rummy_reward is None:
            return None
        return self.rummy_reward(options)

    def misfits(
        self, round_no: int, player: str, row: int, melds: Sequence[str], language: str = "en"
    ) -> list[RuleError]:
        """The melds ``player`` laid out in round ``round_no`` that its contract does not take
        (none where the game has no contracts), read in the entry's card ``language``."""
        if self.contract_misfits is None:
            return []
        return self.contract_misfits(round_no, player, row, melds, language)

    def _cards(self, options: Mapping[str, Any]) -> tuple[tuple[str, ...], dict[str, int]]:
        if self.ranks is not None and self.values is not None:
            return self.ranks, dict(self.values)
        ace = int(options.get("ace_value", 1))
        values = {rank: spot_value(Card(rank), ace=ace) for rank in RANKS}
        if not int(options.get("jokers", 0)):
            return RANKS, values
        values[JOKER.code] = spot_value(JOKER, joker=int(options.get("joker_value", 15)))
        return (*RANKS, JOKER.code), values


# --- A money hand's story ----------------------------------------------------------------------


class Result(Protocol):
    """A player's result as the story reads it (the engine's PlayerResult, or a stored one)."""

    @property
    def player(self) -> str: ...
    @property
    def spots(self) -> int | None: ...
    @property
    def sitting_out(self) -> bool: ...


class Payment(Protocol):
    """Money from one player to another (the engine's Movement, or a stored one)."""

    @property
    def source(self) -> str | None: ...
    @property
    def target(self) -> str | None: ...
    @property
    def units(self) -> int: ...


@dataclass(frozen=True)
class PotStory:
    """What a money hand did, as the table tells it: who took what, who paid what, the pot."""

    out: str | None
    winners: tuple[str, ...]
    received: Mapping[str, int]  # what each winner got from the other players (not the pot)
    # Who paid, in seat order, and how much: a loser's whole spot total when the odd units of a
    # tie went into the pot (the payments between players leave those units out).
    paid: tuple[tuple[str, int], ...]
    taken: int  # units taken out of the pot by the player out
    odd_units: int  # units a tie could not share evenly, put into the pot
    pot_before: int | None  # after this hand's antes
    pot_after: int | None  # carried to the next hand

    @property
    def out_wins_alone(self) -> bool:
        return self.out is not None and self.winners == (self.out,)


def pot_story(
    results: Sequence[Result],
    out: str | None,
    winners: Sequence[str],
    payments: Sequence[Payment],
    pot_before: int | None,
    pot_after: int | None,
) -> PotStory:
    """The story of one money hand from its outcome: results in seat order, the payments
    between players, the pot after the antes and after the hand."""
    received: dict[str, int] = {}
    paid: dict[str, int] = {}
    for p in payments:
        if p.source is None or p.target is None:
            continue  # the pot's own movements are told by its before and after
        received[p.target] = received.get(p.target, 0) + p.units
        paid[p.source] = paid.get(p.source, 0) + p.units
    known = pot_before is not None and pot_after is not None
    change = (pot_after or 0) - (pot_before or 0) if known else 0
    odd = max(change, 0) if out is None else 0
    if odd:
        for r in results:
            if r.player not in winners and not r.sitting_out and r.spots:
                paid[r.player] = max(paid.get(r.player, 0), r.spots)
    return PotStory(
        out=out,
        winners=tuple(winners),
        received=received,
        paid=tuple((r.player, paid[r.player]) for r in results if paid.get(r.player)),
        taken=max(-change, 0),
        odd_units=odd,
        pot_before=pot_before,
        pot_after=pot_after,
    )
