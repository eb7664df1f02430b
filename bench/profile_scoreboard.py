"""Profile the scoreboard build in process: where a page built after a new hand spends its time.

Flask's test client on a SQLite file in a temporary folder, no server and no network: a
group, a Spot session of ``--hands`` hands, a phone signed in to it. Each build is the
scoreboard read after the page cache was emptied (what a new hand does: a new version, a new
key), timed beside ``/healthz``; then the same builds under cProfile, whose function-call count
does not depend on the machine's load (seconds do). bench/RESULTS.md quotes its output.

With ``--after-hand`` each build is what bench/run.py times: a random hand is entered through
the API first and taken back after (both untimed), so the build draws a new hand's line, new
balances and a new chart point, not the same page again.

    .venv/bin/python bench/profile_scoreboard.py [--hands 20] [--builds 200] [--lang nl]
        [--after-hand] [--database-url postgresql+psycopg://…]

PROFILE_SORT=tottime (or any pstats key) orders the profile otherwise than by cumulative
time; PROFILE_CALLERS=<regex> lists who calls the functions it matches.
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import os
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path

HAND = {"Enda": "J 10", "John": "A 3", "Rex": "2 9", "Finn": "Q K"}
PLAYERS = ("Enda", "John", "Rex", "Finn")


def setup(folder: Path, hands: int, database_url: str | None = None):
    """The app, a signed-in browser, and the scoreboard's address (on a new SQLite file, or
    on ``database_url``, whose tables are made anew)."""
    os.environ["LEDGER_INSTANCE_PATH"] = str(folder / "instance")
    from ledger import create_app
    from ledger.extensions import db

    app = create_app(
        {"SECRET_KEY": "profile", "LEDGER_PASSPHRASE_HASH": "pbkdf2:sha256:1000"}
        | {"SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{folder / 'ledger.db'}"}
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    app.config["WTF_CSRF_ENABLED"] = False  # the setup's posts only; the page is the same
    browser = app.test_client()
    created = browser.post(
        "/groups", data={"create-name": "Bench", "create-passphrase": "pints4all"}
    )
    assert created.status_code == 302, created.get_data(as_text=True)[:3000]
    slug = created.headers["Location"].split("/g/")[1].split("?")[0]
    for name in PLAYERS:
        browser.post(f"/g/{slug}/players", data={"name": name})
    started = browser.post(
        f"/g/{slug}/s/new",
        data={"game": "spot", "order": list(PLAYERS), "seated": list(PLAYERS), "dealer": "Finn"},
    )
    board = started.headers["Location"]
    for _ in range(hands):
        data = {"out": ""}
        for i, name in enumerate(PLAYERS):
            data |= {f"results-{i}-player": name, f"results-{i}-cards": HAND[name]}
        assert browser.post(f"{board}/hands/new", data=data).status_code == 302
    app.config["WTF_CSRF_ENABLED"] = True
    return app, browser, board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--builds", type=int, default=200)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--after-hand", action="store_true", help="each build after a new hand")
    parser.add_argument("--database-url", help="a database to use (its tables are made anew)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app, browser, board = setup(Path(tmp), args.hands, args.database_url)
        browser.set_cookie("lang", args.lang)
        from ledger.web.nights.pagecache import scoreboards

        with app.app_context():
            cache = scoreboards()

        api, session_id = app.test_client(), int(board.rsplit("/", 1)[1])
        slug = board.split("/g/")[1].split("/")[0]
        auth = {"Authorization": "Basic " + base64.b64encode(f"{slug}:pints4all".encode()).decode()}
        rng = random.Random(2026)

        def new_hand() -> int:
            cards = rng.sample([f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS"], 16)
            out = rng.choice([None, *PLAYERS])
            results = [
                {"player": p, "cards": "" if p == out else " ".join(cards[i * 4 : i * 4 + 4])}
                for i, p in enumerate(PLAYERS)
            ]
            answer = api.post(
                f"/api/v1/sessions/{session_id}/hands",
                json={"results": results, "out": out},
                headers=auth,
            )
            assert answer.status_code == 201, answer.get_json()
            return int(answer.get_json()["number"])

        def build(profile: cProfile.Profile | None = None) -> float:
            """One build's time (the page's request only), under ``profile`` if given."""
            number = new_hand() if args.after_hand else None
            if number is None:
                cache._pages.clear()  # a new hand's new version: the page is built anew
            if profile is not None:
                profile.enable()
            start = time.perf_counter()
            response = browser.get(board)
            took = time.perf_counter() - start
            if profile is not None:
                profile.disable()
            assert response.status_code == 200, response.status_code
            if number is not None:
                gone = api.delete(f"/api/v1/sessions/{session_id}/hands/{number}", headers=auth)
                assert gone.status_code == 204
            return took

        def health() -> float:
            start = time.perf_counter()
            assert browser.get("/healthz").status_code == 200
            return time.perf_counter() - start

        for _ in range(20):  # warm: templates compiled, catalogues loaded, connections open
            build()
            health()
        built, healthz = [], []
        for _ in range(args.builds):
            healthz.append(health())
            built.append(build())
        profile = cProfile.Profile()
        for _ in range(args.builds):
            build(profile)
        stats = pstats.Stats(profile)
        after = ", each after a new hand" if args.after_hand else ""
        print(f"{args.hands} hands, {args.builds} builds{after}, language {args.lang}")
        print(f"function calls per build: {stats.total_calls / args.builds:,.0f}")
        print(f"build, median: {statistics.median(built) * 1000:.2f} ms")
        print(f"/healthz, median: {statistics.median(healthz) * 1000:.3f} ms")
        print(f"build / healthz: {statistics.median(built) / statistics.median(healthz):.1f}")
        stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(args.top)
        if os.environ.get("PROFILE_CALLERS"):  # who calls what matches this
            stats.print_callers(os.environ["PROFILE_CALLERS"])


if __name__ == "__main__":
    main()
