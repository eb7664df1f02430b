"""A club's phones each keep a connection open to the server (a scoreboard asks every three
seconds): more of them than waitress's default limit of 100 must still be answered."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

PHONES = 150


def ask(connection: socket.socket, host: str) -> bytes:
    """GET /healthz on a kept-open connection; the answer's status line."""
    connection.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
        chunk = connection.recv(4096)
        if not chunk:
            break
        answer += chunk
    return answer.split(b"\r\n", 1)[0]


def test_more_phones_than_waitress_default_keep_their_connections_and_are_answered(live_server):
    address = urlsplit(live_server)
    host = address.netloc
    phones = []
    try:
        for _ in range(PHONES):
            connection = socket.create_connection((address.hostname, address.port), timeout=10)
            phones.append(connection)
            assert ask(connection, host) == b"HTTP/1.1 200 OK"
        # Every phone asks again on the connection it kept, as the next poll does.
        for connection in phones:
            assert ask(connection, host) == b"HTTP/1.1 200 OK"
    finally:
        for connection in phones:
            connection.close()
