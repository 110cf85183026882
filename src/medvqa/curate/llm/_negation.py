"""Negation and hedging scope in report text: is a mention affirmed, negated or uncertain.

A small NegEx-style rule set (after Chapman et al., J Biomed Inform 2001), written for the
report grounding check so that "No washout" never grounds ``washout: yes``. negspacy / medspaCy
would need spaCy pipelines that cannot be downloaded here; the rules below are enough for the
short, formulaic sentences of radiology reports and are easy to audit.

Rules, applied to lower-cased text split into word tokens and boundary tokens:

* **Cues** are matched longest first, left to right, so a longer phrase wins over its parts
  ("cannot be excluded" is a hedge, not the negation "excluded"; "no change" is a
  pseudo-negation that negates nothing).
* A **pre-cue** (``no``, ``not``, ``without``, ``absence of``, ``negative for``, ``free of``,
  ``no evidence of``, ``resolution of`` …) negates a mention starting at most
  :data:`WINDOW` word tokens after it (commas are not counted, so "no effusion, nodule or
  consolidation" negates all three).
* A **post-cue** (``absent``, ``not seen``, ``not identified``, ``resolved``, ``ruled out`` …)
  negates a mention ending at most :data:`WINDOW` word tokens before it.
* A **hedge** (``possible``, ``questionable``, ``equivocal``, ``cannot be excluded`` …) makes a
  mention on either side uncertain; a hedge wins over a negation.
* Scope never crosses a boundary: ``. ; : ! ?``, a line break, or a contrast word (``but``,
  ``however``, ``although``, ``except`` …); a post-cue's scope also stops at a comma.
* A mention written as ``non-X`` / ``non X`` is negated (``non-enhancing``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Polarity = Literal["affirmed", "negated", "uncertain"]

#: Word tokens allowed between a cue and the mention it scopes over.
WINDOW = 6

PRE_NEGATION = (
    "no",
    "not",
    "without",
    "absence of",
    "negative for",
    "free of",
    "no evidence of",
    "no evidence for",
    "no sign of",
    "no signs of",
    "no longer",
    "never",
    "neither",
    "nor",
    "resolution of",
    "rather than",
)
POST_NEGATION = (
    "absent",
    "is absent",
    "are absent",
    "not seen",
    "not identified",
    "not present",
    "not demonstrated",
    "not detected",
    "not visualized",
    "not visualised",
    "no longer seen",
    "no longer visible",
    "resolved",
    "has resolved",
    "have resolved",
    "ruled out",
    "has been excluded",
    "excluded",
)
HEDGES = (
    "possible",
    "possibly",
    "questionable",
    "equivocal",
    "indeterminate",
    "cannot be excluded",
    "can not be excluded",
    "cannot be ruled out",
    "can not be ruled out",
    "cannot exclude",
    "can not exclude",
    "not excluded",
    "not ruled out",
    "may represent",
)
#: Phrases that contain a negation word but negate no finding.
PSEUDO = (
    "no change",
    "no interval change",
    "no significant change",
    "no significant interval change",
    "without change",
    "without interval change",
    "no increase",
    "no decrease",
    "not only",
    "not necessarily",
)
TERMINATORS = frozenset(
    {"but", "however", "although", "though", "except", "whereas", "nevertheless", "while"}
)
_BOUNDARY = frozenset({".", ";", ":", "!", "?", "\n"})

_TOKEN = re.compile(r"[a-z0-9]+(?:[-'./][a-z0-9]+)*|[.;:!?,]")
_WS = re.compile(r"\s+")
_NON = re.compile(r"(?<![a-z0-9])non[- ]$")


def collapse(text: str) -> str:
    """Lower-case ``text`` with every whitespace run made one space (the matching form)."""
    return _WS.sub(" ", text.lower())


def _roles() -> dict[tuple[str, ...], set[str]]:
    roles: dict[tuple[str, ...], set[str]] = {}
    for role, phrases in (
        ("pre", PRE_NEGATION),
        ("post", POST_NEGATION),
        ("hedge", HEDGES),
        ("pseudo", PSEUDO),
    ):
        for p in phrases:
            roles.setdefault(tuple(p.split()), set()).add(role)
    return roles


_CUES = _roles()
_LONGEST = max(len(k) for k in _CUES)


@dataclass(frozen=True)
class _Tok:
    start: int
    end: int
    word: str


@dataclass(frozen=True)
class _Cue:
    first: int  # token index of the cue's first word
    last: int  # token index after the cue's last word
    roles: frozenset[str]


class NegationScope:
    """Polarity of any character range of one text (see module docstring).

    Positions refer to :func:`collapse` of the text, the form the grounding check matches in.
    """

    def __init__(self, text: str):
        lowered = text.lower()
        self.text = collapse(text)
        breaks = self._line_breaks(lowered)
        toks = [_Tok(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(self.text)]
        toks += [_Tok(b, b + 1, "\n") for b in breaks]
        self.tokens = sorted(toks, key=lambda t: t.start)
        self.cues = self._find_cues()

    @staticmethod
    def _line_breaks(lowered: str) -> list[int]:
        """Offsets in the collapsed text of the spaces that stand for a line break."""
        out, shift = [], 0
        for m in _WS.finditer(lowered):
            if "\n" in m.group():
                out.append(m.start() - shift)
            shift += len(m.group()) - 1
        return out

    def _find_cues(self) -> list[_Cue]:
        words = [t.word for t in self.tokens]
        cues, i = [], 0
        while i < len(words):
            for n in range(min(_LONGEST, len(words) - i), 0, -1):
                roles = _CUES.get(tuple(words[i : i + n]))
                if roles:
                    cues.append(_Cue(i, i + n, frozenset(roles)))
                    i += n
                    break
            else:
                i += 1
        return cues

    def _blocked(self, lo: int, hi: int, stop_at_comma: bool) -> bool:
        """True when tokens ``lo … hi-1`` hold a boundary (or a comma) or are too many."""
        words = [t.word for t in self.tokens[lo:hi]]
        if any(w in _BOUNDARY or w in TERMINATORS or (stop_at_comma and w == ",") for w in words):
            return True
        return sum(w != "," for w in words) > WINDOW

    def polarity(self, start: int, end: int) -> Polarity:
        """Polarity of the mention at characters ``start:end`` of the collapsed text."""
        inside = [k for k, t in enumerate(self.tokens) if t.end > start and t.start < end]
        if not inside:
            return "affirmed"
        first, last = inside[0], inside[-1] + 1
        negated = bool(_NON.search(self.text[max(0, start - 5) : start]))
        hedged = False
        for cue in self.cues:
            if cue.last <= first and not self._blocked(cue.last, first, False):
                negated |= "pre" in cue.roles
                hedged |= "hedge" in cue.roles
            elif cue.first >= last and not self._blocked(last, cue.first, True):
                negated |= "post" in cue.roles
                hedged |= "hedge" in cue.roles
        return "uncertain" if hedged else "negated" if negated else "affirmed"


def phrase_spans(text: str, phrase: str, lo: int = 0, hi: int | None = None) -> list[int]:
    """Start offsets of ``phrase`` on word boundaries lying wholly in ``text[lo:hi]``.

    Boundaries are judged in the whole text, so "segment ii" is never found inside
    "segment iii" even when ``hi`` cuts the text after "ii". A hyphenated compound is one
    word: "solid" is not found in "part-solid" nor "ground" in "ground-glass", except after the
    negating prefix "non-", which :class:`NegationScope` reads as negation.

    >>> phrase_spans("a part-solid nodule and a solid one", "solid")
    [26]
    >>> phrase_spans("non-enhancing mass", "enhancing")
    [4]
    """
    p = collapse(phrase).strip()
    if not p:
        return []
    hi = len(text) if hi is None else hi
    pattern = re.compile(rf"(?<![a-z0-9]){re.escape(p)}(?![a-z0-9])")
    return [m.start() for m in pattern.finditer(text)
            if m.start() >= lo and m.end() <= hi and not _inside_compound(text, m.start(), m.end())]


def _inside_compound(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is joined by a hyphen to a word before or after it."""
    joined_after = text[end:end + 1] == "-" and text[end + 1:end + 2].isalnum()
    before = text[:start]
    joined_before = (before.endswith("-") and before[-2:-1].isalnum()
                     and not re.search(r"(?<![a-z0-9])non-$", before))
    return joined_after or joined_before


def mention_polarities(
    scope: NegationScope, phrases: Iterable[str], lo: int = 0, hi: int | None = None
) -> list[Polarity]:
    """Polarity of every mention of any of ``phrases`` lying within ``lo:hi`` of the text."""
    out: list[Polarity] = []
    for phrase in phrases:
        n = len(collapse(phrase).strip())
        out += [scope.polarity(s, s + n) for s in phrase_spans(scope.text, phrase, lo, hi)]
    return out
