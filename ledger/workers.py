"""Several server processes on one listening socket: what `ledger serve --workers N` runs.

One Python process builds pages on one core at a time (the GIL), however many threads it
has; a club's server has more cores than that. So the socket is opened once, here, and N
worker processes forked from this one each serve it with waitress: the kernel hands each new
connection to whichever worker takes it first, so a busy worker takes fewer. This process
only watches them: a worker that dies is started again, and SIGTERM or Ctrl+C stops them all.

Everything the workers share is in the database (sign-ins, wrong guesses, sessions and their
versions); what each keeps for itself (kept scoreboard pages) is keyed by the session's
version, so a page built by one worker is never stale when another has saved a hand.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# A worker that dies sooner than this after it started is started again only after this
# long, so a worker that cannot start does not spin the machine.
RESPAWN_PAUSE = 1.0


def can_fork() -> bool:
    return hasattr(os, "fork")


def listening_socket(host: str, port: int, backlog: int = 1024) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening, for the workers to share."""
    family, kind, proto, _name, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        # A restart binds the port again at once, as waitress does for one process.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock


# The signals that stop the server (and, with the default handling, a worker).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def run_workers(count: int, serve: Callable[[], object]) -> None:
    """Fork ``count`` workers that each call ``serve()`` (which serves until the worker is
    stopped), keep them running, and stop them all on SIGTERM, SIGINT or SIGHUP."""
    workers: dict[int, float] = {}  # pid: when it started
    stopping = False

    def start() -> None:
        # A stop that comes while a worker is forked waits until the worker is written down
        # (else it would not be told to stop, and this process would wait for it for ever),
        # and, in the worker, until the worker has its own signal handling (else the stop
        # would run this process's handler there and be lost).
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            pid = os.fork()
            if pid == 0:  # the worker
                _as_worker(serve)
            workers[pid] = time.monotonic()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(workers):
            _signal(pid, signal.SIGTERM)

    # Handled before the first worker starts: a stop then still stops the workers started.
    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)
    for _ in range(count):
        if not stopping:
            start()
    while workers:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:  # pragma: no cover - Python retries os.wait itself
            continue
        started = workers.pop(pid, None)
        if started is None or stopping:
            continue
        log.error("worker %d stopped (%s); starting another", pid, _how(status))
        if time.monotonic() - started < RESPAWN_PAUSE:
            time.sleep(RESPAWN_PAUSE)
        if not stopping:
            start()


def _as_worker(serve: Callable[[], object]) -> None:
    """In a forked worker: the default signal handling (SIGTERM ends it), then the stop
    signals let through (blocked while it was forked), serve, and leave without running the
    parent's exit handlers."""
    code = 0
    try:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        serve()
    except KeyboardInterrupt:
        pass
    except BaseException:
        logging.getLogger(__name__).exception("worker %d failed", os.getpid())
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"
