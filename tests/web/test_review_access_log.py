"""The access log: a client cannot write into it, and it gives away no invite link (found in
the review of issue 16).

A path may hold any byte once its %-escapes are read, a newline too: written as it came, a
request for ``/x%0a2026-01-01 00:00:00 203.0.113.9 POST /open 401 9 ms`` put a line of the
client's making into the log, which a tool that bans addresses for failed sign-ins (fail2ban)
would act on.
"""

from __future__ import annotations

FORGED = "2026-01-01 00:00:00 203.0.113.9 POST /open 401 9 ms"


def test_a_newline_in_the_path_cannot_add_a_line_to_the_access_log(app, client, capsys):
    app.config["LEDGER_ACCESS_LOG"] = True
    client.get("/g/x%0a" + FORGED.replace(" ", "%20"), buffered=True)
    client.get("/g/y%0d%1b[2J%7f", buffered=True)

    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert not any(line.startswith(FORGED) for line in lines)
    assert " GET /g/x\\n2026-01-01" in lines[0] and lines[0].endswith(" ms")
    assert " GET /g/y\\r\\x1b[2J\\x7f 40" in lines[1]
    assert all(ch.isprintable() for line in lines for ch in line)


def test_an_address_from_a_trusted_proxy_cannot_send_control_characters_to_the_log(
    app, client, capsys
):
    """A header cannot hold a newline (waitress answers 400), but it can hold ESC: a
    terminal showing the log would obey what follows it."""
    app.config["LEDGER_ACCESS_LOG"] = True
    app.config["LEDGER_TRUSTED_PROXY"] = True
    client.get("/healthz", headers={"X-Forwarded-For": "\x1b[2J\x1b[1A\x08"}, buffered=True)

    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert all(ch.isprintable() for ch in lines[0])
    assert " \\x1b[2J\\x1b[1A\\x08 GET /healthz 200 " in lines[0]


def test_an_invite_links_token_is_not_written_to_the_access_log(app, client, capsys):
    """The token of /join/<token> opens the group for days to whoever reads it: a log that is
    kept, shipped or shown to a helper must not hand it on."""
    app.config["LEDGER_ACCESS_LOG"] = True
    token = "eyJnIjo3LCJlIjowLCJpIjowfQ.aQ2xYw.c2VjcmV0LXNpZ25hdHVyZQ"
    client.get(f"/join/{token}", buffered=True)

    line = capsys.readouterr().err
    assert token not in line and "c2VjcmV0" not in line
    assert " GET /join/… 404 " in line
