"""Klaverjassen (RULES.md §16): two teams, 162 card points a hand, roem, nat and pit.

Four players in two fixed teams, seated opposite: seats 1 and 3 against seats 2 and 4. Each
hand the table says which team played (chose trumps), one team's card points (the other's are
162 less) or a pit, and each team's roem. The playing team must have more than the other,
roem counted; else it is nat and the other team scores 162 and all the roem. A game is
``hands`` hands; the higher total wins. Every player's score is their team's. Money as §7.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.rules import entries, payout
from ledger.rules.base import HandEntry, HandOutcome, PlayerResult, State, left_of, next_seat
from ledger.rules.book_columns import Answer, HandColumn, yes_no
from ledger.rules.errors import Phrase, Problems, RuleError
from ledger.rules.game import Game, Option, Progress, check_players
from ledger.rules.samples import SampleNight, Step
from ledger.rules.texts import N_

NAME = "Klaverjassen"
TOTAL = 162  # card points in a hand: 152 in the cards, 10 for the last trick
PIT_ROEM = 100  # roem for taking every trick
MOST_ROEM = 500
TEAMS = (1, 2)
MAX_HANDS = 100
SHEET = "sheet"  # where the state keeps each hand's line of the wij/zij sheet


@dataclass(frozen=True)
class TeamEntry:
    """A team's part of a hand: its card points (one team's will do) and its roem."""

    team: int | None = entries.entry_field(entries.WHOLE)
    points: int | None = entries.entry_field(entries.WHOLE)
    roem: int | None = entries.entry_field(entries.WHOLE)


@dataclass(frozen=True)
class KlaverEntry:
    """A hand of Klaverjassen (API.md fourth edition): which team played, the teams' card
    points and roem, and the team that took every trick (``pit``), if one did."""

    playing: int | None = entries.entry_field(entries.WHOLE)
    teams: tuple[TeamEntry, ...] = entries.entry_field(entries.ITEMS, (), of=TeamEntry)
    pit: int | None = entries.entry_field(entries.WHOLE)


@dataclass(frozen=True)
class TeamHand:
    """What a hand gave one team."""

    team: int
    points: int  # card points
    roem: int  # pit's 100 included
    score: int  # what the hand adds to the team's total
    nat: bool  # the team played and went nat
    pit: bool  # the team took every trick

    def to_dict(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "team": self.team,
            "players": list(players),
            "points": self.points,
            "roem": self.roem,
            "score": self.score,
            "nat": self.nat,
            "pit": self.pit,
        }


def team_of(seats: Sequence[str], player: str) -> int:
    """Seats 1 and 3 are team 1, seats 2 and 4 team 2."""
    return 1 if list(seats).index(player) % 2 == 0 else 2


def team_players(seats: Sequence[str], team: int) -> tuple[str, ...]:
    return tuple(p for p in seats if team_of(seats, p) == team)


def team_name(seats: Sequence[str], team: int) -> str:
    """ "Ann & Cas", as the sheet heads a team's column."""
    return " & ".join(team_players(seats, team))


# --- Scoring a hand ------------------------------------------------------------------------------


def score_hand(
    playing: int, points: Mapping[int, int], roem: Mapping[int, int], pit: int | None
) -> tuple[TeamHand, TeamHand]:
    """Both teams' part of a hand (RULES.md §16): made, each its own; nat, all to the other."""
    roem = {t: roem[t] + (PIT_ROEM if pit == t else 0) for t in TEAMS}
    other = 3 - playing
    made = points[playing] + roem[playing] > points[other] + roem[other]
    scores = {t: points[t] + roem[t] for t in TEAMS}
    if not made:
        scores = {playing: 0, other: TOTAL + roem[1] + roem[2]}
    return tuple(  # type: ignore[return-value]
        TeamHand(t, points[t], roem[t], scores[t], t == playing and not made, pit == t)
        for t in TEAMS
    )


def play(state: State, entry: KlaverEntry, options: Mapping[str, Any]) -> HandOutcome:
    """One hand: checked whole, both teams scored, every player given their team's total."""
    opts = {**GAME.defaults(), **options}
    if state.finished:
        raise RuleError("The game is over: no more hands can be added.")
    playing, points, roem, pit = _checked(entries.own(entry, KlaverEntry))
    teams = score_hand(playing, points, roem, pit)
    number = state.hands_played + 1
    seats = state.seats
    scores = {p: state.scores.get(p, 0) + teams[team_of(seats, p) - 1].score for p in seats}
    finished = number >= int(opts["hands"])
    line = {"scores": [t.score for t in teams], "nat": _nat(teams), "pit": pit}
    after = replace(
        state,
        dealer=next_seat(seats, state.dealer, 1),
        scores=scores,
        hands_played=number,
        finished=finished,
        winners=_best(scores, seats) if finished else (),
        more={SHEET: [*state.more.get(SHEET, []), line]},
    )
    return HandOutcome(
        number=number,
        dealer=state.dealer,
        leader=left_of(seats, state.dealer),
        results=tuple(PlayerResult(p, points=teams[team_of(seats, p) - 1].score) for p in seats),
        out=None,
        winners=team_players(seats, max(TEAMS, key=lambda t: teams[t - 1].score)),
        movements=(),
        pot_before=None,
        pot_after=None,
        state=after,
        more={
            "playing": playing,
            "pit": pit,
            "teams": [t.to_dict(team_players(seats, t.team)) for t in teams],
        },
    )


def _nat(teams: Sequence[TeamHand]) -> int | None:
    return next((t.team for t in teams if t.nat), None)


def _best(scores: Mapping[str, int], seats: Sequence[str]) -> tuple[str, ...]:
    top = max(scores[p] for p in seats)
    return tuple(p for p in seats if scores[p] == top)


def _checked(
    entry: KlaverEntry,
) -> tuple[int, dict[int, int], dict[int, int], int | None]:
    """Which team played, both teams' card points and roem, the pit; every problem at once."""
    problems = Problems()
    playing = entry.playing
    if playing not in TEAMS:
        problems.add(RuleError("Say which team played.", field="playing"))
    pit = entry.pit
    if pit is not None and pit not in TEAMS:
        problems.add(RuleError("A pit is taken by team 1 or team 2.", field="pit"))
        pit = None
    given = _by_team(entry.teams, problems)
    roem = {t: _roem(given.get(t), problems) for t in TEAMS}
    points = _points(given, pit, problems)
    problems.raise_found()
    assert playing is not None
    return playing, points, roem, pit


def _by_team(teams: Sequence[TeamEntry], problems: Problems) -> dict[int, tuple[int, TeamEntry]]:
    found: dict[int, tuple[int, TeamEntry]] = {}
    for i, t in enumerate(teams):
        if t.team not in TEAMS:
            problems.add(
                RuleError(
                    "A team is 1 or 2, not {team}.", field=f"teams[{i}].team", team=str(t.team)
                )
            )
        elif t.team in found:
            problems.add(
                RuleError("Team {team} is given twice.", field=f"teams[{i}].team", team=t.team)
            )
        else:
            found[t.team] = (i, t)
    return found


def _roem(given: tuple[int, TeamEntry] | None, problems: Problems) -> int:
    """A team's roem: in tens, from 0 to 500 (none given: 0)."""
    if given is None or given[1].roem is None:
        return 0
    i, t = given
    roem = t.roem or 0
    if roem % 10 or not 0 <= roem <= MOST_ROEM:
        problems.add(
            RuleError(
                "Roem comes in tens, up to 500: {roem} is not.", field=f"teams[{i}].roem", roem=roem
            )
        )
        return 0
    return roem


def _points(
    given: Mapping[int, tuple[int, TeamEntry]], pit: int | None, problems: Problems
) -> dict[int, int]:
    """Both teams' card points: one team's given (the other's 162 less), both (adding up to
    162), or a pit (162 and none)."""
    typed: dict[int, int] = {}
    for team, (i, t) in given.items():
        if t.points is None:
            continue
        if not 0 <= t.points <= TOTAL:
            problems.add(
                RuleError(
                    "Card points are 0 to 162: {points} is not.",
                    field=f"teams[{i}].points",
                    points=t.points,
                )
            )
            continue
        typed[team] = t.points
    if pit is not None:
        other = 3 - pit
        if typed.get(other):
            i = given[other][0]
            problems.add(
                RuleError(
                    "A pit takes all the tricks: the other team has no card points.",
                    field=f"teams[{i}].points",
                )
            )
        return {pit: TOTAL, other: 0}
    if len(typed) == 2 and sum(typed.values()) != TOTAL:
        problems.add(
            RuleError(
                "The card points add up to {total}: the two teams' make 162.",
                field="teams",
                total=sum(typed.values()),
            )
        )
    if not typed:
        if not problems:
            problems.add(RuleError("Give one team's card points, or a pit.", field="teams"))
        return {1: 0, 2: 0}
    team, points = next(iter(typed.items()))
    return {team: points, 3 - team: TOTAL - points}


# --- The game ------------------------------------------------------------------------------------


def start(players: Sequence[str], dealer: str) -> None:
    if len(players) != 4:
        raise RuleError("Klaverjassen is for four players, two teams.", field="players")
    check_players(GAME, players, dealer)


class Klaverjassen(Game):
    key = "klaverjassen"
    name = N_("Klaverjassen")
    description = N_(
        "The Dutch club game in two teams seated opposite: 162 card points a hand, roem, nat "
        "and pit, over 16 hands."
    )
    min_players = 4
    max_players = 4
    evening_scoring = "points"  # a klaverjasdrive lists each player's team's points (§19)
    options = {
        # Never off, unlike the hands of the games that may end at a target (labels.py).
        "hands": Option(
            16,
            minimum=1,
            maximum=MAX_HANDS,
            help=N_("How many hands a game has."),
            label=N_("Hands in the game"),
        ),
        **payout.OPTIONS,  # RULES.md §7: played for money, on the teams' totals
    }
    entry_type = KlaverEntry
    result_type = TeamEntry
    cards = False
    out_scores = False

    def play_hand(self, state: State, entry: Any, options: Mapping[str, Any]) -> HandOutcome:
        return play(state, entry, options)

    def start(
        self, players: Sequence[str], dealer: str, options: Mapping[str, Any], carried_pot: int
    ) -> State:
        start(players, dealer)
        return super().start(players, dealer, options, carried_pot)

    def progress(self, state: State, options: Mapping[str, Any]) -> Progress | None:
        hands = int({**self.defaults(), **options}["hands"])
        if state.finished or state.hands_played >= hands:
            return None
        return Progress(round=1, hand=state.hands_played + 1, hands_in_round=hands, rounds=1)

    def leaders(self, state: State, options: Mapping[str, Any]) -> tuple[str, ...] | None:
        seated = [p for p in state.seats if p in state.scores]
        return _best(state.scores, seated) if seated else ()

    def sides(self, seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """The two teams, partners opposite: a score sheet's "Ann & Cas" and "Bob & Dee"."""
        if len(seats) != 4:
            return super().sides(seats)
        return tuple(team_players(seats, t) for t in TEAMS)

    def session_parts(
        self, state: State, status: str, options: Mapping[str, Any], names: Sequence[str]
    ) -> dict[str, Any]:
        """The teams with their players and totals, and the wij/zij sheet, hand by hand."""
        seats = state.seats
        if len(seats) != 4:
            return {}
        teams = []
        for t in TEAMS:
            players = team_players(seats, t)
            teams.append(
                {"team": t, "players": list(players), "score": state.scores.get(players[0], 0)}
            )
        return {"teams": teams, "sheet": list(state.more.get(SHEET, []))}

    def workbook_columns(self) -> tuple[HandColumn, ...]:
        """The playing team, then each team's players, card points, roem, and whether it went
        nat or made pit, as the wij/zij sheet has them (RULES.md, Klaverjassen)."""
        columns = [HandColumn("Playing", _playing, per_player=False)]
        for t in TEAMS:
            columns += [
                HandColumn(f"Team {t}", _team_cell(t, "players"), per_player=False),
                HandColumn(f"Team {t} card points", _team_cell(t, "points"), per_player=False),
                HandColumn(f"Team {t} roem", _team_cell(t, "roem"), per_player=False),
                HandColumn(f"Team {t} nat", _team_cell(t, "nat"), per_player=False),
                HandColumn(f"Team {t} pit", _team_cell(t, "pit"), per_player=False),
            ]
        return tuple(columns)

    def hand_phrases(self, hand: Mapping[str, Any]) -> tuple[Phrase, ...]:
        """ "Ann & Cas played: 100 card points and 20 roem against 62 and 0. Made: …"."""
        teams = {t.get("team"): t for t in hand.get("teams", ())}
        playing = hand.get("playing")
        if playing not in TEAMS or set(teams) != set(TEAMS):
            return ()
        us, them = teams[playing], teams[3 - playing]
        name = " & ".join(us.get("players", ()))
        other = " & ".join(them.get("players", ()))
        said = [
            Phrase(
                "{team} played: {points} card points and {roem} roem against {other_points} "
                "and {other_roem}.",
                team=name,
                points=int(us["points"]),
                roem=int(us["roem"]),
                other_points=int(them["points"]),
                other_roem=int(them["roem"]),
            )
        ]
        if us.get("nat"):
            said.append(Phrase("Nat: {team} score {score}.", team=other, score=int(them["score"])))
        else:
            said.append(
                Phrase(
                    "Made: {team} {score}, {other} {other_score}.",
                    team=name,
                    score=int(us["score"]),
                    other=other,
                    other_score=int(them["score"]),
                )
            )
        pit = next((t for t in teams.values() if t.get("pit")), None)
        if pit is not None:
            said.append(Phrase("Pit: {team} took every trick.", team=" & ".join(pit["players"])))
        return tuple(said)

    def entry_phrases(self, entry: Mapping[str, Any]) -> tuple[Phrase, ...]:
        return entry_phrases(entry)

    def form_entry(
        self, core: HandEntry, posted: Mapping[str, Any], number: int, problems: Problems
    ) -> KlaverEntry:
        """Who played, the playing team's card points, each team's roem and a pit, as typed."""
        values: dict[str, int | None] = {}
        for box in ("playing", "points", "roem-1", "roem-2", "pit"):
            text = str(posted.get(box) or "").strip()
            values[box] = entries.typed_whole(text) if text else None
            if text and values[box] is None:
                problems.add(RuleError("Give a whole number.", field=box))
        playing = values["playing"]
        teams = tuple(
            TeamEntry(
                team=t,
                points=values["points"] if t == playing else None,
                roem=values[f"roem-{t}"],
            )
            for t in TEAMS
        )
        return KlaverEntry(playing=playing, teams=teams, pit=values["pit"])

    def sample_night(self, players: Sequence[str]) -> SampleNight:
        """Two hands, each a team's points and roem; the second a "nat" (samples.py)."""
        seats = tuple(players[:4])
        first = {"playing": 2, "teams": [{"team": 2, "points": 100, "roem": 20}]}
        nat = {"playing": 1, "teams": [{"team": 1, "points": 70, "roem": 20}]}
        return SampleNight(seats, seats[-1], {}, (Step("hand", first),), (Step("hand", nat),), None)


def entry_phrases(entry: Mapping[str, Any]) -> tuple[Phrase, ...]:
    """A hand as entered, for the history (the entry names teams, not players: seats 1 and 3
    are team 1): "team 2 played, 100 card points, 20 roem; team 1 20 roem; pit for team 2"."""
    teams = {t.get("team"): t for t in entry.get("teams") or () if isinstance(t, Mapping)}
    playing = entry.get("playing")
    parts: list[Phrase] = []
    for team in sorted(TEAMS, key=lambda t: t != playing):  # the playing team first
        given = teams.get(team, {})
        roem = given.get("roem")
        if team == playing:
            said = Phrase("team {team} played", team=team)
            if given.get("points") is not None:
                said = Phrase("{said}, {points} card points", said=said, points=given["points"])
            if roem:
                said = Phrase("{said}, {roem} roem", said=said, roem=roem)
            parts.append(said)
        elif roem:
            parts.append(Phrase("team {team} {roem} roem", team=team, roem=roem))
    if entry.get("pit") in TEAMS:
        parts.append(Phrase("pit for team {team}", team=entry["pit"]))
    if not parts:
        return ()
    joined = parts[0]
    for part in parts[1:]:
        joined = Phrase("{said}; {part}", said=joined, part=part)
    return (joined,)


GAME = Klaverjassen()


def _team_of(hand: Answer, team: Any) -> Answer:
    """A team of a hand as the API answers it (its players, points, roem, nat, pit)."""
    return next((t for t in hand.get("teams") or () if t.get("team") == team), {})


def _playing(hand: Answer, _result: Answer) -> str | None:
    """The playing team, by its players ("Ann & Cas")."""
    players = _team_of(hand, hand.get("playing")).get("players")
    return " & ".join(players) if players else None


def _team_cell(team: int, key: str) -> Callable[[Answer, Answer], Any]:
    """A team's figure on a hand's row: its players by name, its points and roem as numbers,
    nat and pit as "yes" or "no"."""

    def cell(hand: Answer, _result: Answer) -> Any:
        value = _team_of(hand, team).get(key)
        if key == "players":
            return " & ".join(value) if value else None
        return yes_no(value) if key in ("nat", "pit") else value

    return cell
