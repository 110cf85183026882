"""Rules about letters: where a letter is an option letter, and what is not an answer."""

from __future__ import annotations

from medvqa.reading.rules._build import ex, rule
from medvqa.reading.rules._types import Kind

__all__ = ["LETTERS"]

_CONNECTIVES = (
    "and", "or", "because", "since", "as", "is", "was", "are", "with", "for", "but", "which",
    "given", "due", "seems", "appears", "would", "here", "then", "now", "too", "also", "only",
    "again", "instead", "indeed", "clearly", "definitely", "certainly", "in", "on", "at", "from",
    "per", "based", "to", "this", "that", "it", "not", "looks", "fits", "best", "seem",
    "appear", "being", "has", "had", "will", "should", "could", "might", "may")
# The letter is read, then another rule decides: "B or …" (alternatives), "B would …"
# (discussed), "B not …" (negated).
_NOT_READ = ("or", "would", "not")

LETTERS = (
    rule("letter.keyword", Kind.LETTER_KEYWORD,
         ("answer", "answers", "option", "options", "choice", "choices", "letter", "therefore",
          "thus", "hence", "both", "it is", "it's", "this is", "changing to", "switching to",
          "letra", "lettre", "buchstabe",
          "opción", "opzione", "optie", "вариант", "選項", "选项"),
         "After these words a letter of either case is an option letter ('option b', "
         "'therefore B', 'it is C').",
         template="{} b, given the apex.", options="CXR", expected="B"),
    rule("letter.connective", Kind.LETTER_CONNECTIVE, _CONNECTIVES,
         "Words that may follow an answer letter without making it part of a name: 'B because "
         "…' is the letter B, 'T cell' is no letter (nor is 'A mass').",
         examples=tuple(ex(f"Therefore B {w} the apex shows a line.", "CXR",
                           None if w in _NOT_READ else "B")
                        for w in _CONNECTIVES)),
    rule("letter.list-join", Kind.LIST_JOIN,
         ("and", "y", "et", "und", "ve", "en", "og", "och", "и", "e", "i", "oraz", "și",
          "ja", "και", "dan"),
         "Words that join a list of letters in many languages ('A y B', 'A und C'): joiners, "
         "not letters.",
         examples=tuple(ex(f"A {w} C", "MULTI", ("A", "C"), "multi")
                        for w in ("and", "y", "et", "und", "ve", "en", "og", "och", "и", "i",
                                  "oraz", "și", "ja", "και", "dan"))
         + (ex("A e C", "MM", ("A", "C"), "multi"),)),
    rule("letter.explanation", Kind.EXPLANATION,
         ("explanation :", "reasoning :", "rationale :", "reason :", "justification :"),
         "LMOD's 'FIELD; Explanation: …': only the field before it is read for the answer.",
         template="Stage 3; {} the hole is larger than in stage 2.", options="ST", expected="C"),
)
