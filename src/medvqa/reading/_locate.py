r"""Locate the answer before reading it: reasoning set aside, then the final-answer segment.

Every parser that reads free text calls these two steps first, so ``medvqa score``, ``parse``,
``agreement`` and imported runs all read the same part of a response (the raw response stays
in predictions.jsonl; only the parser sees what is located here).

**Step 1 — reasoning is set aside** (:func:`set_aside_reasoning`). Blocks between ``<think>``,
``<thinking>``, ``<reasoning>``, ``<thought>`` or ``◁think▷`` and their closing tags are
removed; a closing tag without an opening one removes everything before it (servers that drop
the opening tag); an opening tag that is never closed removes everything after it (the thinking
was cut off). What a model writes while thinking is never read as its answer. A response that
is nothing but a trace has not committed to an answer.

**Step 2 — the final-answer segment** (:func:`final_segments`), found in the trace-free text:

- an answer marker: "Final answer", "Answer:", "The answer is" (also "correct/best answer
  is", "would be"), "My answer/choice", "I choose/pick/select/go with/favour/would say", and
  the same in the
  languages of :mod:`._answer_words`; the segment is what follows the marker up to the end of
  its line, its sentence, or an explanation ("because", "since", "which", "as shown" …);
- ``\boxed{…}``, ``\boxed{\text{…}}`` (LaTeX wrappers and ``$`` dropped);
- an ``<answer>…</answer>`` block (the format of "think, then answer" prompts);
- a JSON answer field (``answer``, ``final_answer``, ``choice``, ``selected_option``,
  ``prediction``, ``option`` when there is only one …; a bare object or one inside a code
  fence); the object's other fields (a ``reasoning`` string) are set aside with it, but a
  ``confidence`` (or ``certainty``) of "low" makes its answer a hedge;
- a marked table or check-list (:mod:`._marks`): the rows marked present / ✓ / yes / [x].

Each segment is handed to the reader as ``Answer: <content>``; the reader tries them from the
last one back (a later explicit answer overrides an earlier one). Where no segment is found
the whole trace-free response is read.

>>> set_aside_reasoning("<think>A looks right… or not</think>\nB")
Reasoned(text='\nB', trace=True)
>>> [s.text for s in final_segments("Final answer: A. Wait, no. Final answer: B.")]
['Answer: A. Wait, no', 'Answer: B.']
>>> [s.text for s in final_segments(r"So $\boxed{\text{Pneumothorax}}$")]
['Answer: Pneumothorax']
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from medvqa.reading._answer_words import ANSWER_WORDS, complete_marker
from medvqa.reading._book import RuleBook, book, word_tokens
from medvqa.reading._forced import forced_pick
from medvqa.reading._marks import MARK_CUES, VERDICTS, read_marks
from medvqa.reading._shapes import Leaf, find_shapes
from medvqa.reading._text import Opening, line_starts, matches_at, positions_of
from medvqa.reading.rules import Kind

__all__ = ["Reasoned", "Segment", "final_segments", "set_aside_reasoning", "without_reasoning"]


class Reasoned:
    """A response with its reasoning blocks set aside (a plain class: see ``_reading.Reading``).

    Attributes:
        text: what is left to read.
        trace: True when a reasoning block (or a stray tag) was found and removed.
    """

    __slots__ = ("text", "trace")

    def __init__(self, text: str, trace: bool):
        self.text = text
        self.trace = trace

    def __repr__(self) -> str:
        return f"Reasoned(text={self.text!r}, trace={self.trace})"


class Segment:
    """One located final-answer segment (a plain class: see ``_reading.Reading``).

    Attributes:
        start: where its marker begins in the trace-free text.
        end: where its content ends.
        text: ``Answer: <content>``, what the reader reads.
        kind: ``marker``, ``boxed``, ``shape`` or ``marks``.
        leaves: a structure's values (``shape``): the reader reads each answer leaf.
        rejected: where a marked list's negative rows are (``marks``).
    """

    __slots__ = ("end", "kind", "leaves", "rejected", "start", "text")

    def __init__(self, start: int, end: int, text: str, kind: str,
                 leaves: list[Leaf] | None = None, rejected: list[tuple[int, int]] | None = None):
        self.start = start
        self.end = end
        self.text = text
        self.kind = kind
        self.leaves = leaves
        self.rejected = rejected or []

    def __repr__(self) -> str:
        return f"Segment({self.start}, {self.end}, {self.text!r}, {self.kind!r})"


_TAG: Final = re.compile(r"<(/?)(?:think|thinking|reasoning|thought)>|\u25c1(/?)think\u25b7",
                         re.IGNORECASE)
#: An opening or closing reasoning tag (group 1 or 2 holds "/" for a closing one).
TRACE_TAG: Final = _TAG


def set_aside_reasoning(text: str) -> Reasoned:
    """Remove reasoning blocks (see the module docstring); cheap when there is no tag.

    >>> set_aside_reasoning("the options are close</think> C")
    Reasoned(text=' C', trace=True)
    >>> set_aside_reasoning("B <think>let me double-check")
    Reasoned(text='B ', trace=True)
    >>> set_aside_reasoning("\u25c1think\u25b7A?\u25c1/think\u25b7Answer: C")
    Reasoned(text='Answer: C', trace=True)
    """
    if "<" not in text and "\u25c1" not in text:
        return Reasoned(text, False)
    # Matched where a tag may open, not searched (a search tests every character).
    tags = matches_at(_TAG, text, positions_of(text, "<\u25c1"))
    if not tags:
        return Reasoned(text, False)
    kept: list[str] = []
    depth, pos = 0, 0
    for tag in tags:
        closing = bool(tag.group(1) or tag.group(2))
        if not closing:
            if depth == 0:
                kept.append(text[pos:tag.start()])
            depth += 1
        elif depth == 0:
            kept = []  # a closing tag without an opening one: all before it was thinking
            pos = tag.end()
        else:
            depth -= 1
            if depth == 0:
                pos = tag.end()
    if depth == 0:
        kept.append(text[pos:])
    return Reasoned("".join(kept), True)


def without_reasoning(text: str) -> str:
    """``text`` with its reasoning blocks removed (and trimmed); unchanged without a tag.

    What the published-scorer styles read: they apply only step 1.

    >>> without_reasoning("<think>C?</think> B"), without_reasoning(" B ")
    ('B', ' B ')
    """
    reasoned = set_aside_reasoning(text)
    return reasoned.text.strip() if reasoned.trace else text


# Answer markers are found from their key words with ``str.find`` (a pattern run over every
# position of a long response costs more than the rest of the reading); each hit is checked in
# place: a word boundary, the words before it ("the final", "my"), the connector after it.
_CONNECT: Final = re.compile(
    r"(?:\s+to\s+(?:this|the)\s+question)?(?:[ \t]*\([^()\n]{1,30}\))?\s*(?:\*\*|__)?\s*"
    r"(?:is\b\s*:?|(?:would|will|should|must)\s+be\b|(?:seems|appears)\s+to\s+be\b|:|=|\uff1a"
    r"|[-\u2014\u2013](?=\s))"
    r"|(?P<nl>(?:\s*(?:\*\*|__))?(?=[ \t]*\n))"
)
_PREFIX_WORDS: Final[tuple[tuple[str, ...], ...]] = (
    ("final ", "correct ", "best ", "right ", "most likely "), ("the ", "my "))


_I_WOULD: Final = re.compile(r"\bi\s*(?:would|will|'ll|'d|'m|am)?\s*$")
# Answer words that contain no other one, each with the words that contain it (longest first):
# only roots found in a response are looked at further.
_ROOTS: Final = {r: [w for w in ANSWER_WORDS if r in w] for r in ANSWER_WORDS
                 if not any(u != r and u in r for u in ANSWER_WORDS)}
_ASCII_ROOTS: Final = tuple(r for r in _ROOTS if r.isascii())
# After the connector, an article or the word for "option" may stand before the answer
# ("La respuesta es la B", "Resposta: alternativa B", "La risposta è la E").
_OTHER_CONNECT: Final = re.compile(
    r"\s*(?:\*\*|__)?\s*(?:[:=\uff1a]|es\b|est\b|ist\b|is\b|to\b|[\u00e9e\u00e8]\b"
    r"|\u0647\u064a(?!\w)|\u05d4\u05d9\u05d0(?!\w)|\u05d4\u05d5\u05d0(?!\w))"
    r"(?:\s+(?:la|le|el|il|lo|die|der|das|het)(?=\s+(?:[a-z]\b|alternativ|opci|opz|opt)))?"
    r"(?:\s+(?:alternativa|alternative|opci\u00f3n|opcion|opzione|op\u00e7\u00e3o|optie|option)\b)?")
_DONE_CONNECT: Final = re.compile(r"\s*[:\uff1a]?")
_LEAD: Final = re.compile(r"[\s*_:\uff1a\-\u2014\u2013>#]*")
# Where a segment's content ends: the end of a line, a sentence, or the start of a reason.
_SENTENCE_END: Final = re.compile(r"[.!?\u3002\uff01\uff1f](?=\s|$)")
_REASON: Final = re.compile(
    r"\s(?:because|since|as\s+(?:evidenced|shown|seen|indicated|suggested|demonstrated)"
    r"|given\s+(?:the|that|its)|due\s+to|owing\s+to|based\s+on|which|whereas|while"
    r"|explanation|reasoning|rationale)\b"
)
_NOT_A_STOP: Final = frozenset({"e.g", "i.e", "vs", "dr", "fig", "approx", "cf", "st", "mr", "ms",
                                "mrs", "resp"})
_STOP_LEN: Final = max(len(w) for w in _NOT_A_STOP) + 2
# A letter and a joiner before a lone capital: it ends a list of letters ("A, C", "A e C").
_LIST_BEFORE: Final = re.compile(r"(?<![\w])[A-Z][ \t]*(?:,|&|/|[ \t](?:and|or|e|y|et|und|i|og"
                                 r"|och|en|ve|\u0438))[ \t]*$")
_LETTERS_AND_DOT: Final = "".join(c for c in map(chr, range(128)) if c.isalpha()) + "."
_BOXED: Final = re.compile(r"\\boxed\s*\{")
_LATEX_WRAP: Final = re.compile(r"\\(?:text(?:bf|it|rm|normal)?|mathrm|mathbf|mbox|operatorname)"
                                r"\s*\{")
_LATEX_REST: Final = re.compile(r"\\[,;:! ]|\\[a-zA-Z]+|[${}]")
_MARK_CUES: Final[tuple[str, ...]] = ("|", "[x]", "[X]", "[ ]", *MARK_CUES)
_MARK_WORDS: Final = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)]|[A-Z][.)])\s*.+?[:\u2014\u2013-]"
                                r"\s*[*_]*"
                                r"(?:present|absent|yes|no|positive|negative|not\s+seen|seen|"
                                + "|".join(sorted(VERDICTS, key=len, reverse=True)) + r")\b",
                                re.IGNORECASE | re.MULTILINE)
_MARK_LINE_OPENS: Final = Opening("-*\u2022", ".)", space=True, digit=True)


def _position(segment: Segment) -> tuple[int, int]:
    """Where ``segment`` starts and ends: the order of segments.

    A module function, not a lambda: a compiled function holding a lambda builds a closure
    environment on every call.
    """
    return segment.start, segment.end


def final_segments(text: str, bk: RuleBook | None = None) -> list[Segment]:
    """Every final-answer segment of a trace-free response, in order of position.

    Cheap when the response has no marker: a few substring tests decide before any pattern
    runs. The reader tries the segments from the last one back.
    """
    lowered = text.lower()
    ascii_only = lowered.isascii()
    found: list[Segment] = []
    objects: list[tuple[int, int]] = []
    if "{" in text or "[" in text or "<" in text or "(" in text or "," in text or "=" in text:
        for shape in find_shapes(text, bk):
            found.append(Segment(shape.start, shape.end, "", "shape", shape.leaves))
            objects.append((shape.start, shape.end))
    if "\\boxed" in text:
        found += [s for s in _boxed_segments(text)
                  if not any(a <= s.start < b for a, b in objects)]
    found += [s for s in _marker_segments(text, lowered, ascii_only, bk or book())
              if not any(a <= s.start < b for a, b in objects)]
    if (bk or book()).any_of(_ELIMINATING, lowered, word_tokens(lowered)):
        found += [s for s in _elimination_segments(text, lowered, bk or book())
                  if not any(a <= s.start < b for a, b in objects)]
    if (closing := _CLOSING.search(text, max(0, len(text) - _CLOSING_REACH))) is not None and \
            text[:closing.start()].strip() and \
            not any(a <= closing.start() < b for a, b in objects):
        found.append(Segment(closing.start("letters"), closing.end("letters"),
                             "Answer: " + closing.group("letters"), "marker"))
    if "\u2192" in text or "=>" in text or "->" in text:
        found += [Segment(m.start(), m.end(), "Answer: " + m.group(1).strip(), "marker")
                  for m in _ARROW.finditer(text)
                  if not any(a <= m.start() < b for a, b in objects)
                  and not _LOGGED_CALL.match(m.group(1))]
    if ("|" in text or "[" in text or "<-" in text or "\n**" in text or text.startswith("**")
            or "* **" in text or "->" in text or "=>" in text
            or "(x)" in text or "(X)" in text or "( )" in text or " ?" in text
            or not ascii_only and any(c in text for c in _MARK_CUES)
            or ("\n" in text
                and bool(matches_at(_MARK_WORDS, text, line_starts(text), _MARK_LINE_OPENS)))):
        marked = read_marks(text)
        if marked is not None:
            found.append(Segment(marked.start, marked.end, "Answer: " + "\n".join(marked.labels),
                                 "marks", rejected=marked.rejected))
    if found and "bservation" in text and _ACTION.search(text) is not None:
        # what a tool returned ("Observation: … final diagnosis: B") is data the agent read
        told = [m.span() for m in _OBSERVATION.finditer(text)]
        found = [seg for seg in found if not any(a <= seg.start < b for a, b in told)]
    if len(found) > 1:
        found.sort(key=_position)
        found = _without_tool_results(text, found)
    return found


# A closing sentence that concludes with option letters alone ("So B and C.", "Therefore, A, D."):
# a located answer, after the discussion it closes.
_CLOSING_REACH: Final = 100
_CLOSING: Final = re.compile(
    r"(?:^|(?<=[.!?\n]))[ \t]*(?i:so|therefore|thus|hence|overall|in summary|in short|altogether"
    r"|all in all)[ \t]*[,:]?[ \t]+(?P<letters>[(\[]?[A-Z][)\]]?(?![\w-])(?:[ \t]*(?:,|/|&|\band\b"
    r"|\bor\b)[ \t]*[(\[]?[A-Z][)\]]?(?![\w-]))*)[ \t]*[.!]?[ \t]*$")


# An agent's log: its tool calls ("Action: …") and what each returned, up to the agent's next
# step of its own.
_ACTION: Final = re.compile(r"(?im)^[ \t]*action(?:[ \t]+input)?[ \t]*:")
_OBSERVATION: Final = re.compile(r"(?im)^[ \t]*observation[ \t]*:[^\n]*(?:\n(?![ \t]*(?:thought|"
                                 r"action|final[ \t]+answer|final|answer)[ \t]*:)[^\n]*)*")


def _without_tool_results(text: str, found: list[Segment]) -> list[Segment]:
    """The segments less structures with no answer field read before a final answer.

    In an agent's log ("Observation: {…}", "← {"qtc_ms": 493}" … "Final Answer: B"), such a
    structure is what a tool returned, which the agent read, not an answer it gave; only where
    a final answer (a marker naming itself final, or a ``final_answer(…)`` call) follows.
    """
    finals = [seg.start for seg in found if seg.kind == "marker" and "final" in text[
        seg.start:seg.start + 24].lower() or seg.kind == "shape" and any(
            leaf.role == "answer" and leaf.path[0].lower().startswith(("final", "submit"))
            for leaf in seg.leaves or ())]
    if not finals:
        return found
    last = max(finals)
    return [seg for seg in found if not (seg.kind == "shape" and seg.start < last and not any(
        leaf.role == "answer" for leaf in seg.leaves or ()))]


_ELIMINATING: Final = frozenset({Kind.ELIMINATION})
# What is left, said before "remains": an option's name, not a sentence about the image.
_LEFT_WORDS: Final = 5


def _elimination_segments(text: str, lowered: str, bk: RuleBook) -> list[Segment]:
    """What is left once the others are ruled out.

    The text after ``elimination.left`` phrases to the end of the sentence ("That leaves B.",
    "Remaining: haemangioma"); the text of its sentence before an ``elimination.remains`` phrase
    that ends it ("B remains.").
    """
    out = []
    for s, e, rule_id in bk.spans(Kind.ELIMINATION, lowered, word_tokens(lowered)):
        if rule_id == "elimination.remains":
            # said after what is left: only where it ends its sentence ("B remains.", not
            # "B remains possible"), what is left being the sentence's text before it
            if text[e:].lstrip(" \t*_)")[:1] not in ("", ".", "!", "\n"):
                continue
            begin = max(text.rfind(c, 0, s) for c in ".!?\n;:\u2014")
            content = text[begin + 1:s].strip(" \t*_:,-")
            if content and len(content.split()) <= _LEFT_WORDS:
                out.append(Segment(begin + 1, e, "Answer: " + content, "marker"))
            continue
        end = min((i for i in (text.find(c, e) for c in ".!?\n;") if i >= 0), default=len(text))
        content = text[e:end].strip(" \t*_:,")
        if content:
            out.append(Segment(e, end, "Answer: " + content, "marker"))
    return out


# A conclusion after an arrow that opens a line or follows a sentence: "→ A, C", "=> B".
# "→ calc.qtc(qt_ms=468)": an agent's log line calling a tool, not a conclusion drawn.
_LOGGED_CALL: Final = re.compile(r"[A-Za-z_][\w.]*\(")
_ARROW: Final = re.compile(r"(?:^|(?<=[.;:!?])\s+|\n)[ \t]*(?:\u2192|=>|->)[ \t]*([^\n]{1,80}?)"
                           r"[ \t]*(?=\n|$)")


# The number of a numbered list's item, where a word follows it.
_ITEM_NUMBER: Final = re.compile(r"\d+[.)][ \t]+(?=\S)")
_LATER_ITEMS: Final = re.compile(r"\n[ \t]*\d+[.)][ \t]+(?=\S)")
# The further items of a list that the content's first line opened.
_LIST_BLOCK: Final = re.compile(r"(?:\n[ \t]*(?:[-*\u2022]|\d+[.)])[ \t]+[^\n]+)+")


def _marker_segments(text: str, lowered: str, ascii_only: bool,
                     bk: RuleBook) -> list[Segment]:
    hits = sorted(_marker_hits(lowered, ascii_only, bk))
    out = []
    for i, (start, begin) in enumerate(hits):
        if i and start < hits[i - 1][1]:
            continue  # inside the previous marker ("the answer is: answer B")
        on_next_line = "\n" in text[begin:_LEAD.match(text, begin).end()]  # type: ignore[union-attr]
        begin = _LEAD.match(text, begin).end()  # type: ignore[union-attr]
        item = _ITEM_NUMBER.match(text, begin) if on_next_line else None
        if item is not None:
            begin = item.end()  # "Impression:⏎1. 6 mm nodule. Lung-RADS 3": no answer "1"
        limit = hits[i + 1][0] if i + 1 < len(hits) else len(text)
        end = _content_end(text, lowered, begin, limit)
        if item is not None:  # a numbered list's first item: the item's line, then the list
            line_end = text.find("\n", end)
            end = min(limit, len(text) if line_end < 0 else line_end)
        if on_next_line:  # "Answer:⏎- Villous atrophy⏎- Crypt hyperplasia": the whole list
            block = _LIST_BLOCK.match(text, end)
            if block is not None and block.end() <= limit:
                end = block.end()
        content = text[begin:end].strip(" \t*_")
        if item is not None:
            content = _LATER_ITEMS.sub("\n", content)  # the list's other items' numbers too
        if content:
            out.append(Segment(start, end, "Answer: " + content, "marker"))
    return out


# Marker words that are also a finding's state: after a label on their line ("Hiatal hernia:
# present — …") they are its value, no answer marker.
_STATUS_KEYS: Final = frozenset({"present", "selected"})
# "Going through each option:" announces a walk through the options, not the answer.
_WALK: Final = ("each ", "every ", "each remaining ", "every remaining ")


def _labelled_before(lowered: str, i: int) -> bool:
    """Whether a label ("Hiatal hernia:") stands on the line before position ``i``."""
    return ":" in lowered[lowered.rfind("\n", 0, i) + 1:i]


def _marker_hits(lowered: str, ascii_only: bool, bk: RuleBook) -> list[tuple[int, int]]:
    """(marker start, content start) of every answer marker in ``lowered``."""
    hits: list[tuple[int, int]] = []
    # a one-word key is found as a whole word only where it is one of the text's words (the
    # order of the keys is free: the hits are sorted)
    words = word_tokens(lowered)
    marker_words, marker_phrases = _keys(bk, Kind.ANSWER_MARKER)
    for key in (*(words & marker_words), *marker_phrases):
        i = lowered.find(key)
        while i >= 0:
            j = i + len(key)
            if _bounded(lowered, i, j) and (c := _CONNECT.match(lowered, j)) is not None:
                start = _prefix_start(lowered, i)
                newline_only = c.group("nl") is not None
                if not (newline_only and "final" not in lowered[start:i]) and not (
                        key == "diagnosis" and lowered.endswith("differential ", 0, i)) and not (
                        key in _STATUS_KEYS and _labelled_before(lowered, i)) and not (
                        key in ("option", "choice") and lowered.endswith(_WALK, 0, i)) and not (
                        key == "most likely" and (lowered.endswith(("second ", "next "), 0, i)
                                                  or ":" not in c.group())):
                    # ("most likely" marks an answer only with a colon: "— most likely⏎- C")
                    hits.append((start, c.end()))
            i = lowered.find(key, j)
    pick_words, pick_phrases = _keys(bk, Kind.ANSWER_PICK)
    for verb in (*(words & pick_words), *pick_phrases):
        i = lowered.find(verb)
        while i >= 0:
            j = i + len(verb)
            p = _I_WOULD.search(lowered, max(0, i - 12), i)
            if p is not None and _bounded(lowered, i, j):
                hits.append((p.start(), j))
            elif _bounded(lowered, i, j) and (forced := forced_pick(lowered, i, j)) and not any(
                    c == forced[1] for _, c in hits):
                hits.append(forced)  # "If forced to choose one, D" (not "… an answer: D" again)
            i = lowered.find(verb, j)
    for root in _ASCII_ROOTS if ascii_only else _ROOTS:
        if root in lowered:
            hits += _other_hits(lowered, _ROOTS[root], hits)
    return hits


@lru_cache(maxsize=32)
def _keys(bk: RuleBook, kind: Kind) -> tuple[frozenset[str], tuple[str, ...]]:
    """The sources of ``kind`` that are one word (letters and digits) and the others."""
    sources = bk.sources(kind)
    return frozenset(k for k in sources if k.isalnum()), tuple(
        k for k in sources if not k.isalnum())


def _other_hits(lowered: str, words: list[str], hits: list[tuple[int, int]]
                ) -> list[tuple[int, int]]:
    """Markers of the answer words of other languages that contain one root."""
    out: list[tuple[int, int]] = []
    for word in words:
        i = lowered.find(word)
        while i >= 0:
            j = i + len(word)
            if _bounded(lowered, i, j) or not word.isascii():
                c = (_DONE_CONNECT if complete_marker(word) else _OTHER_CONNECT).match(lowered, j)
                if c is not None and not any(a <= i < b for a, b in hits + out):
                    out.append((i, c.end()))
            i = lowered.find(word, j)
    return out


def _prefix_start(lowered: str, i: int) -> int:
    """Where the words before a key ("the final", "my", "the most likely") begin."""
    if not i or lowered[i - 1] != " ":
        return i  # every prefix word ends in a space: none can end here (the common case)
    for group in _PREFIX_WORDS:
        for word in group:
            if lowered.endswith(word, 0, i) and (i == len(word) or not lowered[
                    i - len(word) - 1].isalnum()):
                i -= len(word)
                break
    return i


def _bounded(lowered: str, i: int, j: int) -> bool:
    """``lowered[i:j]`` is a whole word."""
    return (i == 0 or not lowered[i - 1].isalnum()) and (j >= len(lowered)
                                                         or not lowered[j].isalnum())


def _content_end(text: str, lowered: str, begin: int, limit: int) -> int:
    """Where the content starting at ``begin`` ends, at ``limit`` at the latest."""
    end = text.find("\n", begin, limit)
    if end < 0:
        end = limit
    for m in _SENTENCE_END.finditer(text, begin, end):
        stop = m.start()
        if text[stop] in ".!?" and _is_abbreviation(text, stop):
            continue
        end = stop
        break
    reason = _REASON.search(lowered, begin, end)
    return reason.start() if reason is not None else end


def _is_abbreviation(text: str, dot: int) -> bool:
    """A period after a lone letter (``B.``, ``E. coli``) or a common abbreviation ends nothing.

    >>> _is_abbreviation("answer is B. Pneumothorax", 11), _is_abbreviation("is B now.", 8)
    (True, False)
    """
    start = dot
    # Speed: a run longer than any abbreviation of _NOT_A_STOP (and than one letter) is no
    # abbreviation, so the walk back stops after _STOP_LEN characters.
    limit = max(0, dot - _STOP_LEN)
    if text.isascii():  # (the run's letters are ASCII ones: one strip finds where it starts)
        start = limit + len(text[limit:dot].rstrip(_LETTERS_AND_DOT))
    while start > limit and (text[start - 1].isalpha() or text[start - 1] == "."):
        start -= 1
    if start == limit and start and (text[start - 1].isalpha() or text[start - 1] == "."):
        return False
    word = text[start:dot].lower()
    if len(word) == 1 and text[start].isupper() and _LIST_BEFORE.search(
            text, max(0, start - 12), start) is not None:
        return False  # the last of a list of letters: "Answer: A and C. No free fluid."
    return len(word) == 1 or word in _NOT_A_STOP


def _boxed_segments(text: str) -> list[Segment]:
    out = []
    for m in _BOXED.finditer(text):
        inner, end = _balanced(text, m.end())
        content = _LATEX_REST.sub("", _unwrap(inner)).strip()
        if content:
            out.append(Segment(m.start(), end, "Answer: " + content, "boxed"))
    return out


def _balanced(text: str, start: int) -> tuple[str, int]:
    """The text up to the brace that closes the one opened just before ``start``."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start:i], i + 1
    return text[start:], len(text)


def _unwrap(latex: str) -> str:
    r"""``\text{B. Mass}`` → ``B. Mass`` (every wrapper command, braces kept balanced)."""
    while (m := _LATEX_WRAP.search(latex)) is not None:
        inner, end = _balanced(latex, m.end())
        latex = latex[:m.start()] + inner + latex[end:]
    return latex
