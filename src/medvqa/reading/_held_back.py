"""A letter held back beside a set of letters leaves the set uncommitted.

"A, B (C if that patch counts)", "B, C ± D", "A, B, C, D (and E?)": one option is neither in
the set nor out of it — in brackets with a condition, a doubt or a question mark, or after
"±". A multiple-choice answer that holds one is not committed
(``structural.bracketed-letter``, whose bare form is "A, C, (D)").
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._options import OptionSet

__all__ = ["held_back"]

# "(C if …)", "(and E?)", "(maybe D)", "(possibly D)", "(+ E?)": a letter in brackets that a
# condition, a doubt or a question mark keeps open
_IN_BRACKETS: Final = re.compile(
    r"\(\s*(?:and\s+|or\s+|\+\s*|maybe\s+|possibly\s+|perhaps\s+|probably\s+)?([A-Z])"
    r"(?![\w'\u2019])([^()\n]{0,80})\)")
_OPEN_WORDS: Final = re.compile(r"\?|\b(?:if|unless|maybe|possibly|perhaps|probably|borderline"
                                r"|equivocal|questionable)\b", re.IGNORECASE)
_PLUS_MINUS: Final = re.compile(r"\u00b1\s*([A-Z])(?![\w'\u2019])")


def held_back(body: str, ix: OptionSet) -> bool:
    """Whether ``body`` holds an option letter kept open beside its set (the docstring)."""
    if "(" not in body and "\u00b1" not in body:
        return False
    for m in _PLUS_MINUS.finditer(body):
        if m.group(1) in ix.keys:
            return True
    for m in _IN_BRACKETS.finditer(body):
        if m.group(1) not in ix.keys:
            continue
        lead = body[m.start():m.start(1)]
        if _OPEN_WORDS.search(m.group(2)) or _OPEN_WORDS.search(lead) or lead.strip(
                "( ").startswith(("and", "or", "+")) and "?" in m.group(2):
            return True
    return False
