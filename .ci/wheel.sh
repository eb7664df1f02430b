#!/usr/bin/env bash
# The wheel as a user gets it: built from a clean copy of the checkout, installed (not
# editable) into a fresh virtualenv in a temporary folder outside the checkout, then
# `ledger init-db` and `ledger serve` there, with pages, a Dutch page, a static file and the
# API fetched over HTTP. Any miss fails loudly with what was wrong.
#
# Called from .ci/run; runs alone too: `bash .ci/wheel.sh` (PYTHON as in .ci/run).
# Dependencies are installed at the versions of requirements.lock, the ones CI tests.
set -euo pipefail
exec </dev/null

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CHECKOUT=$PWD
PYTHON="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ledger-wheel.XXXXXX")
SERVER_PID=
cleanup() {
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
    echo "wheel: FAILED: $*" >&2
    if [[ -s $WORK/serve.log ]]; then
        echo "--- ledger serve's output:" >&2
        cat "$WORK/serve.log" >&2
    fi
    exit 1
}

step() { printf -- '-- %s\n' "$*"; }

# A clean tree: the files git tracks or would track (uncommitted edits included), never
# build/, *.egg-info or a virtualenv left in the checkout.
step "copying the checkout to $WORK/src"
mkdir "$WORK/src"
git -C "$CHECKOUT" ls-files --cached --others --exclude-standard -z \
    | (cd "$CHECKOUT" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$WORK/src"

# The virtualenv's pip builds the wheel too: a system Python may have no pip of its own.
step "a fresh virtualenv with $("$PYTHON" --version)"
"$PYTHON" -m venv "$WORK/venv"

step "building the wheel"
"$WORK/venv/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$WORK/dist" "$WORK/src" \
    || fail "the wheel did not build"
WHEEL=$(find "$WORK/dist" -name 'pub_ledger-*.whl' | head -n 1)
[[ -n $WHEEL ]] || fail "no pub_ledger wheel in $WORK/dist"
rm -rf "$WORK/src"  # nothing may be read from a source tree from here on
echo "$(basename "$WHEEL")"

step "installing it into the virtualenv"
CONSTRAINTS=()
[[ -f $CHECKOUT/requirements.lock ]] && CONSTRAINTS=(--constraint "$CHECKOUT/requirements.lock")
"$WORK/venv/bin/python" -m pip install --quiet "${CONSTRAINTS[@]}" "$WHEEL" \
    || fail "the wheel did not install"

# From here on: outside the checkout, with none of the caller's LEDGER_*/FLASK_* settings.
cd "$WORK"
for name in $(compgen -e); do
    [[ $name == LEDGER_* || $name == FLASK_* ]] && unset "$name"
done
export LEDGER_INSTANCE_PATH="$WORK/instance" PYTHONUNBUFFERED=1
LEDGER="$WORK/venv/bin/ledger"

"$WORK/venv/bin/python" - "$WORK/venv" <<'EOF' || fail "the installed package is not the whole wheel (see above)"
import sys
from pathlib import Path

import ledger

where = Path(ledger.__file__).resolve()
assert Path(sys.argv[1]).resolve() in where.parents, f"ledger comes from {where}"
for folder in ("templates", "static", "migrations", "translations"):
    assert (where.parent / folder).is_dir(), f"{folder}/ is not in the installed package"
from openpyxl import LXML

assert LXML, "lxml did not come with the wheel: workbooks would be written slowly"
print(f"ledger is imported from {where.parent}")
EOF

step "ledger --version"
version=$("$LEDGER" --version) || fail "ledger --version failed"
[[ $version == "Pub Ledger "[0-9]* ]] || fail "ledger --version printed: $version"
echo "$version"

step "ledger init-db"
"$LEDGER" init-db || fail "ledger init-db failed"
[[ -f $WORK/instance/ledger.sqlite ]] || fail "init-db made no $WORK/instance/ledger.sqlite"

PORT=$("$WORK/venv/bin/python" -c \
    'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
step "ledger serve on 127.0.0.1:$PORT"
"$LEDGER" serve --host 127.0.0.1 --port "$PORT" --threads 2 >"$WORK/serve.log" 2>&1 &
SERVER_PID=$!

"$WORK/venv/bin/python" - "http://127.0.0.1:$PORT" "$SERVER_PID" <<'EOF' || fail "see above"
"""Fetches what a phone would, from the server just started; exits 1 on the first miss."""

import base64
import http.cookiejar
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

base, pid = sys.argv[1], int(sys.argv[2])


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to look at (where a new group's page is), not to follow."""

    def redirect_request(self, *args, **kwargs):
        return None


def fetch(path, headers=None, data=None, method=None):
    request = urllib.request.Request(base + path, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def expect(ok, what):
    if not ok:
        print(f"wheel: {what}", file=sys.stderr)
        sys.exit(1)


deadline = time.monotonic() + 60
while True:
    try:
        os.kill(pid, 0)
    except OSError:
        expect(False, "ledger serve stopped before it answered")
    try:
        if fetch("/healthz")[0] == 200:
            break
    except OSError:
        pass
    expect(time.monotonic() < deadline, "ledger serve did not answer /healthz within 60 s")
    time.sleep(0.2)

status, _, body = fetch("/", {"Accept-Language": "en"})
page = body.decode()
expect(status == 200, f"GET / answered {status}: {page[:500]}")
expect("Start a new group" in page, "GET / is not the English home page")
print("GET / (English): 200")

status, _, body = fetch("/", {"Accept-Language": "nl-NL,nl;q=0.9"})
dutch = body.decode()
expect(status == 200, f"GET / in Dutch answered {status}")
expect("Een nieuwe groep beginnen" in dutch, "GET / with Accept-Language nl is not in Dutch")
status, _, body = fetch("/", {"Cookie": "lang=nl"})
expect(status == 200 and "Een nieuwe groep beginnen" in body.decode(), "lang=nl is not Dutch")
print("GET / (Dutch, by Accept-Language and by the language cookie): 200")

stylesheet = re.search(r'href="([^"]+\.css[^"]*)"', page)
expect(stylesheet is not None, "the home page links no stylesheet")
status, headers, body = fetch(stylesheet.group(1))
expect(status == 200, f"GET {stylesheet.group(1)} answered {status}")
expect(b"{" in body and "css" in headers.get("Content-Type", ""), "the stylesheet is not CSS")
print(f"GET {stylesheet.group(1)}: 200, {len(body)} bytes")

status, _, body = fetch("/api/v1/games")
expect(status == 200, f"GET /api/v1/games answered {status}: {body[:500]!r}")
games = json.loads(body)
expect("spot" in json.dumps(games).lower(), f"GET /api/v1/games lists no Spot: {games}")
print("GET /api/v1/games: 200")

# A write and a read through the migrated tables, as a group is made on the first night.
new_group = json.dumps({"name": "Wheel Test", "passphrase": "pints of plain"}).encode()
status, _, body = fetch(
    "/api/v1/groups", {"Content-Type": "application/json"}, new_group, method="POST"
)
expect(status == 201, f"POST /api/v1/groups answered {status}: {body[:500]!r}")
slug = json.loads(body)["slug"]
auth = base64.b64encode(f"{slug}:pints of plain".encode()).decode()
status, _, body = fetch(f"/api/v1/groups/{slug}", {"Authorization": f"Basic {auth}"})
expect(status == 200, f"GET /api/v1/groups/{slug} answered {status}")
print(f"POST /api/v1/groups, GET /api/v1/groups/{slug}: 201, 200")

# The group's workbook, its rows written through lxml (a dependency of the wheel).
status, _, body = fetch(f"/api/v1/groups/{slug}/export.xlsx", {"Authorization": f"Basic {auth}"})
expect(status == 200 and body[:2] == b"PK", f"GET export.xlsx answered {status}: {body[:200]!r}")
print(f"GET /api/v1/groups/{slug}/export.xlsx: 200, {len(body)} bytes")

# A phone in Dutch: the start page's form makes a group (signed in by the session cookie),
# then the group's pages, each in Dutch.
jar = http.cookiejar.CookieJar()
phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirects())
dutch_headers = {"Accept-Language": "nl"}


def visit(path, data=None):
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(base + path, data=body, headers=dutch_headers)
    try:
        with phone.open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


status, _, start = visit("/")
token = re.search(r'name="csrf_token" value="([^"]+)"', start)
expect(status == 200 and token is not None, "the start page has no form token")
form = {"csrf_token": token.group(1), "create-name": "Donderdag", "create-passphrase": "pints of plain"}
status, headers, body = visit("/groups", form)
expect(status == 302 and "/g/" in headers.get("Location", ""), f"making a group answered {status}")
group_page = urllib.parse.urlsplit(headers["Location"]).path
for path in (group_page, f"{group_page}/invite", f"{group_page}/s/new"):
    status, _, page = visit(path)
    expect(status == 200, f"GET {path} in Dutch answered {status}: {page[:500]}")
    expect('<html lang="nl">' in page, f"GET {path} is not in Dutch")
    print(f"GET {path} (Dutch): 200")
EOF

grep -q "Pub Ledger is running" "$WORK/serve.log" || fail "ledger serve did not say where it runs"
kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=
step "the wheel works"
