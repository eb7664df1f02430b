"""A session's history in words: each change in a sentence with what was there before.

"Ann corrected hand 7: Rex 9 → K 9". The history page reads the session's changes
(services.session_history, the API's ``GET …/history``); a change of a kind this version does
not know (a newer one records more) gets a plain line of its own, never an error.

Every line names who made the change (RULES.md §20): a hand's lines begin with them ("Bob
corrected hand 3 on Cas's phone"), the others end with it ("By Ann."); a change nobody was
named for was made by "a phone".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from flask import g
from flask_babel import gettext as _
from flask_babel import ngettext

from ledger.rules import GAMES, N_, amount
from ledger.services.views.base import night_currency
from ledger.services.views.sessions import ChangeView, SessionView
from ledger.words.display import format_money, game_name, typed_cards
from ledger.words.games import choice_label, session_text
from ledger.words.hands import join_names
from ledger.words.language import said as say
from ledger.words.money import round_text


def tab_followed(change: ChangeView, changes: Sequence[ChangeView], view: SessionView) -> str:
    """RULES.md §6a: a correction made while the night is on the tab changes the tab at once."""
    if change.kind != "hand.corrected" or not view.on_tab:
        return ""
    put_on = [c.version for c in changes if c.kind == "tab.added" or _put_on_tab(c)]
    if not put_on or change.version < put_on[-1]:
        return ""
    return " " + _("The tab changed with it at once.")


def _put_on_tab(change: ChangeView) -> bool:
    return change.kind == "session.finished" and (change.after or {}).get("settle") == "tab"


def change_text(change: ChangeView, session: SessionView) -> str:
    """One change in words, with who made it; a change this page cannot read gets a plain
    line."""
    words = _WORDS.get(change.kind)
    if words is not None:
        try:
            said = words(change, session)
            return said if change.kind in _HAND_KINDS else f"{said} {by_whom(change)}"
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass  # a shape this version does not know: the plain line below
    return _("Something else changed (%(kind)s).", kind=change.kind) + " " + by_whom(change)


def _whose(change: ChangeView, texts: tuple[str, str, str], **blanks: Any) -> str:
    """A hand's line as the whole sentence of its case, so each language orders its own words
    ("Bob trug Runde 3 auf Cas' Handy ein"): ``texts`` are the line by a player on their own
    (or nobody's) phone, by a player on another player's phone, and by "a phone"."""
    own, on_other, by_phone = texts
    if change.by is None:
        return _(by_phone, **blanks)
    if change.phone is not None and change.phone != change.by:
        return _(on_other, who=change.by, owner=change.phone, **blanks)
    return _(own, who=change.by, **blanks)


def by_whom(change: ChangeView) -> str:
    """Who made a change, as a sentence of its own: "By Ann.", "By Bob, on Cas's phone."."""
    if change.by is None:
        return _("By a phone.")
    if change.phone is not None and change.phone != change.by:
        return _("By %(player)s, on %(owner)s's phone.", player=change.by, owner=change.phone)
    return _("By %(player)s.", player=change.by)


def _pot(units: Any, session: SessionView) -> str:
    if session.unit_value is None or session.currency is None:
        return str(int(units))
    return format_money(amount(int(units), session.unit_value, session.currency), session.currency)


def _result_text(result: Mapping[str, Any] | None) -> str:
    """A player's result as typed: the cards, a total, the melds, or sitting out."""
    if result is None:
        return "–"
    if result.get("sitting_out"):
        return _("sitting out")
    if result.get("points") is not None:  # Any game
        return str(result["points"])
    melded = result.get("melded") or result.get("melded_points")
    if melded is not None:  # Rummy 500: what was melded, then what is left in hand
        return _("melded %(melded)s; in hand %(hand)s", melded=melded, hand=_left_in_hand(result))
    return _left_in_hand(result)


def _left_in_hand(result: Mapping[str, Any]) -> str:
    if result.get("spots") is not None:
        return str(result["spots"])
    # Cards in the letters this page's players type (kept in English: "QH", a Dutch page's
    # "Vh", a German page's "Dhe"); a token that is no card (a count) stays as it is.
    melds = result.get("melds")
    if melds:
        return " | ".join(typed_cards(str(m)) for m in melds)
    if melds is not None:  # melds entered, none laid out (Spin Rummy)
        return _("nothing melded")
    # A game's own fields as typed, in their order (a Cribbage show and its pegging: "5S 5D
    # JH 10C / 4"), where the shared ones are not given.
    own = [
        typed_cards(str(v))
        for k, v in result.items()
        if k not in ("player", "cards") and v not in (None, "")
    ]
    return typed_cards(str(result.get("cards") or "").strip()) or " / ".join(own) or "–"


def _results(entry: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(r["player"]): r for r in entry.get("results") or ()}


def _by_player(entry: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(r["player"]).casefold(): r for r in entry.get("results") or ()}


def _entry_text(entry: Mapping[str, Any]) -> str:
    parts = [f"{p} {_result_text(r)}" for p, r in _results(entry).items() if p != entry.get("out")]
    text = ", ".join(parts)
    if entry.get("out"):
        text = _("%(player)s out; %(rest)s", player=entry["out"], rest=text)
    if entry.get("ending"):  # Gin Rummy: how the hand ended comes first
        text = f"{choice_label('ending', entry['ending'])}: {text}"
    return text


def _created(change: ChangeView, session: SessionView) -> str:
    after = change.after
    text = _(
        "%(game)s started with %(players)s; %(dealer)s deals first.",
        game=game_name(str(after["game"])),
        players=join_names([str(p) for p in after["players"]]),
        dealer=after["dealer"],
    )
    if after.get("carried_in"):
        text += " " + _(
            "The pot of %(pot)s came from #%(id)s.",
            pot=_pot(after["carried_in"], session),
            id=_number(after.get("carried_from")),
        )
    return text


def _hand_said(change: ChangeView, side: Mapping[str, Any], at: SessionView) -> dict[str, Any]:
    """A hand's number and entry (``side``), in its game's words where it has them (Skat)."""
    said = " ".join(map(say, GAMES[at.game].entry_phrases(side["entry"])))
    return {
        "number": change.hand_number,
        "entry": said or _entry_text(side["entry"]),
    }


# Each hand's line in its three cases (``_whose``): whole sentences, never pieces joined.
_ENTERED = (
    N_("%(who)s entered hand %(number)d: %(entry)s."),
    N_("%(who)s entered hand %(number)d on %(owner)s's phone: %(entry)s."),
    N_("A phone entered hand %(number)d: %(entry)s."),
)
_CORRECTED = (
    N_("%(who)s corrected hand %(number)d: %(changes)s."),
    N_("%(who)s corrected hand %(number)d on %(owner)s's phone: %(changes)s."),
    N_("A phone corrected hand %(number)d: %(changes)s."),
)
_UNDONE = (
    N_("%(who)s undid hand %(number)d; it was: %(entry)s."),
    N_("%(who)s undid hand %(number)d on %(owner)s's phone; it was: %(entry)s."),
    N_("A phone undid hand %(number)d; it was: %(entry)s."),
)


def _hand_created(change: ChangeView, session: SessionView) -> str:
    return _whose(change, _ENTERED, **_hand_said(change, change.after, session))


def _hand_corrected(change: ChangeView, session: SessionView) -> str:
    old, new = change.before["entry"], change.after["entry"]
    # A player is the same player however their name was typed ("bob" for Bob): the API
    # takes names in any case, and the history names them as the hand did first.
    was, now = _by_player(old), _by_player(new)
    names = {k: r["player"] for k, r in [*now.items(), *was.items()]}
    diffs = [
        f"{names[p]} {_result_text(was.get(p))} → {_result_text(now.get(p))}"
        for p in dict.fromkeys([*was, *now])
        if _result_text(was.get(p)) != _result_text(now.get(p))
    ]
    if old.get("out") != new.get("out"):
        diffs.append(
            _(
                "out: %(before)s → %(after)s",
                before=old.get("out") or "–",
                after=new.get("out") or "–",
            )
        )
    # Any other mark of the entry (going rummy): by its name, as the API writes it.
    if old.get("ending") != new.get("ending"):
        diffs.append(f"{old.get('ending') or '–'} → {new.get('ending') or '–'}")
    for mark in sorted((set(old) | set(new)) - {"results", "out", "ending"}):
        if bool(old.get(mark)) != bool(new.get(mark)):
            was_marked, is_marked = _yes(old.get(mark)), _yes(new.get(mark))
            diffs.append(f"{mark}: {was_marked} → {is_marked}")
    if GAMES[session.game].entry_phrases(new):  # the game's own words (Skat)
        said = [_hand_said(change, s, session)["entry"] for s in (change.before, change.after)]
        diffs = [" → ".join(said)] if said[0] != said[1] else []
    text = _whose(
        change,
        _CORRECTED,
        number=change.hand_number,
        changes="; ".join(diffs) or _("nothing changed"),
    )
    recomputed = len(change.after.get("recomputed") or ())
    if recomputed:
        text += " " + ngettext(
            "%(num)d later hand was worked out again.",
            "%(num)d later hands were worked out again.",
            recomputed,
        )
    return text


def _yes(value: Any) -> str:
    return _("yes") if value else _("no")


def _hand_deleted(change: ChangeView, session: SessionView) -> str:
    return _whose(change, _UNDONE, **_hand_said(change, change.before, session))


def _joined(change: ChangeView, session: SessionView) -> str:
    who, after = change.after["player"], change.after["after"]
    return _("%(player)s sat down after %(after)s.", player=who, after=after)


def _left(change: ChangeView, session: SessionView) -> str:
    return _("%(player)s left the table.", player=change.after["player"])


def _bought_in(change: ChangeView, session: SessionView) -> str:
    made = change.after
    return _(
        "%(player)s bought back in for %(amount)s, at %(total)d points.",
        player=made["player"],
        amount=_pot(made["units"], session),
        total=made["total"],
    )


def _taken_back(change: ChangeView, session: SessionView) -> str:
    made = change.before
    return _(
        "%(player)s's buy-in was taken back: %(amount)s out of the pot, out in hand %(hand)d.",
        player=made["player"],
        amount=_pot(made["units"], session),
        hand=made["after_hand"],
    )


def _renamed(change: ChangeView, session: SessionView) -> str:
    was, now = change.before["player"], change.after["player"]
    return _("%(before)s is now called %(after)s.", before=was, after=now)


def _finished(change: ChangeView, session: SessionView) -> str:
    text = _finished_words(change, session)
    if (change.after or {}).get("settle") == "tab":
        return text + " " + _("It went on the tab.")
    return text


def _finished_words(change: ChangeView, session: SessionView) -> str:
    after = change.after or {}
    pot = int(((change.before or {}).get("state") or {}).get("pot", 0))
    choice = after.get("leftover_pot")
    if choice is None or not session.money:
        return session_text(session.game, "ended")
    if not pot:
        return _("The night was finished.")
    keeper = after.get("pot_keeper")
    shared = [m["to"] for m in after.get("movements") or () if m.get("from") is None]
    if choice != "refund" and shared:  # Kaluki: the pot goes to the players still in
        return _(
            "The game was finished; the pot of %(pot)s went to %(names)s.",
            pot=_pot(pot, session),
            names=", ".join(shared),
        )
    if choice == "refund":
        return _(
            "The night was finished; the pot of %(pot)s was given back.", pot=_pot(pot, session)
        )
    if keeper:
        return _(
            "The night was finished; %(keeper)s keeps the pot of %(pot)s.",
            keeper=keeper,
            pot=_pot(pot, session),
        )
    return _("The night was finished; the pot of %(pot)s is carried on.", pot=_pot(pot, session))


def _tab_added(change: ChangeView, session: SessionView) -> str:
    return _("The game was put on the tab.")


def _tab_removed(change: ChangeView, session: SessionView) -> str:
    return _("The night was taken off the tab: it is settled on its own.")


def _carried(change: ChangeView, session: SessionView) -> str:
    pot, number = _pot(change.after["pot"], session), _number(change.after["session"])
    if number == "?":
        return _("The pot of %(pot)s went on to a session since deleted.", pot=pot)
    return _("The pot of %(pot)s went on to #%(id)s.", pot=pot, id=number)


def _returned(change: ChangeView, session: SessionView) -> str:
    return _(
        "The session it went on to was deleted before its first hand: the pot of %(pot)s "
        "waits again.",
        pot=_pot(change.after["pot"], session),
    )


def _number(session_id: Any) -> Any:
    """Another session of the group by its number, as its pages name it ("#2"), or "?"."""
    return g.get("session_numbers", {}).get(session_id, "?")


def _payment(paid: Mapping[str, Any], session: SessionView) -> dict[str, str]:
    """A payment's blanks: who paid whom how much."""
    if "units" not in paid:  # given in the currency (a night with rounds, RULES.md §6c)
        money = format_money(Decimal(paid["amount"]), night_currency(session.options))
        return {"payer": paid["from"], "payee": paid["to"], "amount": money}
    return {"payer": paid["from"], "payee": paid["to"], "amount": _pot(paid["units"], session)}


def _paid(change: ChangeView, session: SessionView) -> str:
    return _("%(payer)s paid %(payee)s %(amount)s.", **_payment(change.after, session))


def _unpaid(change: ChangeView, session: SessionView) -> str:
    return _(
        "The tick of %(payer)s paying %(payee)s %(amount)s was taken back.",
        **_payment(change.before, session),
    )


# A round added, changed or taken back (RULES.md §6c), in words.
_ROUND_WORDS = {
    "round.added": N_("Drinks or food added: %(round)s."),
    "round.changed": N_("Drinks or food changed to: %(round)s (it was: %(was)s)."),
    "round.deleted": N_("Drinks or food taken back: %(round)s."),
}


def _round(change: ChangeView, session: SessionView) -> str:
    said = {"round": change.after or change.before, "was": change.before}
    words = {k: round_text(v, night_currency(session.options)) for k, v in said.items() if v}
    return _(_ROUND_WORDS[change.kind], **words)


def _planned(change: ChangeView, session: SessionView) -> str:
    """The table's plan for the pot (RULES.md §2), chosen on one of its phones."""
    after = change.after
    if after["leftover_pot"] == "refund":
        return _("The table chose to give the pot back at the end.")
    if after.get("pot_keeper"):
        return _(
            "The table chose to carry the pot on, kept by %(keeper)s.", keeper=after["pot_keeper"]
        )
    return _("The table chose to carry the pot on.")


def _reopened(change: ChangeView, session: SessionView) -> str:
    return _("The night was opened again.") if session.money else _("The game was opened again.")


def _called(change: ChangeView, session: SessionView) -> str:
    made = dict(change.after)  # a game's own call, in its words (Boerenbridge's bids)
    said = GAMES[session.game].call_phrase(made.pop("call"), made, (change.hand_number or 0) + 1)
    return say(said)  # type: ignore[arg-type]  # None: plain


# The lines that name who made them in their own words; every other ends with ``by_whom``.
_HAND_KINDS = frozenset({"hand.created", "hand.corrected", "hand.deleted"})

_WORDS: dict[str, Callable[[ChangeView, SessionView], str]] = {
    "session.called": _called,
    "pot.planned": _planned,
    "session.reopened": _reopened,
    "session.created": _created,
    "hand.created": _hand_created,
    "hand.corrected": _hand_corrected,
    "hand.deleted": _hand_deleted,
    "player.joined": _joined,
    "player.left": _left,
    "player.bought_in": _bought_in,
    "player.buy_in_taken_back": _taken_back,
    "player.renamed": _renamed,
    "session.finished": _finished,
    "pot.carried": _carried,
    "pot.returned": _returned,
    "payment.recorded": _paid,
    "payment.deleted": _unpaid,
    **dict.fromkeys(_ROUND_WORDS, _round),
    "tab.added": _tab_added,
    "tab.removed": _tab_removed,
}
