"""Structural checks of an item: is it an item at all? (LLM builders, ``medvqa validate``).

An item can pass the schema and still not be a question: a small model writes options
``{"A": "A", "B": "B", …}``, answers ``A`` every time, or puts a paragraph of explanation where
the question goes. These checks find such items by their structure alone, so the LLM builders
drop them (each failure a counted reason) and ``medvqa validate`` warns about them in any
benchmark:

* ``degenerate_options`` — a choice item whose option texts are empty, repeat one another
  (case and spacing aside), or are option letters (``"A"``, ``"(B)"``, ``"Option C"``);
* ``not_a_question`` — a question that asks nothing: no question mark, no stem to complete, no
  sentence opening with a word that asks or instructs (what, which, is, name, give …) and no
  clause opening with one that instructs;
* ``constant_answer`` — across a set of at least :data:`MIN_FOR_POSITION` single-answer choice
  items, every answer at the same position (a generator that always answers ``A``);
* ``ungrounded`` — an item built from a source text (a caption) whose answer is not in it:
  fewer than half the content words of the correct option (or open answer; the question, for
  a yes/no item) occur in the source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from medvqa.schema import CHOICE_TYPES, Item

#: Fewest single-answer choice items for "every answer at one position" to mean anything
#: (with four options, five items share a position by chance with probability 0.4 %).
MIN_FOR_POSITION = 5
#: Share of the answer's content words the source must contain.
MIN_GROUNDED_SHARE = 0.5

_LETTER_LIKE = re.compile(r"^\(?(?:option|choice|answer)?\s*\(?[A-Z]\)?[.):]?$", re.IGNORECASE)
#: Words that ask when they open a sentence.
_ASKING = frozenset("""
what which where when who whom whose why how is are was were am do does did can could should
would will shall may might must has have had""".split())
#: Words that instruct when they open a sentence or a clause ("Based on the image, name …").
_INSTRUCTING = frozenset("""
name identify select choose describe list give state indicate determine classify estimate
find specify explain compare count grade locate rate mark point evaluate assess consider
characterize characterise interpret match label outline differentiate distinguish predict
suggest propose fill complete answer tell""".split())
_SENTENCE = re.compile(r"(?:^|[.!;:]\s+)(?:please\s+)?([A-Za-z]+)", re.IGNORECASE)
_CLAUSE = re.compile(r",\s+(?:please\s+)?([A-Za-z]+)", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("""
the and for with from that this these those into onto over under than then there their
its are was were has have had not but any all each per via""".split())


@dataclass(frozen=True)
class ItemFlaw:
    """Why an item is not an item: a short ``reason`` code, the ``field``, and the detail."""

    reason: str
    field: str
    detail: str

    def __str__(self) -> str:
        """``field: detail``."""
        return f"{self.field}: {self.detail}"


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def option_flaw(item: Item) -> ItemFlaw | None:
    """Degenerate options of a choice item (yes/no items have fixed options: never flagged).

    >>> from medvqa.schema import Item
    >>> it = Item(id="x", question="Which?", options={"A": "A", "B": "B"}, answer="A",
    ...           question_type="single")
    >>> str(option_flaw(it))
    "options: option texts are option letters ('A', 'B')"
    """
    if item.question_type not in CHOICE_TYPES or item.question_type == "yesno":
        return None
    texts = [str(t) for t in item.options.values()]
    if any(not t.strip() for t in texts):
        return ItemFlaw("degenerate_options", "options", "an option text is empty")
    lettered = [t for t in texts if _LETTER_LIKE.match(t.strip())]
    if lettered:
        shown = ", ".join(repr(t) for t in lettered[:4])
        return ItemFlaw("degenerate_options", "options", f"option texts are option letters "
                        f"({shown})")
    normed = [_norm(t) for t in texts]
    if len(set(normed)) != len(normed):
        twice = next(t for t in texts if normed.count(_norm(t)) > 1)
        return ItemFlaw("degenerate_options", "options", f"option text {twice!r} is repeated")
    return None


def question_flaw(item: Item) -> ItemFlaw | None:
    """A question that asks nothing.

    It asks when it has a question mark, ends as a stem to complete (``:``, ``_``, ``…``), a
    sentence of it opens with a word that asks or instructs (what, which, is, name, give …), or
    a clause opens with one that instructs ("Based on the image, identify …"); a "please"
    before the word is allowed.

    >>> from medvqa.schema import Item
    >>> it = Item(id="x", question="The image shows a normal liver.", options={},
    ...           answer="yes", question_type="open")
    >>> question_flaw(it).reason
    'not_a_question'
    """
    text = item.question.strip()
    if not text:
        return ItemFlaw("not_a_question", "question", "the question is empty")
    if "?" in text or text.endswith((":", "_", "…", "...")):  # a question, or a stem to complete
        return None
    if any(w.lower() in _ASKING | _INSTRUCTING for w in _SENTENCE.findall(text)):
        return None
    if any(w.lower() in _INSTRUCTING for w in _CLAUSE.findall(text)):
        return None
    words = len(text.split())
    return ItemFlaw("not_a_question", "question", f"asks nothing: no question mark and no "
                    f"sentence that asks ({words} words: {text[:60]!r}…)")


def item_flaws(item: Item) -> list[ItemFlaw]:
    """The structural flaws of one item (options, question)."""
    return [f for f in (option_flaw(item), question_flaw(item)) if f is not None]


def _content_words(text: str) -> list[str]:
    return list(dict.fromkeys(w for w in _WORD.findall(text.lower())
                              if (len(w) >= 3 or w.isdigit()) and w not in _STOP))


def grounding_flaw(item: Item, source: str) -> ItemFlaw | None:
    """An answer that the source text (the caption it was written from) does not contain.

    The correct options' texts (or the open answer; the question for a yes/no item, whose
    answer has no words) must have at least :data:`MIN_GROUNDED_SHARE` of their content words
    in ``source``.

    >>> from medvqa.schema import Item
    >>> it = Item(id="x", question="Which procedure?", options={"A": "Angioplasty",
    ...           "B": "Biopsy", "C": "Drainage"}, answer="A", question_type="single")
    >>> grounding_flaw(it, "Balloon angioplasty of a femoral artery") is None
    True
    >>> grounding_flaw(it, "Hepatic angiography before embolization").reason
    'ungrounded'
    """
    if item.question_type == "yesno":
        span, what = item.question, "the question's words"
    elif item.question_type in CHOICE_TYPES:
        letters = item.answer if isinstance(item.answer, list) else [item.answer]
        span = " ".join(str(item.options.get(str(x), "")) for x in letters)
        what = "the correct option"
    else:
        span = " ".join(item.answer) if isinstance(item.answer, list) else str(item.answer)
        what = "the answer"
    words = _content_words(span)
    if not words:
        return None  # nothing to look for (a number-free one-letter answer): not judged here
    have = set(_WORD.findall(source.lower()))
    found = sum(w in have for w in words)
    if found / len(words) >= MIN_GROUNDED_SHARE:
        return None
    return ItemFlaw("ungrounded", "answer", f"{what} is not in the source text ({found} of "
                    f"{len(words)} content words of {span[:60]!r} found)")


def answer_position_flaw(items: Iterable[Item]) -> ItemFlaw | None:
    """Every single-answer choice item answered at one position (at least MIN_FOR_POSITION).

    >>> from medvqa.schema import Item
    >>> opts = {"A": "liver", "B": "spleen", "C": "kidney"}
    >>> its = [Item(id=str(i), question="Which organ?", options=opts, answer="A",
    ...             question_type="single") for i in range(5)]
    >>> answer_position_flaw(its).detail
    'all 5 single-answer choice items are answered A'
    """
    answers = [str(it.answer) for it in items
               if it.question_type in CHOICE_TYPES and it.question_type != "yesno"
               and not isinstance(it.answer, list)]
    if len(answers) < MIN_FOR_POSITION or len(set(answers)) != 1:
        return None
    return ItemFlaw("constant_answer", "answer", f"all {len(answers)} single-answer choice "
                    f"items are answered {answers[0]}")


#: Most per-item warnings ``medvqa validate`` lists (the rest are counted).
MAX_LISTED = 20


def structural_warnings(items_file: str | Path) -> list[str]:
    """``medvqa validate``'s warnings for items that are not items (see the module docstring).

    One line per flawed item (``FILE:LINE: FIELD: why``, the first :data:`MAX_LISTED`, then a
    count), and one for a constant answer position. Grounding is checked for items a caption
    builder wrote (``meta.generated_type`` with ``meta.provenance.source_text``). Malformed
    lines are :func:`~medvqa.benchmark.validate_benchmark`'s to report, not these.
    """
    from medvqa.benchmark._items import iter_items

    lines: list[str] = []
    flawed = 0
    items: list[Item] = []
    for lineno, item in iter_items(Path(items_file), []):
        items.append(item.model_copy(update={"meta": {}, "images": []}))
        flaws = item_flaws(item)
        prov = item.meta.get("provenance")
        if "generated_type" in item.meta and isinstance(prov, dict) and prov.get("source_text"):
            grounding = grounding_flaw(item, str(prov["source_text"]))
            flaws += [grounding] if grounding else []
        if flaws:
            flawed += 1
            if flawed <= MAX_LISTED:
                lines.append(f"{items_file}:{lineno}: {'; '.join(map(str, flaws))}")
    if flawed > MAX_LISTED:
        lines.append(f"{items_file}: {flawed - MAX_LISTED} more item(s) with structural flaws")
    position = answer_position_flaw(items)
    if position is not None:
        lines.append(f"{items_file}: {position}")
    return lines
