"""Whether a mention of an option is asserted, negated or only discussed: its clause decides.

A clause is the text between clause marks (``. ; , ! ?``, a line break, a spaced dash, an arrow)
and the rule table's clause conjunctions ("but", "however" …). Within it, in this order:

- a question ("Pleural effusion?") names without stating, unless the text answers it at once
  ("Pleural effusion? No.");
- a concession ("although X …"), a discussion before it ("if X", "X versus Y") or right after
  it ("X would show …"), or a plan ("I will answer X after …") names without choosing;
- a negation before it in its clause (a noun negation's reach ending at a conclusion verb:
  "no markings beyond the line means X"; not across an infinitive: "no evidence to suggest
  X"), right after it ("X is ruled out"), a status after it as a label ("X: excluded"), or a
  cross or empty box right before it ("❌ X") negates it;
- otherwise it is asserted.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Final

from medvqa.reading._book import RuleBook
from medvqa.reading._patterns import holds_neg_mark, patterns
from medvqa.reading._text import positions_of
from medvqa.reading.rules import Kind

__all__ = ["Mention", "Polarity"]


class Mention:
    """One place where a text names options.

    Attributes:
        start: where it starts in the text.
        end: where it ends.
        letters: the options it names (a value several options share names them all).
        kind: ``text``, ``letter``, ``value`` or ``yesno``.
        spans: a value range or bound that covers more than one option.
    """

    __slots__ = ("end", "kind", "letters", "spans", "start")

    def __init__(self, start: int, end: int, letters: frozenset[str], kind: str,
                 spans: bool = False):
        self.start = start
        self.end = end
        self.letters = letters
        self.kind = kind
        self.spans = spans


_PUNCT_CHARS: Final = ".;,!?\n\u2192\u3002\uff1b\uff0c\uff01\uff1f"
# A word beside a slash: "X/Y" offers two readings (a one-letter word is a shorthand, "r/o").
_SLASH_AFTER: Final = re.compile(r"[ \t]?/[ \t]?[^\W\d_]{2,}")
_SLASH_BEFORE: Final = re.compile(r"(?<![\w/])[^\W\d_]{2,}[ \t]?/[ \t]?\Z")
_WORD_SPACE: Final = re.compile(r"[^\W\d_]+[ \t]+")
_LONE_DOT: Final = re.compile(r"[A-Z]\.(?<![^\W\d_][A-Z]\.)")
_DASH: Final = re.compile(r"\s[\u2014\u2013-]+\s")
_LIST_END: Final = re.compile(r"[.;!?\n]")
_SENTENCE_END: Final = re.compile(r"[.!?\n](?:\s|$)")
_SELF_REPLY: Final = re.compile(r"\s*(yes|no)\b(?!\s+(?:doubt|question)\b)")
_DETERMINER: Final = re.compile(r"\s+(?:the|this|that|these|those|a|an|it|i|we|there)\b")
_ANYTHING_BUT: Final = re.compile(r"\banything\s+but$")


class Polarity:
    """The clauses of one prepared text and the state of each mention in them.

    Args:
        text: the prepared text, original case.
        lowered: ``text`` lower-cased.
        masked: ``lowered`` with option texts and neutral phrases blanked.
        words: the words of ``masked``.
        bk: the rule book.
    """

    def __init__(self, text: str, lowered: str, masked: str, words: frozenset[str],
                 bk: RuleBook):
        self.text, self.lowered, self.masked, self.words, self.book = (
            text, lowered, masked, words, bk)
        self.pat = patterns(bk)
        self.ends = self._clause_ends()
        self.neg_before = bk.spans(Kind.NEG_BEFORE, masked, words) + [
            (s, e, r) for s, e, r in bk.spans(Kind.NEG_NOUN, masked, words)]
        self.noun_ids = {r for r, _ in bk.entries(Kind.NEG_NOUN)}
        self.neg_before.sort()
        self.discussed = bk.spans(Kind.DISCUSSED_BEFORE, masked, words)
        self.conditions = bk.spans(Kind.CONDITION, masked, words)
        self.plans = bk.spans(Kind.PLAN, masked, words)
        self.concessions = bk.spans(Kind.CONCESSION, masked, words)
        self.may_label = not self.pat.status_words.isdisjoint(words) or any(
            c in lowered for c in "-0\u2212" + "\u2717\u2718\u274c\u2716")
        self.may_mark = holds_neg_mark(lowered)
        self.may_discuss_after = bk.any_of(_DISCUSSING_AFTER, masked, words)

    def _clause_ends(self) -> list[int]:
        lowered, text = self.lowered, self.text
        ends = [i + 1 for i in positions_of(lowered, _PUNCT_CHARS if not lowered.isascii()
                                            else ".;,!?\n")]
        for arrow in ("->", "=>"):
            i = lowered.find(arrow)
            while i >= 0:
                ends.append(i + 2)
                i = lowered.find(arrow, i + 2)
        if "." in lowered and _LONE_DOT.search(text) is not None:
            ends = [e for e in ends if not _letter_dot(text, e)]
        if "vs." in lowered:
            ends = [e for e in ends if not lowered.endswith("vs.", 0, e)]
        if "," in lowered and not self.pat.list_words.isdisjoint(self.words):
            lists = [m.span() for m in self.pat.negated_list.finditer(lowered)]
            if lists:
                ends = [e for e in ends if not (lowered[e - 1] == "," and any(
                    a < e <= b for a, b in lists))]
        if "-" in lowered or "\u2014" in lowered or "\u2013" in lowered:
            ends += [m.end() for m in _DASH.finditer(lowered)]
        for s, e, _ in self.book.spans(Kind.CLAUSE_END, self.masked, self.words):
            if self.masked[s:e] == "but" and _ANYTHING_BUT.search(self.masked, max(0, s - 24),
                                                                   e) is not None:
                continue  # "anything but X" negates X
            ends.append(e)
        ends += [e for _, e, _ in self.book.spans(Kind.CONCESSION, self.masked, self.words)]
        ends += [e for _, e, _ in self.book.spans(Kind.CONTRAST, self.masked, self.words)]
        return sorted(set(ends))

    def clause(self, start: int) -> tuple[int, int]:
        """The clause holding the position ``start``: (begin, stop)."""
        i = bisect_right(self.ends, start)
        begin = self.ends[i - 1] if i else 0
        stop = self.ends[i] if i < len(self.ends) else len(self.lowered)
        return begin, stop

    def state(self, m: Mention, *, label: bool = True) -> str:
        """``asserted``, ``negated`` or ``discussed`` (see the module docstring).

        ``label``: a status after the mention may negate it ("X: absent"); not after a yes/no
        word, which a status confirms ("Non, absent.").
        """
        masked, lowered = self.masked, self.lowered
        begin, stop = self.clause(m.start)
        if stop and lowered[stop - 1] in "?\uff1f":
            reply = _SELF_REPLY.match(masked, stop)
            if reply is None:
                return "discussed"
            return "asserted" if reply.group(1) == "yes" else "negated"
        if begin and any(e <= begin and e >= begin - 2 for _, e, _ in self.concessions):
            return "discussed"
        if any(begin <= s < m.start for s, _, _ in self.discussed):
            return "discussed"
        if any(s < m.start and not _SENTENCE_END.search(masked, e, m.start)
               for s, e, _ in self.conditions):
            return "discussed"  # "If it is seen on one view only, the answer is A."
        if any(s < m.start and not _SENTENCE_END.search(masked, e, m.start)
               for s, e, _ in self.plans):
            return "discussed"  # "I will answer X after …": a plan, in its sentence
        after = masked[m.end:stop]
        if self.after_may_discuss(m.end, stop) and self._discussed_after(after):
            return "discussed"
        if self._negated_before(begin, m.start):
            return "negated"
        after_stop = stop
        if masked[stop - 1:stop] == "," if stop else False:
            # "B, C, D excluded": a negation after a list of blanked mentions reaches them all
            nxt = _LIST_END.search(masked, m.end)
            after_stop = nxt.start() if nxt is not None else len(masked)
        if self.pat.neg_after.match(masked, m.end, after_stop) is not None:
            return "negated"
        if ("." in masked[m.end:m.end + 3] or ":" in masked[m.end:m.end + 3]):
            sentence_end = self._next_end(m.end)
            if self.pat.neg_after_verb.match(lowered, m.end, sentence_end) is not None:
                return "negated"
        if label and self.may_label and self.pat.status_after.match(lowered, m.end) is not None:
            return "negated"
        if self.may_mark and self.pat.mark_before.search(
                lowered, max(0, begin, m.start - 8), m.start) is not None:
            return "negated"
        return "asserted"

    def after_may_discuss(self, start: int, stop: int) -> bool:
        """False only where ``masked[start:stop]`` cannot hold a ``discussed.*``-after phrase.

        A gate: where no word crosses either end, the words there are the text's, and the
        text holds none of those phrases' words.
        """
        return self.may_discuss_after or not (_between_words(self.masked, start)
                                              and _between_words(self.masked, stop))

    def _discussed_after(self, after: str) -> bool:
        stripped = after.lstrip(" \t)]*")
        if not stripped:
            return False
        one = _WORD_SPACE.match(stripped)
        two = _WORD_SPACE.match(stripped, one.end()) if one is not None else None
        skips = [m.end() for m in (one, two) if m is not None]
        for rule_id, phrase in self.book.entries(Kind.DISCUSSED_AFTER):
            if phrase.pattern.match(stripped) is not None:
                return True
            if rule_id == "discussed.versus" and any(
                    phrase.pattern.match(stripped, at) is not None for at in skips):
                return True  # "UIP pattern vs NSIP": a word or two before the comparison
        return False

    def _negated_before(self, begin: int, start: int) -> bool:
        """A negation in the clause before a mention that still reaches it."""
        cues = [(s, e, r) for s, e, r in self.neg_before if begin <= s and e <= start]
        if not cues:
            return False
        s, last, rule_id = cues[-1]
        masked = self.masked
        if rule_id not in self.noun_ids or _DETERMINER.match(masked, last):
            return True
        colon = masked.find(":", last, start)
        if colon >= 0 and len(masked[last:colon].split()) >= 2:
            return False  # "without inflammation or fibrosis: steatosis"
        stop = self.book.search(Kind.NEG_STOP, masked, self.words, last, start)
        if stop is None:
            return True
        at = masked.find(stop[1], last, start)
        # a conclusion verb right after the infinitive's "to" is the negated phrase's own
        if masked[max(0, at - 3):at] == "to ":
            return True
        return not masked[last:at].strip(" -,")

    def _next_end(self, end: int) -> int:
        j = end
        while j < len(self.masked) and self.masked[j] in " .):]*\t":
            j += 1
        i = bisect_right(self.ends, j)
        return self.ends[i] if i < len(self.ends) else len(self.masked)

    def or_beside(self, m: Mention) -> bool:
        """Whether "or" joins the mention to something else in its clause ("X or Y", "or X")."""
        begin, stop = self.clause(m.start)
        while stop < len(self.masked) and (
                self.masked.endswith("...", 0, stop) or self.masked[:stop].rstrip()[-1:] in
                ("\u2026", ",", ";", "\u2013", "\u2014")
                and self.pat.or_after.match(self.masked, stop) is not None):
            # "B... or C": an ellipsis trails off, it ends nothing; "B, or C", "4 — or a
            # variant": nor does a comma or a dash before "or"
            stop = self.clause(stop)[1]
        after = self.masked[m.end:stop]
        before = self.masked[begin:m.start]
        joined = self.pat.or_after.match(after)
        return (joined is not None and joined.end() < len(after.rstrip())
                or self.pat.or_before.search(before) is not None)

    def slash_beside(self, m: Mention) -> bool:
        """Whether a slash joins the mention to a word of something else ("irregular/lobulated").

        Not a one-letter shorthand ("r/o", "w/"): its words have two letters or more.
        """
        return _SLASH_AFTER.match(self.masked, m.end) is not None or _SLASH_BEFORE.search(
            self.masked, max(0, m.start - 40), m.start) is not None

    def alternatives(self, mentions: list[Mention], asserted: set[str]) -> bool:
        """Whether two asserted readings are joined as alternatives.

        "X or Y" (``alternative.or``: anywhere between the first and the last), "between X
        and Y" (``alternative.between``: before the first, in its clause), "A veya C" (the
        other languages' words: right between two).
        """
        found = self.book.spans(Kind.ALTERNATIVE, self.masked, self.words)
        if not found:
            return False
        ordered = sorted((m for m in mentions if m.letters & asserted), key=lambda m: m.start)
        if len(ordered) < 2:
            return False
        first = ordered[0]
        for s, e, rule_id in found:
            if rule_id == "alternative.or" and any(
                    a.end <= s and e <= b.start
                    and not _SENTENCE_END.search(self.masked, a.end, b.start)
                    for a, b in zip(ordered, ordered[1:], strict=False)):
                return True
            if rule_id == "alternative.between" and e <= first.start and self.clause(s) == \
                    self.clause(first.start):
                return True
            if any(a.end <= s and e <= b.start and not self.masked[a.end:s].strip(" ,")
                   and not self.masked[e:b.start].strip(" ,")
                   for a, b in zip(ordered, ordered[1:], strict=False)):
                return True
        return False


_DISCUSSING_AFTER: Final = frozenset({Kind.DISCUSSED_AFTER})
_JOINED: Final = "'/"


def _between_words(text: str, at: int) -> bool:
    """Whether no word (its joins included: "it's", "r/o") runs across position ``at``."""
    if at <= 0 or at >= len(text):
        return True
    a, b = text[at - 1], text[at]
    return not ((a.isalnum() or a in _JOINED) and (b.isalnum() or b in _JOINED))


def _letter_dot(text: str, end: int) -> bool:
    """The clause end just before ``end`` is the period of a letter label (``A. Effusion``).

    A lone capital and its period label what follows where the letter opens its line, or
    follows a bullet or a comma, colon, semicolon or bracket ("Options: A. Effusion, B. …"),
    or follows a word with its text after it ("not A. Effusion"); where a new sentence opens
    after it ("Not A. It is B.") the period ends the sentence.
    """
    if not (end >= 2 and text[end - 1] == "." and "A" <= text[end - 2] <= "Z"
            and (end == 2 or not text[end - 3].isalnum())):
        return False
    before = text[:end - 2].rstrip(" \t")
    if not before or before[-1] in _LABEL_BEFORE or not before[-1].isalnum() and \
            before[-1] not in ".!?":
        return True
    # after a word: a label still where its text follows ("not A. Left"), a sentence's end
    # where a new sentence opens ("Not A. It is B.")
    return _SENTENCE_OPENS.match(text, end) is None


_SENTENCE_OPENS: Final = re.compile(r"\s+(?i:the|this|that|these|those|it|it's|i|we|there|"
                                    r"so|thus|hence|my|our|final|answer)\b")
# What may stand before a letter label: a line break, a bullet, a list's punctuation.
_LABEL_BEFORE: Final = "\n-*\u2022,:;([/|>#"
