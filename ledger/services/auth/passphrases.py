"""Passphrases: what one may be, and its slow hash, at most ``hash_slots`` at once per process
(others wait up to ``LEDGER_HASH_WAIT`` or are answered Busy), one check per guess in flight.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from flask import current_app
from werkzeug.security import check_password_hash, generate_password_hash

from ledger.rules.errors import RuleError
from ledger.services.errors import Busy

MIN_PASSPHRASE = 8


MAX_PASSPHRASE = 200


# Slow checks at once per process (default: one per core) and how long a request may wait
# for a slot before it is answered 503 (seconds).
HASH_SLOTS_SETTING = "LEDGER_HASH_SLOTS"


HASH_WAIT_SETTING = "LEDGER_HASH_WAIT"


HASH_WAIT = 0.25


# werkzeug's default (scrypt) unless the app says otherwise: tests choose a quicker one.
HASH_METHOD_SETTING = "LEDGER_PASSPHRASE_HASH"


def _decoy_hash() -> str:
    """A hash of a random passphrase, made with the app's method, checked against unknown slugs."""
    cache = current_app.extensions.setdefault("ledger_decoy_hash", {})
    method = current_app.config.get(HASH_METHOD_SETTING) or "scrypt"
    if method not in cache:
        cache[method] = _make_hash(secrets.token_urlsafe(16))
    return str(cache[method])


def _make_hash(passphrase: str) -> str:
    method = current_app.config.get(HASH_METHOD_SETTING)
    if method:
        return generate_password_hash(passphrase, method=method)
    return generate_password_hash(passphrase)


def hash_slots() -> threading.BoundedSemaphore:
    """The process's slots for slow hash work (one per core unless LEDGER_HASH_SLOTS says)."""
    slots = current_app.extensions.get("ledger_hash_slots")
    if slots is None:
        size = int(current_app.config.get(HASH_SLOTS_SETTING) or os.cpu_count() or 2)
        slots = current_app.extensions.setdefault(
            "ledger_hash_slots", threading.BoundedSemaphore(max(1, size))
        )
    return slots


class _Waiting:
    """How many requests wait for a slot now; at most as many as there are slots."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0


def _waiting() -> _Waiting:
    found = current_app.extensions.get("ledger_hash_waiting")
    if found is None:
        found = current_app.extensions.setdefault("ledger_hash_waiting", _Waiting())
    return found


def _wait_for_slot(slots: threading.BoundedSemaphore, wait: float) -> bool:
    """Wait up to ``wait`` seconds for a slot, unless as many requests as there are slots
    wait already: then give up at once. A thread that waits is one of the server's few
    (`ledger serve --threads`), and a flood of guesses must not hold them all, or the phones
    already signed in queue behind it for a page that needs no slow check at all."""
    if wait <= 0:
        return False
    waiting = _waiting()
    most = int(current_app.config.get(HASH_SLOTS_SETTING) or os.cpu_count() or 2)
    with waiting.lock:
        if waiting.count >= max(1, most):
            return False
        waiting.count += 1
    try:
        return slots.acquire(timeout=wait)
    finally:
        with waiting.lock:
            waiting.count -= 1


@contextmanager
def _hash_slot() -> Iterator[None]:
    """Hold a slot for one slow hash, or answer Busy (503) when none frees up quickly.

    A flood of guesses would otherwise queue every thread behind scrypt, and the phones that
    are already signed in (a cookie or a token, no hash at all) would wait with them.
    """
    slots = hash_slots()
    wait = float(current_app.config.get(HASH_WAIT_SETTING, HASH_WAIT))
    if not (slots.acquire(blocking=False) or _wait_for_slot(slots, wait)):
        raise Busy(1)
    try:
        yield
    finally:
        slots.release()


def _hash(passphrase: str) -> str:
    with _hash_slot():
        return _make_hash(passphrase)


class _Flight:
    """One guess being checked, which requests making the very same guess wait for.

    ``result`` is the id of the group it opened, ``WRONG_FOR_ALL`` when it opened none,
    ``REFUSED`` when its request had no place in the counts, or ``UNCHECKED`` (no slot was
    free, or the check failed).
    """

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: int = UNCHECKED


UNCHECKED = -1


REFUSED = -2  # its guesser had no place in the counts: nothing was checked


WRONG_FOR_ALL = 0  # no group has the id 0


_flights: dict[str, _Flight] = {}


_flights_lock = threading.Lock()


# How long a request waits for the same check made by another (one check takes ~0.1 s).
FLIGHT_WAIT = 10.0


def _flight_key(hashes: Sequence[str], passphrase: str) -> str:
    text = "\x00".join((*hashes, passphrase))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _flight_of(key: str) -> _Flight | None:
    with _flights_lock:
        return _flights.get(key)


def _join(key: str) -> tuple[_Flight, bool]:
    """The flight of ``key``, and whether this request leads it (it was not under way)."""
    with _flights_lock:
        flight = _flights.get(key)
        if flight is not None:
            return flight, False
        flight = _flights[key] = _Flight()
        return flight, True


def _land(key: str, flight: _Flight, result: int) -> None:
    flight.result = result
    with _flights_lock:
        _flights.pop(key, None)
    flight.done.set()


def _answer_of(flight: _Flight) -> int:
    """What the request leading ``flight`` found; Busy when it could not check."""
    if flight.done.wait(FLIGHT_WAIT) and flight.result != UNCHECKED:
        return flight.result
    raise Busy(1)


# What werkzeug raises for a hash it cannot check: a method it does not know, settings
# OpenSSL refuses (``scrypt:2:1:1`` asks for less memory than scrypt needs), numbers too big.
_UNCHECKABLE = (ValueError, OverflowError, TypeError)


def _slow_check(stored_hash: str, passphrase: str) -> bool:
    """Whether ``passphrase`` is the one of ``stored_hash``. A hash werkzeug cannot check
    opens nothing: a wrong passphrase, never a 500 (a restore takes none: ``hash_checks``)."""
    with _hash_slot():
        try:
            return check_password_hash(stored_hash, passphrase)
        except _UNCHECKABLE:
            current_app.logger.error("A group's passphrase hash cannot be checked.")
            return False


def hash_checks(stored_hash: str) -> bool:
    """Whether werkzeug can check a passphrase against ``stored_hash`` at all: the sign-in's
    own check, made once with a passphrase nobody has. A restore asks it of a backup's hash
    (after the bounds on its cost), so every group restored can be opened."""
    try:
        check_password_hash(stored_hash, secrets.token_urlsafe(16))
    except _UNCHECKABLE:
        return False
    return True


def check_passphrase(passphrase: str, field: str = "passphrase") -> str:
    if len(passphrase or "") < MIN_PASSPHRASE:
        raise RuleError(
            "The passphrase needs at least {least} characters.", field=field, least=MIN_PASSPHRASE
        )
    if len(passphrase) > MAX_PASSPHRASE:
        raise RuleError(
            "The passphrase can have at most {most} characters.", field=field, most=MAX_PASSPHRASE
        )
    return passphrase
