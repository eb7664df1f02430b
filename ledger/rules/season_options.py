"""A season's fields as typed (API.md fourth edition, "Seasons"; RULES.md §13), checked.

``season_fields`` reads a new season's fields, or a change to one (only the fields given,
over what it has), and refuses what breaks a rule with a sentence naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any

from ledger.rules.base import tidy_name
from ledger.rules.errors import Phrase, RuleError
from ledger.rules.game import Game, whole_number
from ledger.rules.league import DEFAULT_PRIZES, POINTS, SCORINGS, Rules
from ledger.rules.money import parse_unit_value

NAME_LENGTH = 60
GAME_NAME_LENGTH = 40
MOST_NIGHTS = 1000
MOST_FEE = 100_000
FIRST_YEAR = 1900


@dataclass(frozen=True)
class SeasonFields:
    """A season as it will be kept: its name, game (and Any game's name), first and last
    day, and its options."""

    name: str
    game: str
    game_name: str | None
    first_day: date
    last_day: date
    scoring: str = "places"
    best_of: int | None = None
    min_nights: int = 0
    entry_fee: int = 0
    unit_value: Decimal = Decimal("0.01")
    currency: str = "EUR"
    prizes: tuple[int, ...] = DEFAULT_PRIZES
    booby: int = 0

    def options(self) -> dict[str, Any]:
        """The options as stored and answered (the unit value as text, kept exactly)."""
        return {
            "scoring": self.scoring,
            "best_of": self.best_of,
            "min_nights": self.min_nights,
            "entry_fee": self.entry_fee,
            "unit_value": str(self.unit_value),
            "currency": self.currency,
            "prizes": list(self.prizes),
            "booby": self.booby,
        }

    def rules(self, lower_better: bool = False) -> Rules:
        return Rules(
            scoring=self.scoring,
            best_of=self.best_of,
            min_nights=self.min_nights,
            entry_fee=self.entry_fee,
            prizes=self.prizes,
            booby=self.booby,
            lower_better=lower_better and self.scoring == POINTS,
        )


OPTION_NAMES: tuple[str, ...] = (
    "scoring",
    "best_of",
    "min_nights",
    "entry_fee",
    "unit_value",
    "currency",
    "prizes",
    "booby",
)


def season_fields(
    body: Mapping[str, Any], games: Mapping[str, Game], kept: SeasonFields | None = None
) -> SeasonFields:
    """The season ``body`` gives (a new one), or ``kept`` changed by the fields ``body`` has."""
    if kept is None:
        game = _game(body.get("game"), games)
        fields = SeasonFields(
            name=_name(body.get("name")),
            game=game.key,
            game_name=_game_name(body.get("game_name"), game),
            first_day=_day(body.get("from"), "from"),
            last_day=_day(body.get("to"), "to"),
        )
    else:
        game = games[kept.game]
        fields = kept
        # The nights a season counts are its game's: another game is another season.
        if "game" in body and body["game"] != kept.game:
            raise RuleError(
                "A season's game cannot change: start a new season for another game.",
                field="game",
            )
        if "game_name" in body and _game_name(body["game_name"], game) != kept.game_name:
            raise RuleError(
                "A season's game name cannot change: start a new season for another game.",
                field="game_name",
            )
        if "name" in body:
            fields = replace(fields, name=_name(body["name"]))
        if "from" in body:
            fields = replace(fields, first_day=_day(body["from"], "from"))
        if "to" in body:
            fields = replace(fields, last_day=_day(body["to"], "to"))
    fields = replace(fields, **{k: _OPTIONS[k](body[k]) for k in OPTION_NAMES if k in body})
    if fields.last_day < fields.first_day:
        raise RuleError("The season ends before it starts.", field="to")
    if fields.scoring == POINTS and game.money:
        raise RuleError(
            "{game} has no points to count: use places or winnings.",
            field="scoring",
            game=Phrase(game.name),
        )
    return fields


def _game(value: Any, games: Mapping[str, Game]) -> Game:
    if not isinstance(value, str) or value not in games:
        raise RuleError(
            "There is no game '{key}'. The games are: {games}.",
            field="game",
            key=str(value)[:40],
            games=", ".join(games),
        )
    return games[value]


def _name(value: Any) -> str:
    text = tidy_name(value) if isinstance(value, str) else ""
    if not text:
        raise RuleError("A season needs a name.", field="name")
    if len(text) > NAME_LENGTH or any(not c.isprintable() for c in text):
        raise RuleError(
            "A season's name is at most {most} characters, without control characters.",
            field="name",
            most=NAME_LENGTH,
        )
    return text


def _game_name(value: Any, game: Game) -> str | None:
    """Any game's name ("Hearts" and "Whist" are two leagues); none for the other games."""
    text = tidy_name(value) if isinstance(value, str) else ""
    if value is not None and not isinstance(value, str):
        raise RuleError("The game's name is text, like Hearts.", field="game_name")
    if text and "name" not in game.options:
        raise RuleError(
            "Only Any game has a game name: leave game_name out for {game}.",
            field="game_name",
            game=Phrase(game.name),
        )
    if len(text) > GAME_NAME_LENGTH or any(not c.isprintable() for c in text):
        raise RuleError(
            "The game's name is at most {most} characters, without control characters.",
            field="game_name",
            most=GAME_NAME_LENGTH,
        )
    return text or None


def _day(value: Any, field: str) -> date:
    """A date written YYYY-MM-DD (the season's first or last day, both inclusive)."""
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError(value)
        day = date.fromisoformat(value)
    except ValueError:
        raise RuleError(
            "{name} must be a date written YYYY-MM-DD, like 2026-11-23.", name=field, field=field
        ) from None
    if day.year < FIRST_YEAR:
        raise RuleError(
            "{name} must be a date in the years {first} to {last}.",
            name=field,
            field=field,
            first=str(FIRST_YEAR),
            last=str(date.max.year),
        )
    return day


def _whole(field: str, value: Any, minimum: int, maximum: int) -> int:
    number = whole_number(value)
    if number is None or isinstance(value, bool):
        raise RuleError("The option {option} must be a whole number.", field=field, option=field)
    if number < minimum:
        raise RuleError(
            "The option {option} must be at least {minimum}.",
            field=field,
            option=field,
            minimum=minimum,
        )
    if number > maximum:
        raise RuleError(
            "The option {option} must be at most {maximum}.",
            field=field,
            option=field,
            maximum=maximum,
        )
    return number


def _scoring(value: Any) -> str:
    if value not in SCORINGS:
        raise RuleError(
            "A season is scored by places, winnings or points, not '{value}'.",
            field="scoring",
            value=str(value)[:40],
        )
    return str(value)


def _best_of(value: Any) -> int | None:
    if value is None or value == "":
        return None
    return _whole("best_of", value, 1, MOST_NIGHTS)


def _unit_value(value: Any) -> Decimal:
    try:
        return parse_unit_value(value)
    except RuleError as e:
        raise RuleError(e.phrase, field="unit_value") from None


def _currency(value: Any) -> str:
    code = str(value).strip().upper()
    if len(code) != 3 or not code.isascii() or not code.isalpha():
        raise RuleError(
            "The currency must be a three-letter code like EUR or GBP, not '{value}'.",
            field="currency",
            value=str(value)[:40],
        )
    return code


def _prizes(value: Any) -> tuple[int, ...]:
    """Percentages for places 1, 2, …: a list, or text as a form sends it ("60, 30, 10")."""
    if isinstance(value, str):
        value = value.replace(",", " ").replace("%", " ").split()
    shares = value if isinstance(value, list | tuple) else None
    found = tuple(whole_number(p) for p in shares or ())
    if not found or len(found) > 20 or any(p is None or p < 0 for p in found):
        raise RuleError(
            "Prizes are whole percentages for places 1, 2, 3…, like 60, 30, 10.", field="prizes"
        )
    if sum(p or 0 for p in found) != 100:
        raise RuleError(
            "Prizes must add up to 100 %: these add up to {total} %.",
            field="prizes",
            total=sum(p or 0 for p in found),
        )
    return tuple(p or 0 for p in found)


_OPTIONS: dict[str, Any] = {
    "scoring": _scoring,
    "best_of": _best_of,
    "min_nights": lambda v: _whole("min_nights", v, 0, MOST_NIGHTS),
    "entry_fee": lambda v: _whole("entry_fee", v, 0, MOST_FEE),
    "unit_value": _unit_value,
    "currency": _currency,
    "prizes": _prizes,
    "booby": lambda v: _whole("booby", v, 0, MOST_FEE * 1000),
}


def money_option(name: str, value: Any) -> Any:
    """One of a season's money options checked (``entry_fee``, ``unit_value``, ``currency``,
    ``prizes``, ``booby``): a club evening's take the same (RULES.md §19)."""
    return _OPTIONS[name](value)


def whole_option(name: str, value: Any, minimum: int, maximum: int) -> int:
    """A whole-number option within bounds, refused naming it as a season's are."""
    return _whole(name, value, minimum, maximum)
