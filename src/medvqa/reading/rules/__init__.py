"""The strict reader's table of rules: each rule's words written once, with its examples.

Every rule is a :class:`Rule` row: a stable id, a :class:`Kind` (what the reader does where a
phrase occurs), its phrases (the notation of :mod:`medvqa.reading._phrases`), a sentence of
documentation, and examples with the decision the reader must reach. The reader compiles the
table once (:func:`medvqa.reading._book.book`); ``docs/answer-reading.md`` lists it
(``python -m medvqa.reading.rules`` prints that section; a test checks it is current).
"""

from __future__ import annotations

from typing import Final

from medvqa.reading.rules._commitment import COMMITMENT
from medvqa.reading.rules._discussion import DISCUSSION
from medvqa.reading.rules._languages import LANGUAGES
from medvqa.reading.rules._letters import LETTERS
from medvqa.reading.rules._negation import NEGATION
from medvqa.reading.rules._options import OPTION_SETS
from medvqa.reading.rules._sets import FINDINGS, SETS
from medvqa.reading.rules._shapes import SHAPES
from medvqa.reading.rules._structural import STRUCTURAL
from medvqa.reading.rules._types import Example, Kind, Rule

__all__ = ["OPTION_SETS", "RULES", "Example", "Kind", "Rule", "rule_by_id"]

#: Every rule, in the order the documentation lists them.
RULES: Final[tuple[Rule, ...]] = (*STRUCTURAL, *COMMITMENT, *LANGUAGES, *NEGATION,
                                  *DISCUSSION, *LETTERS, *SHAPES, *SETS, *FINDINGS)

_BY_ID: Final = {r.id: r for r in RULES}


def rule_by_id(rule_id: str) -> Rule:
    """The rule with this id.

    Raises:
        KeyError: no such rule.
    """
    return _BY_ID[rule_id]
