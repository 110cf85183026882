"""An answer given only as code: what a fenced code block prints, returns or assigns.

```python
answer = "C"
print(answer)
```

Models asked for an answer sometimes write a program instead: ``print("B")``, ``SELECT 'B' AS
answer``, ``const answer = "A"``, ``answer <- "E"``, ``echo "D"``, ``return ['A', 'D']``,
``return True`` to a yes/no question. :func:`code_answer` finds the option letters (or the
truth value) such a block outputs; the reader reads it only where the prose around the blocks
answers nothing (``structural.code``).

It reads nothing from a block that decides by a condition (``if``, ``else``, a ternary, a
``case``): which branch runs is not in the text. Where the block assigns or outputs more than one
value in turn (``answer = "B"`` … ``answer = "C"``), the last one is what the program ends with.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["CODE", "code_answer", "without_code"]

CODE: Final = "structural.code"
_FENCE: Final = re.compile(r"```[\w+-]*[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_CONDITION: Final = re.compile(r"\b(?:if|else|elif|elsif|case|switch|when|unless|ifelse)\b"
                               r"|\?[^?]*:")
_COMMENT: Final = re.compile(r"(?m)(?:#|//|--)[^\n]*$")
_QUOTED_LETTER = r"[\"']([A-Z])[\"']"
_COLLECTION = r"[\[{(]\s*((?:" + _QUOTED_LETTER + r"\s*,\s*)*" + _QUOTED_LETTER + r")\s*,?\s*[\]})]"
_NAMES = (r"(?:answer|answers|ans|result|prediction|predicted|pred|choice|choices|selected|"
          r"selection|final_answer|final|label|option|output)")
# a value the program ends with: assigned to an answer's name, printed, returned or selected
_VALUE: Final = re.compile(
    r"(?:\b(?:const|let|var|val|my)?\s*\$?" + _NAMES + r"\s*(?:=|<-|:=)\s*"
    r"|\b(?:print|println|echo|cat|puts|console\.log|return|yield|printf|write)\b\s*\(?\s*"
    r"|\bselect\s+(?=" + _QUOTED_LETTER + r"\s+as\s+" + _NAMES + r"\b))"
    r"(?:" + _COLLECTION + r"|" + _QUOTED_LETTER + r"|(?P<truth>true|false)\b)",
    re.IGNORECASE)


def without_code(body: str) -> str:
    """``body`` with its fenced code blocks left out: the prose around them."""
    return _FENCE.sub("\n", body)


def code_answer(body: str) -> str | None:
    """What the fenced code of ``body`` ends by outputting ("B", "A, D", "yes"), or None."""
    found: list[str] = []
    for block in _FENCE.finditer(body):
        code = _COMMENT.sub("", block.group(1))
        if _CONDITION.search(code) is not None:
            return None
        for m in _VALUE.finditer(code):
            if m.group("truth"):
                found.append("yes" if m.group("truth").lower() == "true" else "no")
            else:
                letters = re.findall(_QUOTED_LETTER, m.group())
                found.append(", ".join(letters))
    return found[-1] if found else None
