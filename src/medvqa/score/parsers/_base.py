"""What every parser returns, and how a parsed choice is compared with the gold answer."""

from __future__ import annotations

from typing import NamedTuple, Protocol


class ParsedAnswer(NamedTuple):
    """A parser's reading of one response.

    Attributes:
        choice: a letter; a sorted list of letters (multi) or region IDs (region); normalised
            text (open); None when the parser abstains.
        invalid: True when the parser abstained (no option named, several named, a refusal).
    """

    choice: str | list[str] | None
    invalid: bool


INVALID = ParsedAnswer(None, True)


class AnswerParser(Protocol):
    """Reads one free-text response into a choice. Instances may hold per-pass state."""

    style: str

    def parse(self, response: str, options: dict[str, str], question_type: str) -> ParsedAnswer:
        """Parse ``response`` given the options (letter → text, display order)."""
        ...


def is_correct(choice: str | list[str] | None, answer: str | list[str], question_type: str) -> bool:
    """Whether a parsed choice matches the gold answer (sets for multi and region).

    >>> is_correct(["A", "C"], ["C", "A"], "multi")
    True
    >>> is_correct(None, "A", "single")
    False
    """
    if choice is None:
        return False
    if question_type in {"multi", "region"}:
        gold = {answer} if isinstance(answer, str) else set(answer)
        got = {choice} if isinstance(choice, str) else set(choice)
        return got == gold
    if question_type == "open":
        from medvqa.score.parsers._open import normalize_answer

        return normalize_answer(str(choice)) == normalize_answer(str(answer))
    return choice == answer
