"""Browser tests: the system's Chromium, as a phone, against a real `ledger serve`.

Playwright for Python drives Debian's Chromium (never a browser Playwright downloads): one
browser for the whole run, a new phone (browser context: its own cookies and storage) for
each test, and one server for the whole run (tests/live's `live_server`).

Without Chromium these tests are skipped, unless LEDGER_REQUIRE_BROWSER is set (.ci/run sets
it): then a missing browser fails them, so CI cannot go green without them. (Playwright for
Python itself comes with the test extra: pip install -e '.[test]'.)
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e.phone import Phone

# The same shared server, and the check of its log after each test.
from tests.live.conftest import live_server, live_server_log_checked  # noqa: F401

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",  # the tests may run as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    # The machine may have no internet: nothing in the background that would try to reach it.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# A phone in portrait: 390 × 844 CSS pixels (an iPhone 12–14), touch, twice the pixels.
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
    "locale": "en-GB",
    # Half an hour off UTC, as no server clock is: a time shown on the phone's clock shows it.
    "timezone_id": "Asia/Kolkata",
}
# Milliseconds a step waits for the page (an answer, a change) before the test fails.
TIMEOUT = 10_000


def chromium_path() -> str | None:
    """LEDGER_CHROMIUM if set, else Debian's chromium; None when there is none."""
    explicit = os.environ.get("LEDGER_CHROMIUM")
    for candidate in (explicit,) if explicit else CHROMIUM_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def no_browser(reason: str) -> None:
    """Skip the browser tests, or fail them where they must run (LEDGER_REQUIRE_BROWSER)."""
    if os.environ.get("LEDGER_REQUIRE_BROWSER"):
        pytest.fail(f"{reason} (LEDGER_REQUIRE_BROWSER is set: the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    path = chromium_path()
    if path is None:
        no_browser("No Chromium to drive: apt-get install chromium, or set LEDGER_CHROMIUM")
        return
    expect.set_options(timeout=TIMEOUT)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_phone(browser, live_server) -> Iterator[Callable[..., Phone]]:  # noqa: F811
    """Make a phone: ``new_phone("spot")`` saves its screenshots as spot-01-….png and so on.

    Each phone is a browser context of its own (a second phone shares nothing with the
    first). When the test is over, the phones' problems fail it: a page wider than the
    screen, or a JavaScript error.
    """
    phones: list[Phone] = []

    def make(name: str, **options: Any) -> Phone:
        context = browser.new_context(**(PHONE | options), base_url=live_server)
        context.set_default_timeout(TIMEOUT)
        # The phone's timers on Playwright's clock from its first page on (time flows as it
        # does; a test may move it on: Phone.save_hand). Installed later, on a page already
        # open, the page's timers set before would be out of its reach.
        context.clock.install()
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
        phone = Phone(context.new_page(), name, scripted=options.get("java_script_enabled", True))
        phones.append(phone)
        return phone

    yield make
    problems = [p for phone in phones for p in phone.problems]
    for phone in phones:
        phone.page.context.close()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
