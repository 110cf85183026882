"""Report grounding checks (seed 003): keep a value only when a quote of the report supports it.

An extracted value or a generated answer is kept only when a quoted span of the report
supports it, and supports it with the right polarity.

A span is *in* the report when, after lower-casing and collapsing whitespace, it is a substring
of the report (quotes stripped; at least 3 characters). Support then depends on what is checked,
and every mention is read in the report, not in the quote alone, so cutting "washout" out of
"No washout" does not turn it positive (negation rules: :mod:`medvqa.curate.llm._negation`):

* a schema value needs a mention of the value, one of its aliases or (binary fields) one of
  the field's terms inside the span. ``yes`` and every multi value assert presence: at least one
  mention must be affirmed and none negated. ``no`` needs a negated mention and no affirmed
  one. Hedged mentions ("possible washout") support neither.
* an MCQ answer needs at least two thirds of its content words (3+ letters or a digit,
  negation and hedge words excluded; an answer with none is never supported) in the span,
  each with the polarity it has in the answer: the answer "Washout" is not supported by
  "No washout", the answer "No washout" is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from medvqa.curate.llm._negation import (
    HEDGES,
    POST_NEGATION,
    PRE_NEGATION,
    NegationScope,
    Polarity,
    collapse,
    mention_polarities,
)

_WS = re.compile(r"\s+")
_CLAUSE_END = re.compile(r"[.;:!?](?=\s|$)|,\s|\n")
_HEADER = re.compile(r"(?<![A-Za-z])[A-Z][A-Z /]{2,}:")
_CUE_WORDS = frozenset(w for p in (*PRE_NEGATION, *POST_NEGATION, *HEDGES) for w in p.split())


def normalize(text: str) -> str:
    """Lower-case, straight quotes removed at the ends, whitespace collapsed."""
    return _WS.sub(" ", text.lower()).strip().strip("\"'“”‘’ .")


def span_in_text(span: str, text: str) -> bool:
    """True when ``span`` (normalised, ≥ 3 characters) occurs in ``text``.

    >>> span_in_text("  Washout on the portal", "…shows WASHOUT on the portal venous phase")
    True
    """
    s = normalize(span)
    return len(s) >= 3 and s in collapse(text)


def span_offsets(span: str, text: str) -> list[tuple[int, int]]:
    """(start, end) of every occurrence of the normalised ``span`` in ``collapse(text)``."""
    s, t = normalize(span), collapse(text)
    if len(s) < 3:
        return []
    out, at = [], t.find(s)
    while at >= 0:
        out.append((at, at + len(s)))
        at = t.find(s, at + 1)
    return out


def report_quotes(text: str) -> list[str]:
    """The report's clauses (split at ``. ; : ! ?``, commas and line breaks), in order, unique.

    Offered to constrained decoding as the only allowed evidence strings, so a local model
    quotes the report instead of writing "yes"; the grounding check still judges them.
    Section headers (capitals and a colon, such as ``FINDINGS:``) are left out.

    >>> report_quotes("FINDINGS: No washout. Capsule, LR-4. IMPRESSION: LR-TIV.")
    ['No washout', 'Capsule', 'LR-4', 'LR-TIV']
    """
    out: dict[str, None] = {}
    for part in _CLAUSE_END.split(_HEADER.sub("\n", text)):
        q = _WS.sub(" ", part).strip()
        if len(q) >= 3 and any(c.isalnum() for c in q):
            out[q] = None
    return list(out)


def quote_pools(texts: Sequence[str], size: int) -> list[list[str]]:
    """For each text, the quotes of its chunk of ``size`` consecutive texts (in order, unique).

    A shared pool lets the reports of one batch share one constrained-decoding schema, so a
    local model still decodes them in one forward pass per step; a quote borrowed from another
    report of the chunk fails the "quote is in the report" check and is dropped and counted.
    """
    size = max(1, size)
    out: list[list[str]] = []
    for k in range(0, len(texts), size):
        chunk = texts[k : k + size]
        pool = list(dict.fromkeys(q for t in chunk for q in report_quotes(t)))
        out += [pool] * len(chunk)
    return out


def ground_value(
    span: str, report: str, needles: Sequence[str], positive: bool
) -> tuple[str, list[Polarity]]:
    """Check that ``span`` grounds a value; returns (verdict, polarities of the mentions).

    ``needles`` are the phrases that name the value (field terms, or value and aliases);
    ``positive`` is True for values that assert presence (``yes``, any multi value).
    Verdicts: ``ok``, ``quote_not_in_report``, ``quote_does_not_support`` (no mention in the
    span), ``quote_polarity_mismatch`` (negated for a present value, affirmed for ``no``,
    hedged only, or mixed).

    >>> ground_value("No washout", "No washout. No capsule.", ["washout"], positive=True)[0]
    'quote_polarity_mismatch'
    """
    where = span_offsets(span, report)
    if not where:
        return "quote_not_in_report", []
    scope = NegationScope(report)
    pols = [p for lo, hi in where for p in mention_polarities(scope, needles, lo, hi)]
    if not pols:
        return "quote_does_not_support", pols
    want, against = ("affirmed", "negated") if positive else ("negated", "affirmed")
    ok = want in pols and against not in pols
    return ("ok" if ok else "quote_polarity_mismatch"), pols


def _content(scope: NegationScope, lo: int, hi: int) -> list[tuple[str, Polarity]]:
    return [
        (t.word, scope.polarity(t.start, t.end))
        for t in scope.tokens
        if lo <= t.start
        and t.end <= hi
        and t.word not in _CUE_WORDS
        and (len(t.word) >= 3 or any(c.isdigit() for c in t.word))
        and any(c.isalnum() for c in t.word)
    ]


def answer_supported(
    answer: str, span: str, min_share: float = 2 / 3, context: str | None = None
) -> bool:
    """True when ≥ ``min_share`` of the answer's content words are in span, same polarity.

    An answer without content words ("A", "No") cannot be grounded by words and is never
    supported: any span with the article "a" would otherwise support the option "A". With
    the default share, a two-word answer needs both words ("Liver failure" is not supported
    by "… consistent with cirrhosis of the liver").

    ``context`` is the report the span was quoted from: polarity is then read there (all
    occurrences of the span), so a quote cut after a negation cue keeps that cue's effect.

    >>> answer_supported("Right upper lobe", "a 7 mm solid nodule in the right upper lobe")
    True
    >>> answer_supported("Washout", "No washout")
    False
    """
    ans = NegationScope(answer)
    words = _content(ans, 0, len(ans.text))
    if not words:
        return False
    text = span if context is None else context
    where = span_offsets(span, text) or ([(0, len(collapse(span)))] if context is None else [])
    scope = NegationScope(text)
    have = {pair for lo, hi in where for pair in _content(scope, lo, hi)}
    wanted = list(dict.fromkeys(words))
    return sum(pair in have for pair in wanted) / len(wanted) >= min_share
