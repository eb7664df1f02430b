"""Cribbage (RULES.md §17): every show and crib counted from the cards, the board to 121 or 61.

A deal is entered after its show: the starter, each player's four cards, the crib's four and
what each pegged in the play. The app counts each show itself (fifteens, pairs, runs, flush,
nobs; his heels for the dealer) and adds everything up in the order of counting, so a game
both sides could reach in one deal goes to the one who counts first. A night is a run of
games: when one is won the next starts at 0 and the deal passes on. Two or three players, or
four in two teams (partners opposite). Money: a stake a game, skunks paying two or three.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ledger.rules import entries, payout, spot
from ledger.rules.base import (
    HandEntry,
    HandOutcome,
    PlayerResult,
    ResultEntry,
    State,
    in_play_order,
    next_seat,
)
from ledger.rules.book_columns import Answer, HandColumn, hand_field, result_field
from ledger.rules.cards import Card, parse_cards, shown_card
from ledger.rules.cribbage_deal import (
    GAME_KEY,
    GAMES_KEY,
    HEELS,
    OVER_KEY,
    CribEntry,
    CribResult,
    Deal,
    Show,
    check_deal,
    side_name,
    side_of,
    sides_of,
    start_board,
)
from ledger.rules.cribbage_show import Part, count, spoken, total
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, Preview, Typed, check_players
from ledger.rules.samples import SampleNight, Step
from ledger.rules.texts import N_


def skunked(score: int, target: int, skunks: str) -> int:
    """The games a loser with ``score`` loses (RULES.md §17): 1; a skunk (short of 91, or 31 in
    a game to 61) 2; a double skunk (short of 61 in a game to 121) 3, as ``skunks`` allows."""
    if skunks == "none":
        return 1
    if target == 121 and score < 61 and skunks == "double_triple":
        return 3
    return 2 if score < (91 if target == 121 else 31) else 1


SKUNK_WORDS = {1: None, 2: "skunk", 3: "double"}


class _Count:
    """A deal added up in the order of counting, stopping where a side reaches the target."""

    def __init__(self, state: State, target: int) -> None:
        self.seats = state.seats
        self.target = target
        self.start = start_board(state)
        self.board = dict(self.start)
        self.winner: tuple[str, ...] | None = None

    def add(self, player: str, points: int) -> bool:
        """Points to the player's side; whether they counted (the game was not yet won)."""
        if self.winner is not None:
            return False
        side = side_of(self.seats, player)
        self.board[side] = min(self.board[side] + points, self.target)
        if self.board[side] >= self.target:
            self.winner = side
        return True

    def play(self, pegged: Mapping[str, int], out: str | None) -> None:
        """The play: everyone's pegging at once; past the target, who pegged out first wins
        and the others keep what they pegged up to one short of it."""
        if self.winner is not None:
            return
        after = {s: self.board[s] + sum(pegged.get(p, 0) for p in s) for s in self.board}
        reached = [s for s in after if after[s] >= self.target]
        if not reached:
            self.board = after
            return
        self.winner = side_of(self.seats, out) if out is not None else reached[0]
        self.board = {s: min(after[s], self.target - 1) for s in after}
        self.board[self.winner] = self.target


def score_deal(
    state: State, deal: Deal, options: Mapping[str, Any]
) -> tuple[_Count, dict[str, bool], bool]:
    """The deal in the order of counting: his heels, the play, the shows from the dealer's
    left round to the dealer, the crib. Which shows counted, and whether the crib did."""
    tally = _Count(state, int(options["target"]))
    dealer = state.dealer
    if deal.starter is not None and deal.starter.rank == "J":
        tally.add(dealer, HEELS)
    tally.play(deal.pegged, deal.pegged_out)
    counted = {p: tally.add(p, deal.shows[p].points) for p in in_play_order(state.seats, dealer)}
    crib = tally.add(dealer, deal.crib.points)
    return tally, counted, crib


def play(state: State, entry: CribEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One deal: checked whole, counted in order, the board moved, a game won recorded."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The night is over: no more deals can be added.")
    deal = check_deal(state, entries.own(entry, CribEntry), opts)
    tally, counted, crib_counted = score_deal(state, deal, opts)
    number, seats, dealer = state.hands_played + 1, state.seats, state.dealer
    game_number = int(state.more.get(GAME_KEY, 1))
    scores = {p: tally.board[side_of(seats, p)] for p in seats}
    won = _won(tally, game_number, scores, opts) if tally.winner is not None else None
    games = [*state.more.get(GAMES_KEY, []), *([won] if won else [])]
    after = replace(
        state,
        dealer=next_seat(seats, dealer, 1),
        scores=scores,
        hands_played=number,
        more={GAMES_KEY: games, GAME_KEY: game_number + (1 if won else 0), OVER_KEY: bool(won)},
    )
    heels = deal.starter is not None and deal.starter.rank == "J"
    return HandOutcome(
        number=number,
        dealer=dealer,
        leader=next_seat(seats, dealer, 1),
        results=tuple(_result(p, deal, tally, counted, heels and p == dealer) for p in seats),
        out=None,
        winners=tally.winner or (),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
        more={
            "starter": deal.starter.code if deal.starter else None,
            "game": game_number,
            "pegged_out": deal.pegged_out,
            "crib": _shown(deal.crib, crib_counted) | {"dealer": dealer},
            "won": won,
        },
    )


def _shown(show: Show, counted: bool) -> dict[str, Any]:
    return {
        "cards": [c.code for c in show.cards],
        "counts": [p.to_dict() for p in show.parts],
        "points": show.points,
        "counted": counted,
    }


def _result(
    player: str, deal: Deal, tally: _Count, counted: Mapping[str, bool], heels: bool
) -> PlayerResult:
    """A player's line: the side's points this deal, the show's parts (his heels first for
    the dealer), what they pegged, and whether the show counted before the game was won."""
    side = side_of(tally.seats, player)
    show = deal.shows[player]
    parts = (Part("his_heels", (deal.starter,), HEELS),) if heels and deal.starter else ()
    own = _shown(replace(show, parts=parts + show.parts), counted[player])
    own["show_points"] = own.pop("points")
    own.pop("cards")
    return PlayerResult(
        player,
        cards=show.cards,
        points=tally.board[side] - tally.start[side],
        more={**own, "pegged": deal.pegged.get(player, 0)},
    )


def _won(
    tally: _Count, number: int, scores: Mapping[str, int], options: Mapping[str, Any]
) -> dict[str, Any]:
    """A game won: its number, the winning side, each loser's games (skunks), the board."""
    assert tally.winner is not None
    lost = {
        p: skunked(tally.board[s], tally.target, str(options["skunks"]))
        for s in tally.board
        if s != tally.winner
        for p in s
    }
    worst = max(lost.values(), default=1)
    return {
        "number": number,
        "winners": list(tally.winner),
        "skunk": SKUNK_WORDS[worst],
        "scores": dict(scores),
        "lost": lost,
    }


# --- Money and the night's result ---------------------------------------------------------------


def game_money(game: Mapping[str, Any], stake: int) -> dict[str, int]:
    """One game's money (RULES.md §17): each loser pays the stake times the games they lost,
    shared by the winners (a team's two players)."""
    lost = {str(p): int(g) for p, g in game["lost"].items()}
    winners = [str(p) for p in game["winners"]]
    money = {p: -stake * g for p, g in lost.items()}
    share, odd = divmod(-sum(money.values()), len(winners))
    for k, p in enumerate(winners):
        money[p] = share + (1 if k < odd else 0)
    return money


def night_money(state: State, stake: int) -> dict[str, int]:
    """Every game's money this night added up, by player (0 for a player who won nothing
    and lost nothing)."""
    money = dict.fromkeys(state.scores, 0)
    for game in state.more.get(GAMES_KEY, []):
        for p, units in game_money(game, stake).items():
            money[p] = money.get(p, 0) + units
    return money


def games_won(state: State) -> dict[str, int]:
    """Each player's games this night, a game won counted as the games its worst-off loser
    lost (a skunk 2, a double skunk 3): the night's result."""
    won = dict.fromkeys(state.scores, 0)
    for game in state.more.get(GAMES_KEY, []):
        worth = max((int(g) for g in game["lost"].values()), default=1)
        for p in game["winners"]:
            won[p] = won.get(p, 0) + worth
    return won


# --- The game ------------------------------------------------------------------------------------


def start(players: Sequence[str], dealer: str) -> None:
    check_players(GAME, players, dealer)


class Cribbage(Game):
    key = "cribbage"
    night_of_games = True  # game after game to the target: the night ends, not a game
    name = N_("Cribbage")
    description = N_(
        "The pub game of Britain and Ireland: every show counted from the cards, the board "
        "pegged to 121 (or 61), a night a run of games; 2 or 3 players, or 4 in two teams."
    )
    min_players = 2
    max_players = 4
    evening_tables = (2, 2)  # a cribbage drive seats pairs (RULES.md §19)
    options = {
        "target": Option(121, choices=(121, 61), help=N_("The score that wins a game.")),
        "entry": Option(
            "cards",
            choices=("cards", "points"),
            help=N_("Type each show's cards and let the app count them, or type each count."),
            choice_labels={
                "cards": N_("the cards of every show (the app counts)"),
                "points": N_("each show's count"),
            },
        ),
        "skunks": Option(
            "double_triple",
            choices=("double_triple", "double", "none"),
            help=N_("A loser short of 91 loses two games, short of 61 three."),
            label=N_("Skunks"),
            choice_labels={
                "double_triple": N_("a skunk is two games, a double skunk three"),
                "double": N_("a skunk is two games"),
                "none": N_("none: every game is one"),
            },
        ),
        payout.STAKE: Option(
            0,
            minimum=0,
            maximum=payout.MAX_STAKE,
            help=N_("Units a game is worth; 0: not played for money."),
            label=N_("Stake: units a game (0: not for money)"),
        ),
        "unit_value": spot.GAME.options["unit_value"],
        "currency": spot.GAME.options["currency"],
    }
    entry_type = CribEntry
    result_type = CribResult
    cards = False
    out_scores = False
    target_option = "target"
    stake_per_game = True

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def start(
        self, players: Sequence[str], dealer: str, options: Mapping[str, Any], carried_pot: int
    ) -> State:
        start(players, dealer)
        state = super().start(players, dealer, options, carried_pot)
        return replace(state, more={GAMES_KEY: [], GAME_KEY: 1, OVER_KEY: False})

    def opened(self, state: State, options: Mapping[str, Any]) -> State:
        """Between two games the board stands at 0: the next game's, not the one just won
        (its last deal keeps the board as it ended)."""
        if not state.more.get(OVER_KEY) or state.finished:
            return state
        return replace(state, scores=dict.fromkeys(state.scores, 0))

    def sides(self, seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        return sides_of(seats)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        seated = [p for p in state.seats if p in state.scores]
        if not seated:
            return ()
        top = max(state.scores[p] for p in seated)
        return tuple(p for p in seated if state.scores[p] == top)

    def standing_winners(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...]:
        """A night finished at the table: the players with the most games (a game in play
        is not counted), nobody before a game is won."""
        won = games_won(state)
        best = max(won.values(), default=0)
        return tuple(p for p in state.seats if best and won.get(p) == best)

    def final_scores(self, state: State, options: Mapping[str, Any]) -> dict[str, int]:
        """A finished night's result: each player's games (skunks counted as two or three)."""
        return games_won(state)

    def stake_money(self, state: State, options: Mapping[str, Any]) -> dict[str, int] | None:
        stake = payout.stake({**self.defaults(), **options})
        return night_money(state, stake) if stake else None

    def preview(self, state: State, typed: Typed, options: Mapping[str, Any]) -> Preview | None:
        """Each show typed so far counted in parts, box by box (a deal entered as counts:
        nothing to work out). The boxes are enough: a deal half typed is counted too."""
        if {**self.defaults(), **options}["entry"] != "cards":
            return None
        return Preview(boxes=count_boxes(typed.boxes, typed.language))

    def form_result(
        self,
        player: str,
        index: int,
        core: ResultEntry,
        posted: Mapping[str, Any],
        problems: Problems,
    ) -> CribResult:
        """A player's show as typed (cards, or a count: digits alone) and what they pegged."""
        show = str(posted.get("show") or "").strip()
        pegged = str(posted.get("pegged") or "").strip()
        number = entries.typed_whole(pegged) if pegged else 0
        if number is None:
            problems.add(
                RuleError(
                    "{player} pegged {pegged}: give a whole number, 0 to 60.",
                    field=f"results[{index}].pegged",
                    players=(player,),
                    player=player,
                    pegged=pegged,
                )
            )
        return CribResult(player, _count_or_cards(show), number)

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> CribEntry:
        """The starter, the crib (cards, or a count) and who pegged out, with the shows."""
        crib = str(posted.get("crib") or "").strip()
        return CribEntry(
            results=tuple(r for r in core.results if isinstance(r, CribResult)),
            starter=str(posted.get("starter") or "").strip() or None,
            crib=_count_or_cards(crib),
            pegged_out=str(posted.get("pegged_out") or "").strip() or None,
            cards_language=core.cards_language,
        )

    def hand_phrases(self, hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
        return deal_phrases(hand)

    def paper_columns(self, options: Mapping[str, Any], seated: int) -> tuple[str, ...]:
        """A cribbage sheet: what each player pegged, their show, the crib when they deal,
        and the board."""
        return (N_("Pegged"), N_("Hand"), N_("Crib"), N_("Board"))

    def workbook_columns(self) -> tuple[HandColumn, ...]:
        """The deal's game of the night and its starter, then each player's counts: what
        they pegged, their show, the crib and his heels when they dealt. A count made after
        the game was won did not count and is left empty, so a row adds up to its points."""
        return (
            hand_field("Game number", "game"),
            hand_field("Starter", "starter"),
            result_field("pegged", "pegged"),
            HandColumn("show", _show_cell),
            HandColumn("crib", _crib_cell),
            HandColumn("his heels", _heels_cell),
        )

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """Two players to 61: the followed player (the second) wins game 1 in the first deal,
        a deal of game 2, then deal 1 corrected (samples.py)."""
        seats = (players[0], players[1])

        def deal(first: str, first_pegged: int) -> dict[str, Any]:
            results = [
                {"player": seats[1], "show": "5S 5D JH 10C", "pegged": first_pegged},
                {"player": seats[0], "show": first, "pegged": 3},
            ]
            return {"starter": "5H", "crib": "2D 3D KS QC", "results": results}

        return SampleNight(
            seats,
            seats[0],
            {"target": 61, "stake": 1},
            (Step("hand", deal("4C 6C 7C 8C", 40)),),
            (
                Step("hand", deal("4C 6C 7C 9C", 2)),
                Step("correct", deal("4C 6C 7C 8C", 41), number=1),
            ),
        )

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """The games of the night (API.md fifth edition), the game in play and its sides."""
        over = bool(state.more.get(OVER_KEY))
        board = start_board(state) if state.seats else {}
        return {
            "games": [_game_shown(g) for g in state.more.get(GAMES_KEY, [])],
            "board": {
                "game": int(state.more.get(GAME_KEY, 1)),
                "sides": [{"players": list(s), "score": board[s]} for s in board],
                "fresh": over or state.hands_played == 0,
            },
            "games_won": games_won(state),
        }


def count_boxes(typed: Mapping[str, str], language: str) -> dict[str, tuple[int, Phrase]]:
    """Each box of four cards typed so far with the starter, counted: its points and the
    count as a table says it (the crib's by the crib's flush rule). A box not yet four good
    cards, or no good starter yet, is left out."""
    starter = _quietly(typed.get("starter", ""), language)
    if starter is None or len(starter) != 1:
        return {}
    counted: dict[str, tuple[int, Phrase]] = {}
    for box, text in typed.items():
        if box != "crib" and not box.endswith("-show"):  # the form's other boxes: no show
            continue
        cards = _quietly(text, language)
        if cards is None or len(cards) != 4 or len({*cards, starter[0]}) != 5:
            continue
        parts = count(cards, starter[0], crib=box == "crib")
        counted[box] = (total(parts), spoken(parts))
    return counted


def _count_or_cards(typed: str) -> str | int | None:
    """A box that takes a show: digits alone are a count (``entry`` points), else cards."""
    counted = entries.typed_whole(typed)
    return counted if counted is not None else typed or None


def _quietly(text: str, language: str) -> tuple[Card, ...] | None:
    try:
        return parse_cards(text, suits_required=True, language=language)
    except RuleError:
        return None


def deal_phrases(hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
    """A deal in words, in the order it was counted: the starter and his heels, the play,
    each show and the crib spelled out ("Bob's show: 15-2, 15-4, … nobs is 21."), a show the
    game ended before, and the game won (with its skunk)."""
    results = {r["player"]: r for r in hand.get("results", ())}
    dealer = str(hand.get("dealer"))
    if dealer not in results:
        return ()
    said = (
        [Phrase("Starter {card}.", card=shown_card(hand["starter"], "en"))]
        if hand.get("starter")
        else []
    )
    counts = {p: [_part(c) for c in r.get("counts", ())] for p, r in results.items()}
    if counts[dealer] and counts[dealer][0].what == "his_heels":
        said.append(Phrase("His heels: {player} 2.", player=dealer))
        counts[dealer] = counts[dealer][1:]
    pegged = ", ".join(f"{p} {int(r.get('pegged', 0))}" for p, r in results.items())
    said.append(Phrase("The play: {pegged}.", pegged=pegged))
    for p in in_play_order(tuple(results), dealer):
        said.append(_show_phrase(Phrase("{player}'s show", player=p), counts[p], results[p]))
    crib = hand.get("crib") or {}
    crib_parts = [_part(c) for c in crib.get("counts", ())]
    said.append(_show_phrase(Phrase("{player}'s crib", player=dealer), crib_parts, crib, "points"))
    won = hand.get("won")
    if won:
        said += _won_phrases(won)
    return tuple(said)


def _part(given: Mapping[str, Any]) -> Part:
    return Part(str(given["what"]), (), int(given["points"]))


def _show_phrase(
    whose: Phrase, parts: Sequence[Part], shown: Mapping[str, Any], key: str = "show_points"
) -> Phrase:
    points = int(shown.get(key, 0))
    whose = whose.capitalized()  # it starts the sentence ("De hand van Bob: …")
    if not shown.get("counted", True):
        return Phrase(
            "{whose}, {points}, was not counted: the game was won before it.",
            whose=whose,
            points=points,
        )
    if not parts:  # a count typed (``entry`` points), or nothing
        return Phrase("{whose}: {points}.", whose=whose, points=points)
    return Phrase("{whose}: {count}.", whose=whose, count=spoken(parts))


def _won_phrases(won: Mapping[str, Any]) -> list[Phrase]:
    said = [
        Phrase(
            "{winner} won game {number}.",
            winner=side_name(won["winners"]),
            number=int(won["number"]),
        )
    ]
    for player, games in won.get("lost", {}).items():
        if int(games) == 2:
            said.append(Phrase("{player} is skunked: two games.", player=player))
        elif int(games) == 3:
            said.append(Phrase("{player} is double skunked: three games.", player=player))
    return said


def _game_shown(game: Mapping[str, Any]) -> dict[str, Any]:
    """A game of the night as the session answers it: its winner named ("Ann", or a team
    "Ann & Cas"; kept as the list, so a rename finds each name)."""
    return {"number": game["number"], "winner": side_name(game["winners"]), **game}


GAME = Cribbage()


def _heels(result: Answer) -> int:
    """His heels in a player's show as answered (the dealer's first part, where it is)."""
    return sum(int(p["points"]) for p in result.get("counts") or () if p["what"] == "his_heels")


def _show_cell(_hand: Answer, result: Answer) -> Any:
    """A player's show as counted (its points leave his heels out: they have a column)."""
    if not result.get("counted", True):
        return None
    return result.get("show_points")


def _crib_cell(hand: Answer, result: Answer) -> Any:
    """The crib's points, on the dealer's line, where it counted."""
    crib = hand.get("crib") or {}
    if crib.get("dealer") != result.get("player") or not crib.get("counted", True):
        return None
    return crib.get("points")


def _heels_cell(_hand: Answer, result: Answer) -> int | None:
    return _heels(result) or None
