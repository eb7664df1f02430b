"""The one exception the rules engine raises for anything a player typed that breaks a rule."""

from __future__ import annotations


class RuleError(ValueError):
    """A hand, a card or an option that the rules do not allow.

    ``message`` is a sentence a player understands. ``field`` points at the input it concerns,
    in the API's notation (``results[2].cards``, ``options.ante``), when there is one;
    ``players`` names the players it concerns, so a page can show it beside them.
    """

    def __init__(
        self, message: str, *, field: str | None = None, players: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.players = players

    def __str__(self) -> str:
        return self.message
