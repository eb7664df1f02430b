#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: started in a temporary folder, gone when stopped.
#
#   source .ci/pg.sh start        # start it; sets LEDGER_TEST_DATABASE_URL and LEDGER_PG_DIR
#   python3 -m pytest             # …the tests now run against PostgreSQL
#   source .ci/pg.sh stop         # stop it, delete its folder, unset both variables
#
#   bash .ci/pg.sh run python3 -m pytest   # start, run one command, stop (whatever happens)
#
# Without `source`, `start` prints the `export` lines instead (eval "$(bash .ci/pg.sh start)"),
# and `stop` takes the folder as an argument or from LEDGER_PG_DIR.
#
# The cluster listens on a free port of 127.0.0.1 only (and a socket in its own folder), lets
# the `postgres` superuser in without a password, and keeps nothing safe on disk (fsync=off):
# it is for tests. PostgreSQL will not run as root, so as root the server runs as the
# `postgres` user (Debian's package creates it) or else `nobody`. The binaries are found on
# PATH or under /usr/lib/postgresql/<version>/bin (Debian: apt-get install postgresql).
# Environment: LEDGER_PG_PORT to pick the port, LEDGER_PG_DATABASE (default ledger_test).

if [[ ${BASH_SOURCE[0]} != "$0" ]]; then
    # Sourced: run this file as a script and take over the variables it prints, so the
    # caller's shell gets no `set -e` and no `exit` from below.
    if __ledger_pg_out=$(bash "${BASH_SOURCE[0]}" "$@"); then
        eval "$__ledger_pg_out"
        unset __ledger_pg_out
        return 0
    else
        unset __ledger_pg_out
        return 1
    fi
fi

set -euo pipefail

say() { printf '%s\n' "$*" >&2; }

# The folder of initdb, pg_ctl and postgres: the one on PATH, else the newest Debian one.
bindir() {
    local found
    if found=$(command -v initdb 2>/dev/null) && [[ -x $(dirname "$found")/pg_ctl ]]; then
        dirname "$(readlink -f "$found")"
        return 0
    fi
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [[ -n $found && -x $found/initdb ]]; then
        printf '%s\n' "$found"
        return 0
    fi
    say "PostgreSQL's initdb was not found. On Debian or Ubuntu: sudo apt-get install postgresql"
    return 1
}

free_port() {
    "${PYTHON:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# The user the server runs as: ourselves, or an unprivileged one when we are root.
server_user() {
    if [[ $(id -u) -ne 0 ]]; then
        id -un
    elif id -u postgres >/dev/null 2>&1; then
        echo postgres
    else
        echo nobody
    fi
}

# as_server_user COMMAND… — run a command as the server's user, from a folder it can read.
as_server_user() {
    local user
    user=$(server_user)
    if [[ $(id -u) -ne 0 ]]; then
        "$@"
    else
        (cd / && runuser -u "$user" -- "$@")
    fi
}

# Speed over safety, and room for the tests' servers: every live server has its own pool.
SETTINGS="-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
SETTINGS+=" -c full_page_writes=off -c max_connections=200"

start() {
    local bin dir port database attempt
    bin=$(bindir)
    database=${LEDGER_PG_DATABASE:-ledger_test}
    dir=$(mktemp -d "${TMPDIR:-/tmp}/ledger-pg.XXXXXX")
    chmod 0755 "$dir"  # the server's user must reach data/ inside it
    if [[ $(id -u) -eq 0 ]]; then
        chown "$(server_user)" "$dir"
    fi
    if ! as_server_user "$bin/initdb" --pgdata="$dir/data" --auth=trust --username=postgres \
        --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1; then
        say "initdb failed:"
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        return 1
    fi

    # The port is free when asked for, but someone may take it before the server binds it.
    for attempt in 1 2 3; do
        port=${LEDGER_PG_PORT:-$(free_port)}
        if as_server_user "$bin/pg_ctl" start --pgdata="$dir/data" --wait --timeout=60 \
            --log="$dir/server.log" --silent \
            -o "-k $dir -p $port $SETTINGS" >&2; then
            break
        fi
        if ((attempt == 3)) || [[ -n ${LEDGER_PG_PORT:-} ]]; then
            say "PostgreSQL did not start:"
            cat "$dir/server.log" >&2
            rm -rf "$dir"
            return 1
        fi
    done

    if ! "$bin/psql" --no-psqlrc --quiet --host=127.0.0.1 --port="$port" --username=postgres \
        --dbname=postgres --command="CREATE DATABASE \"$database\"" >&2; then
        stop "$dir"
        return 1
    fi
    say "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') is running on" \
        "127.0.0.1:$port (folder $dir)."
    printf 'export LEDGER_PG_DIR=%q\n' "$dir"
    printf 'export LEDGER_TEST_DATABASE_URL=%q\n' \
        "postgresql+psycopg://postgres@127.0.0.1:$port/$database"
}

stop() {
    local dir=${1:-${LEDGER_PG_DIR:-}} bin
    if [[ -z $dir ]]; then
        say "Which cluster? Give its folder, or set LEDGER_PG_DIR (source .ci/pg.sh start does)."
        return 1
    fi
    if [[ -f $dir/data/postmaster.pid ]]; then
        bin=$(bindir)
        # immediate: nothing in it is worth a clean shutdown, and it is the quickest.
        as_server_user "$bin/pg_ctl" stop --pgdata="$dir/data" --mode=immediate --wait \
            --silent >&2 || true
    fi
    # Only ever delete a folder this script made.
    if [[ -d $dir && $(basename "$dir") == ledger-pg.* ]]; then
        rm -rf "$dir"
    fi
    echo "unset LEDGER_PG_DIR LEDGER_TEST_DATABASE_URL"
}

run() {
    local exports rc=0
    exports=$(start)
    eval "$exports"
    # shellcheck disable=SC2064  # the folder is known now; expand it now
    trap "stop '$LEDGER_PG_DIR' >/dev/null" EXIT
    trap 'exit 130' INT  # bash runs no EXIT trap when a signal kills it; now it exits
    trap 'exit 143' TERM
    "$@" || rc=$?
    return "$rc"
}

case ${1:-} in
start) start ;;
stop) stop "${2:-}" ;;
run)
    shift
    (($# > 0)) || { say "usage: bash .ci/pg.sh run COMMAND…"; exit 2; }
    run "$@"
    ;;
bindir) bindir ;;
*)
    say "usage: source .ci/pg.sh start | source .ci/pg.sh stop | bash .ci/pg.sh run COMMAND…"
    exit 2
    ;;
esac
