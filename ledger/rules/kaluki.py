"""Kaluki (RULES.md §10): penalty points to elimination, and a pot the last player takes.

Two packs with four jokers, 13 cards each. Each hand the player out adds 0 and everyone else
still in adds the cards left in their hand (doubled after a kaluki); a total over the target
eliminates. An eliminated player may buy back in before the next hand (``buy_in``). Money goes
through the pot: the antes at the start, the buy-ins; call-ups are paid to the player out.

The state keeps the money as ``scores`` (each player's balance in units, as a Spot night's,
so the balances and the pot add up to zero) and the penalty points as ``totals``; who is out
of the game as ``eliminated`` and the totals each buy-in re-entered at as ``buy_ins``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.rules import rummy, spot
from ledger.rules.base import (
    BoughtIn,
    BuyIn,
    Finish,
    HandEntry,
    HandOutcome,
    Movement,
    PlayerResult,
    ResultEntry,
    State,
    canonical,
    in_play_order,
    index_results,
)
from ledger.rules.cards import Card, Cards, cards_read, check_deck, parse_cards, spot_total
from ledger.rules.errors import Param, Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, start_state
from ledger.rules.lengths import optional_whole
from ledger.rules.table import RummyReward
from ledger.rules.texts import N_

NAME = "Kaluki"
HAND_SIZE = 13
PACKS = 2
JOKERS = 4  # in the whole deck
ACE = 11
MAX_TARGET = 100_000
MAX_UNITS = spot.MAX_ANTE  # an ante, a buy-in, a call-up


# --- Who is in -----------------------------------------------------------------------------------


def players_in(state: State) -> tuple[str, ...]:
    """The seated players not eliminated, in seat order: those dealt the next hand."""
    return tuple(p for p in state.seats if p not in state.eliminated)


def can_buy_in(state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The players who may buy back in now: eliminated in the last hand, still seated,
    buy-ins on, the game not over."""
    if state.finished or {**GAME.defaults(), **options}["buy_in"] is None:
        return ()
    return tuple(p for p in state.seats if state.eliminated.get(p) == state.hands_played > 0)


def waits_for_the_table(state: State, options: Mapping[str, Any]) -> bool:
    """One player is left, and the game ends when the table confirms it (``finish``) unless a
    player eliminated in the last hand buys back in first."""
    return not state.finished and len(players_in(state)) == 1


def _next_in(state: State, eliminated: Mapping[str, int], player: str) -> str:
    """The next player clockwise from ``player`` who is still in (``player`` if none is)."""
    seats = state.seats
    i = seats.index(player)
    for k in range(1, len(seats) + 1):
        p = seats[(i + k) % len(seats)]
        if p not in eliminated:
            return p
    return player


def next_dealer(state: State) -> str:
    """Who deals the next hand: the dealer, or the next player still in after them."""
    if state.dealer in players_in(state) or not players_in(state):
        return state.dealer
    return _next_in(state, state.eliminated, state.dealer)


# --- A hand --------------------------------------------------------------------------------------


def play(state: State, entry: HandEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One hand: the antes before the first, the penalties, who is eliminated, the
    call-ups; and where one player is left with no buy-in possible, the pot to them."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    _check_two_in(state, opts)
    number = state.hands_played + 1
    dealer = next_dealer(state)
    hands, values, out = _checked_hand(replace(state, dealer=dealer), entry, opts, number)
    moves, pot_antes = _antes(state, opts)
    pot_before = state.pot + sum(m.units for m in moves)
    factor = 2 if entry.rummy and opts["kaluki_bonus"] == "double" else 1
    played = [p for p in state.seats if p in values]
    penalty = {p: 0 if p == out else factor * values[p] for p in played}
    totals = dict(state.totals)
    eliminated = dict(state.eliminated)
    for p in played:
        totals[p] = totals.get(p, 0) + penalty[p]
        if totals[p] > opts["target"]:
            eliminated[p] = number  # the player out adds 0, so is never eliminated
    pay = opts["kaluki_pay"] if entry.rummy else opts["call_up"]
    moves += [Movement(p, out, pay) for p in played if p != out and pay]
    after = replace(
        state,
        scores=_apply(state.scores, moves),
        totals=totals,
        eliminated=eliminated,
        pot=pot_before,
        pot_antes=pot_antes,
        hands_played=number,
        dealer=_next_in(state, eliminated, dealer),
    )
    if len(players_in(after)) == 1 and opts["buy_in"] is None:
        ended = _share_pot(after)  # nobody can buy back in: the last player takes the pot
        moves += list(ended.movements)
        after = ended.state
    results = tuple(
        PlayerResult(player=p, cards=hands.get(p, ()), spots=values[p], points=penalty[p])
        for p in played
    )
    return HandOutcome(
        number=number,
        dealer=dealer,
        leader=_next_in(state, state.eliminated, dealer),
        results=results,
        out=out,
        winners=(out,),
        movements=tuple(moves),
        pot_before=pot_before,
        pot_after=after.pot,
        state=after,
    )


def _antes(state: State, options: Mapping[str, Any]) -> tuple[list[Movement], dict[str, int]]:
    """The antes, paid into the pot once, as the game starts (with its first hand)."""
    paid = dict(state.pot_antes)
    ante = options["ante"]
    if state.hands_played or not ante:
        return [], paid
    for p in state.seats:
        paid[p] = paid.get(p, 0) + ante
    return [Movement(p, None, ante) for p in state.seats], paid


def opened(state: State, options: Mapping[str, Any]) -> State:
    """The game as the table sees it before its first hand: each ante in the pot from the
    start (RULES.md §10), though the state keeps them with hand 1."""
    if state.hands_played:
        return state  # paid with hand 1 by now
    moves, paid = _antes(state, {**GAME.defaults(), **options})
    if state.finished or not moves:
        return state
    pot = state.pot + sum(m.units for m in moves)
    return replace(state, scores=_apply(state.scores, moves), pot=pot, pot_antes=paid)


def reward(options: Mapping[str, Any]) -> RummyReward:
    """What going kaluki is worth: the others' penalties doubled (``kaluki_bonus``)."""
    if {**GAME.defaults(), **options}["kaluki_bonus"] == "double":
        return RummyReward(factor=2, said=N_("%(name)s went kaluki — doubled."))
    return RummyReward(said=N_("%(name)s went kaluki."))


def _check_two_in(state: State, options: Mapping[str, Any]) -> None:
    """A hand needs two players still in; with one left the table finishes or a buy-in comes."""
    left = players_in(state)
    if len(left) >= 2:
        return
    if left and can_buy_in(state, options):
        raise RuleError(
            "Only {player} is still in: a player eliminated in hand {number} may buy back in, "
            "or finish the game.",
            players=left,
            player=left[0],
            number=state.hands_played,
        )
    raise RuleError("Only {player} is still in: finish the game.", player=left[0] if left else "")


def _apply(scores: Mapping[str, int], moves: Sequence[Movement]) -> dict[str, int]:
    """The balances after ``moves``: a player's balance counts antes, buy-ins and the pot."""
    after = dict(scores)
    for m in moves:
        if m.source is not None:
            after[m.source] = after.get(m.source, 0) - m.units
        if m.target is not None:
            after[m.target] = after.get(m.target, 0) + m.units
    return after


# --- Checking a hand -----------------------------------------------------------------------------


def _checked_hand(
    state: State, entry: HandEntry, options: Mapping[str, Any], number: int
) -> tuple[dict[str, tuple[Card, ...]], dict[str, int], str]:
    """The cards and value left in each hand of the players still in, and who went out; or
    a RuleError naming every problem: the eliminated players' results, each player's own,
    who went out, then the deck."""
    problems = Problems()
    kept = _without_the_eliminated(state, entry, options, problems)
    positions = [i for i, _ in kept]
    results = tuple(r for _, r in kept)
    still_in = replace(state, seats=players_in(state))
    named = {canonical(still_in, r.player) for r in results}
    missing = tuple(ResultEntry(p) for p in still_in.seats if p not in named)
    by_player = index_results(
        still_in, replace(entry, results=results + missing, out=None), problems
    )
    out = canonical(still_in, entry.out)
    if entry.out is not None and out is None:
        problems.add(_not_in(state, entry.out, "out", options))
    hands: dict[str, tuple[Card, ...]] = {}
    values: dict[str, int] = {}
    empty: list[str] = []
    fields: dict[str, str] = {}
    for player in still_in.seats:
        if player not in by_player:
            continue
        k, result = by_player[player]
        where = f"results[{positions[k]}]" if k < len(positions) else "results"
        reader = _Reader(player, result, where, player == out, options, entry.cards_language)
        try:
            hands[player], values[player] = reader.read(out is not None)
        except RuleError as e:
            problems.add(e)
            if cards_read(e) and e.field:  # the deck is checked over the cards that did read
                hands[player], fields[player] = cards_read(e), e.field
            continue
        if hands[player]:
            fields[player] = f"{where}.cards"
        if values[player] == 0 and player != out:
            empty.append(player)
    _check_out(out, empty, entry, number, problems)
    try:
        check_deck(hands, packs=PACKS, jokers=JOKERS, fields=fields, language=entry.cards_language)
    except RuleError as e:
        problems.add(e)
    problems.raise_found()
    assert out is not None  # else a problem was raised
    return hands, values, out


def _eliminated_at(state: State, player: str, options: Mapping[str, Any]) -> Phrase:
    return Phrase(
        "{player} is eliminated ({total}, over {target})",
        player=player,
        total=state.totals.get(player, 0),
        target=options["target"],
    )


def _without_the_eliminated(
    state: State, entry: HandEntry, options: Mapping[str, Any], problems: Problems
) -> list[tuple[int, ResultEntry]]:
    """The results of the players still in, each with its place in the entry; a result
    given for an eliminated player is a problem of its own."""
    kept: list[tuple[int, ResultEntry]] = []
    for i, r in enumerate(entry.results):
        player = canonical(state, r.player)
        if player is None or player not in state.eliminated:
            kept.append((i, r))
            continue
        problems.add(
            RuleError(
                "{eliminated}: {player} has no hand to enter.",
                field=f"results[{i}]",
                players=(player,),
                eliminated=_eliminated_at(state, player, options),
                player=player,
            )
        )
    return kept


def _not_in(state: State, name: str, field: str, options: Mapping[str, Any]) -> RuleError:
    """The player named out is not one of the players still in."""
    player = canonical(state, name)
    if player is not None:
        return RuleError(
            "{eliminated}: {player} cannot go out.",
            field=field,
            players=(player,),
            eliminated=_eliminated_at(state, player, options),
            player=player,
        )
    return RuleError(
        "{player}, who went out, is not seated in this session.", field=field, player=name
    )


def _check_out(
    out: str | None, empty: Sequence[str], entry: HandEntry, number: int, problems: Problems
) -> None:
    """Exactly one player goes out: named, and nobody else with no cards left."""
    if out is not None or entry.out is not None:
        return
    if entry.rummy:
        problems.add(
            RuleError(
                "Only the player who went out can go kaluki: say who went out in hand {number}.",
                field="out",
                number=number,
            )
        )
    elif len(empty) == 2:
        problems.add(
            RuleError(
                "{player} and {other} are both entered as out: only one player goes out.",
                field="out",
                players=tuple(empty),
                player=empty[0],
                other=empty[1],
            )
        )
    elif len(empty) > 2:
        problems.add(
            RuleError(
                "{names} are all entered as out: only one player goes out.",
                field="out",
                players=tuple(empty),
                names=_and(empty),
            )
        )
    else:
        problems.add(
            RuleError(
                "Say who went out in hand {number}: exactly one player goes out.",
                field="out",
                number=number,
            )
        )


def _and(names: Sequence[str]) -> Param:
    return Phrase("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


@dataclass(frozen=True)
class _Reader:
    """One player's cards left in hand, read and checked."""

    player: str
    result: ResultEntry
    where: str
    went_out: bool
    options: Mapping[str, Any]
    language: str

    def _error(self, field: str, message: Phrase) -> RuleError:
        # A player with no result at all is pointed at the results, not at a field of one.
        where = self.where if self.where == "results" else f"{self.where}.{field}"
        return RuleError(message, field=where, players=(self.player,))

    def read(self, anyone_out: bool) -> tuple[tuple[Card, ...], int]:
        r, player = self.result, self.player
        if r.sitting_out:
            raise RuleError(
                "{player} plays every hand of {game} while still in: enter the cards left in "
                "their hand.",
                field=self.where,
                players=(player,),
                player=player,
                game=NAME,
            )
        if r.spots is not None:
            return (), self._total(r.spots, anyone_out)
        cards = parse_cards(
            r.cards or "",
            jokers=True,
            game_name=NAME,
            player=player,
            field=f"{self.where}.cards",
            language=self.language,
        )
        if self.went_out and cards:
            shown = Cards(tuple(c.code for c in cards), True, self.language)
            raise self._error(
                "cards",
                Phrase("{player} went out, so has no cards left: remove {cards}.",
                       player=player, cards=shown),
            )  # fmt: skip
        if not self.went_out and not cards and anyone_out:
            raise self._did_not_go_out("cards")
        if len(cards) > HAND_SIZE:
            raise self._error(
                "cards",
                Phrase("{player} cannot have {count} cards left: each player is dealt {most}.",
                       player=player, count=len(cards), most=HAND_SIZE),
            )  # fmt: skip
        return cards, spot_total(cards, ace=ACE, joker=self.options["joker_value"])

    def _did_not_go_out(self, field: str) -> RuleError:
        return self._error(
            field,
            Phrase("{player} did not go out, so has cards left: enter them.", player=self.player),
        )

    def _total(self, total: object, anyone_out: bool) -> int:
        player = self.player
        if self.options["entry"] != "totals" and not (self.went_out and total == 0):
            raise self._error(
                "spots",
                Phrase("This session asks for every player's cards: enter {player}'s cards.",
                       player=player),
            )  # fmt: skip
        if isinstance(total, bool) or not isinstance(total, int):
            raise self._error(
                "spots", Phrase("{player}'s total must be a whole number.", player=player)
            )
        if self.went_out and total != 0:
            raise self._error(
                "spots", Phrase("{player} went out, so their total is 0.", player=player)
            )
        if total == 0 and not self.went_out and anyone_out:
            raise self._did_not_go_out("spots")
        if total != 0 and total < 2:
            raise self._error(
                "spots",
                Phrase("{player}'s total cannot be {total}: the cheapest card is a two.",
                       player=player, total=total),
            )  # fmt: skip
        top = most_in_hand(self.options)
        if total > top:
            raise self._error(
                "spots",
                Phrase("{player}'s total cannot be {total}: {cards} cards are worth at most {top}.",
                       player=player, total=total, cards=HAND_SIZE, top=top),
            )  # fmt: skip
        return total


def most_in_hand(options: Mapping[str, Any]) -> int:
    """What 13 cards of this deck are worth at most: 198 (four jokers at 25, eight aces and a
    ten), 158 with jokers at 15."""
    deck = {"packs": PACKS, "jokers": JOKERS // PACKS, "ace_value": ACE}
    return rummy.highest_hand(HAND_SIZE, {**deck, "joker_value": options["joker_value"]})


# --- Between hands: buying back in, leaving ------------------------------------------------------


def buy_in(state: State, player: str, options: Mapping[str, Any]) -> BoughtIn:
    """``player``, eliminated in the last hand, pays ``buy_in`` units into the pot and
    re-enters at the highest total of the players still in (RULES.md §10); a RuleError
    (field ``player``) where they cannot."""
    opts = {**GAME.defaults(), **options}
    name = canonical(state, player)
    if state.finished:
        raise RuleError("The game is over: nobody can buy back in.", field="player")
    if name is None:
        raise RuleError("{player} is not seated in this session.", field="player", player=player)
    if opts["buy_in"] is None:
        raise RuleError("Buy-ins are off in this session.", field="player", players=(name,))
    if name not in state.eliminated:
        raise RuleError(
            "{player} cannot buy in: {player} is still in the game.",
            field="player",
            players=(name,),
            player=name,
        )
    if state.eliminated[name] != state.hands_played:
        raise RuleError(
            "{player} cannot buy in now: {player} was eliminated in hand {hand} and hand {next} "
            "has been entered.",
            field="player",
            players=(name,),
            player=name,
            hand=state.eliminated[name],
            next=state.eliminated[name] + 1,
        )
    units = opts["buy_in"]
    total = max(state.totals.get(p, 0) for p in players_in(state))
    moves = (Movement(name, None, units),) if units else ()
    paid = dict(state.pot_antes)
    if units:
        paid[name] = paid.get(name, 0) + units
    after = replace(
        state,
        scores=_apply(state.scores, moves),
        pot=state.pot + units,
        pot_antes=paid,
        totals={**state.totals, name: total},
        eliminated={p: n for p, n in state.eliminated.items() if p != name},
        buy_ins={**state.buy_ins, name: (*state.buy_ins.get(name, ()), total)},
    )
    return BoughtIn(BuyIn(name, state.hands_played, units, total), moves, after)


def replay_buy_in(state: State, record: BuyIn, options: Mapping[str, Any]) -> BoughtIn:
    """A kept buy-in made again on the state after the hand it followed (a correction or a
    restore replays the session); a RuleError where it no longer fits that state."""
    if record.after_hand != state.hands_played:
        raise RuleError(
            "{player} bought in after hand {hand}, not after hand {played}.",
            field="player",
            players=(record.player,),
            player=record.player,
            hand=record.after_hand,
            played=state.hands_played,
        )
    made = buy_in(state, record.player, options)
    if made.buy_in != record:
        raise RuleError(
            "{player}'s buy-in after hand {hand} was kept as {units} units in at {total}, "
            "but it comes to {made_units} units in at {made_total}.",
            field="player",
            players=(record.player,),
            player=record.player,
            hand=record.after_hand,
            units=record.units,
            total=record.total,
            made_units=made.buy_in.units,
            made_total=made.buy_in.total,
        )
    return made


def leave(state: State, player: str, options: Mapping[str, Any]) -> State:
    """A player leaves between hands: eliminated, with no buy-in (they are no longer seated);
    their balance stays. If they were to deal, the next player still in deals."""
    name = canonical(state, player)
    if state.finished:
        raise RuleError("The session is finished.")
    if name is None:
        raise RuleError("{player} is not seated in this session.", players=(player,), player=player)
    if players_in(state) == (name,):
        raise RuleError(
            "{player} is the last player still in: finish the game instead.",
            players=(name,),
            player=name,
        )
    eliminated = {**state.eliminated, name: state.eliminated.get(name, state.hands_played)}
    dealer = state.dealer
    if dealer == name:
        dealer = _next_in(state, eliminated, name)
    return replace(
        state,
        seats=tuple(p for p in state.seats if p != name),
        eliminated=eliminated,
        dealer=dealer,
    )


# --- The end -------------------------------------------------------------------------------------


def finish(state: State, options: Mapping[str, Any], leftover_pot: str | None = None) -> Finish:
    """The table ends the game: the pot is shared equally among the players still in (the
    whole pot to the last one left), odd units one each in playing order from the dealer's
    left. No pot is carried (``leftover_pot`` is not asked)."""
    if state.finished:
        raise RuleError("The session is already finished.")
    return _share_pot(state)


def _share_pot(state: State) -> Finish:
    left = [p for p in in_play_order(state.seats, state.dealer) if p not in state.eliminated]
    moves: list[Movement] = []
    if left and state.pot:
        share, odd = divmod(state.pot, len(left))
        units = [share + (1 if k < odd else 0) for k in range(len(left))]
        moves = [Movement(None, p, u) for p, u in zip(left, units, strict=True) if u]
    winners = tuple(p for p in state.seats if p in left) if state.hands_played else ()
    return Finish(
        movements=tuple(moves),
        state=replace(
            state,
            scores=_apply(state.scores, moves),
            pot=0,
            pot_antes={},
            finished=True,
            winners=winners,
        ),
    )


def start(players: Sequence[str], dealer: str, options: Mapping[str, Any], pot: int = 0) -> State:
    """A new game: no pot is carried into Kaluki (the antes go in with the first hand)."""
    return start_state(GAME, players, dealer)


# --- The game ------------------------------------------------------------------------------------


def _units(default: int, words: str) -> Option:
    return Option(default, minimum=0, maximum=MAX_UNITS, help=words)


class Kaluki(Game):
    buys_in = True
    key = "kaluki"
    name = N_("Kaluki")
    description = N_(
        "Penalty points to 150 with two packs and four jokers: over it you are out, or buy "
        "back in, and the last player left takes the pot."
    )
    min_players = 2
    max_players = 6
    money = True
    options = {
        "target": Option(
            150,
            minimum=1,
            maximum=MAX_TARGET,
            help=N_("A player whose total goes over this is eliminated."),
        ),
        "kaluki_bonus": Option(
            "double",
            choices=("double", "none"),
            help=N_("Going kaluki (all 13 cards down in one turn) doubles the others' penalties."),
        ),
        "ante": _units(100, N_("Units each player puts into the pot as the game starts.")),
        "buy_in": Option(
            100,
            parse=optional_whole("buy_in", 0, MAX_UNITS),
            help=N_("Units an eliminated player pays into the pot to buy back in; off: none."),
        ),
        "call_up": _units(0, N_("Units each other player pays the player out after a hand.")),
        "kaluki_pay": _units(0, N_("Units each other player pays the player out after a kaluki.")),
        "unit_value": spot.GAME.options["unit_value"],
        "currency": spot.GAME.options["currency"],
        "entry": spot.GAME.options["entry"],
        "joker_value": Option(25, choices=(25, 15), help=N_("What a joker left in hand is worth.")),
    }
    open_seating = False
    nobody_out = False
    rummy = True
    target_option = "target"
    preset = {"ace_value": ACE, "jokers": JOKERS // PACKS, "packs": PACKS}
    rummy_label = N_("Went kaluki (all 13 cards down in one turn, nothing laid down before)")

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def start(
        self, players: Sequence[str], dealer: str, options: Mapping[str, Any], carried_pot: int
    ) -> State:
        return start(players, dealer, options, carried_pot)

    def finish(self, state: State, options: Mapping[str, Any], leftover_pot: str | None) -> Finish:
        return finish(state, options, leftover_pot)

    def opened(self, state: State, options: Mapping[str, Any]) -> State:
        return opened(state, options)

    def buy_in(self, state: State, player: str, options: Mapping[str, Any]) -> BoughtIn:
        return buy_in(state, player, options)

    def replay_buy_in(self, state: State, record: BuyIn, options: Mapping[str, Any]) -> BoughtIn:
        return replay_buy_in(state, record, options)

    def may_buy_in(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
        return can_buy_in(state, options)

    def leave(
        self, state: State, name: str, options: Mapping[str, Any], *, pass_deal: int | None = None
    ) -> State:
        return leave(state, name, options)

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """Each player's points, who is out of the game (with the hand they went out in), the
        totals each buy-in re-entered at, and who may buy back in now (RULES.md §10)."""
        parts: dict[str, Any] = {
            "totals": {p: state.totals.get(p, 0) for p in names},
            "eliminated": dict(state.eliminated),
            "buy_ins": dict(state.buy_ins),
        }
        if status == "open":
            parts["may_buy_in"] = can_buy_in(state, options)
        return parts

    def rummy_reward(self, options: Mapping[str, Any]) -> RummyReward | None:
        return reward(options)

    def penalties(self, options: Mapping[str, Any]) -> bool:
        return True


GAME = Kaluki()
