"""API-shaped answers (session, hands, settlement) made by the card engine alone.

ledger/export.py takes the JSON API's dicts, so its own tests need no app and no database:
this plays hands through the engine and writes what API.md says the API answers.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.rules.base import HandEntry, ResultEntry
from ledger.rules.money import amount, settle_amounts
from ledger.rules.registry import get_game


class EngineSession:
    """A session played through the engine: ``hand()`` adds one, the properties answer JSON."""

    def __init__(
        self,
        game: str,
        players: list[str],
        dealer: str,
        options: dict[str, Any] | None = None,
        *,
        id: int = 1,
        group: str = "the-local",
        carried_pot: int = 0,
        number: int = 1,
    ) -> None:
        self.game = get_game(game)
        self.id = id
        self.number = number  # among the group's nights of its game (ledger/rules/nights.py)
        self.group = group
        self.options = self.game.check_options(options or {})
        self.state = self.game.new_state(players, dealer, self.options, carried_pot)
        self.hands: list[dict[str, Any]] = []
        self.status = "open"
        self.refunds: list[dict[str, Any]] = []
        self.leftover_pot: str | None = None  # what finishing did with the pot (money games)

    def hand(self, results: dict[str, Any], out: str | None = None, rummy: bool = False) -> None:
        """``results`` maps each player to cards text, a spot total (int) or None (sits out)."""
        entries = []
        for player, given in results.items():
            if given is None:
                entries.append(ResultEntry(player, sitting_out=True))
            elif isinstance(given, int):
                entries.append(ResultEntry(player, spots=given))
            else:
                entries.append(ResultEntry(player, cards=given))
        outcome = self.game.play(self.state, HandEntry(tuple(entries), out, rummy), self.options)
        self.state = outcome.state
        movements = [
            {"from": m.source, "to": m.target, "units": m.units} for m in outcome.movements
        ]
        self.hands.append(
            {
                "number": outcome.number,
                "dealer": outcome.dealer,
                "leader": outcome.leader,
                "results": [
                    {
                        "player": r.player,
                        "cards": [c.code for c in r.cards],
                        "spots": r.spots,
                        "points": r.points,
                        "sitting_out": r.sitting_out,
                    }
                    for r in outcome.results
                ],
                "out": outcome.out,
                "winners": list(outcome.winners),
                "payments": [m for m in movements if m["from"] and m["to"]],
                "movements": movements,
                "pot_before": outcome.pot_before,
                "pot_after": outcome.pot_after,
                "scores_after": dict(outcome.state.scores),
            }
        )
        if outcome.state.finished:
            self.status = "finished"

    def finish(self, leftover_pot: str = "carry") -> None:
        assert self.game.finish is not None
        done = self.game.finish(self.state, self.options, leftover_pot)
        self.refunds = [
            {"from": m.source, "to": m.target, "units": m.units} for m in done.movements
        ]
        self.state = done.state
        self.status = "finished"
        self.leftover_pot = leftover_pot

    @property
    def session(self) -> dict[str, Any]:
        players = [
            {"name": n, "seat": i, "active": True} for i, n in enumerate(self.state.seats, 1)
        ]
        players += [
            {"name": n, "seat": None, "active": False}
            for n in self.state.scores
            if n not in self.state.seats
        ]
        return {
            "id": self.id,
            "number": self.number,
            "group": self.group,
            "game": self.game.key,
            "status": self.status,
            "version": len(self.hands) + 1,
            "options": dict(self.options),
            "players": players,
            "hands_played": self.state.hands_played,
            "dealer": self.state.dealer,
            "leader": None,
            "pot": self.state.pot if self.game.money else None,
            "scores": dict(self.state.scores),
            "winners": self.winners,
            "closing": list(self.refunds),
            "leftover_pot": self.leftover_pot,
            "started_at": "2024-05-02T20:05:00Z",
            "finished_at": "2024-05-02T23:40:00Z" if self.status == "finished" else None,
            **self.figures,
        }

    @property
    def figures(self) -> dict[str, Any]:
        """What the API answers of each player's night (its read model's ``winnings`` and
        ``standings``): an engine session brings no pot back and keeps none, so a money
        night's winnings are its balances."""
        money = self.game.money
        won = dict(self.state.scores) if money else None
        unit_value = Decimal(self.options.get("unit_value") or "0.01")
        currency = self.options.get("currency")
        standings = [
            {
                "player": name,
                "score": score,
                "winnings": score if money else None,
                "winnings_amount": str(amount(score, unit_value, currency)) if money else None,
            }
            for name, score in self.state.scores.items()
        ]
        return {"winnings": won, "standings": standings}

    @property
    def winners(self) -> list[str]:
        """As the export service gives them: the game's own (a money night has none)."""
        return list(self.state.winners) if self.status == "finished" else []

    @property
    def settlement(self) -> dict[str, Any] | None:
        if not self.game.money:
            return None
        currency = self.options["currency"]
        pot_owed = self.state.pot - self.state.carried_in
        balances = {**self.state.scores, None: pot_owed}
        amounts, transfers = settle_amounts(balances, Decimal(self.options["unit_value"]), currency)
        return {
            "currency": currency,
            "balances": [
                {"player": p, "units": u, "amount": str(amounts[p])}
                for p, u in self.state.scores.items()
            ],
            "pot": self.state.pot,
            "transfers": [
                {"from": t.source, "to": t.target, "units": t.units, "amount": str(a)}
                for t, a in transfers
            ],
        }


def seed_000_night(**options: Any) -> EngineSession:
    """Spot's worked example (RULES.md §2): hand 1 with a 20-unit pot, hand 2 won going out."""
    s = EngineSession("spot", ["Enda", "John", "Rex", "Finn"], "Finn", options)
    s.hand({"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"})
    s.hand({"Enda": "", "John": "5 5 6", "Rex": "K", "Finn": "3 5"}, out="Enda")
    return s
