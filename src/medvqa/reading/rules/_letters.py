"""Rules about letters: where a letter is an option letter, and what is not an answer."""

from __future__ import annotations

from medvqa.reading.rules._build import rule
from medvqa.reading.rules._types import Kind

__all__ = ["LETTERS"]

LETTERS = (
    rule("letter.keyword", Kind.LETTER_KEYWORD,
         ("answer", "answers", "option", "options", "choice", "choices", "letter", "therefore",
          "thus", "hence", "both", "it is", "it's"),
         "After these words a letter of either case is an option letter ('option b', "
         "'therefore B', 'it is C').",
         template="{} b, given the apex.", options="CXR", expected="B"),
    rule("letter.explanation", Kind.EXPLANATION,
         ("explanation :", "reasoning :", "rationale :", "reason :", "justification :"),
         "LMOD's 'FIELD; Explanation: …': only the field before it is read for the answer.",
         template="Stage 3; {} the hole is larger than in stage 2.", options="ST", expected="C"),
)
