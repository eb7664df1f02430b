"""Where the app's settings come from: defaults, instance/config.py, LEDGER_* variables, tests."""

from __future__ import annotations

import json
import os
import secrets
import stat
import tempfile
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from flask import Flask

# Every setting can come from the environment as LEDGER_<NAME>: LEDGER_SECRET_KEY sets
# SECRET_KEY, LEDGER_TRUSTED_PROXY sets LEDGER_TRUSTED_PROXY. Read when the app is created,
# after instance/config.py, so a service manager or a shell can override what the file says.
# Variables that name no setting (the tests' LEDGER_TEST_DATABASE_URL, LEDGER_INSTANCE_PATH)
# are left alone. These names are kept for what they were called first:
ENVIRONMENT = {
    "LEDGER_DATABASE_URL": "SQLALCHEMY_DATABASE_URI",
}
PREFIX = "LEDGER_"

# Settings the extensions read but only define once bound to the app (after the environment
# is read), by the type their value takes; a value of another type is read as a string.
EXTENSION_SETTINGS: dict[str, type] = {
    "SQLALCHEMY_ECHO": bool,
    "SQLALCHEMY_ENGINE_OPTIONS": dict,
    "SQLALCHEMY_RECORD_QUERIES": bool,
    "WTF_CSRF_ENABLED": bool,
    "WTF_CSRF_SSL_STRICT": bool,
    "BABEL_DEFAULT_LOCALE": str,
}

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


class ConfigError(ValueError):
    """A setting that cannot be used, in one sentence naming it."""


# How long a request may wait for a slot for a slow passphrase check, in seconds.
HASH_WAIT = 0.25

# How long an invite link opens its group, in days (LEDGER_INVITE_LIFETIME_DAYS).
INVITE_LIFETIME_DAYS = 7

# Groups one client address may make or restore in an hour (LEDGER_GROUP_LIMIT; 0: no limit).
GROUP_LIMIT = 20
# The most a group keeps, counted in hands (LEDGER_GROUP_HANDS, 0: no limit;
# ledger/services/room.py).
GROUP_HANDS = 100_000

SECRET_KEY_FILE = "secret_key"

# Connections each app process keeps open to PostgreSQL (SQLAlchemy's default is 5).
POSTGRES_POOL_SIZE = 10

# Seconds a SQLite connection waits for another writer before giving up: waitress runs several
# threads, and two phones may save a hand at the same moment.
SQLITE_BUSY_TIMEOUT = 15


def instance_path() -> str | None:
    """The instance folder from LEDGER_INSTANCE_PATH, or None for Flask's default.

    Flask's default for a package run from a checkout (or installed with ``pip install -e``)
    is ``<repo>/instance``.
    """
    path = os.environ.get("LEDGER_INSTANCE_PATH")
    return str(Path(path).expanduser().resolve()) if path else None


def load_config(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """Fill ``app.config``: defaults, then instance/config.py, then the environment, then tests."""
    make_private_folder(Path(app.instance_path))
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'ledger.sqlite'}",
        # A phone may sit on a form through a long hand; the token lives as long as the
        # browser session instead of expiring after an hour.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        # The sign-in cookie is renewed once a day (ledger/web/access.py), not re-signed and
        # re-sent on every poll of a scoreboard.
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        LEDGER_INVITE_LIFETIME_DAYS=INVITE_LIFETIME_DAYS,
        # Behind one reverse proxy (Caddy, nginx): trust its X-Forwarded-For/-Proto/-Host
        # (ledger/hosting.py). `ledger serve --trusted-proxy` sets it too.
        LEDGER_TRUSTED_PROXY=False,
        # One line per request on stderr (`ledger serve --access-log`); errors are always logged.
        LEDGER_ACCESS_LOG=False,
        # werkzeug's password hash method for passphrases; None is its default (scrypt).
        LEDGER_PASSPHRASE_HASH=None,
        # Slow passphrase checks at once per process (None: one per core) and how long a
        # request may wait for one, in seconds (ledger/services/auth.py). Named here so the
        # environment can set them like every other setting.
        LEDGER_HASH_SLOTS=None,
        LEDGER_HASH_WAIT=HASH_WAIT,
        # Anonymous writes and a group's room to grow (ledger/services/room.py): groups made
        # or restored per client address an hour, and the hands a group keeps (0: no limit).
        LEDGER_GROUP_LIMIT=GROUP_LIMIT,
        LEDGER_GROUP_HANDS=GROUP_HANDS,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.update(environment_settings(os.environ, app.config))
    if test_config is not None:
        app.config.from_mapping(test_config)

    app.config["LEDGER_INVITE_LIFETIME_DAYS"] = positive_days(
        app.config["LEDGER_INVITE_LIFETIME_DAYS"], "LEDGER_INVITE_LIFETIME_DAYS"
    )
    check_hash_settings(app.config)
    for name in ("LEDGER_GROUP_LIMIT", "LEDGER_GROUP_HANDS"):
        app.config[name] = whole_number(app.config[name], name)

    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(
            Path(app.instance_path) / SECRET_KEY_FILE
        )
    url = normalise_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(
        url, app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {}
    )


def environment_settings(environ: Mapping[str, str], config: Mapping[str, Any]) -> dict[str, Any]:
    """The settings named by LEDGER_* variables in ``environ``, each parsed to the type of the
    setting it replaces in ``config`` (True/False, a number, JSON for a dict or list).

    A variable set to nothing counts as not set, as a unit file's ``Environment=X=`` reads.
    """
    settings: dict[str, Any] = {}
    for variable, text in sorted(environ.items()):
        if not variable.startswith(PREFIX) or text == "":
            continue
        key = setting_for(variable, config)
        if key is None:
            continue
        kind = EXTENSION_SETTINGS.get(key)
        current = config.get(key)
        settings[key] = parse_setting(variable, text, kind or type(current))
    return settings


def setting_for(variable: str, config: Mapping[str, Any]) -> str | None:
    """The setting LEDGER_<NAME> stands for: LEDGER_<NAME> itself if the app has a setting of
    that name, else <NAME>; None when it names no setting."""
    if variable in ENVIRONMENT:
        return ENVIRONMENT[variable]
    for key in (variable, variable.removeprefix(PREFIX)):
        if key in config or key in EXTENSION_SETTINGS:
            return key
    return None


def parse_setting(variable: str, text: str, kind: type) -> Any:
    """``text`` as a value of ``kind``, or a ConfigError naming ``variable`` and what it takes."""
    if kind is bool:
        word = text.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ConfigError(f"{variable} must be 1 or 0 (true or false), not {text!r}.")
    if kind is int:
        try:
            return int(text.strip().replace("_", ""))
        except ValueError:
            raise ConfigError(f"{variable} must be a whole number, not {text!r}.") from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise ConfigError(f"{variable} must be a number, not {text!r}.") from None
    if kind is timedelta:
        return timedelta(seconds=parse_setting(variable, text, int))
    if kind in (dict, list):
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if not isinstance(value, kind):
            what = "an object" if kind is dict else "a list"
            raise ConfigError(f"{variable} must be {what} in JSON, not {text!r}.")
        return value
    if kind is type(None):
        # A setting that is off by default (None) and takes a number or a word when set.
        word = text.strip()
        if word.lower() in ("none", "null"):
            return None
        try:
            return int(word)
        except ValueError:
            return text
    return text


def positive_days(value: Any, name: str) -> float:
    """A number of days from a setting (a variable gives text); a clear error at start-up."""
    try:
        days = float(value)
    except (TypeError, ValueError):
        days = 0.0
    if not 0 < days < 100_000:
        raise ConfigError(f"{name} must be a number of days above 0, not {value!r}.")
    return days


# The most a count may be: what a database's integer column holds.
MOST_COUNT = 2**31 - 1


def whole_number(value: Any, name: str) -> int:
    """A limit that counts something (0: no limit); a clear error at start-up rather than a
    500, or no limit at all, later."""
    if isinstance(value, str):
        value = parse_setting(name, value, int)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_COUNT:
        raise ConfigError(
            f"{name} must be a whole number from 0 (no limit) to {MOST_COUNT}, not {value!r}."
        )
    return value


def check_hash_settings(config: dict[str, Any]) -> None:
    """The slow-check settings, or a ConfigError at start-up rather than a 500 on the first
    passphrase: slots a whole number above 0 (or None), the wait a number of seconds >= 0."""
    slots = config.get("LEDGER_HASH_SLOTS")
    if slots is not None:
        if isinstance(slots, bool) or not isinstance(slots, int) or slots < 1:
            raise ConfigError(f"LEDGER_HASH_SLOTS must be a whole number above 0, not {slots!r}.")
    wait = config.get("LEDGER_HASH_WAIT")
    try:
        seconds = float(wait)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seconds = -1.0
    if isinstance(wait, bool) or not 0 <= seconds < 3600:
        raise ConfigError(f"LEDGER_HASH_WAIT must be a number of seconds, 0 or more, not {wait!r}.")
    config["LEDGER_HASH_WAIT"] = seconds


# Who may read the instance folder and the SQLite file: the owner only, as the secret key.
# They hold every group's hands and passphrase hashes.
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
# The files SQLite keeps beside a database while it is open (they hold its pages too).
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def make_private_folder(path: Path) -> None:
    """Create ``path`` readable by its owner only, or tighten it if it was made before."""
    path.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    _tighten(path, PRIVATE_FOLDER)


def make_private_database_file(path: Path) -> None:
    """Create the SQLite file ``path`` (and tighten its companions) readable by its owner only.

    Called before each new connection: SQLite would create the file with the process's umask
    (usually readable by everyone), and it gives its -wal and -shm files the database file's
    permissions. Creating it empty here is what SQLite would do on connecting.
    """
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE)
    except FileExistsError:
        pass
    except FileNotFoundError:
        return  # no such folder: SQLite's own error says so on connecting
    else:
        os.close(fd)
    for name in ("", *SQLITE_COMPANIONS):
        _tighten(Path(f"{path}{name}"), PRIVATE_FILE)


def sqlite_file(url: str) -> Path | None:
    """The file a ``sqlite://`` URL opens, or None (another database, in memory, a URI)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database)


def _tighten(path: Path, mode: int) -> None:
    """Take away what others may do with ``path``, if it exists and is ours to change."""
    try:
        current = stat.S_IMODE(path.stat().st_mode)
        if current & ~mode:
            os.chmod(path, current & mode)
    except FileNotFoundError:
        pass
    except PermissionError:
        pass  # another user's file (a shared folder given on purpose): left as it is


def load_or_create_secret_key(path: Path) -> str:
    """The key kept in ``path``; on the first start, a new random key written there (mode 0600).

    Sessions and CSRF tokens survive a restart because the key does. The file is written
    under another name and linked into place, so a second process starting at the same
    moment either wins the race or reads the complete key, never half a file.
    """
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")  # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
                f.flush()
                os.fsync(f.fileno())
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass  # another process created it first: use theirs
        finally:
            os.unlink(tmp)
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"The secret key file {path} is empty. Delete it to make a new key.")
    return key


def normalise_database_url(url: str) -> str:
    """Send plain ``postgres://`` / ``postgresql://`` URLs to psycopg 3, the driver we install.

    SQLAlchemy would otherwise pick psycopg2 (not installed) or reject ``postgres://``.
    """
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
        return parsed.render_as_string(hide_password=False)
    return url


def engine_options(url: str, configured: Mapping[str, Any]) -> dict[str, Any]:
    """Engine options suited to the database behind ``url``; ``configured`` ones win."""
    backend = make_url(url).get_backend_name()
    options: dict[str, Any] = {}
    if backend == "postgresql":
        # Connections dropped by a server restart or a NAT box are replaced, not reported: a
        # ping as each leaves the pool. It costs a round trip on loopback (the benchmarks
        # measure with it); pinging only connections idle for a while would leave the ones
        # in use every few seconds, a table's, to fail once after a restart.
        options["pool_pre_ping"] = True
        # As many kept connections as `ledger serve` has threads (up to --threads 10): past
        # the pool's size every connection is a new server process, opened and closed again
        # for one request.
        options["pool_size"] = POSTGRES_POOL_SIZE
    elif backend == "sqlite":
        options["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT}
    options.update(configured)
    return options
