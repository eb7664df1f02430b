"""The engine's shared vocabulary: entries, outcomes, the state between hands (the games
themselves are in game.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ledger.rules import entries
from ledger.rules.cards import Card
from ledger.rules.errors import Problems, RuleError
from ledger.rules.table import PotStory, pot_story

# --- What a player types ---------------------------------------------------------------------


@dataclass(frozen=True)
class ResultEntry:
    """One player's result in a hand of a card game, as entered (API.md "Hand entry").

    At most one of ``cards`` (text as typed) or ``spots`` (a whole spot total) is given, or
    ``sitting_out``; the player who went out may give neither. A game whose results hold more
    (Spin Rummy's melds, Rummy 500's melded cards, Any game's points) declares its own result
    as a subclass in its module (``Game.result_type``): no game's fields sit in another's.
    """

    player: str = field(metadata={"kind": entries.TEXT})
    cards: str | None = entries.entry_field(entries.CARDS, example="J 10", alternative=True)
    spots: int | None = entries.entry_field(entries.WHOLE, alternative=True)
    sitting_out: bool = entries.entry_field(entries.FLAG, False)


@dataclass(frozen=True)
class HandEntry:
    """A whole hand of a card game as entered: one result per seated player, in any order.

    ``cards_language`` is the language the cards are typed in (RULES.md §1): "nl" reads the
    Dutch letters too. What is stored is in English (ledger/rules/entries.py). A game whose
    hand says more (Gin Rummy: how it ended) declares a subclass (``Game.entry_type``).
    """

    results: tuple[ResultEntry, ...] = field(metadata={"kind": entries.RESULTS})
    out: str | None = entries.entry_field(entries.TEXT, always=True, blank_none=True)
    rummy: bool = entries.entry_field(entries.FLAG, False, always=True)
    cards_language: str = entries.entry_field(entries.LANGUAGE, "en")


# A hand's entry, whatever its game: an instance of the game's ``entry_type`` (a HandEntry for
# the card games), which only its game reads.
Entry: TypeAlias = Any


# --- What the engine answers -----------------------------------------------------------------


@dataclass(frozen=True)
class PlayerResult:
    """One player's validated result in a hand."""

    player: str
    cards: tuple[Card, ...] = ()
    spots: int | None = None  # the spot value left in hand (or the melds' score in Spin Rummy)
    points: int | None = None  # what the hand adds to the score, points games only
    sitting_out: bool = False
    melds: tuple[tuple[Card, ...], ...] = ()  # Spin Rummy: the melds that scored
    melded: int | None = None  # Rummy 500: the points melded or laid off (``spots``: in hand)
    melded_cards: tuple[Card, ...] = ()  # Rummy 500: the melded cards, where they were given
    # What a game says of a player's result beside these (a bid and the tricks taken), as
    # JSON: stored with the outcome and answered as the result's own fields.
    more: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Movement:
    """Money moving in a hand. ``None`` on either side is the pot."""

    source: str | None
    target: str | None
    units: int


@dataclass(frozen=True)
class State:
    """Everything the engine needs to know about a session between two hands.

    It is stored with every hand, so a new hand or a correction never re-scores the history.
    ``scores`` keeps every player who ever played in the session (one who left keeps their
    balance); ``seats`` are the players seated now, in clockwise order.
    """

    seats: tuple[str, ...]
    dealer: str  # who deals the next hand
    scores: Mapping[str, int]
    hands_played: int = 0
    pot: int = 0  # money games: units in the pot now
    carried_in: int = 0  # money games: the pot this session opened with
    pot_antes: Mapping[str, int] = field(default_factory=dict)  # antes since the pot was won
    finished: bool = False
    winners: tuple[str, ...] = ()
    # Where a game keeps points beside money (Kaluki: ``scores`` are the balances in units),
    # each player's running total of points.
    totals: Mapping[str, int] = field(default_factory=dict)
    # Hands won by each player, where the game pays for them (Gin Rummy's boxes).
    wins: Mapping[str, int] = field(default_factory=dict)
    # Kaluki: the players out of the game, each with the hand they were eliminated in, and
    # the totals each player re-entered at after buying back in, in order.
    eliminated: Mapping[str, int] = field(default_factory=dict)
    buy_ins: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    # What a game keeps between hands beside these (the bids saved for the next round), as
    # JSON: the game's own business.
    more: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seats": list(self.seats),
            "dealer": self.dealer,
            "scores": dict(self.scores),
            "hands_played": self.hands_played,
            "pot": self.pot,
            "carried_in": self.carried_in,
            "pot_antes": dict(self.pot_antes),
            "finished": self.finished,
            "winners": list(self.winners),
        }
        # Only the games that keep them store these, so the others' states read as before.
        if self.totals:
            data["totals"] = dict(self.totals)
        if self.wins:
            data["wins"] = dict(self.wins)
        if self.eliminated:
            data["eliminated"] = dict(self.eliminated)
        if self.buy_ins:
            data["buy_ins"] = {p: list(at) for p, at in self.buy_ins.items()}
        if self.more:
            data["more"] = dict(self.more)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        return cls(
            seats=tuple(data["seats"]),
            dealer=data["dealer"],
            scores={str(k): int(v) for k, v in data["scores"].items()},
            hands_played=int(data.get("hands_played", 0)),
            pot=int(data.get("pot", 0)),
            carried_in=int(data.get("carried_in", 0)),
            pot_antes={str(k): int(v) for k, v in data.get("pot_antes", {}).items()},
            finished=bool(data.get("finished", False)),
            winners=tuple(data.get("winners", ())),
            totals={str(k): int(v) for k, v in data.get("totals", {}).items()},
            wins={str(k): int(v) for k, v in data.get("wins", {}).items()},
            eliminated={str(k): int(v) for k, v in data.get("eliminated", {}).items()},
            buy_ins={str(k): tuple(int(t) for t in v) for k, v in data.get("buy_ins", {}).items()},
            more=dict(data.get("more", {})),
        )


@dataclass(frozen=True)
class HandOutcome:
    """What one hand did: the validated results, who won, the money or points, the new state."""

    number: int
    dealer: str
    leader: str
    results: tuple[PlayerResult, ...]  # in seat order
    out: str | None
    winners: tuple[str, ...]
    movements: tuple[Movement, ...]  # money games: antes, pot wins and player payments
    pot_before: int | None  # after this hand's antes; None in points games
    pot_after: int | None
    state: State  # after the hand: scores, pot, next dealer, finished, winners
    ending: str | None = None  # Gin Rummy: how the hand ended (its entry's ``ending``)
    # What a game says of the hand beside these (a team's roem), as JSON: stored with the
    # outcome and answered as the hand's own fields.
    more: Mapping[str, Any] = field(default_factory=dict)

    @property
    def payments(self) -> tuple[Movement, ...]:
        """Money between two players (API.md ``payments``): antes and the pot left out."""
        return tuple(m for m in self.movements if m.source is not None and m.target is not None)

    def pot_story(self) -> PotStory:
        """Money games: who took the pot, who paid what, the odd units, the pot carried on."""
        return pot_story(
            self.results, self.out, self.winners, self.movements, self.pot_before, self.pot_after
        )


@dataclass(frozen=True)
class BuyIn:
    """A buy-in as the session keeps it, to replay after the hand it followed (Kaluki,
    RULES.md §10): the player, the hands played when they bought in, what they paid into the
    pot and the total they re-entered at (the engine's answer, kept to show and to check a
    replay)."""

    player: str
    after_hand: int
    units: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "after_hand": self.after_hand,
            "units": self.units,
            "total": self.total,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BuyIn:
        return cls(
            player=str(data["player"]),
            after_hand=int(data["after_hand"]),
            units=int(data["units"]),
            total=int(data["total"]),
        )


@dataclass(frozen=True)
class BoughtIn:
    """What a buy-in did: the record to keep, the money into the pot, the state after it."""

    buy_in: BuyIn
    movements: tuple[Movement, ...]
    state: State


@dataclass(frozen=True)
class Finish:
    """How a money session ends: what the leftover pot does and the final state."""

    movements: tuple[Movement, ...]  # refunds from the pot (empty when the pot is carried)
    state: State  # finished; ``pot`` is what is carried to the next session (0 on refund)


# --- Bounds ----------------------------------------------------------------------------------

# The most units (or points) a score, the pot or a payment may reach, either way: far past
# any night at the largest ante, and well inside the databases' 32-bit integers.
MAX_TOTAL = 1_000_000_000


def check_totals(outcome: HandOutcome) -> HandOutcome:
    """The outcome as it is, or a RuleError if a total in it passes MAX_TOTAL."""
    state = outcome.state
    numbers = [state.pot, state.carried_in, *state.scores.values(), *state.pot_antes.values()]
    numbers += [*state.totals.values()]
    numbers += [m.units for m in outcome.movements]
    if any(abs(n) > MAX_TOTAL for n in numbers):
        raise RuleError(
            "This hand would take a score or the pot past {most} units, more than the app "
            "can keep. Finish this session and start a new one.",
            most=MAX_TOTAL,
        )
    return outcome


# --- Seats: shared by every game ---------------------------------------------------------------


def tidy_name(name: str) -> str:
    """A player's name as the table writes it: its spaces tidied into single spaces."""
    return " ".join(name.split())


def has_name(names: Sequence[str], name: str) -> bool:
    """Whether ``name`` is one of ``names``, whatever case either is typed in."""
    key = name.strip().casefold()
    return any(n.casefold() == key for n in names)


def checked_antes(antes: Mapping[str, int] | None, pot: int) -> dict[str, int]:
    """The antes carried in with a pot, by player: whole units, none negative, within the pot.

    Players whose antes are 0 are left out, as ``pot_antes`` never holds them.
    """
    kept: dict[str, int] = {}
    for player, units in (antes or {}).items():
        if not isinstance(player, str) or not player:
            raise RuleError(
                "Every ante carried in with the pot needs the name of the player who paid it.",
                field="carried_antes",
            )
        if isinstance(units, bool) or not isinstance(units, int) or units < 0:
            raise RuleError(
                "The antes {player} paid into the carried pot must be a whole number of units, "
                "at least 0.",
                field="carried_antes",
                players=(player,),
                player=player,
            )
        if units:
            kept[player] = units
    if sum(kept.values()) > pot:
        raise RuleError(
            "The antes carried in with the pot add up to {antes} units, "
            "more than the {pot} units in it.",
            field="carried_antes",
            antes=sum(kept.values()),
            pot=pot,
        )
    return kept


def next_seat(seats: Sequence[str], player: str, step: int = 1) -> str:
    """The player ``step`` seats clockwise from ``player`` (negative: anticlockwise)."""
    i = list(seats).index(player)
    return seats[(i + step) % len(seats)]


def left_of(seats: Sequence[str], player: str) -> str:
    """The player to ``player``'s left: the next one clockwise, who plays first after a deal."""
    return next_seat(seats, player, 1)


def in_play_order(seats: Sequence[str], dealer: str) -> tuple[str, ...]:
    """The seated players in playing order, starting at the dealer's left, ending at the dealer."""
    i = list(seats).index(dealer)
    return tuple(seats[(i + 1 + k) % len(seats)] for k in range(len(seats)))


# --- Checking a hand entry: the parts every game shares -----------------------------------------


def index_results(
    state: State, entry: HandEntry, problems: Problems | None = None
) -> dict[str, tuple[int, ResultEntry]]:
    """Each seated player's result with its position in the entry, or a RuleError.

    Every player seated has exactly one result; nobody else has one; ``out`` is seated and
    not sitting out. Every problem is found; given ``problems``, they are added there (for
    the caller to check the good results too and refuse the entry once) and the good
    results are answered, else they are raised at once.
    """
    found = Problems() if problems is None else problems
    by_player: dict[str, tuple[int, ResultEntry]] = {}
    flagged: set[str] = set()  # players whose result was refused: not missing as well
    for i, r in enumerate(entry.results):
        try:
            name = _seated_result(state, i, r, by_player)
        except RuleError as e:
            found.add(e)
            flagged.update(e.players)
            continue
        by_player[name] = (i, r)
    out = canonical(state, entry.out) if entry.out else None
    if entry.out and out is None:
        found.add(
            RuleError(
                "{player}, who went out, is not seated in this session.",
                field="out",
                player=entry.out,
            )
        )
    for missing in (p for p in state.seats if p not in by_player and p not in flagged | {out}):
        found.add(
            RuleError(
                "{player} has no result in this hand.",
                field="results",
                players=(missing,),
                player=missing,
            )
        )
    if out is not None and out in by_player and by_player[out][1].sitting_out:
        found.add(
            RuleError(
                "{player} cannot both sit out and go out.", field="out", players=(out,), player=out
            )
        )
    if problems is None:
        found.raise_found()
    return by_player


def _seated_result(
    state: State, i: int, r: ResultEntry, by_player: Mapping[str, tuple[int, ResultEntry]]
) -> str:
    """The seated player result ``i`` is for, or a RuleError: one result each, one kind."""
    name = canonical(state, r.player or "")
    if name is None:
        if not r.player:
            raise RuleError(
                "A result with no name is not seated in this session.",
                field=f"results[{i}].player",
            )
        raise RuleError(
            "{player} is not seated in this session.",
            field=f"results[{i}].player",
            player=r.player,
        )
    if name in by_player:
        raise RuleError(
            "{player} has two results in this hand.",
            field=f"results[{i}].player",
            players=(name,),
            player=name,
        )
    given = len(entries.alternatives(r)) + bool(r.sitting_out)
    if given > 1:
        raise RuleError(
            "{player} has more than one of cards, spots, melds and sitting out.",
            field=f"results[{i}]",
            players=(name,),
            player=name,
        )
    return name


def canonical(state: State, name: str | None) -> str | None:
    """The seated player's name as the session spells it, whatever case was typed."""
    if name is None:
        return None
    key = name.strip().casefold()
    return next((p for p in state.seats if p.casefold() == key), None)
