"""An item's options as the reader knows them: letters, texts and their forms, yes/no, values.

Built once per option set (:func:`options_of`):

- the letters, and which option is the yes and which the no of a yes/no item (any language of
  the shipped yes/no table);
- every text that names an option (:class:`~._variants.PhraseIndex`): the option text in the
  spellings clinicians use, its bracketed parts, the abbreviations of the shipped table, the
  initials of a long name ("PCL" for "Posterior cruciate ligament"), and an option's
  *distinguishing head*: the words before its qualifier ("Tubular adenoma" of "Tubular adenoma
  with low-grade dysplasia"), where they hold a word no other option has and name no other
  option;
- the options read as values where they are an ordered scale or quantities
  (:mod:`._values`, per question: the question may name the scale).

>>> ix = option_set((("A", "Tubular adenoma with low-grade dysplasia"),
...                  ("B", "Hyperplastic polyp")))
>>> [(s, e, sorted(k)) for s, e, k in ix.phrases.find("tubular adenoma", "tubular adenoma")]
[(0, 15, ['A'])]
>>> ix2 = option_set((("A", "Anterior cruciate ligament"), ("B", "Posterior cruciate ligament")))
>>> [(s, e, sorted(k)) for s, e, k in ix2.phrases.find("PCL tear", "pcl tear")]
[(0, 3, ['B'])]
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from medvqa.reading._answer_words import NO_WORDS, YES_WORDS
from medvqa.reading._book import RuleBook, book
from medvqa.reading._fold import TOKEN, anchor, fold, phrase_tokens
from medvqa.reading._memo import BoundedMemo
from medvqa.reading._text import blanked
from medvqa.reading._variants import PhraseIndex
from medvqa.reading.rules import Kind

if TYPE_CHECKING:
    from medvqa.reading._values import OptionValues

__all__ = ["OptionSet", "bag_letters", "bag_mentions", "bag_windows", "forget_option_sets",
           "option_set", "options_of", "plain_text"]

_MARKUP: Final = re.compile(r"[*_`]+")
# Where an option's qualifier begins: a bracket, a comma, a colon or a connecting word.
_QUALIFIER: Final = re.compile(r"\s*[(\[,;:]|\s+(?:with|without|in|on|at|due|secondary|after"
                               r"|for|from|involving|and|or|plus|then|vs|versus|of|to|-)\s+",
                               re.IGNORECASE)
# Words too common to tell one option from another.
_COMMON: Final = frozenset(fold(w) for w in (
    "the", "a", "an", "of", "and", "or", "with", "without", "no", "not", "type", "grade",
    "stage", "level", "class", "group", "category", "score", "normal", "abnormal", "left",
    "right", "both", "other", "none", "all", "ct", "mri", "mr", "us", "x", "ray", "view",
    "acute", "chronic", "mild", "moderate", "severe", "large", "small", "primary", "secondary",
    "benign", "malignant", "lesion", "disease", "syndrome", "tumor", "cancer", "carcinoma"))


# Around a text written out as an answer: spaces, markup, closing marks.
_AROUND_TEXT: Final = " \t*_`\"'.!?:"


def plain_text(text: str) -> str:
    """``text`` in one case, its spaces single, markup and closing marks around it dropped.

    Two texts equal in this form say the same words: an option's text written out.

    >>> plain_text("  **Pleural  Effusion**. ")
    'pleural effusion'
    """
    return " ".join(text.split()).strip(_AROUND_TEXT).casefold()


class OptionSet:
    """Per option set, computed once (see the module docstring).

    Attributes:
        items: the options as (letter, text) pairs, in display order.
        keys: the option letters.
        yes: the letter of the yes option on a yes/no item (None otherwise); ``no`` likewise.
        yesno: the options are a yes and a no.
        phrases: how each option is named by its words.
        text_of: letter → the option's text as :func:`plain_text` writes it (a text that is
            exactly an option's, written out, is found without reading it).
        words: letter → the option text's folded words (a restated option list is recognised).
        bags: letter → the option's distinguishing words, where it has two or more: the option
            is named where they all occur close together in any order.
        bag_anchors: letter → a substring of each of its distinguishing words' written forms
            (:func:`~._fold.anchor`): an ASCII text lacking one cannot name it by its words.
    """

    __slots__ = ("_values", "bag_anchors", "bags", "items", "keys", "no", "phrases", "text_of",
                 "words", "yes", "yesno")

    def __init__(self, items: tuple[tuple[str, str], ...], bk: RuleBook | None = None):
        self.items = items
        self.keys = frozenset(k for k, _ in items)
        texts = [(k, " ".join(_MARKUP.sub("", v).lower().split()).rstrip(".")) for k, v in items]
        self.yes = next((k for k, t in texts if t in YES_WORDS), None)
        self.no = next((k for k, t in texts if t in NO_WORDS), None)
        self.yesno = self.yes is not None and self.no is not None
        skip = frozenset(t for _, t in texts if t in YES_WORDS | NO_WORDS) if self.yesno else \
            frozenset()
        generic = (bk or book()).words[Kind.OPTION_GENERIC]
        self.phrases = PhraseIndex(items, skip, _heads(items, generic), _initials(items))
        self.words = {k: phrase_tokens(v)[0] for k, v in items}
        self.bags = {} if self.yesno else _bags(items, generic)
        self.bag_anchors = {k: tuple(anchor(w) for w in bag) for k, bag in self.bags.items()}
        self.text_of = {k: plain_text(v) for k, v in items}
        self._values: dict[str, OptionValues | None] = {}

    def values(self, question: str = "") -> OptionValues | None:
        """The options read as values (the question may name their scale), or None."""
        if question in self._values:
            return self._values[question]
        from medvqa.reading._values import option_values

        got = option_values(self.items, question)
        if len(self._values) < 64:
            self._values[question] = got
        return got


def _content_words(text: str) -> list[str]:
    return [fold(w) for w in TOKEN.findall(text.lower())]


def _bags(items: tuple[tuple[str, str], ...],
          generic: frozenset[str] = frozenset()) -> dict[str, frozenset[str]]:
    """Letter → its content words (not common, not generic), where it has two or more."""
    out: dict[str, frozenset[str]] = {}
    skip = {fold(g) for g in generic}
    for k, v in items:
        words = frozenset(w for w in _content_words(re.sub(r"[(\[].*?[)\]]", " ", v))
                          if w not in _COMMON and w not in skip and len(w) >= 3
                          and not w.isdigit())
        if len(words) >= 2:
            out[k] = words
    # a bag that is a part of another option's is no name of its own ("Mass" in "Spiculated
    # mass"): it would name both
    return {k: b for k, b in out.items() if not any(j != k and b <= c for j, c in out.items())}


def _heads(items: tuple[tuple[str, str], ...],
           generic: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """Letter → its distinguishing head, where it has one (see the module docstring)."""
    words_of = {k: set(_content_words(v)) for k, v in items}
    texts = {k: " ".join(_content_words(v)) for k, v in items}
    out: dict[str, list[str]] = {}
    for k, v in items:
        m = _QUALIFIER.search(v)
        if m is None or m.start() == 0:
            continue
        head = v[:m.start()].strip()
        hw = _content_words(head)
        others = set().union(*(w for j, w in words_of.items() if j != k))
        own = [w for w in hw if w not in others and w not in _COMMON and len(w) >= 3]
        if not own or len(hw) >= len(_content_words(v)):
            continue
        phrase = " ".join(hw)
        if any(phrase in t for j, t in texts.items() if j != k):
            continue
        out[k] = [head]
    folded_generic = {fold(g) for g in generic}
    for k, v in items:  # without its generic last word ("Segmental" of "Segmental distribution")
        parts = v.split()
        if len(parts) >= 2 and fold(parts[-1].lower()) in folded_generic:
            rest = " ".join(parts[:-1])
            rest_words = _content_words(rest)
            if rest_words and not any(" ".join(rest_words) in t for j, t in texts.items()
                                      if j != k):
                out.setdefault(k, []).append(rest)
    for k, v in items:  # its last words ("vascular calcifications" of "Benign vascular …")
        words = _content_words(v)
        if len(words) < 3 or _QUALIFIER.search(v):
            continue
        tail = words[-2:]
        phrase = " ".join(tail)
        others = set().union(*(w for j, w in words_of.items() if j != k))
        if set(tail) - others - _COMMON and not any(phrase in t for j, t in texts.items()
                                                    if j != k):
            out.setdefault(k, []).append(" ".join(v.split()[-2:]))
    return out


def _initials(items: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """Letter → the initials of its words where they are three letters or more ("PCL")."""
    out: dict[str, list[str]] = {}
    for k, v in items:
        words = [w for w in re.split(r"[\s\-/]+", re.sub(r"[(\[].*?[)\]]", " ", v)) if w]
        words = [w for w in words if w[:1].isalpha() and w.lower() not in ("of", "the", "and")]
        if len(words) >= 3:
            out[k] = ["".join(w[0] for w in words).upper()]
    seen: dict[str, int] = {}
    for abbrs in out.values():
        for a in abbrs:
            seen[a] = seen.get(a, 0) + 1
    return {k: [a for a in v if seen[a] == 1] for k, v in out.items()}


@lru_cache(maxsize=4096)
def option_set(items: tuple[tuple[str, str], ...], bk: RuleBook | None = None) -> OptionSet:
    """The cached :class:`OptionSet` of ``items`` (read with the rule book ``bk``)."""
    return OptionSet(items, bk)


def options_of(options: dict[str, str], bk: RuleBook | None = None) -> OptionSet:
    """The cached :class:`OptionSet` of an item's options (read with the rule book ``bk``)."""
    return option_set(tuple(options.items()), bk)


_NON: Final = re.compile(r"(?<![a-z])non[- ]\Z")


def bag_mentions(text: str, ix: OptionSet,
                 taken: list[tuple[int, int, frozenset[str]]],
                 words: frozenset[str] | None = None) -> list[tuple[int, int, frozenset[str]]]:
    """Where an option's words occur close together in another order: (start, end, letters).

    "collapse of the left lung" for "Total lung collapse"; not over ``taken`` spans.

    Each option with two or more distinguishing words (:attr:`OptionSet.bags`) is named where
    all of them fall within a window of their number plus three words; a window that holds
    two options' words names neither. ``words``: the text's :func:`~._book.word_tokens`,
    where the caller has them.
    """
    if not ix.bags:
        return []
    lowered = text.lower()
    if lowered.isascii():
        # a bag is named only by words outside the taken spans (a window overlapping one is
        # dropped): their anchors must be there once the spans are blanked
        view = _blanked(lowered, taken) if taken and len(lowered) == len(text) else lowered
        if not _anchored(view, ix.bag_anchors):
            return []  # no option's words can all be here (the common case, most cheaply)
    # the text's words (``word_tokens`` where the caller has them), folded
    present = _folded(frozenset(TOKEN.findall(lowered)) if words is None else words)
    if not any(bag <= present for bag in ix.bags.values()):
        return []  # no option has all its words here (the common case, cheaply)
    return bag_windows(lowered, ix, taken)


def bag_letters(text: str, ix: OptionSet, skip: frozenset[str] = frozenset()) -> frozenset[str]:
    """The letters but ``skip`` that :func:`bag_mentions` may name in ``text`` (no spans taken).

    A gate: those whose bag's words all occur among the text's words (and, in an ASCII text,
    whose anchors all occur in it); a window is found only where every word of its bag is.
    """
    lowered = text.lower()
    anchors = {k: a for k, a in ix.bag_anchors.items() if k not in skip}
    if not anchors or lowered.isascii() and not _anchored(lowered, anchors):
        return frozenset()
    present = _folded(frozenset(TOKEN.findall(lowered)))
    return frozenset(k for k in anchors if ix.bags[k] <= present)


def bag_windows(lowered: str, ix: OptionSet, taken: list[tuple[int, int, frozenset[str]]]
                ) -> list[tuple[int, int, frozenset[str]]]:
    """:func:`bag_mentions` without its gates (the definition the gates are tested against)."""
    toks = _TOKS.get(lowered)
    if toks is None:
        # a word after "non-" is another word ("non-proliferative" is not "proliferative")
        toks = [(m.start(), m.end(), "non-" + fold(m.group()) if _NON.match(
            lowered, max(0, m.start() - 4), m.start()) else fold(m.group()))
            for m in TOKEN.finditer(lowered)]
        if len(lowered) <= _TOKS_LEN:
            _TOKS.remember(lowered, toks)
    found: list[tuple[int, int, frozenset[str]]] = []
    for letter, bag in ix.bags.items():
        where = [i for i, t in enumerate(toks) if t[2] in bag]
        if len({toks[i][2] for i in where}) < len(bag):
            continue
        span = len(bag) + 3
        for a in range(len(where)):
            window = [i for i in where[a:] if i - where[a] < span]
            if {toks[i][2] for i in window} >= bag:
                s, e = toks[where[a]][0], toks[window[-1]][1]
                if not any(x < e and s < y for x, y, _ in taken):
                    found.append((s, e, frozenset((letter,))))
                break
    clashes = {i for i, a in enumerate(found) for j, b in enumerate(found)
               if i != j and a[0] < b[1] and b[0] < a[1]}
    return [f for i, f in enumerate(found) if i not in clashes]


def _anchored(view: str, bag_anchors: dict[str, tuple[str, ...]]) -> bool:
    """Whether every anchor of some option's bag is in ``view`` (loops: no generators)."""
    for anchors in bag_anchors.values():
        for a in anchors:
            if a not in view:
                break
        else:
            return True
    return False


def _blanked(lowered: str, spans: list[tuple[int, int, frozenset[str]]]) -> str:
    """``lowered`` with each span's characters replaced by spaces (same length)."""
    if len(spans) == 1:  # (the common case: the option named once)
        start, end, _ = spans[0]
        start = max(start, 0)
        return lowered[:start] + " " * (end - start) + lowered[end:] if end > start else lowered
    return blanked(lowered, [(start, end) for start, end, _ in spans])


# A text's folded words with their places (asked for at several steps of one response: found
# once; short texts only, as a long response's words are many).
_TOKS: Final[BoundedMemo[str, list[tuple[int, int, str]]]] = BoundedMemo(1 << 10)
_TOKS_LEN: Final = 2_000
_FOLDED: Final[BoundedMemo[frozenset[str], frozenset[str]]] = BoundedMemo(1 << 12)


def _folded(words: frozenset[str]) -> frozenset[str]:
    """The folded forms of a text's words (asked for at several steps: folded once)."""
    got = _FOLDED.get(words)
    return got if got is not None else _FOLDED.remember(words, frozenset(map(fold, words)))


def forget_option_sets() -> None:
    """Forget every remembered option set (benchmarks start cold with it)."""
    option_set.cache_clear()
