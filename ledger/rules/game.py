"""What a game is: the base class every game of the app is (each game module makes one, and
``registry`` collects them), its options, and the seats every game shares.

A game says what it is in class attributes (its name, its players, its table as a hand's
form sees it) and what it does in methods. What only some games do (a pot to finish, buy-ins,
bonuses, rounds of contracts, a workbook's columns) are methods with a default here, which
those games override: nothing outside a game's module asks which game it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ledger.rules import entries
from ledger.rules.base import (
    BoughtIn,
    BuyIn,
    Finish,
    HandEntry,
    HandOutcome,
    ResultEntry,
    State,
    check_totals,
    checked_antes,
    has_name,
    left_of,
    next_seat,
)
from ledger.rules.book_columns import HandColumn
from ledger.rules.cards import JOKER, RANKS, SUITS, Card, spot_value
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.gameparts import Option as Option
from ledger.rules.gameparts import Preview as Preview
from ledger.rules.gameparts import Progress as Progress
from ledger.rules.gameparts import Typed as Typed
from ledger.rules.samples import SampleNight, default_night
from ledger.rules.table import EntryForm, PaperRows, RummyReward
from ledger.rules.texts import N_

# The money games' option saying what the pot left at the end of a night does.
LEFTOVER_POT = "leftover_pot"


class Game:
    """A game the app knows. Each game module subclasses it once and ``registry`` collects the
    instances; a page or a service reads a game only through these attributes and methods."""

    key: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str]  # one line for the new-session page
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    money: ClassVar[bool] = False
    options: ClassVar[Mapping[str, Option]] = {}
    open_seating: ClassVar[bool] = False  # players may join or leave between hands
    evening_tables: ClassVar[tuple[int, int] | None] = None  # (fewest, most) seats, §19
    evening_scoring: ClassVar[str] = "places"  # an evening's list: places, points (§19)

    # What a hand of it is (ledger/rules/entries.py): the entry, and each player's result.
    entry_type: ClassVar[type] = HandEntry
    result_type: ClassVar[type] = ResultEntry

    # What its table looks like to a hand's form and summary (``entry_form``). The defaults
    # are those of a game scored by the spots left in hand with one pack's ranks.
    # The ranks a card may have and what each counts; None: a card's spot value, with the
    # session's ``ace_value`` and ``jokers`` options where the game has them.
    ranks: ClassVar[tuple[str, ...] | None] = None
    values: ClassVar[Mapping[str, int] | None] = None
    cards: ClassVar[bool] = True  # a hand is entered as the cards left in hand (not points)
    melds_score: ClassVar[bool] = False  # the melds in hand score (Spin Rummy): cards need suits
    sitting_out: ClassVar[bool] = False  # a player may sit a hand out (Spot)
    nobody_out: ClassVar[bool] = True  # a hand may end with nobody out (not Rummy)
    rummy: ClassVar[bool] = False  # the player out may have gone rummy (Rummy)
    rummy_label: ClassVar[str] = N_("Went rummy (out in one turn, nothing laid down before)")
    dealer_sits_out_with: ClassVar[int | None] = None  # with this many seated (Spots)
    rounds: ClassVar[bool] = False  # its table calls a hand a round (Spin Rummy)
    # Its list counts a night of a fixed length in deals (Skat): "3 of 36 deals played",
    # wherever the others' pages say hands.
    counts_deals: ClassVar[bool] = False
    # A night is a run of games (Cribbage): the shared pages end "the night", not "the game".
    night_of_games: ClassVar[bool] = False
    out_scores: ClassVar[bool] = True  # who went out changes the score (not Spin Rummy)
    target_option: ClassVar[str | None] = None  # the option naming the score that ends it
    # Options a preset fixes and a session does not list (Jokeren: two packs, two jokers
    # each), read with the session's own when the form's cards are worked out.
    preset: ClassVar[Mapping[str, Any]] = {}
    buys_in: ClassVar[bool] = False  # an eliminated player may buy back in (Kaluki)
    # A stake is so many units a game won (Cribbage), not a point (RULES.md §7).
    stake_per_game: ClassVar[bool] = False
    # The game's own calls between hands (Boerenbridge's "bids": saved before a round is
    # played), each made by ``call`` on the state and kept to replay (services/calls.py).
    calls: ClassVar[tuple[str, ...]] = ()

    # --- Playing ------------------------------------------------------------------------

    def play(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        """One hand scored. Every hand any caller plays (a new hand, a correction's replay,
        a restore's replay) is held to the bounds, so none can store a total the database
        or a page cannot hold."""
        return check_totals(self.play_hand(state, entry, options))

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        raise NotImplementedError

    def start(
        self, players: Sequence[str], dealer: str, options: Mapping[str, Any], carried_pot: int
    ) -> State:
        """The state before hand 1; a game that checks more at the start overrides it."""
        return start_state(self, players, dealer, carried_pot)

    def finish(self, state: State, options: Mapping[str, Any], leftover_pot: str | None) -> Finish:
        """How a money session ends (what the leftover pot does): the money games' own."""
        raise RuleError("{game} has no pot to finish.", game=self.name)

    def opened(self, state: State, options: Mapping[str, Any]) -> State:
        """The state of an open night as the table sees it: a game that pays in as it starts
        (Kaluki's antes, kept with its first hand) shows them paid before hand 1; a night that
        is a run of games (Cribbage) shows the next game's board at 0 once one is won (its last
        deal keeps the board as it ended); else the state itself."""
        return state

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        """Where a game of a fixed length stands; None for the others."""
        return None

    def check_seats(self, seats: Sequence[str], options: Mapping[str, Any]) -> None:
        """Where the options narrow the seats (Rummy: 6 with one pack, 7 with two): raises a
        RuleError for the seats a join would make."""

    def deal_step(self, options: Mapping[str, Any]) -> int:
        """The direction the deal passes under these options: +1 to the left, -1 right."""
        return 1

    def first_player(self, state: State) -> str:
        """Who plays first in the next hand: the player to the dealer's left."""
        return left_of(state.seats, state.dealer)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        """Points games: who wins where the game stands, by the game's own measure (highest
        or lowest score); None for a game without one (a money game has no winner)."""
        return None

    def places(self, state: State, options: Mapping[str, Any]) -> dict[str, int] | None:
        """Each seated player's place where the game stands (1 the best), where the scoreboard
        shows places (Any game, RULES.md §12); None elsewhere."""
        return None

    def has_leaders(self) -> bool:
        """Whether the game has a measure of who leads (it gives ``leaders``)."""
        return type(self).leaders is not Game.leaders

    def final_scores(self, state: State, options: Mapping[str, Any]) -> dict[str, int]:
        """Each player's final total in a finished game: the scores, plus what the end adds
        (Gin Rummy's bonuses)."""
        return dict(state.scores)

    def stake_money(self, state: State, options: Mapping[str, Any]) -> dict[str, int] | None:
        """A points game played for a stake whose money is not RULES.md §7's (the stake times
        the gap in points, once the game ends) gives it here, by player, as it stands: Cribbage
        pays a stake a game won, game by game through the night. None: §7's payout."""
        return None

    def bonuses(self, state: State, options: Mapping[str, Any]) -> dict[str, dict[str, int]] | None:
        """What the end of a finished game adds, by player and name (Gin Rummy); None."""
        return None

    def sides(self, seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """Who scores together, in seat order (a score sheet's columns): each player alone;
        a team game its teams, whose players share one score (Klaverjassen)."""
        return tuple((p,) for p in seats)

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """What a session of this game answers beside every game's (API.md "Session"): a
        finished game's bonuses, who is out of the game... Nothing by default."""
        return {}

    def call(
        self, name: str, state: State, body: Mapping[str, Any], options: Mapping[str, Any]
    ) -> State:
        """One of the game's own ``calls`` made on the state between hands, with the body
        sent (API.md: ``PUT …/<call>``): the state after it, or a RuleError."""
        raise RuleError("{game} has no {call} to make.", game=self.name, call=name)

    def call_phrase(self, name: str, body: Mapping[str, Any], number: int) -> Phrase | None:
        """A call made before hand ``number``, in the game's words (the history); None: the
        page's plain words."""
        return None

    def form_call(self, name: str, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """A call's body from a page's form: each row's boxes as typed (with its player)."""
        return {}

    def buy_in(self, state: State, player: str, options: Mapping[str, Any]) -> BoughtIn:
        """An eliminated player buys back in (``buys_in`` games)."""
        raise RuleError("A buy-in kept in this session is not one the app can replay.")

    def replay_buy_in(self, state: State, record: BuyIn, options: Mapping[str, Any]) -> BoughtIn:
        """A kept buy-in made again on the state after the hand it followed."""
        raise RuleError("A buy-in kept in this session is not one the app can replay.")

    def may_buy_in(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
        """Who may buy back in now: the page's buttons."""
        return ()

    def leave(
        self, state: State, name: str, options: Mapping[str, Any], *, pass_deal: int | None = None
    ) -> State:
        """A player leaves between hands (``leave``); a game may have its own way (Kaluki)."""
        return open_seat_leave(self, state, name, options, pass_deal)

    # --- The table: what a hand's form and its words need to know ----------------------------

    def rummy_reward(self, options: Mapping[str, Any]) -> RummyReward | None:
        """What going rummy is worth under the session's options; None where nobody can."""
        return None

    def penalties(self, options: Mapping[str, Any]) -> bool:
        """Whether a hand's points are penalty points (the fewest win) under these options."""
        return False

    def packs(self, options: Mapping[str, Any], seated: int) -> int:
        """How many packs the deck has with this many seated: the ``packs`` option, or one."""
        return int(options.get("packs", 1))

    def meld_value(self, cards: Sequence[Card]) -> int | None:
        """What one meld laid out scores, where melds score (Spin Rummy); None elsewhere."""
        return None

    def entry_form(self, options: Mapping[str, Any], seated: int) -> EntryForm:
        """What a hand's form offers in a session with these options and this many seated."""
        options = {**self.defaults(), **options}
        cards = {**options, **self.preset}
        ranks, values = self._cards(cards)
        return EntryForm(
            ranks=ranks,
            values=values,
            suits=SUITS,
            cards=self.cards,
            suits_required=self.melds_score,
            show_total=self.cards and not self.melds_score,
            totals=not self.melds_score and options.get("entry") == "totals",
            sitting_out=self.sitting_out,
            nobody_out=self.nobody_out,
            rummy=self.rummy,
            out_folds=not self.melds_score,
            dealer_sits_out=seated == self.dealer_sits_out_with,
            out_choice=self.out_scores,
            packs=self.packs(cards, seated),
            rummy_label=self.rummy_label,
        )

    def _cards(self, options: Mapping[str, Any]) -> tuple[tuple[str, ...], dict[str, int]]:
        if self.ranks is not None and self.values is not None:
            return self.ranks, dict(self.values)
        ace = int(options.get("ace_value", 1))
        values = {rank: spot_value(Card(rank), ace=ace) for rank in RANKS}
        if not int(options.get("jokers", 0)):
            return RANKS, values
        values[JOKER.code] = spot_value(JOKER, joker=int(options.get("joker_value", 15)))
        return (*RANKS, JOKER.code), values

    def target(self, options: Mapping[str, Any]) -> int | None:
        """The score that ends the game under the session's ``options``; None without one."""
        options = {**self.defaults(), **options}
        if self.target_option is None or options.get(self.target_option) is None:
            return None
        return int(options[self.target_option])

    def penalty_points(self, options: Mapping[str, Any]) -> bool:
        """Whether a hand's points under the session's ``options`` are penalty points."""
        return self.penalties({**self.defaults(), **options, **self.preset})

    def went_rummy(self, options: Mapping[str, Any]) -> RummyReward | None:
        """What going rummy was worth under the session's ``options``; None where nobody can."""
        if not self.rummy:
            return None
        return self.rummy_reward({**self.defaults(), **options})

    def hand_phrases(self, hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
        """A hand in the game's own words, from its stored outcome (``hand``: as the API
        answers it), sentence by sentence; none where the pages' shared words say it."""
        return ()

    def entry_phrases(self, entry: Mapping[str, Any]) -> tuple[Phrase, ...]:
        """A hand's entry as stored, in the game's own words for the history ("Cas: ♥ hearts,
        bid 40, with 1, hand, 70 card points"); none: the history's shared words."""
        return ()

    def paper_columns(self, options: Mapping[str, Any], seated: int) -> tuple[str, ...]:
        """What a table writes for each player each hand on the blank paper sheet (ledger/
        paper.py), as message ids: melded and in hand where both are entered (Rummy 500), the
        cards' total where a hand is cards and shows one ("spots"), else "Points". A game whose
        paper has other columns says them (Boerenbridge: bid, tricks and points)."""
        results = self.entry_fields().get("results")
        if isinstance(results, dict) and "melded" in results:
            return (N_("Melded"), N_("In hand"))
        form = self.entry_form(options, seated)
        if form.cards and form.show_total:
            return (form.total_unit,)
        return (N_("Points"),)

    def paper_rows(
        self, options: Mapping[str, Any], seats: Sequence[str], dealer: str | None, played: int
    ) -> PaperRows | None:
        """The rows of the blank paper score sheet (ledger/paper.py) where the game fixes them
        before they are played: a row per round with the cards it deals and its dealer
        (Boerenbridge); None for a numbered row per hand, as many as a page holds.
        ``dealer`` deals the hand after the ``played`` ones, ``seats`` in clockwise order."""
        return None

    def workbook_columns(self) -> tuple[HandColumn, ...]:
        """The game's own columns on the workbooks' Hands sheets (ledger/export/): none unless
        it says them (Boerenbridge's bid and tricks; Klaverjassen's teams' points)."""
        return ()

    def sits_out(self, state: State) -> str | None:
        """Who sits the next hand out: the dealer, where the game's dealer is not dealt in
        with this many seated (Spots at five, Skat at four); else nobody."""
        if len(state.seats) == self.dealer_sits_out_with and state.dealer in state.seats:
            return state.dealer
        return None

    def preview(self, state: State, typed: Typed, options: Mapping[str, Any]) -> Preview | None:
        """What a hand typed so far comes to on the state before it (the next hand's, or the
        state before a corrected one), before it is saved: sentences about the whole hand
        and, box by box, points with their words (``Preview``); a RuleError saying why it
        cannot be worked out yet. None: the game shows nothing before a hand is saved."""
        return None

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """A few hands of the game as the API takes them, for the tests that go through every
        game (ledger/rules/samples.py): made from the game's entry and facts, unless its hands
        need more (its own calls, its own entry), and then the game says its own."""
        return default_night(self, players)

    def says_out(self) -> bool:
        """Whether a hand's words say who went out (or that nobody did)."""
        return self.nobody_out and self.out_scores and self.cards

    # --- A hand's entry: read, stored, loaded, and from a page's form -------------------------

    def read_entry(self, body: Mapping[str, Any]) -> Any:
        """The entry a body of the API describes (ledger/rules/entries.py): a ShapeError for a
        field of the wrong type, a RuleError for a value no hand of this game takes."""
        return entries.read(self.entry_type, body, self.result_type, game=self.name)

    def entry_fields(self) -> dict[str, Any]:
        """What a hand entry of this game holds, as the API describes it (``GET /games``):
        each field's kind (``entries``: text, cards, whole, number, flag…), the results'
        as ``results``, an object list's items' as a mapping of their own."""
        return entries.describe(self.entry_type, self.result_type)

    def entry_to_dict(self, entry: Any) -> dict[str, Any]:
        """An entry as the database keeps it (only what was given, cards in English)."""
        return entries.to_dict(entry)

    def entry_from_dict(self, data: Mapping[str, Any]) -> Any:
        """A stored entry as the engine takes it."""
        return entries.from_dict(self.entry_type, data, self.result_type)

    def form_result(
        self,
        player: str,
        index: int,
        core: ResultEntry,
        posted: Mapping[str, Any],
        problems: Problems,
    ) -> Any:
        """A player's result from a page's form: ``core`` is the row of cards as the shared
        form read it (cards, a spot total, sitting out); ``posted`` the row's other boxes as
        typed, by name (the game's own template names them: text, or a list of texts for
        boxes named ``<name>-<j>``). Problems found are added, each naming
        ``results[index]`` or one of its boxes. By default the row of cards is the result."""
        return core

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> Any:
        """The whole entry of hand ``number`` from a page's form: ``core`` as the shared form
        read it (with each result from ``form_result``), ``posted`` the form's other fields by
        name (the game's own template names them). By default ``core`` is the entry."""
        return core

    # --- The rest -------------------------------------------------------------------------

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
        return self.deal_step(options)

    def next_leader(self, state: State) -> str | None:
        """Who plays first in the next hand, or None when nobody is seated to play it."""
        if state.dealer not in state.seats:
            return None
        return self.first_player(state)

    def standing_winners(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The winners of a game ended at the table: its leaders among the players still
        seated (equal best share the win), nobody before the first hand."""
        if state.hands_played == 0:
            return ()
        seated = tuple(p for p in state.seats if p in state.scores)
        if not seated:
            return ()
        leaders = self.leaders(replace(state, seats=seated), {**self.defaults(), **options})
        return leaders or ()

    def final_totals(self, state: State, options: Mapping[str, Any]) -> dict[str, int]:
        """Each player's total as the game's money is worked out on it (RULES.md §7): the
        scores, plus what the game adds at its end (Gin Rummy's bonuses) once it is over."""
        if not state.finished:
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
        state = self.start(players, dealer, options, carried_pot)
        if not carried_antes:
            return state
        return replace(state, pot_antes=checked_antes(carried_antes, state.pot))

    def __repr__(self) -> str:
        return f"<Game {self.key}>"


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
    if options is not None:
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
    ``pass_deal`` (-1 right, +1 left) says otherwise. A game may have its own way (``Game.leave``).
    """
    return game.leave(state, name, {**game.defaults(), **(options or {})}, pass_deal=pass_deal)


def open_seat_leave(
    game: Game, state: State, name: str, options: Mapping[str, Any], pass_deal: int | None
) -> State:
    """A player leaves an open-seating game between hands (``Game.leave``'s own way)."""
    if pass_deal is None:
        pass_deal = game.pass_direction(options)
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
