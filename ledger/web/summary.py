"""A saved hand in a sentence or two, for the player who just entered it and for the history.

"John wins 51: Enda pays 20, Rex 11, Finn 20. The pot stays at 20."
"Enda goes out and collects 74: the pot of 40, and John pays 16, Rex 10, Finn 8."

Pure functions of a hand in the API's shape (shared/API.md "Hand"): no request, no database.
What a money hand did (the pot taken, the odd units, who paid what) is the engine's story
(``pot_story``, ledger/rules/table.py); this only puts it into words, through gettext so they
follow the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from flask_babel import format_date, get_translations, gettext, ngettext

from ledger.rules import (
    GAMES,
    EndingStory,
    Movement,
    PlayerResult,
    PotStory,
    RummyReward,
    ending_story,
    entries,
    pot_story,
)
from ledger.rules.base import HandEntry, ResultEntry
from ledger.rules.errors import Phrase
from ledger.rules.labels import ENDING_WORDS
from ledger.services.views.sessions import SessionView
from ledger.web.display import format_money
from ledger.web.texts import text


def join_names(names: Sequence[str]) -> str:
    """Names as a list in words: "Enda", "Enda and John", "Enda, John and Rex"."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def _listing(amounts: Sequence[tuple[str, int]], verb_first: str) -> str:
    """Amounts by name with the verb once, after the first: "Enda pays 20, Rex 11, Finn 20"."""
    head, *rest = amounts
    parts = [verb_first % {"name": head[0], "units": head[1]}]
    parts += [f"{name} {units}" for name, units in rest]
    return ", ".join(parts)


def hand_summary(
    hand: Mapping[str, Any],
    *,
    money: bool,
    rounds: bool = False,
    rummy: RummyReward | None = None,
    penalty: bool = False,
    says_out: bool = False,
    own: Callable[[Mapping[str, Any]], Sequence[Phrase]] | None = None,
) -> str:
    """What the hand did, in words: who won, who pays or scores what, and the pot.

    ``rounds``: the game calls its hands rounds (Spin Rummy), "wins the round". ``rummy``:
    what going rummy is worth in the session (the engine's answer), said of a hand that went
    rummy: "Ann went rummy — doubled."
    """
    said = own(hand) if own is not None else ()
    if said:  # the game's own words (ledger/rules: Game.hand_phrases)
        return " ".join(p.render(get_translations().gettext) for p in said)
    if hand.get("ending"):
        return _ending_summary(hand)
    nobody_out = [gettext("Nobody went out.")] if says_out and not hand.get("out") else []
    if money:
        words = " ".join(nobody_out + [_penalties(hand) + _money_summary(hand)])
    elif any(r.get("melded") is not None for r in _in_order(hand)):
        words = " ".join(nobody_out + [_melded_summary(hand)])
    else:
        words = " ".join(nobody_out + [_points_summary(hand, rounds=rounds, penalty=penalty)])
    out = hand.get("out")
    typed = entries.from_dict(HandEntry, hand.get("entry") or {}, ResultEntry)
    if rummy is not None and out and typed.rummy:
        words += " " + _went_rummy(out, rummy)
    return words


def _ending_summary(hand: Mapping[str, Any]) -> str:
    """A hand that ended a way of its own (Gin Rummy), as the engine tells it: "Ann knocks 4
    v 24: Ann +20", "Bob knocks 8, Ann undercuts with 6: Ann +27", "Bob gin v 29: Bob +54"."""
    results = [
        PlayerResult(player=r["player"], spots=r.get("spots"), points=r.get("points"))
        for r in _in_order(hand)
    ]
    story: EndingStory = ending_story(hand.get("ending"), hand.get("out"), results)
    if story.by is None:
        return gettext("Draw: nobody scores.")
    scored = gettext("%(name)s +%(points)d", name=story.scorer or "", points=story.points)
    kind = "undercut" if story.undercut else story.ending
    said = gettext(
        ENDING_WORDS[kind],
        name=story.by,
        dead=story.deadwood or 0,
        against=story.against or 0,
        other=story.other or "",
    )
    return f"{said}: {scored}"


def _melded_summary(hand: Mapping[str, Any]) -> str:
    """Rummy 500: who went out (or that the stock ran out), and each player's melded points
    less those in hand: "Ann goes out. Ann 57 − 0 = +57, Bob 59 − 20 = +39."."""
    out = hand.get("out")
    first = gettext("%(name)s goes out.", name=out) if out else gettext("The stock ran out.")
    each = [
        gettext(
            "%(name)s %(melded)d − %(in_hand)d = %(points)s",
            name=r["player"],
            melded=r.get("melded") or 0,
            in_hand=r.get("spots") or 0,
            points=f"{int(r.get('points') or 0):+d}".replace("-", "−"),
        )
        for r in _in_order(hand)
    ]
    return f"{first} {', '.join(each)}."


def _penalties(hand: Mapping[str, Any]) -> str:
    """A money game that also counts points (Kaluki's penalties): those first, then the money."""
    scored = [(r["player"], int(r["points"])) for r in _in_order(hand) if r.get("points")]
    if not scored:
        return ""
    listed = ", ".join(f"{name} {units}" for name, units in scored)
    return gettext("Penalty points: %(list)s.", list=listed) + " "


def _went_rummy(out: str, reward: RummyReward) -> str:
    if reward.said is not None:
        return gettext(reward.said, name=out)
    if reward.factor == 2 and not reward.bonus:
        return gettext("%(name)s went rummy — doubled.", name=out)
    if reward.factor == 1 and reward.off:
        return gettext("%(name)s went rummy — %(bonus)d points off.", name=out, bonus=reward.bonus)
    if reward.factor == 1:
        return gettext("%(name)s went rummy — %(bonus)d points more.", name=out, bonus=reward.bonus)
    return gettext(
        "%(name)s went rummy — times %(factor)d, +%(bonus)d.",
        name=out,
        factor=reward.factor,
        bonus=reward.bonus,
    )


def _money_summary(hand: Mapping[str, Any]) -> str:
    story = _pot_story(hand)
    after = story.pot_after
    sentences = [_who_won(story)]
    if story.out_wins_alone and story.taken > 0 and not after:
        return sentences[0]  # the pot is in the sentence, and it is empty now
    if story.odd_units > 0 and story.winners and story.paid:
        sentences.append(
            ngettext(
                "The odd unit goes into the pot, which grows to %(units)s.",
                "The %(num)d odd units go into the pot, which grows to %(units)s.",
                story.odd_units,
                units=after,
            )
        )
    elif story.pot_before is not None and after is not None:
        sentences.append(_the_pot_now(story.pot_before, after, _antes(hand, story)))
    return " ".join(sentences)


def _antes(hand: Mapping[str, Any], story: PotStory) -> int:
    """The units this hand's antes put in the pot: what went into it, but the odd units."""
    into = sum(int(m["units"]) for m in hand.get("movements") or () if m.get("to") is None)
    return max(into - story.odd_units, 0)


def _pot_story(hand: Mapping[str, Any]) -> PotStory:
    """The engine's story of a hand in the API's shape (shared/API.md "Hand")."""
    results = [
        PlayerResult(
            player=r["player"],
            spots=None if r.get("spots") is None else int(r["spots"]),
            sitting_out=bool(r.get("sitting_out")),
        )
        for r in _in_order(hand)
    ]
    payments = [Movement(p["from"], p["to"], int(p["units"])) for p in hand.get("payments") or ()]
    return pot_story(
        results,
        hand.get("out"),
        list(hand.get("winners") or ()),
        payments,
        hand.get("pot_before"),
        hand.get("pot_after"),
    )


def _who_won(story: PotStory) -> str:
    """The first sentence: who went out or won, and who paid them what."""
    winners, payers = list(story.winners), story.paid
    if story.out_wins_alone and story.out is not None:
        return _goes_out(story.out, story.taken, story.received.get(story.out, 0), payers)
    if not winners:
        return gettext("Nobody wins this hand.")
    if not payers:
        if story.out is None and len(winners) > 1:
            return gettext("Everyone ties: nobody pays.")
        return ngettext(
            "%(names)s wins.", "%(names)s win.", len(winners), names=join_names(winners)
        )
    return _winners_clause(winners, story.received) + ": " + _payers_clause(payers) + "."


def _the_pot_now(before: int, after: int, antes: int = 0) -> str:
    """The pot after the hand; ``before`` is after the hand's antes, ``antes`` what they put in."""
    if after == 0:
        return gettext("The pot is empty.")
    if after == before and antes and antes == before:
        return gettext("The antes put %(units)s in the pot.", units=after)
    if after == before and antes:
        return gettext(
            "The antes raise the pot from %(was)s to %(units)s.", was=before - antes, units=after
        )
    if after == before:
        return gettext("The pot stays at %(units)s.", units=after)
    if after > before:
        return gettext("The pot grows to %(units)s.", units=after)
    return gettext("The pot is now %(units)s.", units=after)


def _goes_out(out: str, pot: int, paid_in: int, payers: Sequence[tuple[str, int]]) -> str:
    """The player out collects the pot and the payments: one sentence with the whole amount
    first, the sum the table checks ("collects 74: the pot of 40, and John pays 16, …")."""
    total = pot + paid_in
    if pot and payers:
        return gettext(
            "%(name)s goes out and collects %(units)s: the pot of %(pot)s, and %(payments)s.",
            name=out,
            units=total,
            pot=pot,
            payments=_payers_clause(payers),
        )
    if pot:
        return gettext("%(name)s goes out and collects the pot of %(pot)s.", name=out, pot=pot)
    if payers:
        return gettext(
            "%(name)s goes out and collects %(units)s: %(payments)s.",
            name=out,
            units=total,
            payments=_payers_clause(payers),
        )
    return gettext("%(name)s goes out.", name=out)


def _winners_clause(winners: Sequence[str], received: Mapping[str, int]) -> str:
    amounts = [received.get(w, 0) for w in winners]
    if len(winners) == 1:
        return gettext("%(name)s wins %(units)s", name=winners[0], units=amounts[0])
    if len(set(amounts)) == 1:
        return gettext("%(names)s win %(units)s each", names=join_names(winners), units=amounts[0])
    return _listing(list(zip(winners, amounts, strict=True)), gettext("%(name)s wins %(units)s"))


def _payers_clause(payers: Sequence[tuple[str, int]]) -> str:
    return _listing(payers, gettext("%(name)s pays %(units)s"))


def _points_summary(hand: Mapping[str, Any], *, rounds: bool, penalty: bool = False) -> str:
    winners: list[str] = list(hand.get("winners") or ())
    out = hand.get("out")
    sentences: list[str] = []
    scored = [
        (r["player"], int(r["points"]))
        for r in _in_order(hand)
        if not r.get("sitting_out") and r.get("points")
    ]
    if out and len(scored) == 1 and scored[0][0] == out:
        units = scored[0][1]
        return gettext("%(name)s goes out and scores %(units)s.", name=out, units=units)
    if out:
        sentences.append(gettext("%(name)s goes out.", name=out))
    if scored and penalty:
        (name, units), rest = scored[0], scored[1:]
        head = ngettext(
            "%(name)s gets %(num)d penalty point",
            "%(name)s gets %(num)d penalty points",
            units,
            name=name,
        )
        sentences.append(", ".join([head, *(f"{n} {u}" for n, u in rest)]) + ".")
    elif scored:
        sentences.append(_listing(scored, gettext("%(name)s scores %(units)s")) + ".")
    elif not out:
        sentences.append(gettext("Nobody scores."))
    if winners and not out:
        names = join_names(winners)
        if rounds:
            won = ngettext(
                "%(names)s wins the round.", "%(names)s win the round.", len(winners), names=names
            )
        else:
            won = ngettext(
                "%(names)s wins the hand.", "%(names)s win the hand.", len(winners), names=names
            )
        sentences.append(won)
    return " ".join(sentences)


def _in_order(hand: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(hand.get("results") or ())


def transfer_text(transfer: Mapping[str, Any], currency: str) -> str:
    """A transfer in words: "Finn pays Enda €0.38"; the pot (None) pays out or is paid into."""
    money = format_money(Decimal(str(transfer["amount"])), currency)
    source, target = transfer.get("from"), transfer.get("to")
    if source is None:
        return gettext("The pot pays %(to)s %(amount)s", to=target, amount=money)
    if target is None:
        return gettext("%(from)s pays %(amount)s into the pot", **{"from": source, "amount": money})
    return gettext(
        "%(from)s pays %(to)s %(amount)s", **{"from": source, "to": target, "amount": money}
    )


def paid_text(payment: Mapping[str, Any], currency: str) -> str:
    """A payment made at the table in words: "Finn paid Enda €0.38"."""
    money = format_money(Decimal(str(payment["amount"])), currency)
    return gettext(
        "%(from)s paid %(to)s %(amount)s",
        **{"from": payment["from"], "to": payment["to"], "amount": money},
    )


def round_text(made: Mapping[str, Any], currency: str) -> str:
    """A round in words (RULES.md §6c), from its answer or its line of history: "John paid
    €18.40 for a round for Enda, John, Rex and Finn", a share above 1 said ("Ann ×2")."""
    shares = made.get("shares") or {}
    people = join_names([f"{p} ×{shares[p]}" if shares.get(p, 1) > 1 else p for p in made["for"]])
    money = format_money(Decimal(str(made["amount"])), currency)
    said = {"payer": made["paid_by"], "amount": money, "people": people}
    if made.get("what"):
        what = made["what"]
        return gettext("%(payer)s paid %(amount)s for %(what)s for %(people)s", what=what, **said)
    return gettext("%(payer)s paid %(amount)s for %(people)s", **said)


# The night in a message to the group chat: "Thursday 26 November 2026".
NIGHT_PATTERN = "EEEE d MMMM y"


def settle_copy_text(
    title: str,
    group: str,
    night: datetime,
    owed: Sequence[str],
    kept: str | None,
    paid: Sequence[str],
) -> str:
    """The settle-up as text for the group chat: which night of which group, what is still to
    pay, the pot kept, and the payments already made (ticked)."""
    lines = [title, f"{group} · {format_date(night, NIGHT_PATTERN)}"]
    if owed:
        lines += owed
    else:
        lines.append(
            gettext("Everything is paid.") if paid else gettext("Nobody owes anybody anything.")
        )
    if kept:
        lines.append(kept)
    if paid:
        lines += ["", gettext("Paid already:"), *(f"✓ {words}" for words in paid)]
    return "\n".join(lines)


def kept_text(
    view: SessionView, keeper: str | None, pot: int, currency: str, money: Any
) -> str | None:
    """ "Enda keeps the pot of €0.81 for the next Spot night" (RULES.md §2), or None."""
    if keeper is None or not pot:
        return None
    return gettext(
        "%(name)s keeps the pot of %(amount)s for the next %(game)s night",
        name=keeper,
        amount=format_money(money, currency),
        game=text(GAMES[view.game].name),
    )


def odd_units_text(view: SessionView, units: int) -> str:
    """Where the units a refund could not share evenly go: into the pot, carried on."""
    return ngettext(
        "The %(num)d unit that could not be shared evenly stays in the pot for the next "
        "%(game)s night.",
        "The %(num)d units that could not be shared evenly stay in the pot for the next "
        "%(game)s night.",
        units,
        game=text(GAMES[view.game].name),
    )
