"""A backup's seasons (RULES.md §13), checked as making one checks it: the fields and options
through ``season_fields`` (kept exactly as it keeps them), open or closed as the app leaves
them, and a closed season's table derived again from its facts (issue 46.4).

A closed season keeps the table it closed with: which nights counted and what each gave each
player (its league points and places), as those nights stood at the close (a night reopened
since keeps its place in the table as it was). Those are its facts, each checked against the
night it names (a session of the backup, of the season's game, started within its dates,
with those players; places ranked as places are, the league points those places give). All
the rest (the nights dropped by ``best_of``, the standings, the pot, the prizes) is worked
out again from the facts and the season's options (ledger/rules/league.py ``table_of``),
and a file whose table says otherwise is refused, naming the part."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ledger.backup.replay import _same
from ledger.backup.values import _shown
from ledger.rules.errors import Phrase, RuleError
from ledger.rules.league import (
    PLACES,
    WINNINGS,
    SeasonNight,
    SeasonTable,
    table_from_dict,
    table_of,
    table_to_dict,
)
from ledger.rules.nights import series
from ledger.rules.registry import GAMES
from ledger.rules.season_options import OPTION_NAMES, SeasonFields, season_fields
from ledger.services.backups import BackupError


def _check_seasons(rows: Mapping[str, list[dict[str, Any]]]) -> None:
    requests = Counter(s["request_id"] for s in rows["seasons"] if s["request_id"] is not None)
    for request_id, count in requests.items():
        if count > 1:
            raise BackupError(
                "The backup is refused: two seasons have the request_id {request_id}.",
                request_id=_shown(request_id),
            )
    sessions = {s["id"]: s for s in rows["sessions"]}
    for season in rows["seasons"]:
        _check_season(season, sessions)


def _check_season(season: dict[str, Any], sessions: Mapping[int, Mapping[str, Any]]) -> None:
    options = season["options"] if isinstance(season["options"], dict) else {}
    body = {
        "name": season["name"],
        "game": season["game"],
        "game_name": season["game_name"],
        "from": season["first_day"].isoformat(),
        "to": season["last_day"].isoformat(),
        **{k: options[k] for k in OPTION_NAMES if k in options},
    }
    try:
        fields = season_fields(body, GAMES)
    except RuleError as e:
        raise _refused(season, e.phrase.continued()) from None
    if fields.name != season["name"] or fields.options() != season["options"]:
        raise _refused(season, Phrase("its options are not as the app keeps them."))
    closed = season["status"] == "closed"
    if season["status"] not in ("open", "closed") or closed != (season["closed"] is not None):
        raise _refused(season, Phrase("it is neither open nor closed as the app leaves a season."))
    if closed != (season["closed_at"] is not None) or (season["on_tab"] and not closed):
        raise _refused(season, Phrase("its close is incomplete."))
    if closed:
        season["closed"] = _derived_table(season, fields, sessions)


def _derived_table(
    season: Mapping[str, Any], fields: SeasonFields, sessions: Mapping[int, Mapping[str, Any]]
) -> dict[str, Any]:
    """The closed season's table worked out again from its nights' facts and its options,
    or a refusal naming what the file's table says otherwise."""
    kept = season["closed"]
    nights = _nights(season, kept, sessions)
    last = max(nights, key=lambda n: (n.started_at, n.session)) if nights else None
    game = GAMES[season["game"]]
    latest = sessions[last.session]["options"] if last is not None else {}
    lower = game.penalty_points({**game.defaults(), **latest})
    table = table_of(nights, fields.rules(lower_better=lower))
    made = table_to_dict(table)
    if set(made) != set(kept) - {"paid"}:  # the ticks of its settle-up: facts of their own
        raise _refused(season, Phrase("its table is damaged."))
    for part in ("nights", "standings", "pot", "prizes", "entry_fee"):
        if not _same(made[part], kept[part]):
            raise _refused(season, _UNLIKE[part])
    _check_ticks(season, kept, table)
    return {**made, "paid": kept["paid"]} if "paid" in kept else made


# What a closed season's table holds that its facts and options do not make, in words.
_UNLIKE = {
    "nights": Phrase("the nights its best nights leave out are not those its options leave out."),
    "standings": Phrase("its standings are not what its nights and options make."),
    "pot": Phrase("its prize pot is not what its entry fee and players make."),
    "prizes": Phrase("its prizes are not what its pot and options make."),
    "entry_fee": Phrase("its entry fee is not its options' entry fee."),
}


def _nights(
    season: Mapping[str, Any], kept: Any, sessions: Mapping[int, Mapping[str, Any]]
) -> list[SeasonNight]:
    """The nights the closed table counts, with what each gave each player, each checked
    against the session it names."""
    listed = kept.get("nights") if isinstance(kept, dict) else None
    if not isinstance(listed, list):
        raise _refused(season, Phrase("its table is damaged."))
    nights = []
    for night in listed:
        try:
            made = table_from_dict(
                {"nights": [night], "standings": [], "pot": 0, "prizes": [], "entry_fee": 0}
            ).nights[0]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise _refused(season, Phrase("its table is damaged.")) from None
        source = sessions.get(made.session)
        if source is None:
            raise _refused(season, Phrase("its table counts a night the backup does not hold."))
        reason = _unlike_night(season, made, source)
        if reason is not None:
            raise _refused(
                season,
                Phrase(
                    "night {number} of its table {reason}",
                    number=made.number,
                    reason=reason,
                ),
            )
        nights.append(made)
    if len({n.session for n in nights}) != len(nights):
        raise _refused(season, Phrase("its table counts a night twice."))
    return nights


def _unlike_night(
    season: Mapping[str, Any], night: SeasonNight, source: Mapping[str, Any]
) -> Phrase | None:
    """What the night's facts in the table say that its session does not, in words."""
    options = source["options"] if isinstance(source["options"], dict) else {}
    wanted = series(season["game"], {"name": season["game_name"] or ""})
    if series(source["game"], options) != wanted:
        return Phrase("is a night of another game.")
    if not season["first_day"] <= source["started_at"].date() <= season["last_day"]:
        return Phrase("did not start within the season's dates.")
    if night.started_at != source["started_at"] or night.number != source["number"]:
        return Phrase("is not numbered or dated as its session is.")
    played = source["state"].get("scores", {}) if isinstance(source["state"], dict) else {}
    if not night.points or set(night.points) != set(night.places):
        return Phrase("does not place each of its players once.")
    if not set(night.points) <= set(played):
        return Phrase("names a player who did not play that night.")
    if not _ranked(night.places):
        return Phrase("places its players as no night's result can.")
    scoring = season["options"].get("scoring", PLACES)
    if scoring == PLACES and any(
        night.points[p] != len(night.points) - place + 1 for p, place in night.places.items()
    ):
        return Phrase("gives league points its places do not give.")
    won = night.points.values()  # a money game places by its winnings, most first
    if (
        scoring == WINNINGS
        and GAMES[season["game"]].money
        and any(
            place != 1 + sum(w > night.points[p] for w in won) for p, place in night.places.items()
        )
    ):
        return Phrase("places its players otherwise than their winnings do.")
    return None


def _ranked(places: Mapping[str, int]) -> bool:
    """Whether ``places`` are places as a night gives them: equals share the best place they
    cover (1, 2, 2, 4), so each is one more than the number of players placed above it."""
    values = list(places.values())
    return all(v == 1 + sum(o < v for o in values) for v in values)


def _check_ticks(season: Mapping[str, Any], kept: Mapping[str, Any], table: SeasonTable) -> None:
    """The ticks of the settle-up kept with a closed season: each a payment of its balances,
    none on a season whose balances went on the tab."""
    ticks = kept.get("paid", [])
    balances = table.balances()
    if not isinstance(ticks, list) or not all(_tick(t, balances) for t in ticks):
        raise _refused(season, Phrase("its ticks are not payments of its settle-up."))
    if ticks and season["on_tab"]:
        raise _refused(season, Phrase("its ticks are not payments of its settle-up."))


def _tick(tick: Any, balances: Mapping[str, int]) -> bool:
    """A tick as the season's page keeps one: from a player who pays, to one who is paid."""
    return (
        isinstance(tick, dict)
        and set(tick) == {"from", "to", "amount", "at"}
        and all(isinstance(tick[k], str) for k in ("from", "to", "amount", "at"))
        and balances.get(tick["from"], 0) < 0 < balances.get(tick["to"], 0)
    )


def _refused(season: Mapping[str, Any], reason: Phrase) -> BackupError:
    return BackupError(
        "Season {id} of the backup is refused: {reason}", id=season["id"], reason=reason
    )
