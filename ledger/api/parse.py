"""Reading request bodies: JSON objects, typed fields and hand entries, or a 400 naming the field.

Wrong JSON or a wrong type is the caller's mistake (400); a value of the right type that
breaks a rule is for the services and the engine to refuse (422).
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

from ledger.api.errors import APIError
from ledger.models import REQUEST_ID_LENGTH
from ledger.rules.base import HandEntry, ResultEntry
from ledger.rules.errors import RuleError


def json_object() -> dict[str, Any]:
    """The body as a JSON object; an empty body is an empty object."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise APIError(400, "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise APIError(400, "The request body must be a JSON object.")
    return data


def text(body: dict[str, Any], key: str, where: str | None = None) -> str | None:
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        raise APIError(400, f"{key} must be text.", field=where or key)
    return value


def whole(body: dict[str, Any], key: str, where: str | None = None) -> int | None:
    value = body.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise APIError(400, f"{key} must be a whole number.", field=where or key)
    return value


def flag(body: dict[str, Any], key: str, where: str | None = None) -> bool:
    value = body.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise APIError(400, f"{key} must be true or false.", field=where or key)
    return value


def text_list(body: dict[str, Any], key: str, where: str | None = None) -> list[str] | None:
    value = body.get(key)
    if value is None:
        return None
    where = where or key
    if not isinstance(value, list):
        raise APIError(400, f"{key} must be a list.", field=where)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise APIError(400, f"Each of {key} must be text.", field=f"{where}[{i}]")
    return value


def mapping(body: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = body.get(key)
    if value is not None and not isinstance(value, dict):
        raise APIError(400, f"{key} must be an object.", field=key)
    return value


def hand_entry(body: dict[str, Any]) -> HandEntry:
    """A hand entry (API.md "Hand entry") as the engine takes it."""
    results = body.get("results")
    if results is None:
        results = []
    if not isinstance(results, list):
        raise APIError(400, "results must be a list, one result per player.", field="results")
    entries = []
    for i, item in enumerate(results):
        where = f"results[{i}]"
        if not isinstance(item, dict):
            raise APIError(400, "Each result must be an object.", field=where)
        player = text(item, "player", f"{where}.player")
        if not player:
            raise RuleError("Each result needs the player's name.", field=f"{where}.player")
        cards = item.get("cards")
        if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
            cards = " ".join(cards)  # the answer's shape, ["J", "10"], is taken back too
        elif cards is not None and not isinstance(cards, str):
            raise APIError(400, 'cards must be text, like "J 10".', field=f"{where}.cards")
        melds = text_list(item, "melds", f"{where}.melds")
        entries.append(
            ResultEntry(
                player=player,
                cards=cards,
                spots=whole(item, "spots", f"{where}.spots"),
                melds=tuple(melds) if melds is not None else None,
                sitting_out=flag(item, "sitting_out", f"{where}.sitting_out"),
            )
        )
    return HandEntry(
        results=tuple(entries), out=text(body, "out") or None, rummy=flag(body, "rummy")
    )


def request_id(body: dict[str, Any]) -> str | None:
    value = text(body, "request_id")
    if value is not None and len(value) > REQUEST_ID_LENGTH:
        raise RuleError(
            "A request_id has at most {most} characters.",
            field="request_id",
            most=REQUEST_ID_LENGTH,
        )
    return value or None
