r"""The reader's anchored patterns, assembled from the rule table's phrases and their glue.

Some rules are matched at a known place rather than searched: a negation right after a
mention ("X is ruled out": verbs and adverbs between, :class:`~.rules.Kind.NEG_AFTER_VERB`), a
status after a mention written as a label ("X: excluded"), a negation opening a list of short
noun phrases. Their words come from the table; the glue between them (punctuation, the order
of verb and status) is written here, once. :func:`patterns` builds them for a book.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._book import RuleBook
from medvqa.reading.rules import Kind

__all__ = ["ANSWER_LEAD", "Patterns", "patterns"]

# "X and Y are excluded": the other option, blanked, stands between (three spaces or more),
# not "X and not Y".
_COORDINATED: Final = r"(?:\s*(?:,|;|and|or|nor|&)\s{2,})*"
_SIGN_STATUS: Final = r"[:(\[|][ \t]*(?:-|\u2212|0)(?=[ \t]*(?:$|[;!?\n)\]|]|[.,](?!\d)))"
_STATUS_END: Final = r"(?=[ \t]*(?:$|[.;,!?\n)\]]|(?:given|because|since|due|as|based)\b))"
#: Marks that strike out the option after them or beside them (✗ ✘ ❌ ✖) and an empty box (☐).
STATUS_MARKS: Final = "\u2717\u2718\u274c\u2716"
_NEG_MARKS: Final = STATUS_MARKS + "\u2610"
_LIST_ITEM: Final = (r"(?:(?!\b(?:is|are|was|were|be|been|has|have|had|shows?|showing|seen|noted"
                     r"|identified|likely|but|which|that|so|answer|it)\b)[a-z0-9'\- ]){1,40}")


#: The answer lead a text may open with ("The correct answer is:", "Answer -").
ANSWER_LEAD: Final = (r"(?:(?:the\s+)?(?:final\s+|correct\s+|best\s+|right\s+)?"
                      r"(?:answers?|options?|choices?)\s*(?:is|are|would\s+be|:|=|-)?\s*:?\s*)")
# (a letter may be quoted, as code prints it: "D", 'C')
_ONE_LETTER: Final = r"(?:[(\[]?[A-Za-z][)\]]?|\"[A-Za-z]\"|'[A-Za-z]'|`[A-Za-z]`)"
# A list item's bullet or number opening a line of letters.
_ITEM: Final = r"(?:[ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+)?"


# Words of other languages' "or" that are English words (or abbreviations) as well.
_ENGLISH: Final = frozenset({"of", "ou"})


def _group(sources: list[str]) -> str:
    return "(?:" + "|".join(sources) + ")" if sources else "(?!)"


class Patterns:
    """The anchored patterns of one book (see the module docstring).

    Attributes:
        neg_after: matched right after a mention: a negation after verbs and adverbs.
        neg_after_verb: after a letter and its punctuation ("A. is ruled out"): a verb first.
        status_after: matched at a mention's end on its line: a status that negates it.
        mark_before: searched in the few characters before a mention: a cross or empty box.
        negated_list: a negation before a list of short noun phrases.
        set_range: a range of letters ("A to C", "C-E"; ``set.range``).
        only_letters: a whole text of letters, joined by the table's list joiners.
        neg_after_ids: the rule ids of ``neg_after``'s alternatives (by group name).
    """

    def __init__(self, bk: RuleBook):
        self.book = bk
        verbs = _group([p.pattern.pattern.replace("(?<!\\w)", "").replace("(?!\\w)", "")
                        for _, p in bk.entries(Kind.NEG_AFTER_VERB)])
        adverbs = _group([p.pattern.pattern.replace("(?<!\\w)", "").replace("(?!\\w)", "")
                          for _, p in bk.entries(Kind.NEG_AFTER_ADVERB)] + ["[a-z]+ly"])
        glue = rf"{_COORDINATED}(?:{verbs}(?:\s+{adverbs})*[\s'\"]+)?"
        after = bk.alternation([Kind.NEG_AFTER])
        self.neg_after = re.compile(
            r"[\s)\]*'\"]*" + glue + "(?:" + after + r")(?!\s+(?:be\s+|been\s+)?(?:excluded"
            r"|ruled\s+out|eliminated|dismissed))", re.IGNORECASE)
        self.neg_after_verb = re.compile(
            r"[\s.)\]:*'\"]+" + rf"{verbs}(?:\s+{adverbs})*[\s'\"]*" + "(?:" + after
            + ")", re.IGNORECASE)
        statuses = [p.pattern.pattern for _, p in bk.entries(Kind.STATUS)]
        weak = [s for s, (_, p) in zip(statuses, bk.entries(Kind.STATUS), strict=True)
                if p.source.split()[0] in ("no", "not", "none", "neg")]
        strong = [s for s in statuses if s not in weak]
        # "no" ends the clause, or it may open another option's negation ("X: no Y seen")
        weak = [s + r"(?=[ \t]*(?:$|[.;,!?\n)\]]))" if _opens_with_no(s) else s for s in weak]
        self.status_after = re.compile(
            r"[ \t)\]*'\"]*(?:" + _SIGN_STATUS
            + r"|(?::|\(|\[|->|=>|=|\||\u2192|[ \t][\u2014\u2013-]+[ \t]|[\u2014\u2013])"
            + r"[ \t'\"(*\[]*"
            + _group(strong + weak)
            + r"|[,;][ \t]*(?:(?:which|that)\s+(?:is|was|are|were|has\s+been|have\s+been)\s+)?"
            + _group(strong) + _STATUS_END
            + r"|[ \t]*[:(\[]?[ \t]*[" + STATUS_MARKS + "])", re.IGNORECASE)
        self.mark_before = re.compile(r"(?:[" + _NEG_MARKS
                                      + r"]|\[ \])[ \t]*(?:[a-z][.):][ \t]*)?$")
        list_words = sorted(bk.words[Kind.NEG_NOUN] & {"no", "without"}
                            | bk.words[Kind.NEG_BEFORE] & {"not", "never", "neither", "nor"})
        self.list_words = frozenset(list_words)
        self.negated_list = re.compile(
            r"\b(?:" + "|".join(list_words) + r")\b" + _LIST_ITEM + r"(?:," + _LIST_ITEM
            + r"){1,8},?\s*\b(?:or|nor|and)\b") if list_words else re.compile("(?!)")
        self.status_words = bk.words[Kind.STATUS]
        #: Words that may follow an answer letter outside a name: connectives, negations.
        self.letter_free = (bk.words[Kind.LETTER_CONNECTIVE] | bk.words[Kind.NEG_AFTER]
                            | bk.words[Kind.STATUS] | bk.words[Kind.LIST_JOIN])
        ors = [p.pattern.pattern for r, p in bk.entries(Kind.ALTERNATIVE) if r == "alternative.or"]
        either = _group(ors)
        #: "or" (the rule table's ``alternative.or``) right after a mention (an aside in brackets,
        #: a comma or dash between allowed), or within two words before one.
        # right after a mention, "or" of any language ("4 или 5", "IIa または IIb"), but the
        # Dutch "of" and the French "ou", English words too ("pneumothorax of the left lung",
        # "severe NPDR OU": both eyes)
        ors_after = ors + [p.pattern.pattern for r, p in bk.entries(Kind.ALTERNATIVE)
                           if r == "alternative.other-languages" and p.source not in _ENGLISH]
        self.or_after = re.compile(r"[\s()\[\]*,;.\u2026\u2013\u2014-]*"
                                   r"(?:\([^()]{0,60}\)[\s,.\u2026]*)?(?:and/)?"
                                   + _group(ors_after) + r"(?!\s+not\b)")
        self.or_word = re.compile(_group(ors_after))
        self.or_before = re.compile(r"(?:and/)?" + either + r"\s+(?:\w+\s+){0,2}$")
        words = "|".join(re.escape(w) for w in sorted(bk.words[Kind.LIST_JOIN], key=len,
                                                      reverse=True) if len(w) > 1)
        # (a list's bullet or number may open each line: "- A⏎- D", "1) A⏎2) D")
        separator = (r"(?:\s*(?:,|;|/|&|\||\+|\n" + _ITEM + (rf"|\b(?:{words})\b" if words else "")
                     + "|" + either + r")\s*|\s+)")
        #: The whole text is letters: "B", "(B).", "Answer: A, C", "The answers are A und C",
        #: a set in braces ("{A, B}").
        self.only_letters = re.compile(
            rf"^\s*{ANSWER_LEAD}?(?:option\s+|choice\s+)?{_ITEM}(?:\{{\s*(?=[^{{}}]*\}}))?"
            rf"({_ONE_LETTER}(?:{separator}{_ONE_LETTER})*)(?:\s*\}})?[\s.!:;,]*$",
            re.IGNORECASE)
        joins = "|".join(p.pattern.pattern.replace("(?<!\\w)", r"\b").replace("(?!\\w)", r"\b")
                         for _, p in bk.entries(Kind.SET_RANGE)) or "(?!)"
        # (within a line: "- A⏎- D" is a list of two, not A to D)
        self.set_range = re.compile(r"(?<![A-Za-z])([A-Z])[ \t]*(?:" + joins
                                    + r")[ \t]*([A-Z])(?![A-Za-z])")


def _opens_with_no(source: str) -> bool:
    return source.replace("(?<!\\w)", "").startswith("no") and not source.replace(
        "(?<!\\w)", "").startswith(("none", "not"))


def holds_neg_mark(text: str) -> bool:
    """Whether ``text`` holds a mark :attr:`Patterns.mark_before` looks for."""
    return "[ ]" in text or not text.isascii() and any(m in text for m in _NEG_MARKS)


@lru_cache(maxsize=16)
def patterns(bk: RuleBook) -> Patterns:
    """The anchored patterns of a book, built once."""
    return Patterns(bk)
