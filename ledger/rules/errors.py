"""The engine's one exception, for anything typed that breaks a rule, and the Phrase it speaks.

Each refusal is a template with named blanks and the values for them, not a finished string:
the API answers with the English, and a page shows the template translated (ledger/web/i18n.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, TypeAlias

# What fills a blank: a name or a number as it is, a Phrase translated in its turn, or a fact
# (cards) written in the reader's letters.
Param: TypeAlias = "str | int | Phrase | Written"


class Written:
    """A fact in a sentence that is written in the reader's card letters, not translated: cards
    or ranks (deck.py's ``Cards`` and ``Ranks``). The engine gives the fact; whoever says the
    sentence names the letters (``Phrase.render``'s ``cards``), else the fact's own, those the
    player typed it in."""

    __slots__ = ()

    def written(self, language: str | None = None) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.written()


def as_written(template: str) -> str:
    """The translator that keeps the English (the engine's own language)."""
    return template


class Phrase:
    """A sentence, or a piece of one, in English with named blanks: ``{player} went out.``

    ``template`` is the message id a catalog translates (``pybabel extract`` reads the first
    argument of every ``Phrase(...)``); ``params`` fill its blanks after translation, a nested
    Phrase translated first. ``str()`` is the English.
    """

    __slots__ = ("template", "params", "case")

    template: str
    params: dict[str, Param]
    # A piece that starts a sentence ("upper") or goes on from one ("lower"): its first letter
    # is set after translation, so the Dutch gets the same treatment as the English.
    case: Literal["upper", "lower"] | None

    def __init__(self, template: str, /, **params: Param) -> None:
        self.template = template
        self.params = params
        self.case = None

    def capitalized(self) -> Phrase:
        """This piece at the start of a sentence: "three" as "Three"."""
        return self._with_case("upper")

    def continued(self) -> Phrase:
        """This sentence after a name and a colon: "Give the suit…" as "Rex: give the suit…".

        Only a word in sentence case is lowered; a quote, a card ("Q♠") or "JK" keeps its case.
        """
        return self._with_case("lower")

    def _with_case(self, case: Literal["upper", "lower"]) -> Phrase:
        copy = Phrase(self.template, **self.params)
        copy.case = case
        return copy

    def render(self, translate: Callable[[str], str] = as_written, cards: str | None = None) -> str:
        """The text in the language ``translate`` gives (a gettext), English by default, its
        cards in the letters of ``cards`` ("nl", "de"), by default in those they were typed in.

        A translation whose blanks do not match the English falls back to the English, so a
        slip in a catalog shows English rather than breaking the page.
        """
        values = {name: _filled(value, translate, cards) for name, value in self.params.items()}
        try:
            text = translate(self.template).format(**values)
        except (KeyError, IndexError, ValueError):
            text = self.template.format(**values)
        if self.case == "upper":
            text = text[:1].upper() + text[1:]
        elif self.case == "lower" and len(text) > 1 and text[0].isupper() and text[1].islower():
            text = text[0].lower() + text[1:]
        return text

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"


def _filled(value: Param, translate: Callable[[str], str], cards: str | None) -> str | int:
    if isinstance(value, Phrase):
        return value.render(translate, cards)
    if isinstance(value, Written):
        return value.written(cards)
    return value


def phrase_of(template: str | Phrase, params: dict[str, Param]) -> Phrase:
    """An exception's message as a Phrase: a template and its params, or a Phrase made before."""
    if isinstance(template, Phrase):
        if params:
            raise TypeError("give the params in the Phrase, not beside it")
        return template
    return Phrase(template, **params)


class PhrasedError(Exception):
    """An exception whose message is a Phrase: ``phrase`` (the template and its values, for a
    page to translate), ``message`` (the English, as the API answers it) and ``field`` (the
    input it concerns, in the API's notation, when there is one)."""

    def __init__(
        self, template: str | Phrase, /, *, field: str | None = None, **params: Param
    ) -> None:
        self.phrase = phrase_of(template, params)
        self.message = self.phrase.render()
        super().__init__(self.message)
        self.field = field

    @property
    def template(self) -> str:
        return self.phrase.template

    @property
    def params(self) -> dict[str, Param]:
        return self.phrase.params

    def __str__(self) -> str:
        return self.message


class RuleError(PhrasedError, ValueError):
    """A hand, a card or an option that the rules do not allow.

    ``phrase`` is the sentence a player reads, as a template with named blanks and the values
    that fill them (``RuleError("{player} is seated twice.", players=(p,), player=p)``), so a
    page can translate it; ``message`` is that sentence in English, as the API answers it.
    ``field`` points at the input it concerns, in the API's notation (``results[2].cards``,
    ``options.ante``), when there is one; ``players`` names the players it concerns, so a page
    can show it beside them. Neither name can be a blank in the template.

    ``problems`` is every problem found in the same entry (RULES.md §1, "Every mistake at
    once"), each a RuleError with its own field and players, this one first: a caller that
    reads only the error itself still gets the first problem.
    """

    problems: tuple[RuleError, ...]

    def __init__(
        self,
        template: str | Phrase,
        /,
        *,
        field: str | None = None,
        players: tuple[str, ...] = (),
        **params: Param,
    ) -> None:
        super().__init__(template, field=field, **params)
        self.players = players
        self.problems = (self,)


def every_problem(problems: Iterable[RuleError]) -> RuleError:
    """One RuleError to raise for all ``problems`` of an entry (each one problem, in the
    order found: ``Problems`` spreads out a refusal that carries several): the first,
    carrying them all."""
    found = list(problems)
    if not found:
        raise ValueError("no problem to raise")
    first = found[0]
    first.problems = tuple(found)
    return first


class Problems:
    """The problems found so far while checking one entry, to refuse it once with all of them.

    ``add`` takes a RuleError caught from one check, so the checks after it still run;
    ``raise_found`` ends the checking with every problem found, if there is one.
    """

    def __init__(self) -> None:
        self.found: list[RuleError] = []

    def __bool__(self) -> bool:
        return bool(self.found)

    def add(self, error: RuleError) -> None:
        self.found.extend(error.problems)

    def raise_found(self) -> None:
        if self.found:
            raise every_problem(self.found)
