"""Small constructors that keep the rule table's rows short."""

from __future__ import annotations

from medvqa.reading._phrases import expansions
from medvqa.reading.rules._types import Example, Kind, Rule

__all__ = ["ex", "rule"]

Expected = str | tuple[str, ...] | None


def ex(response: str, options: str = "PE", expected: Expected = None, qtype: str = "single",
       question: str = "") -> Example:
    """One example (by default a single-choice item of the ``PE`` options, must be invalid)."""
    return Example(response, options, expected, qtype, question)


def rule(id: str, kind: Kind, phrases: tuple[str, ...] | str, doc: str, *,
         template: str | None = None, options: str = "PE", expected: Expected = None,
         qtype: str = "single", question: str = "", examples: tuple[Example, ...] = (),
         counter: tuple[Example, ...] = (), lang: str = "en") -> Rule:
    """A rule; ``template`` (with ``{}``) makes one example of each phrase's first form.

    The template shows how the phrases are used: ``"{} a pneumothorax."`` with the phrase
    "maybe" gives "Maybe a pneumothorax." (the first letter made upper case), decided as
    ``expected`` on ``options``.
    """
    words = (phrases,) if isinstance(phrases, str) else phrases
    made: list[Example] = []
    if template is not None:
        for phrase in words:
            text = template.format(expansions(phrase)[0])
            made.append(Example(text[:1].upper() + text[1:], options, expected, qtype,
                                question))
    return Rule(id, kind, words, doc, tuple(made) + examples, counter, lang)
