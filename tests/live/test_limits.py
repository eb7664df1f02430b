"""What a stranger's request can cost the real `ledger serve` (issue 38).

A body larger than any the app takes is refused by waitress from its headers (413), before a
byte of it is read or spooled to disk: it left its own limit at 1 GiB, so five uploads of
190 MB held 950 MB of temporary files, and a request announcing 200 MB waited for its body.
A crafted body that the nesting check once read in quadratic time is refused at once, and
the server answers others meanwhile. Nothing is timed: a socket timeout only keeps a failing
test from waiting for ever.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import requests

from ledger.web.limits import RESTORE_LIMIT
from tests.live.api import new_group

# Long enough for any loaded machine to answer; a server that waits for the body never does.
PATIENCE = 20


def _announce(base: str, path: str, length: int, headers: str = "") -> bytes:
    """Send only the headers of a POST announcing ``length`` bytes; the server's first answer
    (b"" when it closed the connection without one)."""
    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=PATIENCE) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {where.netloc}\r\n{headers}"
            f"Content-Type: application/octet-stream\r\nContent-Length: {length}\r\n\r\n".encode()
        )
        try:
            return sock.recv(4096)
        except TimeoutError:
            return b"no answer: the server waits for the body"


def test_a_request_announcing_200_mb_is_refused_before_its_body_is_sent(live_server):
    for path in ("/restore", "/api/v1/groups", "/"):
        answer = _announce(live_server, path, 200_000_000)
        assert answer.startswith(b"HTTP/1.1 413 "), (path, answer[:200])


def test_a_body_as_large_as_the_restore_refuses_is_refused_unread(live_server):
    answer = _announce(live_server, "/restore", RESTORE_LIMIT)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]


def test_a_restore_of_the_largest_size_the_app_takes_is_read_by_the_app(live_server):
    """The server's limit leaves room for the restore page's largest file: the app reads it
    and answers itself (its form has no token here: 400, a page of the app's)."""
    boundary = "b0undary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="restore-backup"; '
        f'filename="big.json"\r\nContent-Type: application/json\r\n\r\n'
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    body = head + b" " * (RESTORE_LIMIT - 1 - len(head) - len(tail)) + tail
    assert len(body) == RESTORE_LIMIT - 1
    response = requests.post(
        f"{live_server}/restore",
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        timeout=60,
    )
    assert response.status_code == 400, response.text[:300]
    assert "text/html" in response.headers["Content-Type"]  # the app's page, not waitress's


def test_a_crafted_body_is_refused_and_the_server_answers_others(live_server):
    """`"` then `\\"` x 16,000 (32 KB) to POST /api/v1/groups, which needs no sign-in."""
    body = '"' + '\\"' * 16_000
    response = requests.post(
        f"{live_server}/api/v1/groups",
        data=body.encode(),
        headers={"Content-Type": "application/json"},
        timeout=PATIENCE,
    )
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["error"]["message"]
    assert requests.get(f"{live_server}/healthz", timeout=PATIENCE).json() == {"status": "ok"}
    new_group(live_server)  # and the server goes on making groups


ODD_HOSTS = [b"a..b", b"x" * 64 + b".example", b".", b"xn--", b"xn--a" * 20, b"\xc3\xa9..", b"a b"]
PATHS = [b"/", b"/healthz", b"/api/v1/games", b"/static/style.css", b"/no-such-page", b"/join/x"]


def _get(base: str, path: bytes, host: bytes) -> bytes:
    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=PATIENCE) as sock:
        sock.sendall(
            b"GET " + path + b" HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_no_host_header_answers_5xx_on_any_page(live_server):
    """Issue 38: `a..b` or a label over 63 characters answered 500 on every page and /healthz.
    (The server's log is checked for tracebacks when it stops.)"""
    for host in ODD_HOSTS:
        for path in PATHS:
            status = _get(live_server, path, host).split(b" ", 2)[1]
            assert status < b"500", (host, path, status)
