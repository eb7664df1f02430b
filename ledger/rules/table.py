"""What a card game's table looks like to a form and to a summary, as facts the engine gives.

``EntryForm`` is what the shared rows of cards of a hand's form offer under a session's options
and seating (``Game.entry_form``: which ranks and values its cards have, who may sit out,
whether a hand may end with nobody out, whether a player can go rummy); what only one game's
form asks (melds, endings, points) is in that game's own template. ``PotStory`` is what a
money hand did with the pot and between the players. ``PaperRows`` is what a game fixes of a
blank score sheet's rows before they are played. Pages only put these facts into words: no
page needs to know a game by its key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ledger.rules.texts import N_


@dataclass(frozen=True)
class EntryForm:
    """What a hand's form offers for a game under these options and this many seated."""

    ranks: tuple[str, ...]  # the card buttons, in order
    values: Mapping[str, int]  # what each rank counts, for the running total
    suits: tuple[str, ...]
    cards: bool  # a hand is entered as the cards left (not as points: Any game)
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
    out_choice: bool = True  # who went out changes the score (not where it scores nothing)
    packs: int = 1  # how many of each card the deck holds (a card typed more often is refused)
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
    antes: int = 0  # units this hand's antes put in the pot (what went into it, but odd units)

    @property
    def out_wins_alone(self) -> bool:
        return self.out is not None and self.winners == (self.out,)

    @property
    def collected(self) -> int:
        """What the player out collects: the pot taken and the payments to them."""
        return self.taken + (self.received.get(self.out, 0) if self.out is not None else 0)

    @property
    def pot_before_antes(self) -> int | None:
        """The pot as the hand found it, before its antes went in."""
        return None if self.pot_before is None else self.pot_before - self.antes


def pot_story(
    results: Sequence[Result],
    out: str | None,
    winners: Sequence[str],
    payments: Sequence[Payment],
    pot_before: int | None,
    pot_after: int | None,
) -> PotStory:
    """The story of one money hand from its outcome: results in seat order, the money that
    moved (between players; what went into the pot gives the antes), the pot after the antes
    and after the hand."""
    received: dict[str, int] = {}
    paid: dict[str, int] = {}
    into = sum(p.units for p in payments if p.target is None)
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
        antes=max(into - odd, 0),
    )


@dataclass(frozen=True)
class PaperRows:
    """The rows of a blank paper score sheet where a game fixes them before they are played
    (``Game.paper_rows``): each row's first cells (Boerenbridge's cards and dealer) under
    their ``headings``, message ids the sheet translates."""

    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
