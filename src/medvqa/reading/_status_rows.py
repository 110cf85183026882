"""A response made only of each option's status, written in a form the row reader does not read.

"A. Present. B. Present. C. Absent." (the rows run on one line), "A: T⏎B: F" (the statuses as
single letters, which would read as option letters) and "False: A, B, C⏎True: D" (options
grouped under their status): each is a table of one status per option. :func:`as_status_rows`
writes it as the rows the reader reads ("A: true⏎B: false …"), one option a line; anything
else in the response, a status the table does not know, or an option given two statuses
leaves it as it was.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["as_status_rows"]

_TRUE: Final = frozenset({"true", "t", "present", "yes", "correct", "positive", "y"})
_FALSE: Final = frozenset({"false", "f", "absent", "no", "incorrect", "negative", "n"})
_STATUS: Final = "(?:" + "|".join(sorted(_TRUE | _FALSE, key=lambda w: (-len(w), w))) + ")"
# one option's row: its letter, a separator, its status, the row's end (a reason after a dash:
# "D) YES — air foci")
_ROW: Final = re.compile(r"[ \t]*(?:[-*\u2022][ \t]*)?(?P<letter>[A-Z])[ \t]*"
                         r"[.:)\u2013\u2014-][ \t]*(?P<status>" + _STATUS
                         + r")\b[ \t]*(?:[.;,]|[ \t]*[\u2014\u2013][^\n]*)?[ \t]*\n?",
                         re.IGNORECASE)
# options grouped under their status: "False: A, B, C"
_GROUP: Final = re.compile(r"[ \t]*(?P<status>true|false|present|absent|correct|incorrect)[ \t]*:"
                           r"[ \t]*(?P<letters>[A-Z](?:[ \t]*,[ \t]*[A-Z])*)[ \t]*[.;]?[ \t]*\n?",
                           re.IGNORECASE)


def _rows(body: str, pattern: re.Pattern[str]) -> list[re.Match[str]] | None:
    """The matches of ``pattern`` that make up the whole of ``body``, or None."""
    out, at = [], 0
    while at < len(body):
        m = pattern.match(body, at)
        if m is None or m.end() == at:
            return None
        out.append(m)
        at = m.end()
    return out


def as_status_rows(body: str) -> str | None:
    """``body`` as one option's status a line, where it is only such a table; else None."""
    text = body.strip()
    if len(text) > 600 or not text:
        return None
    statuses: dict[str, bool] = {}
    rows = _rows(text, _ROW)
    if rows is not None and len(rows) >= 2:
        for m in rows:
            letter, status = m.group("letter"), m.group("status").lower()
            if letter in statuses:
                return None
            statuses[letter] = status in _TRUE
    else:
        groups = _rows(text, _GROUP)
        if groups is None or len(groups) < 2:
            return None
        for m in groups:
            for letter in re.findall(r"[A-Z]", m.group("letters")):
                if letter in statuses:
                    return None
                statuses[letter] = m.group("status").lower() in _TRUE
    return "\n".join(f"{k}: {'true' if v else 'false'}" for k, v in statuses.items())
