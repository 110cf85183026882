r"""Dialogues: lines opened by speakers' roles ("Resident: …", "Attending: …").

A response written as a consultation gives answers on the way ("Resident: I'd call this C")
that the dialogue then settles ("Attending: look again …", "Final answer (consensus): D").
:func:`speaker_lines` finds the speakers' lines, so that the reader compares the final answer
only with what follows it, not with the speakers' earlier answers (``structural.dialogue``).

>>> from medvqa.reading._book import book
>>> [(s, e) for s, e, _ in speaker_lines("Resident: C?\nAttending: D.\nFinal: D", book())]
[(0, 12), (13, 26)]
>>> speaker_lines("Answer: C\nReason: the margin", book())
[]
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._book import RuleBook
from medvqa.reading.rules import Kind

__all__ = ["speaker_lines"]

# A line opened by a label of up to four words and a colon ("Dr Lee:", "**Attending**:",
# "Reader 2:"), its role one of the rule table's speakers.
_LABEL: Final = re.compile(r"(?m)^[ \t]*(?:\*\*|__)?([A-Za-z][\w.'\-]*(?:[ \t]+[\w.'\-]+){0,3})"
                           r"(?:\*\*|__)?[ \t]*(?:\([^)\n]{0,30}\))?[ \t]*:[^\n]*")


def speaker_lines(body: str, bk: RuleBook) -> list[tuple[int, int, str]]:
    """(start, end, speaker) of each speaker's line where two or more speakers talk, else []."""
    if body.count(":") < 2:
        return []
    roles = frozenset(bk.sources(Kind.SPEAKER))
    found = []
    for m in _LABEL.finditer(body):
        label = m.group(1).lower()
        if any(word in roles for word in re.findall(r"[a-z]+", label)):
            found.append((m.start(), m.end(), label))
    return found if len({label for _, _, label in found}) >= 2 else []
