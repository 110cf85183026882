"""A forced choice: "if I had to choose", "if forced to pick, B" commits; other conditions do not.

One alternation of the words that say the choice is forced, used after the condition word
("B, if I had to choose one") and before a pick verb that opens the answer ("If forced to
choose one, D").

>>> bool(FORCED_AFTER_IF.match(" forced to pick")), bool(FORCED_AFTER_IF.match(" the node is"))
(True, False)
>>> forced_pick("if forced to choose one, d", 13)
(3, 24)
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["FORCED_AFTER_IF", "forced_pick"]

_PRESSED: Final = r"(?:forced|pressed|asked|pushed|made)"
#: What follows "if" in a forced choice, which commits ("if I had to choose", "if forced").
FORCED_AFTER_IF: Final = re.compile(
    rf"\s*(?:i\s+(?:had|have|must|were)\b|{_PRESSED}\b|one\s+must|you\s+(?:want|need|insist))")
# Before a pick verb: "forced to", "I had to" (the verb itself is the rule table's pick).
_BEFORE_PICK: Final = re.compile(rf"\b(?:i\s+(?:had|have|must)|{_PRESSED})\s+to\s+$")
_WORD_END: Final = re.compile(r"\w*")
# After it, the object set aside so that the answer alone follows: "one,", "an answer:".
_OBJECT: Final = re.compile(r"(?:\s+(?:one|a\s+single\s+one|an?\s+(?:single\s+)?"
                            r"(?:answer|option)))?\s*[,:]")


def forced_pick(lowered: str, verb: int, verb_end: int | None = None) -> tuple[int, int] | None:
    """(start, content start) of a forced pick whose verb spans ``lowered[verb:verb_end]``.

    ``verb_end`` defaults to the end of the word at ``verb``. None where the verb is not
    preceded by a forced choice's words or not followed by a comma or colon.
    """
    before = _BEFORE_PICK.search(lowered, max(0, verb - 16), verb)
    if before is None:
        return None
    if verb_end is None:
        word = _WORD_END.match(lowered, verb)
        verb_end = word.end() if word is not None else verb
    end = verb_end
    after = _OBJECT.match(lowered, end)
    return None if after is None else (before.start(), after.end())
