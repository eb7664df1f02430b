"""Every line of a backup's history that describes a fact agrees with that fact (issue 46.4).

A payment's lines (``payment.recorded``, ``payment.deleted``) leave the night's payments. A
round's lines (``round.added``, ``round.changed``, ``round.deleted``) and a buy-in's
(``player.bought_in``, ``player.buy_in_taken_back``) are read in each session's order, as the
services wrote them, and played forward: a round changed or taken back is one the lines
recorded and did not take back since, in the words they recorded it with; the rounds left are
the night's rounds, each as its line says (what, amount, who paid, for whom, the shares, the
request id). A buy-in line names a buy-in the night holds (in the seating before the hand
after it, or still waiting for the next hand): its player, the hand it followed, its units and
the total it came back in at; a buy-in taken back was made and not taken back before; an undo
drops the buy-ins made after the hand undone and gives back those made before it, as undoing
does. A player renamed since is followed through the lines (``player.renamed``).

The facts themselves were checked before (the rounds as recording one checks them, the
buy-ins by the engine's replay): so what the history says is what happened.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ledger.rules.errors import Phrase, RuleError
from ledger.rules.rounds import read_what
from ledger.services.backups import BackupError
from ledger.services.building import cents_amount


def _check_lines(rows: Mapping[str, list[dict[str, Any]]], players: Mapping[int, str]) -> None:
    """The rounds' and the buy-ins' lines of every session, against the session's facts."""
    changes: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for c in rows["changes"]:
        changes[c["session_id"]].append(c)
    rounds: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in rows["rounds"]:
        rounds[r["session_id"]].append(r)
    hands: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for h in rows["hands"]:
        hands[h["session_id"]].append(h)
    payments: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for p in rows["payments"]:
        payments[p["session_id"]].append(p)
    for s in rows["sessions"]:
        lines = sorted(changes[s["id"]], key=lambda c: c["version"])
        currency = str(s["options"].get("currency") or "EUR")
        said = [_round_said(r, players, currency) for r in rounds[s["id"]]]
        _check_round_lines(s["id"], lines, said)
        _check_buy_in_lines(s, lines, hands[s["id"]])
        paid = [_payment_said(p, players, currency) for p in payments[s["id"]]]
        _check_payment_lines(s["id"], lines, paid)


def _round_said(row: Mapping[str, Any], players: Mapping[int, str], currency: str) -> Any:
    """A round as its line of history keeps it (services/rounds.py): by names, the amount in
    the currency, the request id where it has one."""
    shares = {players[p]: share for p, share in row["shares"]}
    said: dict[str, Any] = {
        "what": row["what"],
        "amount": str(cents_amount(row["cents"], currency)),
        "paid_by": players[row["payer_id"]],
        "for": list(shares),
        "shares": shares,
    }
    if row["request_id"] is not None:
        said["request_id"] = row["request_id"]
    return said


def _unlike(session: int, version: int, what: Phrase) -> BackupError:
    return BackupError(
        "The backup does not add up: in session {id}, the history's change {version} says {what}",
        id=session,
        version=version,
        what=what,
    )


def _check_round_lines(session: int, lines: Sequence[Mapping[str, Any]], rounds: list[Any]) -> None:
    """The rounds the lines leave standing are the night's rounds, each as its line says."""
    standing: list[Any] = []
    for c in lines:
        kind, before, after = c["kind"], c["before"], c["after"]
        if kind == "player.renamed":
            old, new = before["player"], after["player"]
            standing = [_renamed(r, old, new) for r in standing]
        if kind in ("round.changed", "round.deleted"):
            if before not in standing:
                raise _unlike(
                    session, c["version"], Phrase("a round changed that it never recorded.")
                )
            standing.remove(before)
        if kind in ("round.added", "round.changed"):
            _check_what(session, c["version"], after.get("what"))
            standing.append(after)
    left = list(rounds)
    for r in standing:
        if r not in left:
            raise BackupError(
                "The backup does not add up: the rounds of session {id} are not as its history "
                "says (a round's what, amount, payer, people or shares).",
                id=session,
            )
        left.remove(r)
    if left:
        raise BackupError(
            "The backup does not add up: session {id} holds a round its history never recorded.",
            id=session,
        )


def _check_what(session: int, version: int, what: Any) -> None:
    try:
        sound = read_what(what) == what
    except RuleError:
        sound = False
    if not sound:
        raise _unlike(session, version, Phrase("what a round was as the app never keeps it."))


def _renamed(said: Any, old: str, new: str) -> Any:
    def name(player: Any) -> Any:
        return new if player == old else player

    if not isinstance(said, dict):
        return said
    return {
        **said,
        "paid_by": name(said.get("paid_by")),
        "for": [name(p) for p in said.get("for", [])],
        "shares": {name(p): n for p, n in said.get("shares", {}).items()},
    }


def _check_buy_in_lines(
    s: Mapping[str, Any], lines: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]]
) -> None:
    """The buy-ins the lines leave are those the night's hands and seating hold."""
    sid = s["id"]
    waiting: list[dict[str, Any]] = []  # made since the last hand
    made: dict[int, list[dict[str, Any]]] = {}  # in the seating before each hand
    for c in lines:
        kind, n = c["kind"], c["hand_number"]
        if kind == "player.renamed":
            old, new = c["before"]["player"], c["after"]["player"]
            waiting = [{**b, "player": new if b["player"] == old else b["player"]} for b in waiting]
            made = {
                k: [{**b, "player": new if b["player"] == old else b["player"]} for b in v]
                for k, v in made.items()
            }
        elif kind == "player.bought_in":
            bought = {k: v for k, v in c["after"].items() if k != "request_id"}
            if bought["after_hand"] != n:
                raise _unlike(
                    sid, c["version"], Phrase("a buy-in after another hand than its own.")
                )
            waiting.append(bought)
        elif kind == "player.buy_in_taken_back":
            taken = {k: v for k, v in c["before"].items() if k != "request_id"}
            if taken not in waiting:
                raise _unlike(sid, c["version"], Phrase("a buy-in taken back that was not made."))
            waiting.remove(taken)
        elif kind == "hand.created":
            made[n], waiting = waiting, []
        elif kind == "hand.deleted":
            waiting = made.pop(n, [])
    held = {h["number"]: _buy_ins(h["seating"]) for h in hands}
    for number, ops in held.items():
        if ops != made.get(number, []):
            raise _no_such_buy_in(sid, number - 1)  # made after the hand before it
    if _buy_ins(s["seating"]) != waiting:
        raise _no_such_buy_in(sid, s["hands_played"])


def _buy_ins(seating: Any) -> list[Any]:
    return [op["buy_in"] for op in seating if isinstance(op, dict) and "buy_in" in op]


def _no_such_buy_in(session: int, hand: int) -> BackupError:
    return BackupError(
        "The backup does not add up: the buy-ins after hand {hand} of session {id} are not as "
        "its history says (a player, a hand, units or a total).",
        hand=hand,
        id=session,
    )


def _payment_said(row: Mapping[str, Any], players: Mapping[int, str], currency: str) -> Any:
    """A payment as its lines name it: who paid whom, and its units, or its amount where it
    was given in the currency (services/payments.py)."""
    if row["cents"] is None:
        given: tuple[str, Any] = ("units", row["units"])
    else:
        given = ("amount", str(cents_amount(row["cents"], currency)))
    return (players[row["payer_id"]], players[row["payee_id"]], *given)


def _line_paid(paid: Mapping[str, Any]) -> Any:
    given = ("units", paid["units"]) if "units" in paid else ("amount", paid.get("amount"))
    return (paid["from"], paid["to"], *given)


def _check_payment_lines(
    session: int, lines: Sequence[Mapping[str, Any]], payments: list[Any]
) -> None:
    """The payments the lines leave standing are the night's payments, each as its line
    says; a payment taken back is one the lines recorded and did not take back since."""
    standing: list[Any] = []
    for c in lines:
        kind = c["kind"]
        if kind == "player.renamed":
            old, new = c["before"]["player"], c["after"]["player"]
            standing = [tuple(new if v == old and i < 2 else v for i, v in enumerate(p))
                        for p in standing]  # fmt: skip
        elif kind == "payment.recorded":
            standing.append(_line_paid(c["after"]))
        elif kind == "payment.deleted":
            taken = _line_paid(c["before"])
            if taken not in standing:
                raise _unlike(
                    session, c["version"], Phrase("a payment taken back that was not made.")
                )
            standing.remove(taken)
    if sorted(standing, key=repr) != sorted(payments, key=repr):
        raise BackupError(
            "The backup does not add up: the payments of session {id} are not as its history "
            "says (who paid whom, units or an amount).",
            id=session,
        )
