"""An answer joined to another option's own word is two readings, not one.

"Mild to moderate NPDR", "moderate and severe NPDR", "pleural effusion and consolidation",
"ACL and medial meniscal tears", "0-IIa + IIc": the response names its option in full and,
joined to it by "and", "or", "to", "+", "/" or "vs", a word that belongs to another option and
not to the chosen one. The chosen option is then one end of a range or one of two findings, and
the credit is withdrawn (``alternative.coordinated``). The chosen option's last mention is the
one read (an earlier "BI-RADS 4 or 5" in the reasoning led to the answer). Only words of three
letters or more that are no function word count, and only on single-answer items (a
multiple-choice answer lists findings by design; a yes/no item has no option words).
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._fold import phrase_tokens
from medvqa.reading._memo import BoundedMemo
from medvqa.reading._options import OptionSet

__all__ = ["COORDINATED", "coordinated_other", "last_mention"]

COORDINATED: Final = "alternative.coordinated"
# (no dash: "— atopic dermatitis" opens a clause; a range of values is read as values)
_JOINS: Final = ("and", "or", "to", "&", "+", "/", "vs.", "vs", "versus")
_JOIN: Final = "(?:" + "|".join(map(re.escape, _JOINS)) + ")"
# What a join can end with: a mention with another last character before it is joined to
# nothing (a test for the pattern that must end at the mention, which is searched)
_JOIN_ENDS: Final = frozenset(w[-1] for w in _JOINS)
_AFTER: Final = re.compile(r"[ \t]*,?[ \t]*" + _JOIN + r"[ \t]*(?:the[ \t]+)?([^\W_][\w-]*)",
                           re.IGNORECASE)
_BEFORE: Final = re.compile(r"([^\W_][\w-]*)[ \t]*" + _JOIN + r"[ \t]*\Z", re.IGNORECASE)
# Words that join or qualify rather than name ("no", "non-", "not", articles …).
_FUNCTION: Final = frozenset({
    "no", "non", "not", "the", "and", "with", "without", "for", "from", "into", "type", "grade",
    "stage", "any", "all", "other", "both", "its", "this", "that", "these", "those", "than"})


# (per option set and chosen letter: computed once)
_OTHER_WORDS: Final[BoundedMemo[tuple[OptionSet, str], frozenset[str]]] = BoundedMemo(1 << 10)


def _other_words(chosen: str, ix: OptionSet) -> frozenset[str]:
    """Words of other options that the chosen option's text does not hold."""
    got = _OTHER_WORDS.get((ix, chosen))
    if got is not None:
        return got
    own = set(ix.words.get(chosen, ()))
    return _OTHER_WORDS.remember((ix, chosen), frozenset(
        w for k, ws in ix.words.items() if k != chosen for w in ws
        if w not in own and w not in _FUNCTION and (len(w) >= 3 or w.isdigit())))


def _word_form(word: str, others: frozenset[str]) -> bool:
    """Whether ``word`` (folded) is one of ``others`` or shares six first letters with one.

    Folded as option words are ("oedema" / "edema"); "meniscal" / "meniscus" share a stem.
    """
    parts = list(phrase_tokens(word)[0])
    return any(p in others or (len(p) >= 6 and any(o[:6] == p[:6] for o in others
                                                    if len(o) >= 6)) for p in parts[-1:])


def last_mention(text: str, chosen: str, ix: OptionSet) -> tuple[int, int] | None:
    """Where ``text`` last names the option ``chosen`` by its words (alone), or None."""
    key = (text, chosen, ix)
    if key in _LAST:  # (asked by each check after a choice: found once)
        return _LAST[key]
    spans = [(s, e) for s, e, keys in ix.phrases.find(text, text.lower()) if keys == {chosen}]
    return _LAST.remember(key, spans[-1] if spans else None)


_LAST: Final[BoundedMemo[tuple[str, str, OptionSet], tuple[int, int] | None]] = \
    BoundedMemo(1 << 10)


def coordinated_other(text: str, chosen: str, ix: OptionSet) -> bool:
    """Whether a mention of ``chosen`` in ``text`` is joined to another option's word."""
    if ix.yesno:
        return False
    others = _other_words(chosen, ix)
    if not others:
        return False
    span = last_mention(text, chosen, ix)
    # the last mention is the answer's; an earlier "4 or 5" was reasoning towards it
    for start, end in [span] if span is not None else []:
        after = _AFTER.match(text, end)
        if after is not None and _word_form(after.group(1), others):
            return True
        last = text[max(0, start - 40):start].rstrip(" \t")[-1:]
        if last.isascii() and last.lower() not in _JOIN_ENDS:
            continue  # (a letter of another script may match a join's case-insensitively)
        before = _BEFORE.search(text, max(0, start - 40), start)
        if before is not None and _word_form(before.group(1), others):
            return True
    return False
