"""Serving for a host: a trusted reverse proxy, Secure cookies over https, the access log,
errors always logged, and every setting from a LEDGER_* variable."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest

from ledger.config import ConfigError, environment_settings
from tests.live.server import listening_address
from tests.web.pages import Phone
from tests.web.test_app import ledger_command

PROXIED = {
    "X-Forwarded-For": "203.0.113.7",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "ledger.example.org",
}


def remote_addr_probe(app):
    from flask import request

    app.add_url_rule("/_addr", "_addr", lambda: f"{request.remote_addr} {request.url_root}")


def test_behind_a_trusted_proxy_the_phone_and_the_public_address_are_the_proxys(app, client):
    app.config["LEDGER_TRUSTED_PROXY"] = True
    remote_addr_probe(app)

    answer = client.get("/_addr", headers=PROXIED, environ_base={"REMOTE_ADDR": "127.0.0.1"})

    assert answer.get_data(as_text=True) == "203.0.113.7 https://ledger.example.org/"


def test_the_invite_link_behind_a_proxy_is_the_public_https_address(app, client):
    app.config["LEDGER_TRUSTED_PROXY"] = True
    app.config["LEDGER_LISTEN_HOST"] = "127.0.0.1"  # `ledger serve --host 127.0.0.1`
    phone = Phone(client)
    phone.create_group()

    page = client.get(f"/g/{phone.slug}/invite", headers=PROXIED).get_data(as_text=True)

    assert "https://ledger.example.org/join/" in page
    assert "http://localhost" not in page


def test_without_the_setting_forwarded_headers_are_ignored(app, client):
    remote_addr_probe(app)

    answer = client.get("/_addr", headers=PROXIED, environ_base={"REMOTE_ADDR": "127.0.0.1"})

    # Anyone could send these headers: unless the host says a proxy is in front, they lie.
    assert answer.get_data(as_text=True) == "127.0.0.1 http://localhost/"


def set_cookies(response) -> list[str]:
    return response.headers.getlist("Set-Cookie")


def test_cookies_are_secure_over_https_through_the_proxy(app, client):
    app.config["LEDGER_TRUSTED_PROXY"] = True

    signed_in = client.post(
        "/groups",
        data={"create-name": "Thursday crowd", "create-passphrase": "pints of plain"},
        headers=PROXIED,
    )
    language = client.post("/language", data={"lang": "nl"}, headers=PROXIED)

    assert signed_in.status_code == 302
    cookies = set_cookies(signed_in) + set_cookies(language)
    assert {c.split("=", 1)[0] for c in cookies} == {"session", "lang"}
    assert all("; Secure" in c for c in cookies), cookies


def test_cookies_over_plain_http_are_not_marked_secure(app, client):
    # A phone on the pub's wifi talks plain http: a Secure cookie would never come back.
    signed_in = client.post(
        "/groups", data={"create-name": "Thursday crowd", "create-passphrase": "pints of plain"}
    )
    language = client.post("/language", data={"lang": "nl"})

    assert "Secure" not in "".join(set_cookies(signed_in) + set_cookies(language))


def test_https_claimed_by_an_untrusted_client_does_not_change_the_cookies(app, client):
    signed_in = client.post(
        "/groups",
        data={"create-name": "Thursday crowd", "create-passphrase": "pints of plain"},
        headers=PROXIED,
    )
    assert "Secure" not in "".join(set_cookies(signed_in))


def test_the_access_log_has_one_line_per_request(app, client, capsys):
    app.config["LEDGER_ACCESS_LOG"] = True

    # The line is written when the server has sent the answer and closes it (buffered=True
    # closes it, as waitress does).
    client.get("/healthz", environ_base={"REMOTE_ADDR": "192.168.1.23"}, buffered=True)
    client.get("/no/such/page", buffered=True)

    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].endswith(" ms") and " 192.168.1.23 GET /healthz 200 " in lines[0]
    assert " GET /no/such/page 404 " in lines[1]


def test_no_access_log_unless_asked(app, client, capsys):
    client.get("/healthz", buffered=True)
    assert capsys.readouterr().err == ""


def test_a_500_is_logged_with_its_traceback_whatever_the_settings(app, client, caplog):
    def broken():
        raise RuntimeError("the pump is off")

    app.add_url_rule("/_broken", "_broken", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served, not as a test would see it

    with caplog.at_level(logging.ERROR):
        response = client.get("/_broken")

    assert response.status_code == 500
    (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "GET" in record.getMessage() and "/_broken" in record.getMessage()
    assert record.exc_info and "the pump is off" in str(record.exc_info[1])


# --- Settings from the environment ----------------------------------------------------------


def test_every_setting_can_come_from_a_ledger_variable():
    config = {
        "SECRET_KEY": None,
        "LEDGER_TRUSTED_PROXY": False,
        "MAX_CONTENT_LENGTH": 1024,
        "WTF_CSRF_TIME_LIMIT": None,
        "PERMANENT_SESSION_LIFETIME": timedelta(days=31),
        "SQLALCHEMY_DATABASE_URI": "sqlite://",
    }
    environ = {
        "LEDGER_SECRET_KEY": "s3cret",
        "LEDGER_TRUSTED_PROXY": "yes",
        "LEDGER_MAX_CONTENT_LENGTH": "4_000_000",
        "LEDGER_WTF_CSRF_TIME_LIMIT": "3600",
        "LEDGER_PERMANENT_SESSION_LIFETIME": "60",
        "LEDGER_DATABASE_URL": "postgresql://pub@db/ledger",
        "LEDGER_SQLALCHEMY_ENGINE_OPTIONS": '{"pool_size": 3}',
        "LEDGER_SQLALCHEMY_ECHO": "off",
        # Not settings: the tests' and CI's own variables are left alone.
        "LEDGER_TEST_DATABASE_URL": "postgresql://x@y/z",
        "LEDGER_INSTANCE_PATH": "/srv/ledger",
        "PATH": "/usr/bin",
    }

    assert environment_settings(environ, config) == {
        "SECRET_KEY": "s3cret",
        "LEDGER_TRUSTED_PROXY": True,
        "MAX_CONTENT_LENGTH": 4_000_000,
        "WTF_CSRF_TIME_LIMIT": 3600,
        "PERMANENT_SESSION_LIFETIME": timedelta(seconds=60),
        "SQLALCHEMY_DATABASE_URI": "postgresql://pub@db/ledger",
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 3},
        "SQLALCHEMY_ECHO": False,
    }


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("LEDGER_TRUSTED_PROXY", "maybe", "LEDGER_TRUSTED_PROXY must be 1 or 0"),
        ("LEDGER_MAX_CONTENT_LENGTH", "2MB", "LEDGER_MAX_CONTENT_LENGTH must be a whole number"),
        ("LEDGER_SQLALCHEMY_ENGINE_OPTIONS", "[1]", "must be an object in JSON"),
    ],
)
def test_a_setting_of_the_wrong_kind_is_named(variable, value, message):
    config = {"LEDGER_TRUSTED_PROXY": False, "MAX_CONTENT_LENGTH": 1}
    with pytest.raises(ConfigError, match=message):
        environment_settings({variable: value}, config)


def test_the_app_reads_the_environment_over_its_config_file(tmp_path, monkeypatch):
    from ledger import create_app

    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("LEDGER_ACCESS_LOG = False\nMAX_CONTENT_LENGTH = 10\n")
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(instance))
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    monkeypatch.setenv("LEDGER_ACCESS_LOG", "1")
    monkeypatch.setenv("LEDGER_MAX_CONTENT_LENGTH", "2048")

    app = create_app()

    assert app.config["LEDGER_ACCESS_LOG"] is True
    assert app.config["MAX_CONTENT_LENGTH"] == 2048


def test_ledger_serve_behind_a_proxy_logs_each_request_with_the_phones_address(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEDGER_", "FLASK_"))}
    env |= {"LEDGER_INSTANCE_PATH": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    # Port 0: the server takes a free port and says which (tests/live/server.py).
    command = [*ledger_command(), "serve", "--host", "127.0.0.1", "--port", "0"]
    log, said = tmp_path / "stderr.txt", tmp_path / "stdout.txt"
    line = " 203.0.113.7 GET /healthz 200 "
    with (
        log.open("w") as stderr,
        said.open("w") as stdout,
        subprocess.Popen(
            [*command, "--trusted-proxy", "--access-log"],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            text=True,
        ) as server,
    ):
        try:
            answered = None
            deadline = time.monotonic() + 20
            url = listening_address(server, said, deadline)
            request = urllib.request.Request(f"{url}/healthz", headers=PROXIED)
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    with urllib.request.urlopen(request, timeout=1) as response:
                        answered = response.status
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.05)
            # The line is written as the answer is closed, just after the phone has it.
            while time.monotonic() < deadline and line not in log.read_text():
                time.sleep(0.05)
        finally:
            server.terminate()
            server.wait(timeout=10)

    err, out = log.read_text(), said.read_text()
    assert answered == 200, f"stdout:\n{out}\nstderr:\n{err}"
    assert f"running on {url} for the reverse proxy" in out
    assert line in err, err


def test_a_form_sent_over_https_through_the_proxy_passes_the_csrf_checks(app, client):
    """Flask-WTF checks the Referer of an https form against the host: that host must be
    the public one the proxy names, or every form behind the proxy would be refused."""
    app.config.update(LEDGER_TRUSTED_PROXY=True, WTF_CSRF_ENABLED=True)
    start = client.get("/", headers=PROXIED).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', start)
    assert token is not None

    made = client.post(
        "/groups",
        data={
            "csrf_token": token.group(1),
            "create-name": "Thursday crowd",
            "create-passphrase": "pints of plain",
        },
        headers={**PROXIED, "Referer": "https://ledger.example.org/"},
    )

    assert made.status_code == 302, made.get_data(as_text=True)
    assert made.headers["Location"].startswith("/g/")

    forged = client.post(
        "/groups",
        data={"csrf_token": token.group(1), "create-name": "X", "create-passphrase": "y" * 8},
        headers={**PROXIED, "Referer": "https://evil.example.com/"},
    )
    assert forged.status_code == 400


@pytest.fixture
def queue_logger():
    """waitress's queue logger with `ledger serve`'s filter; as it was afterwards."""
    from ledger.hosting import QUEUE_LOGGER

    logger = logging.getLogger(QUEUE_LOGGER)
    before = list(logger.filters)
    yield logger
    logger.filters[:] = before


def test_a_request_waiting_for_a_thread_is_no_warning_but_a_server_short_of_them_is_said(
    queue_logger, caplog
):
    """Issue 37: two phones on a night printed 46 "Task queue depth is N" warnings. A queue
    of a few requests is every burst of page loads; one four times the threads deep is a
    server short of threads, said in words once a minute; waitress's errors show as ever."""
    from waitress.task import ThreadedTaskDispatcher

    from ledger.hosting import quiet_queue

    quiet_queue(8)
    dispatcher = ThreadedTaskDispatcher()  # no thread started: every task waits in the queue
    with caplog.at_level(logging.DEBUG):
        for _ in range(32):
            dispatcher.add_task(object())
        assert caplog.records == []

        for _ in range(10):
            dispatcher.add_task(object())
        (busy,) = caplog.records
        assert busy.getMessage().startswith(
            "The server is busy: 33 requests wait for one of its 8 threads."
        )

        logging.getLogger("waitress").error("Exception when servicing %r", "a request")
        assert caplog.records[-1].getMessage() == "Exception when servicing 'a request'"


def test_two_phones_opening_pages_at_the_default_threads_leave_the_console_quiet(tmp_path):
    """A real `ledger serve` at its default --threads: two phones each opening a page with
    its scripts at once, again and again, print nothing but the address; a real error (here
    a database table gone) still prints its traceback."""
    import sqlite3
    from concurrent.futures import ThreadPoolExecutor

    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEDGER_", "FLASK_"))}
    env |= {"LEDGER_INSTANCE_PATH": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    base = ""
    page = ["/", "/static/style.css", "/static/app.js", "/static/live.js", "/static/outbox.js"]
    page += ["/static/keys.js", "/static/picker.js", "/static/seats.js", "/healthz"]

    def fetch(path: str) -> int:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            response.read()
            return response.status

    log, said = tmp_path / "stderr.txt", tmp_path / "stdout.txt"
    # Port 0: the server takes a free port and says which (tests/live/server.py).
    command = [*ledger_command(), "serve", "--host", "127.0.0.1", "--port", "0"]
    with (
        log.open("w") as stderr,
        said.open("w") as stdout,
        subprocess.Popen(
            command,
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            text=True,
        ) as server,  # fmt: skip
        ThreadPoolExecutor(2 * len(page)) as phones,
    ):
        try:
            deadline = time.monotonic() + 30
            base = listening_address(server, said, deadline)
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    fetch("/healthz")
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.05)
            for _ in range(10):  # two phones, each loading a page with its scripts
                assert set(phones.map(fetch, page * 2)) == {200}
            quiet = log.read_text()
            with sqlite3.connect(tmp_path / "ledger.sqlite") as database:
                database.execute("ALTER TABLE groups RENAME TO gone")
            body = b'{"name": "Late", "passphrase": "pints of plain"}'
            request = urllib.request.Request(
                f"{base}/api/v1/groups", body, {"Content-Type": "application/json"}
            )
            with pytest.raises(urllib.error.HTTPError) as failed:
                urllib.request.urlopen(request, timeout=10)
            failed.value.close()
            assert failed.value.code == 500
        finally:
            server.terminate()
            server.wait(timeout=10)
    assert quiet == "", quiet
    assert "Traceback" in log.read_text()
