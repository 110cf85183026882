"""What every parser returns, and how a parsed choice is compared with the gold answer."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Final, NamedTuple, Protocol


class ParsedAnswer(NamedTuple):
    """A parser's reading of one response.

    Attributes:
        choice: a letter; a sorted list of letters (multi) or region IDs (region); normalised
            text (open); None when the parser abstains.
        invalid: True when the parser abstained (no option named, several named, a refusal).
        reason: why it abstained (one of :data:`REASONS`); None when it read an answer, and
            for parsers that do not say (the published-scorer styles).
        rule: the id of the strict reader's rule that decided (``medvqa.reading.RULES``), or
            None (other styles, and readings no one rule decided).
    """

    choice: str | list[str] | None
    invalid: bool
    reason: str | None = None
    rule: str | None = None


#: Why a parser abstains. Only :data:`WANTS_READING` reasons may be handed to an LLM extractor:
#: the others are decisions the rules made (a refusal, a hedge, a negation, two options …).
REASONS: Final[dict[str, str]] = {
    "empty": "the response is empty (nothing to read)",
    "refusal": "the model declines or says it cannot see or tell",
    "hedge": "the model does not commit (maybe, could be, X cannot be excluded …)",
    "negated": "every option named is negated or ruled out",
    "ambiguous": "two or more options are chosen, or one is both chosen and negated",
    "out_of_range": "a letter that is not among the options (the answer is E with A–D)",
    "not_committed": "a reasoning trace with no answer after it, or a later change of mind",
    "no_answer": "no option is named in a way the rules can read",
    "not_text": "the response is not text (a number, null, an object)",
    "too_long": "the response is longer than any answer (a runaway generation)",
}
#: Abstentions for want of a reading: the only ones an extractor may be asked about.
WANTS_READING: Final = frozenset({"no_answer"})

INVALID: Final = ParsedAnswer(None, True)
_ABSTENTIONS: Final = {r: ParsedAnswer(None, True, r) for r in REASONS}


# One reading per chosen letter, shared: it is immutable, and building a NamedTuple runs in the
# interpreter even from compiled code (a tenth of the cost of reading a plain sentence).
_CHOSEN: Final[dict[tuple[str, str | None], ParsedAnswer]] = {}
_CHOSEN_SIZE: Final = 4096


def one_choice(letter: str, rule: str | None = None) -> ParsedAnswer:
    """The reading that chose the one option ``letter`` (by ``rule``).

    >>> one_choice("B", "structural.letters")
    ParsedAnswer(choice='B', invalid=False, reason=None, rule='structural.letters')
    """
    key = (letter, rule)
    got = _CHOSEN.get(key)
    if got is None:
        got = ParsedAnswer(letter, False, None, rule)
        if len(_CHOSEN) < _CHOSEN_SIZE:
            _CHOSEN[key] = got
    return got


def abstain(reason: str, rule: str | None = None) -> ParsedAnswer:
    """An abstention with its reason (one of :data:`REASONS`) and the rule that decided it.

    >>> abstain("hedge")
    ParsedAnswer(choice=None, invalid=True, reason='hedge', rule=None)
    """
    if rule is None:
        got = _ABSTENTIONS.get(reason)
        return got if got is not None else ParsedAnswer(None, True, reason)
    return ParsedAnswer(None, True, reason, rule)


class AnswerParser(Protocol):
    """Reads one free-text response into a choice. Instances may hold per-pass state.

    Attributes:
        style: the registry name.
        compares_text: True when a choice is judged by its option text rather than its letter
            (pathmmu): pass the options to :func:`is_correct` as ``texts``.
    """

    style: str
    compares_text: bool

    def parse(self, response: str, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """Parse ``response`` given the options (letter → text, display order).

        ``question`` is the item's question where known (the strict style reads findings that
        answer a yes/no question only when they are what was asked); "" when unknown.
        """
        ...


_ARTICLES: Final = re.compile(r"\b(?:a|an|the)\b")
_PUNCT: Final = str.maketrans({c: " " for c in string.punctuation})


def normalize_answer(text: str) -> str:
    """Lower-case, drop punctuation and articles, collapse white space."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


def is_correct(choice: str | list[str] | None, answer: str | list[str], question_type: str, *,
               texts: Mapping[str, str] | None = None) -> bool:
    """Whether a parsed choice matches the gold answer (sets for multi and region).

    With ``texts`` (letter → option text) a single choice is right when its option text equals
    the gold option's text, as PathMMU scores: two options with the same text are both right.

    >>> is_correct(["A", "C"], ["C", "A"], "multi")
    True
    >>> is_correct(None, "A", "single")
    False
    >>> is_correct("C", "A", "single", texts={"A": "Steatosis", "B": "Normal", "C": "Steatosis"})
    True
    """
    if choice is None:
        return False
    if question_type in {"multi", "region"}:
        gold = {answer} if isinstance(answer, str) else set(answer)
        got = {choice} if isinstance(choice, str) else set(choice)
        return got == gold
    if question_type == "open":
        return normalize_answer(str(choice)) == normalize_answer(str(answer))
    if texts is not None and isinstance(choice, str) and isinstance(answer, str):
        return texts.get(choice, choice) == texts.get(answer, answer)
    return choice == answer
