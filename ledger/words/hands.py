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
from typing import Any

from flask_babel import gettext, ngettext

from ledger.rules import (
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
from ledger.words.language import said as say


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
        return " ".join(map(say, said))
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
        sentences.append(_the_pot_now(story))
    return " ".join(sentences)


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
    # Every movement: between players, and into the pot (the antes, the odd units); a hand
    # given with its payments alone has no antes to tell.
    given = hand.get("movements", hand.get("payments")) or ()
    moved = [Movement(m["from"], m["to"], int(m["units"])) for m in given]
    return pot_story(
        results,
        hand.get("out"),
        list(hand.get("winners") or ()),
        moved,
        hand.get("pot_before"),
        hand.get("pot_after"),
    )


def _who_won(story: PotStory) -> str:
    """The first sentence: who went out or won, and who paid them what."""
    winners, payers = list(story.winners), story.paid
    if story.out_wins_alone and story.out is not None:
        return _goes_out(story.out, story.taken, story.collected, payers)
    if not winners:
        return gettext("Nobody wins this hand.")
    if not payers:
        if story.out is None and len(winners) > 1:
            return gettext("Everyone ties: nobody pays.")
        return ngettext(
            "%(names)s wins.", "%(names)s win.", len(winners), names=join_names(winners)
        )
    return _winners_clause(winners, story.received) + ": " + _payers_clause(payers) + "."


def _the_pot_now(story: PotStory) -> str:
    """The pot after the hand, from the pot after its antes (``pot_before``) and before them."""
    before, after, was = story.pot_before, story.pot_after, story.pot_before_antes
    if after == 0:
        return gettext("The pot is empty.")
    if after == before and story.antes and was == 0:
        return gettext("The antes put %(units)s in the pot.", units=after)
    if after == before and story.antes:
        return gettext("The antes raise the pot from %(was)s to %(units)s.", was=was, units=after)
    if after == before:
        return gettext("The pot stays at %(units)s.", units=after)
    if after is not None and before is not None and after > before:
        return gettext("The pot grows to %(units)s.", units=after)
    return gettext("The pot is now %(units)s.", units=after)


def _goes_out(out: str, pot: int, total: int, payers: Sequence[tuple[str, int]]) -> str:
    """The player out collects the pot and the payments (``total``, the engine's story's):
    one sentence with the whole amount first, the sum the table checks ("collects 74: the pot
    of 40, and John pays 16, …")."""
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
