"""The engine's shared vocabulary: entries, outcomes, the state between hands, the games."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.rules.cards import Card
from ledger.rules.errors import Problems, RuleError
from ledger.rules.table import EntryForm, PotStory, TableRules, pot_story

# --- What a player types ---------------------------------------------------------------------


@dataclass(frozen=True)
class ResultEntry:
    """One player's result in a hand, as entered (API.md "Hand entry").

    Exactly one of ``cards`` (text as typed), ``spots`` (a whole spot total), ``melds`` (Spin
    Rummy: one card text per meld) or ``sitting_out`` is given; the player who went out may give
    none of them.
    """

    player: str
    cards: str | None = None
    spots: int | None = None
    melds: tuple[str, ...] | None = None
    sitting_out: bool = False
    # Rummy 500 (RULES.md §9): what the player melded or laid off this hand, as cards with the
    # count of their aces that count 1 (``low_aces``), or as a whole total (``melded_points``).
    melded: str | None = None
    low_aces: int | None = None
    melded_points: int | None = None
    # Any game (RULES.md §12): the hand's points as the table worked them out. Typed as it
    # arrives, so that a fraction can be refused in words ("not 7.5").
    points: int | float | None = None


@dataclass(frozen=True)
class HandEntry:
    """A whole hand as entered: one result per seated player, in any order.

    ``cards_language`` is the language the cards are typed in (RULES.md §1): "nl" reads the
    Dutch letters too. What is stored is in English (ledger/rules/codecs.py).
    """

    results: tuple[ResultEntry, ...]
    out: str | None = None
    rummy: bool = False
    cards_language: str = "en"
    # Gin Rummy (RULES.md §8): how the hand ended, "knock", "gin", "big_gin" or "draw".
    ending: str | None = None


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
    ending: str | None = None  # Gin Rummy: how the hand ended (HandEntry.ending)

    @property
    def payments(self) -> tuple[Movement, ...]:
        """Money between two players (API.md ``payments``): antes and the pot left out."""
        return tuple(m for m in self.movements if m.source is not None and m.target is not None)

    def pot_story(self) -> PotStory:
        """Money games: who took the pot, who paid what, the odd units, the pot carried on."""
        return pot_story(
            self.results, self.out, self.winners, self.payments, self.pot_before, self.pot_after
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


# --- Games -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One game option: its default and what it may be (RULES.md marks these *option*)."""

    default: Any
    choices: tuple[Any, ...] | None = None  # allowed values, or None for a range/free value
    minimum: int | None = None  # for whole-number options
    maximum: int | None = None
    help: str = ""
    # For free-form values (a currency, a unit value): returns the clean value or raises RuleError.
    parse: Callable[[Any], Any] | None = None


# The money games' option saying what the pot left at the end of a night does.
LEFTOVER_POT = "leftover_pot"


@dataclass(frozen=True)
class Game:
    """A game the app knows. Each game module builds one and ``registry`` collects them."""

    key: str
    name: str
    description: str  # one line for the new-session page
    min_players: int
    max_players: int
    money: bool
    options: Mapping[str, Option]
    play: Callable[[State, HandEntry, Mapping[str, Any]], HandOutcome]
    open_seating: bool = False  # players may join or leave between hands
    # ``start`` may be replaced by a game that needs more checks at the start of a session.
    start: Callable[[Sequence[str], str, Mapping[str, Any], int], State] | None = None
    finish: Callable[[State, Mapping[str, Any], str], Finish] | None = None
    progress: Callable[[State, Mapping[str, Any]], Progress | None] | None = None
    # Where the options narrow the seats (Rummy: 6 with one pack, 7 with two): checks the seats
    # a join would make and raises RuleError; ``join`` calls it when given the options.
    check_seats: Callable[[Sequence[str], Mapping[str, Any]], None] | None = None
    # The direction the deal passes under these options: +1 to the left (clockwise), -1 right.
    deal_step: Callable[[Mapping[str, Any]], int] | None = None

    # Who plays first in the next hand; None means the player to the dealer's left.
    first_player: Callable[[State], str] | None = None
    # Points games: who wins where the game stands, when the table ends it before it ends by
    # itself (the game's own measure: highest or lowest score). Money games have no winner.
    leaders: Callable[[State, Mapping[str, Any]], tuple[str, ...]] | None = None
    # What a hand's form and a hand's summary need to know of the game (ledger/rules/table.py).
    table: TableRules = TableRules()
    # Points games whose end adds to the hands' points (Gin Rummy's bonuses): each player's
    # final total in a finished game, what the winners and a stake are judged on (§7).
    final_scores: Callable[[State, Mapping[str, Any]], dict[str, int]] | None = None
    # Points games whose end adds bonuses (Gin Rummy): each player's bonuses by name ("game",
    # "boxes"...), in points, once the game is over; what ``final_scores`` adds up.
    bonuses: Callable[[State, Mapping[str, Any]], dict[str, dict[str, int]]] | None = None
    # Games where a player eliminated may buy back in between hands (Kaluki): the buy-in, and
    # a kept one made again on the state after the hand it followed (a replay). Their state
    # keeps ``totals``, ``eliminated`` and ``buy_ins``.
    buy_in: Callable[[State, str, Mapping[str, Any]], BoughtIn] | None = None
    replay_buy_in: Callable[[State, BuyIn, Mapping[str, Any]], BoughtIn] | None = None
    # Who may buy back in now (eliminated in the last hand, buy-ins on): the page's buttons.
    may_buy_in: Callable[[State, Mapping[str, Any]], tuple[str, ...]] | None = None
    # A game that is not open seating but lets a player leave between hands its own way
    # (Kaluki: the player is eliminated without a buy-in).
    leave: Callable[[State, str, Mapping[str, Any]], State] | None = None

    def __post_init__(self) -> None:
        # Every hand any caller plays (a new hand, a correction's replay, a restore's replay)
        # is held to the bounds, so none can store a total the database or a page cannot hold.
        play = self.play

        def bounded_play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
            return check_totals(play(state, entry, options))

        object.__setattr__(self, "play", bounded_play)

    def entry_form(self, options: Mapping[str, Any], seated: int) -> EntryForm:
        """What a hand's form offers in a session with these options and this many seated."""
        return self.table.entry_form({**self.defaults(), **options}, seated)

    def pot_choices(self) -> tuple[str, ...]:
        """What the table may do with the pot left at the end of a night (RULES.md §2: carry
        or refund), the default first; none for a game without a pot."""
        option = self.options.get(LEFTOVER_POT)
        if option is None or not option.choices:
            return ()
        rest = tuple(c for c in option.choices if c != option.default)
        return (option.default, *rest)

    def pot_choice(self, options: Mapping[str, Any]) -> str | None:
        """What a session with these options does with the pot left at the end, by default."""
        choices = self.pot_choices()
        chosen = options.get(LEFTOVER_POT)
        return chosen if chosen in choices else (choices[0] if choices else None)

    def pass_direction(self, options: Mapping[str, Any]) -> int:
        return self.deal_step(options) if self.deal_step is not None else 1

    def next_leader(self, state: State) -> str | None:
        """Who plays first in the next hand, or None when nobody is seated to play it."""
        if state.dealer not in state.seats:
            return None
        if self.first_player is not None:
            return self.first_player(state)
        return left_of(state.seats, state.dealer)

    def standing_winners(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The winners of a game ended at the table: its leaders among the players still
        seated (equal best share the win), nobody before the first hand."""
        if self.leaders is None or state.hands_played == 0:
            return ()
        seated = tuple(p for p in state.seats if p in state.scores)
        if not seated:
            return ()
        return self.leaders(replace(state, seats=seated), {**self.defaults(), **options})

    def final_totals(self, state: State, options: Mapping[str, Any]) -> dict[str, int]:
        """Each player's total as the game's money is worked out on it (RULES.md §7): the
        scores, plus what the game adds at its end (Gin Rummy's bonuses) once it is over."""
        if self.final_scores is None or not state.finished:
            return dict(state.scores)
        return self.final_scores(state, {**self.defaults(), **options})

    def defaults(self) -> dict[str, Any]:
        return {name: opt.default for name, opt in self.options.items()}

    def check_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The session's options: the defaults overlaid with those given, each checked."""
        return check_options(self, given or {})

    def new_state(
        self,
        players: Sequence[str],
        dealer: str,
        options: Mapping[str, Any],
        carried_pot: int = 0,
        *,
        carried_antes: Mapping[str, int] | None = None,
    ) -> State:
        """The state before hand 1, opened with the pot carried in from an earlier session.

        ``carried_antes`` are the antes in that pot by player since it was last won (the
        finished session's ``pot_antes``): a refund gives them back to those who paid them.
        A points game has no pot, so it ignores both.
        """
        if not self.money:
            carried_pot, carried_antes = 0, None
        if self.start is None:
            return start_state(self, players, dealer, carried_pot, carried_antes=carried_antes)
        state = self.start(players, dealer, options, carried_pot)
        if not carried_antes:
            return state
        return replace(state, pot_antes=checked_antes(carried_antes, state.pot))


@dataclass(frozen=True)
class Progress:
    """Where a game with a fixed length stands, for "Round 2 · hand 3 of 4"."""

    round: int
    hand: int  # the hand within the round, 1-based, of the next hand to be entered
    hands_in_round: int
    rounds: int
    contract: str | None = None  # Spin Rummy: the round's contract in words


def check_options(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(given) - set(game.options))
    if unknown:
        raise RuleError(
            "{game} has no option '{option}'. Its options are: {options}.",
            field=f"options.{unknown[0]}",
            game=game.name,
            option=unknown[0],
            options=", ".join(game.options),
        )
    chosen = game.defaults()
    for name, value in given.items():
        opt = game.options[name]
        where = f"options.{name}"
        if opt.choices is not None:
            # Numbers may arrive as strings from a form; compare as text to be forgiving.
            match = [c for c in opt.choices if c == value or str(c) == str(value)]
            if not match:
                allowed = ", ".join(str(c) for c in opt.choices)
                raise RuleError(
                    "The option {option} cannot be '{value}': choose one of {allowed}.",
                    field=where,
                    option=name,
                    value=str(value),
                    allowed=allowed,
                )
            chosen[name] = match[0]
        elif opt.minimum is not None or opt.maximum is not None:
            number = _whole(value)
            if number is None:
                raise RuleError(
                    "The option {option} must be a whole number.", field=where, option=name
                )
            if opt.minimum is not None and number < opt.minimum:
                raise RuleError(
                    "The option {option} must be at least {minimum}.",
                    field=where,
                    option=name,
                    minimum=opt.minimum,
                )
            if opt.maximum is not None and number > opt.maximum:
                raise RuleError(
                    "The option {option} must be at most {maximum}.",
                    field=where,
                    option=name,
                    maximum=opt.maximum,
                )
            chosen[name] = number
        elif opt.parse is not None:
            chosen[name] = opt.parse(value)
        else:
            chosen[name] = value
    return chosen


# Digits a whole-number option may be typed with: more is beyond every option's maximum, and
# Python refuses to read a number of thousands of digits at all (int_max_str_digits).
_OPTION_DIGITS = 12
_PAST_ANY_OPTION: int = 10**_OPTION_DIGITS


def _whole(value: Any) -> int | None:
    """A whole number given as a number or as text ("5", " -3 "); None for anything else.

    A float is not a whole number, even 5.0. Text of more than ``_OPTION_DIGITS`` digits reads
    as a number just past them, so the option's maximum refuses it.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        return None
    sign = -1 if text.startswith("-") else 1
    if len(digits.lstrip("0")) > _OPTION_DIGITS:
        return sign * _PAST_ANY_OPTION
    return sign * int(digits)


def whole_number(value: Any) -> int | None:
    """A whole number as an option reads it (a number, or text as a form sends it); None for
    anything else: for the options a game checks itself (ledger/rules/lengths.py)."""
    return _whole(value)


# --- Seats: shared by every game ---------------------------------------------------------------


def tidy_name(name: str) -> str:
    """A player's name as the table writes it: its spaces tidied into single spaces."""
    return " ".join(name.split())


def has_name(names: Sequence[str], name: str) -> bool:
    """Whether ``name`` is one of ``names``, whatever case either is typed in."""
    key = name.strip().casefold()
    return any(n.casefold() == key for n in names)


def check_players(game: Game, players: Sequence[str], dealer: str) -> tuple[str, ...]:
    """The seat order of a new session, checked: names unique, count in range, dealer seated."""
    seats = tuple(p.strip() for p in players)
    if any(not p for p in seats):
        raise RuleError("Every player needs a name.", field="players")
    seen: set[str] = set()
    for p in seats:
        if p.casefold() in seen:
            raise RuleError("{player} is seated twice.", field="players", players=(p,), player=p)
        seen.add(p.casefold())
    n = len(seats)
    if not game.min_players <= n <= game.max_players:
        if game.min_players == game.max_players:
            raise RuleError(
                "{game} is played by exactly {count} players, not {n}.",
                field="players",
                game=game.name,
                count=game.min_players,
                n=n,
            )
        raise RuleError(
            "{game} is played by {min} to {max} players, not {n}.",
            field="players",
            game=game.name,
            min=game.min_players,
            max=game.max_players,
            n=n,
        )
    if dealer not in seats:
        raise RuleError(
            "The dealer {dealer} is not one of the players.", field="dealer", dealer=dealer
        )
    return seats


def start_state(
    game: Game,
    players: Sequence[str],
    dealer: str,
    carried_pot: int = 0,
    *,
    carried_antes: Mapping[str, int] | None = None,
) -> State:
    """A new session's state: nobody has scored, and a money game opens with the carried pot.

    A points game starts with no pot whatever is passed: a pot left in Spot is not its to take.
    """
    seats = check_players(game, players, dealer)
    pot = carried_pot if game.money else 0
    antes = checked_antes(carried_antes, pot) if game.money and carried_antes else {}
    return State(
        seats=seats,
        dealer=dealer,
        scores={p: 0 for p in seats},
        pot=pot,
        carried_in=pot,
        pot_antes=antes,
    )


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


def join(
    game: Game, state: State, name: str, after: str, options: Mapping[str, Any] | None = None
) -> State:
    """A player sits down between hands, just clockwise of ``after``.

    Pass the session's ``options`` so a game whose options narrow the seats can check them.
    """
    name = name.strip()
    if not game.open_seating:
        raise RuleError("Players cannot join a game of {game} once it has begun.", game=game.name)
    if state.finished:
        raise RuleError("The session is finished: nobody can join it.")
    if not name:
        raise RuleError("The new player needs a name.", field="name")
    if has_name(state.seats, name):
        raise RuleError("{player} is already seated.", field="name", players=(name,), player=name)
    if after not in state.seats:
        raise RuleError(
            "{player} is not seated, so nobody can sit after them.", field="after", player=after
        )
    if len(state.seats) >= game.max_players:
        raise RuleError(
            "{game} is played by at most {max} players.",
            field="name",
            game=game.name,
            max=game.max_players,
        )
    i = state.seats.index(after)
    seats = state.seats[: i + 1] + (name,) + state.seats[i + 1 :]
    if options is not None and game.check_seats is not None:
        game.check_seats(seats, options)
    scores = dict(state.scores)
    scores.setdefault(name, 0)
    return replace(state, seats=seats, scores=scores)


def leave(
    game: Game,
    state: State,
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    pass_deal: int | None = None,
) -> State:
    """A player leaves between hands; their balance stays. If they were to deal, the deal moves on.

    The deal moves the way it passes in this session (``game.pass_direction(options)``), unless
    ``pass_deal`` (-1 right, +1 left) says otherwise.
    """
    if game.leave is not None:
        return game.leave(state, name, {**game.defaults(), **(options or {})})
    if pass_deal is None:
        pass_deal = game.pass_direction(options or game.defaults())
    if not game.open_seating:
        raise RuleError("Players cannot leave a game of {game} before it ends.", game=game.name)
    if state.finished:
        raise RuleError("The session is finished.")
    if name not in state.seats:
        raise RuleError("{player} is not seated in this session.", players=(name,), player=name)
    if len(state.seats) <= game.min_players:
        raise RuleError(
            "{player} cannot leave: {game} needs at least {min} players.",
            players=(name,),
            player=name,
            game=game.name,
            min=game.min_players,
        )
    dealer = state.dealer
    if dealer == name:
        dealer = next_seat(state.seats, name, pass_deal)
    seats = tuple(p for p in state.seats if p != name)
    return replace(state, seats=seats, dealer=dealer)


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
    given = sum(x is not None for x in (r.cards, r.spots, r.melds)) + bool(r.sitting_out)
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
