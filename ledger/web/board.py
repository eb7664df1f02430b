"""The part of the scoreboard a new hand changes, drawn in Python: status, scores, last hands.

Every hand entered makes a new version of the session, and the first phone to look at it
draws this part anew (the rest of the page is kept: ledger/web/fragments.py). Drawn by a
Jinja template it took about a third of that build: some fifty calls through Jinja's context
and two hundred attribute lookups, each escaped and marked. Drawn here it is the same HTML,
written as the template wrote it (checked against it, page by page, through the whole suite
when it was moved here): the page's own texts (``_``) are their markup with the values put in
escaped, as Jinja's newstyle gettext does; anything else (a name, a hand's words, a game's
text) is escaped. tests/web/test_board.py holds what the rest of the suite did not: a long
night's link to its other hands, and names with markup characters in each place.
"""

from __future__ import annotations

from collections.abc import Iterable
from gettext import NullTranslations
from typing import Any

from flask import current_app
from markupsafe import Markup, escape

from ledger.services.results import HandLine, SessionView
from ledger.web import display, texts
from ledger.web.language import page_language


def _e(value: Any) -> str:
    """``value`` escaped for the page, as plain text (markupsafe's Markup costs a wrapper and a
    check at every step; the part is marked safe once, whole)."""
    return str(escape(value))


def _escaped(variables: dict[str, Any]) -> dict[str, Any]:
    # Whole numbers as they are: ``%(num)d`` formats them, and they need no escaping.
    return {k: v if isinstance(v, int) else _e(v) for k, v in variables.items()}


class _Words:
    """The page's texts in its language, as the templates' ``_`` and ``ngettext`` give them:
    the text as it is (the page's own markup), the values put in escaped."""

    def __init__(self, catalogue: NullTranslations) -> None:
        self.catalogue = catalogue

    # Named as gettext's own functions, so that ``pybabel extract`` finds the texts (their
    # calls, ``words.gettext("…")``, are what it looks for).
    def gettext(self, text: str, **variables: Any) -> str:
        return self.catalogue.gettext(text) % _escaped(variables)

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        text = self.catalogue.ngettext(singular, plural, num)
        return text % _escaped({"num": num, **variables})


def version_part(
    group_slug: str,
    session: SessionView,
    recent: Iterable[tuple[HandLine, str]],
    more_hands: int,
    chart: Markup,
    target: int | None,
) -> Markup:
    """The scoreboard's part kept under the session's version (templates/sessions/show.html):
    its status, scores, actions, last hands and chart."""
    words, url_for, link = _page_tools(group_slug, session)
    parts = [
        _status(words, session),
        _scores(words, session, group_slug, target, url_for),
        _actions(words, session, url_for, link),
        _hands(words, session, list(recent), more_hands, url_for, link),
        _chart(words, session, chart),
    ]
    return Markup("\n".join(parts))


def _page_tools(group_slug: str, session: SessionView) -> tuple[_Words, Any, dict[str, Any]]:
    """The page's texts, its url_for, and the session's part of every link to its pages."""
    link = {"slug": group_slug, "session_id": session.id}
    return _Words(page_language().catalogue), current_app.jinja_env.globals["url_for"], link


def _game_words(session: SessionView, key: str, **variables: Any) -> str:
    """``hand_text`` as the template wrote it: a plain text, escaped."""
    return _e(texts.hand_text(session.game, key, **variables))


def _status(words: _Words, session: SessionView) -> str:
    lines = [
        '<section id="status" data-live aria-labelledby="status-heading">',
        f'<h2 id="status-heading" class="visually-hidden">{_game_words(session, "this")}</h2>',
        _status_line(words, session),
    ]
    money = session.money
    if money and session.carried_in_keeper:
        # RULES.md §2: the pot this night opened with came from somebody's pocket.
        brought = words.gettext(
            "%(name)s brought the pot of %(units)d from %(game)s #%(id)d",
            name=session.carried_in_keeper,
            units=session.carried_in,
            game=display.game_name(session.game),
            id=session.carried_from or 0,
        )
        units = _e(display.units_money(session.carried_in, session))
        lines.append(
            f'<p class="pot" id="brought">{brought} <span class="muted small">({units})</span></p>'
        )
    if money and not (session.carried_in_keeper and session.hands_played == 0):
        units = _e(display.units_money(session.pot, session))
        pot = words.gettext("Pot:")
        lines.append(
            f'<p class="pot">{pot} <span id="pot">{_e(session.pot)}</span>'
            f' <span class="muted small">({units})</span></p>'
        )
    if money and session.pot_keeper and session.pot:
        kept = words.gettext(
            "%(name)s keeps the pot of %(amount)s for the next %(game)s night",
            name=session.pot_keeper,
            amount=display.units_money(session.pot, session),
            game=display.game_name(session.game),
        )
        lines.append(f'<p class="pot" id="kept">{kept}</p>')
    if not money and session.currency:
        # RULES.md §7: a points game played for a stake is paid out once it has ended.
        stake = session.options["stake"]
        played_for = words.ngettext(
            "Played for %(num)d unit a point (%(amount)s).",
            "Played for %(num)d units a point (%(amount)s).",
            stake,
            amount=display.units_money(stake, session),
        )
        lines.append(f'<p class="pot" id="stake">{played_for}</p>')
    lines.append("</section>")
    return "\n".join(lines)


def _status_line(words: _Words, session: SessionView) -> str:
    spans: list[str] = []
    if session.status == "open":
        progress = session.progress
        if progress:
            if progress.hands_in_round > 1:
                where = words.gettext(
                    "Round %(round)d · hand %(hand)d of %(of)d",
                    round=progress.round,
                    hand=progress.hand,
                    of=progress.hands_in_round,
                )
            else:
                where = words.gettext(
                    "Round %(round)d of %(of)d", round=progress.round, of=progress.rounds
                )
            spans.append(f"<span><strong>{where}</strong></span>")
            if progress.contract:
                contract = words.gettext(
                    "Contract: %(contract)s", contract=texts.text(progress.contract)
                )
                spans.append(f"<span>{contract}</span>")
        else:
            number = _game_words(session, "number", number=session.hands_played + 1)
            spans.append(f"<span><strong>{number}</strong></span>")
        if session.dealer:
            dealer = _e(session.dealer)
            deals = words.gettext("Deals:")
            spans.append(f'<span>{deals} <strong id="dealer">{dealer}</strong></span>')
        if session.leader:
            leader = _e(session.leader)
            leads = words.gettext("Leads:")
            spans.append(f'<span>{leads} <strong id="leader">{leader}</strong></span>')
    else:
        over = (
            words.gettext("The night is finished.")
            if session.money
            else words.gettext("The game is over.")
        )
        spans.append(f"<strong>{over}</strong>")
        if session.winners:
            winners = words.ngettext(
                "Winner: %(names)s",
                "Winners: %(names)s",
                len(session.winners),
                names=", ".join(session.winners),
            )
            spans.append(f"<span>{winners}</span>")
    return '<p class="status-line">' + "\n".join(spans) + "</p>"


def _scores(
    words: _Words, session: SessionView, group_slug: str, target: int | None, url_for: Any
) -> str:
    heading = words.gettext("Scores") if not session.money else words.gettext("Balances")
    lines = [
        '<section aria-labelledby="scores-heading">',
        f'<h2 id="scores-heading">{heading}</h2>',
    ]
    if target:
        playing_to = words.gettext(
            "Playing to %(target)d: the game ends when a score reaches it.", target=target
        )
        lines.append(f'<p class="muted small" id="target">{playing_to}</p>')
    lines.append('<ul class="scores" id="scores" data-live aria-live="polite">')
    for index, player in enumerate(session.players):
        player_page = url_for("history.player", slug=group_slug, name=player.name)
        lines.append(_score(words, session, index, player.name, player.active, player_page, target))
    lines.append("</ul>\n</section>")
    return "\n".join(lines)


def _score(
    words: _Words,
    session: SessionView,
    index: int,
    name: str,
    active: bool,
    player_page: str,
    target: int | None,
) -> str:
    """One player's line of the scores (``index`` from 0, in the seats' order)."""
    score = session.scores.get(name, 0)
    is_open = session.status == "open"
    if not active:
        role = words.gettext("left the table")
    elif name == session.dealer and is_open:
        role = words.gettext("deals")
    elif name == session.leader and is_open:
        role = words.gettext("leads")
    else:
        role = ""
    if name in session.winners:
        role += words.gettext("winner")
    number = index + 1
    who = (
        f'<span class="who"><span class="legend-dot {display.series_class(index)}"'
        f' aria-hidden="true"></span><a href="{_e(player_page)}">{_e(name)}</a>\n'
        f"<small>{role}</small>"
    )
    if target:
        to_go = (
            words.gettext("%(points)d to go", points=target - score)
            if score < target
            else words.gettext("reached %(target)d", target=target)
        )
        who += f'\n<small class="to-go" id="to-go-{number}">{to_go}</small>'
    amounts = session.amounts or {}
    if session.money:
        balance = _e(display.money(amounts.get(name), session.currency))
        total = (
            f'<span class="total {display.sign_class(score)}">{_e(display.signed(score))}\n'
            f"<small>{balance}</small>"
        )
    else:
        points = words.gettext("points")
        total = f'<span class="total ">{_e(score)}\n<small class="visually-hidden">{points}</small>'
    if session.payout:
        paid = _e(display.money(amounts.get(name), session.currency))
        total += f'\n<small class="money {display.sign_class(amounts.get(name))}">{paid}</small>'
    left = " left" if not active else ""
    return f'<li class="score{left}" id="score-{number}">\n{who}\n</span>\n{total}\n</span>\n</li>'


def _actions(words: _Words, session: SessionView, url_for: Any, link: dict[str, Any]) -> str:
    buttons = []
    if session.status == "open":
        enter = _game_words(session, "enter")
        buttons.append(
            f'<a class="button" id="enter-hand" href="{_e(url_for("hands.new", **link))}">'
            f"{enter}</a>"
        )
    if session.money or session.payout:
        settle = _e(url_for("sessions.settle", **link))
        settle_up = words.gettext("Settle up")
        buttons.append(f'<a class="button secondary" href="{settle}">{settle_up}</a>')
    return '<div class="actions" id="actions" data-live>\n' + "\n".join(buttons) + "\n</div>"


def _hands(
    words: _Words,
    session: SessionView,
    recent: list[tuple[HandLine, str]],
    more_hands: int,
    url_for: Any,
    link: dict[str, Any],
) -> str:
    lines = [
        '<section aria-labelledby="hands-heading" id="hands" data-live>',
        f'<h2 id="hands-heading">{_game_words(session, "last")}</h2>',
    ]
    if not recent:
        lines.append(f'<p class="muted">{_game_words(session, "none_first")}</p>')
        lines.append("</section>")
        return "\n".join(lines)
    lines.append('<ul class="list hands">')
    corrected = words.gettext("corrected")
    badge = f' <span class="badge">{corrected}</span>'
    for hand, summary in recent:
        address = _e(url_for("hands.show", number=hand.number, **link))
        lines.append(
            f'<li><a class="row" href="{address}">\n<span class="num">#{hand.number}</span>'
            f'<span class="what">{_e(summary)}{badge if hand.revision > 1 else ""}</span>'
            '<span aria-hidden="true">›</span>\n</a></li>'
        )
    lines.append("</ul>")
    if more_hands:
        every = _e(url_for("sessions.hands", **link))
        if texts.is_round_game(session.game):
            more = words.ngettext(
                "All rounds (%(num)d more)", "All rounds (%(num)d more)", more_hands
            )
        else:
            more = words.ngettext(
                "All hands (%(num)d more)", "All hands (%(num)d more)", more_hands
            )
        lines.append(f'<p><a href="{every}">{more}</a></p>')
    if not session.closed:
        lines.append(_undo(session, url_for, link))
    lines.append("</section>")
    return "\n".join(lines)


def _undo(session: SessionView, url_for: Any, link: dict[str, Any]) -> str:
    number = session.hands_played
    ask = _game_words(session, "undo_ask", number=number)
    undo = _game_words(session, "undo", number=number)
    return (
        f'<form method="post" action="{_e(url_for("sessions.undo", **link))}">\n'
        f"{display.csrf_field()}\n"
        f'<input type="hidden" name="number" value="{number}">\n'
        f'<button type="submit" class="danger" id="undo" data-confirm="{ask}">{undo}</button>\n'
        "</form>"
    )


def _chart(words: _Words, session: SessionView, chart: Markup) -> str:
    if not chart:
        return '<section id="chart" data-live>\n</section>'
    legend = "".join(
        f'<li><span class="legend-dot {display.series_class(index)}"></span>{_e(player.name)}</li>'
        for index, player in enumerate(session.players)
    )
    heading = words.gettext("Running scores")
    return (
        '<section aria-labelledby="chart-heading" id="chart" data-live>\n'
        f'<h2 id="chart-heading">{heading}</h2>\n<div class="card">\n{chart}\n'
        f'<ul class="legend" aria-hidden="true">\n{legend}\n</ul>\n</div>\n</section>'
    )


def saved_line(session: SessionView, number: int, summary: str) -> Markup:
    """The line above the scores after a hand is saved (``?saved=N``): what it did."""
    saved = _game_words(session, "saved", number=number)
    return Markup(f'<p class="summary" id="saved" role="status">{saved} {_e(summary)}</p>')


def ending_part(group_slug: str, session: SessionView) -> Markup:
    """The scoreboard's forms that end it, under "More": end a points game at the table while
    it is open, and delete a session started by mistake while it has no hands."""
    words, url_for, link = _page_tools(group_slug, session)
    parts = []
    if session.status == "open" and not session.money:
        ask = _game_words(session, "end_ask")
        end = words.gettext("End the game here")
        parts.append(
            f'<form method="post" action="{_e(url_for("sessions.finish", **link))}">\n'
            f"{display.csrf_field()}\n"
            f'<input type="hidden" name="version" value="{session.version}">\n'
            f'<button type="submit" class="danger" data-confirm="{ask}">{end}</button>\n'
            "</form>"
        )
    if session.hands_played == 0:
        # A session started by mistake: removed after a second, deliberate tap.
        delete = words.gettext("Delete this session")
        why = words.gettext(
            "Started by mistake? It has no hands yet, so it can be removed with its history. "
            "This cannot be undone."
        )
        button = words.gettext("Delete session #%(id)d", id=session.id)
        parts.append(
            f'<details id="delete-session">\n<summary>{delete}</summary>\n'
            f'<p class="muted small">{why}</p>\n'
            f'<form method="post" action="{_e(url_for("sessions.delete", **link))}">\n'
            f"{display.csrf_field()}\n"
            f'<button type="submit" class="danger" id="delete-session-button">{button}</button>\n'
            "</form>\n</details>"
        )
    return Markup("\n".join(parts))
