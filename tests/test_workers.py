"""The process that watches `ledger serve --workers N`'s workers: a stop that comes while a
worker is being started still stops every worker (tests/live/test_workers.py runs the real
server)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from ledger.workers import can_fork

# A server of one worker that does nothing but wait. Its fork number ``AT`` (1: the first
# start; 2: a start again after the first worker ended) is followed at once by SIGTERM to the
# new worker (while it still holds the watcher's signal handling) and to the watcher (before
# it has written the worker down): as a service manager's stop would land in that instant.
STOPPED_WHILE_FORKING = textwrap.dedent(
    """
    import os, signal, sys, time
    from ledger import workers

    AT = int(sys.argv[1])
    real_fork = os.fork
    forks = 0

    def fork():
        global forks
        forks += 1
        pid = real_fork()
        if forks == AT:
            if pid == 0:
                time.sleep(0.3)  # the new worker, before it has set its own signal handling
            else:
                os.kill(pid, signal.SIGTERM)
                os.kill(os.getpid(), signal.SIGTERM)
        return pid

    def serve():
        if forks < AT:
            return  # this worker ends at once: the watcher starts another
        time.sleep(30)

    os.fork = fork
    workers.run_workers(1, serve)
    print("every worker stopped")
    """
)


@pytest.mark.skipif(not can_fork(), reason="workers are forked processes")
@pytest.mark.parametrize("at", [1, 2], ids=["first start", "start again"])
def test_a_stop_while_a_worker_starts_stops_that_worker_too(at):
    finished = subprocess.run(
        [sys.executable, "-c", STOPPED_WHILE_FORKING, str(at)],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "every worker stopped"
