"""What the review of issues 11 and 16 found by trying to break a real server, each pinned.

Every test here failed before its fix: a flood of guesses that kept the server's threads
waiting for a slow check, and settings for those checks that the environment could not set.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest
import yaml

from ledger.services import auth
from tests.api.helpers import basic

WAIT = 1.5  # LEDGER_HASH_WAIT for these tests: long enough to tell waiting from not


def _every_slot_taken(app) -> tuple[threading.BoundedSemaphore, int]:
    with app.app_context():
        slots = auth.hash_slots()
    taken = 0
    while slots.acquire(blocking=False):
        taken += 1
    return slots, taken


def test_a_flood_of_guesses_does_not_keep_the_servers_threads_waiting_for_a_slow_check(app):
    """With every slot busy, only as many guesses as there are slots wait for one; the rest
    are answered 503 at once. Otherwise each guess of a flood holds one of the server's few
    threads for the whole wait, and a signed-in phone's page queues behind them (a real
    `ledger serve`, 12 guessing threads: a phone's page from 4 ms to 250 ms and more)."""
    app.config["LEDGER_HASH_WAIT"] = WAIT
    slots, taken = _every_slot_taken(app)
    guesses = taken * 2 + 4
    answers: list[tuple[int, float]] = []
    lock = threading.Lock()

    def guess(n: int) -> None:
        client = app.test_client()
        slug = f"made-up-{n}"
        started = time.monotonic()
        response = client.get(
            f"/api/v1/groups/{slug}",
            headers=basic(slug, f"wrong guess {n}"),  # each its own check, as in a flood
            environ_base={"REMOTE_ADDR": f"203.0.113.{n + 1}"},
        )
        with lock:
            answers.append((response.status_code, time.monotonic() - started))

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(guesses)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        for _ in range(taken):
            slots.release()

    assert len(answers) == guesses
    assert {status for status, _ in answers} == {503}
    at_once = [seconds for _, seconds in answers if seconds < WAIT / 2]
    assert len(at_once) >= guesses - taken, sorted(s for _, s in answers)


def test_a_guess_waits_for_a_slot_when_few_others_do(app):
    """The bound on waiting is not a refusal of everyone: a slot that frees up within the
    wait is taken by the one guess waiting for it."""
    app.config["LEDGER_HASH_WAIT"] = WAIT
    slots, taken = _every_slot_taken(app)
    threading.Timer(0.3, slots.release).start()
    try:
        response = app.test_client().get(
            "/api/v1/groups/made-up-slug", headers=basic("made-up-slug", "a wrong guess")
        )
    finally:
        for _ in range(taken - 1):
            slots.release()
    assert response.status_code == 401


@pytest.mark.parametrize(
    ("variable", "text", "setting", "value"),
    [
        ("LEDGER_HASH_SLOTS", "3", "LEDGER_HASH_SLOTS", 3),
        ("LEDGER_HASH_WAIT", "0.5", "LEDGER_HASH_WAIT", 0.5),
    ],
)
def test_the_slow_check_settings_come_from_the_environment(
    tmp_path, monkeypatch, variable, text, setting, value
):
    """docs/configuration.md: any setting can be given as LEDGER_<NAME>; these two were not."""
    from ledger import create_app

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv(variable, text)
    made = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert made.config[setting] == value
    if setting == "LEDGER_HASH_SLOTS":
        with made.app_context():
            slots = auth.hash_slots()
        taken = 0
        while slots.acquire(blocking=False):
            taken += 1
        assert taken == 3


@pytest.mark.parametrize(
    ("variable", "text"),
    [
        ("LEDGER_HASH_SLOTS", "many"),
        ("LEDGER_HASH_SLOTS", "0"),
        ("LEDGER_HASH_WAIT", "a while"),
        ("LEDGER_HASH_WAIT", "-1"),
    ],
)
def test_a_slow_check_setting_of_the_wrong_kind_stops_the_start_with_a_sentence(
    tmp_path, monkeypatch, variable, text
):
    from ledger import create_app
    from ledger.config import ConfigError

    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv(variable, text)
    with pytest.raises(ConfigError, match=variable):
        create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


# --- The docs say what the code does -----------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _one(pattern: str, text: str) -> tuple[int, ...]:
    found = re.findall(pattern, text)
    assert len(found) == 1, (pattern, found)
    return tuple(int(n) for n in (found[0] if isinstance(found[0], tuple) else (found[0],)))


def test_the_docs_give_the_lockout_and_throttle_numbers_the_code_uses():
    """docs/api.md and docs/hosting.md said a group locks after 5 wrong passphrases; it takes
    10 (5 per address), and the address limits and the 503 were not in the reference."""
    minutes = int(auth.FAILURE_WINDOW.total_seconds() // 60)
    api = " ".join((DOCS / "api.md").read_text(encoding="utf-8").split())
    assert _one(r"After (\d+) wrong passphrases for one group within (\d+) minutes", api) == (
        auth.MAX_FAILURES,
        minutes,
    )
    address = r"may make (\d+) wrong guesses for one group in (\d+) minutes, and (\d+) in (\d+)"
    assert _one(address, api) == (
        auth.ADDRESS_GROUP_MAX_FAILURES,
        minutes,
        auth.ADDRESS_MAX_FAILURES,
        int(auth.ADDRESS_WINDOW.total_seconds() // 60),
    )
    assert "| `503` |" in api
    hosting = " ".join((DOCS / "hosting.md").read_text(encoding="utf-8").split())
    assert _one(r"after (\d+) wrong tries within (\d+) minutes", hosting) == (
        auth.MAX_FAILURES,
        minutes,
    )
    assert _one(r"may make (\d+) of them per group", hosting) == (auth.ADDRESS_GROUP_MAX_FAILURES,)


def test_every_call_that_checks_a_passphrase_documents_the_503_of_a_busy_server():
    spec = yaml.safe_load((DOCS / "openapi.yaml").read_text(encoding="utf-8"))
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            checks = "429" in responses or (method, path) == ("post", "/groups")
            if checks:
                assert "503" in responses, f"{method} {path}"
