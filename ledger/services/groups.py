"""The games on offer, a group at a glance, and its players.

- ``list_games``, ``group_view``, ``add_player``, ``rename_player``; below them, the name
  checks and player lookups the session services share.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import (
    NAME_LENGTH,
    Evening,
    GameSession,
    Group,
    Player,
    Season,
    SessionPlayer,
    utcnow,
)
from ledger.rules import nights
from ledger.rules.codecs import same_name
from ledger.rules.errors import RuleError
from ledger.rules.evening import renamed_list
from ledger.rules.league import renamed_table
from ledger.rules.names import breaks_lines, code_point, hidden_character
from ledger.rules.registry import GAMES
from ledger.services import charts
from ledger.services.errors import Conflict, NotFound
from ledger.services.renames import rename_in_nights
from ledger.services.room import check_room
from ledger.services.unit_of_work import write
from ledger.services.views.groups import GameInfo, GroupRef, GroupView, PlayerView, SessionSummary


def list_games() -> list[GameInfo]:
    return [
        GameInfo(
            key=g.key,
            name=g.name,
            description=g.description,
            min_players=g.min_players,
            max_players=g.max_players,
            money=g.money,
            options=g.defaults(),
            open_seating=g.open_seating,
            entry=g.entry_fields(),
        )
        for g in GAMES.values()
    ]


def group_players(group: GroupRef) -> tuple[PlayerView, ...]:
    """The group's players, by name: one query."""
    players = db.session.scalars(select(Player).where(Player.group_id == group.id)).all()
    ordered = sorted(players, key=lambda p: (p.name_key, p.name, p.id))
    return tuple(PlayerView(p.id, p.name) for p in ordered)


def group_view(group: GroupRef) -> GroupView:
    """The group's players (by name) and sessions (oldest first): two queries however many."""
    row = db.session.get(Group, group.id)
    if row is None:
        raise NotFound("There is no such group.")
    sessions = db.session.execute(
        select(
            GameSession.id,
            GameSession.game,
            GameSession.status,
            GameSession.started_at,
            GameSession.finished_at,
            GameSession.hands_played,
            GameSession.number,
            GameSession.options,
        )
        .where(GameSession.group_id == group.id)
        .order_by(GameSession.id)
    ).all()
    return GroupView(
        slug=row.slug,
        name=row.name,
        players=group_players(group),
        sessions=tuple(
            SessionSummary(
                id=s.id,
                game=s.game,
                status=s.status,
                started_at=s.started_at,
                finished_at=s.finished_at,
                hands_played=s.hands_played,
                number=s.number,
                own_name=nights.own_name(s.options or {}),
            )
            for s in sessions
        ),
    )


def add_player(group: GroupRef, name: str) -> PlayerView:
    name = check_new_name(check_player_name(name))

    def work() -> PlayerView:
        existing = find_players(group.id, [name]).get(name_key(name))
        if existing is not None:
            raise Conflict(
                "There is already a player called {player} in this group.",
                field="name",
                player=existing.name,
            )
        check_room(group.id, adding=1)  # a player counts towards a group's size too
        # Insert rather than players_for(): it would look again, and a phone that added the
        # same name in between would be answered 201 with that other phone's player.
        player = Player(group_id=group.id, name=name, name_key=name_key(name), created_at=utcnow())
        db.session.add(player)
        db.session.flush()  # the unique name constraint decides a race: write() retries, 409
        return PlayerView(player.id, player.name)

    return write(work)


def rename_player(group: GroupRef, player_id: int, new_name: str) -> PlayerView:
    """Give a player another name, everywhere: their sessions, hands and balances follow.

    The engine keys everything by name, so every stored state, outcome and entry of the
    player's sessions is rewritten; the history (changes) keeps the names as they were.
    """
    new_name = check_player_name(new_name)

    def work() -> PlayerView:
        player = db.session.scalar(
            select(Player).where(Player.id == player_id, Player.group_id == group.id)
        )
        if player is None:
            raise NotFound("There is no player {id} in this group.", id=player_id)
        clash = find_players(group.id, [new_name]).get(name_key(new_name))
        if clash is None:
            check_new_name(new_name)
        if clash is not None and clash.id != player.id:
            raise Conflict(
                "There is already a player called {player} in this group.",
                field="name",
                player=clash.name,
            )
        old = player.name
        player.name, player.name_key = new_name, name_key(new_name)
        session_ids = select(SessionPlayer.session_id).where(SessionPlayer.player_id == player.id)
        sessions = db.session.scalars(
            select(GameSession).where(GameSession.id.in_(session_ids))
        ).all()
        sessions = [*sessions, *_holding_carried_antes(group.id, old, {s.id for s in sessions})]
        rename_in_nights(sessions, old, new_name)
        charts.forgotten([s.id for s in sessions])  # their points name the player as was
        for season in db.session.scalars(select(Season).where(Season.group_id == group.id)):
            if season.closed is not None:  # a closed season's table, as it was kept
                season.closed = renamed_table(season.closed, old, new_name)
        for evening in db.session.scalars(select(Evening).where(Evening.group_id == group.id)):
            if evening.closed is not None:  # a closed evening's list and ticks, as kept
                evening.closed = renamed_list(evening.closed, old, new_name)
        db.session.flush()
        return PlayerView(player.id, player.name)

    return write(work)


# --- Names and players, as the other services check and find them ------------------------


def name_key(name: str) -> str:
    return name.casefold()


def check_name_characters(name: str, field: str = "name") -> str:
    """Refuse a name (a player's, a group's) holding a line break, a control character, half
    a surrogate, or a character that shows nothing or turns the text around
    (ledger/rules/names.py ``hidden_character``).

    Such a character is invisible or breaks the page it is shown on; NUL cannot be stored in
    PostgreSQL, and a lone surrogate in neither database (API.md "Bounds"); a line break of
    any kind (U+2028 too) would split the name wherever text is read line by line. Tabs
    pass: a name's spaces are tidied into single spaces before it is kept.
    """
    if breaks_lines(name):
        raise RuleError("A name is one line: it cannot hold a line break.", field=field)
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cs") and not ch.isspace():
            raise RuleError(
                "A name cannot hold control characters (such as NUL) or broken characters.",
                field=field,
            )
    hidden = hidden_character(name)  # issue 46.6: emoji sequences stay whole
    if hidden is not None:
        raise RuleError(
            "A name cannot hold {character}, a character that shows nothing or turns the text "
            "around it: one name could pass for another.",
            field=field,
            character=code_point(hidden),
        )
    return name


def check_player_name(name: Any, field: str = "name") -> str:
    """A player's name as it will be kept: spaces tidied, 1 to 40 characters, nothing hidden."""
    if not isinstance(name, str):
        raise RuleError("A player's name is text.", field=field)
    check_name_characters(name, field)
    clean = " ".join(name.split())
    if not clean:
        raise RuleError("Give the player a name.", field=field)
    if len(clean) > NAME_LENGTH:
        raise RuleError(
            "A player's name has at most {most} characters.", field=field, most=NAME_LENGTH
        )
    return clean


def check_new_name(name: str, field: str = "name") -> str:
    """A name for a new player, as an address can carry it: a player's page and bank account
    are at ``…/p/<name>``, slashes and all ("AC/DC"), but a browser drops a slash at the
    start and resolves "." and ".." between slashes away. Players named so before keep
    their names (and every route takes them as far as an address can)."""
    if name.startswith("/") or any(part in (".", "..") for part in name.split("/")):
        raise RuleError(
            'A player\'s name cannot start with a slash, nor be "." or ".." between slashes: '
            "it is part of the player's web address.",
            field=field,
        )
    return name


def find_players(group_id: int, names: Sequence[str]) -> dict[str, Player]:
    """The group's players of these names, keyed by name_key: one query."""
    keys = {name_key(n) for n in names}
    if not keys:
        return {}
    rows = db.session.scalars(
        select(Player).where(Player.group_id == group_id, Player.name_key.in_(keys))
    ).all()
    return {p.name_key: p for p in rows}


def players_for(group_id: int, names: Sequence[str]) -> dict[str, Player]:
    """The group's players of these names, creating those it does not have yet."""
    found = find_players(group_id, names)
    for n in names:
        key = name_key(n)
        if key not in found:
            player = Player(group_id=group_id, name=n, name_key=key, created_at=utcnow())
            db.session.add(player)
            found[key] = player
    db.session.flush()
    return found


def _holding_carried_antes(group_id: int, name: str, known: set[int]) -> list[GameSession]:
    """Sessions the player never sat in whose pot holds antes they paid on an earlier night.

    A carried pot brings its antes by name (a refund gives them back), so a session that
    took one up can name a player who was not at the table. Only sessions that opened with a
    carried pot can; the name is looked for in Python, as JSON paths differ between SQLite
    and PostgreSQL.
    """
    took_a_pot = select(GameSession.carried_into_id).where(
        GameSession.group_id == group_id, GameSession.carried_into_id.is_not(None)
    )
    candidates = db.session.scalars(
        select(GameSession).where(GameSession.group_id == group_id, GameSession.id.in_(took_a_pot))
    )
    return [
        s
        for s in candidates
        if s.id not in known and any(same_name(p, name) for p in s.start_state.get("pot_antes", {}))
    ]
