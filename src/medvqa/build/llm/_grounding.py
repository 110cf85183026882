"""Report grounding checks (seed 003): keep a value only when a quote of the report supports it.

An extracted value or a generated answer is kept only when a quoted span of the report
supports it.

A span is *in* the report when, after lower-casing and collapsing whitespace, it is a substring
of the report (quotes stripped; at least 3 characters). Support then depends on what is checked:
a schema value needs the value, one of its aliases or (binary fields) one of the field's terms
in the span, on word boundaries; an MCQ answer needs at least half of the answer's content
words (3+ letters) in the span.
"""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")


def normalize(text: str) -> str:
    """Lower-case, straight quotes removed at the ends, whitespace collapsed."""
    return _WS.sub(" ", text.lower()).strip().strip("\"'“”‘’ .")


def span_in_text(span: str, text: str) -> bool:
    """True when ``span`` (normalised, ≥ 3 characters) occurs in ``text``.

    >>> span_in_text("  Washout on the portal", "…shows WASHOUT on the portal venous phase")
    True
    """
    s = normalize(span)
    return len(s) >= 3 and s in _WS.sub(" ", text.lower())


def mentions(span: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``span`` on word boundaries (case-insensitive)."""
    p = normalize(phrase)
    return (
        bool(p)
        and re.search(rf"(?<![a-z0-9]){re.escape(p)}(?![a-z0-9])", normalize(span)) is not None
    )


def answer_supported(answer: str, span: str, min_share: float = 0.5) -> bool:
    """True when at least ``min_share`` of the answer's content words (3+ letters) are in span.

    >>> answer_supported("Right upper lobe", "a 7 mm solid nodule in the right upper lobe")
    True
    """
    words = [w for w in _WORD.findall(answer.lower()) if len(w) >= 3 or any(c.isdigit() for c in w)]
    if not words:
        return mentions(span, answer)
    have = set(_WORD.findall(span.lower()))
    return sum(w in have for w in words) / len(words) >= min_share
