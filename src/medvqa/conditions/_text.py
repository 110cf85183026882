"""Conditions that change the text: ``swap`` (question swap) and ``permute@k`` (option shifts).

* ``swap`` — PathMMU's question-swap control (seed 004 §4.4, Fig. 5): each item is asked
  another item's question while its image and options stay, so a model that still beats chance
  is matching options, not reading the question. The partner comes from a seeded derangement
  within the item's question type: items are ordered by question text (the texts' order and
  the order inside each text shuffled by the seed) and each takes the question ``m`` places on,
  ``m`` being the largest number of items sharing one text, so no item keeps its own question
  text unless one text covers more than half the group. Items alone in their type are skipped.
* ``permute@k`` — the options shifted cyclically by ``k`` places (option ``i`` shows the text
  that was at ``i + k``), the answer letter remapped. Asked for every ``k`` below an item's
  option count, an item counts correct only if correct under all shifts (circular evaluation;
  the scorer's ``permute`` row). ``permute@0`` is the unshifted order.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable

from medvqa.conditions._base import Condition
from medvqa.schema import CHOICE_TYPES, Item

log = logging.getLogger(__name__)


def _order_key(seed: int, *parts: str) -> str:
    return hashlib.sha256("\x1f".join([str(seed), *parts]).encode("utf-8")).hexdigest()


def derangement(ids: list[str], questions: list[str], seed: int) -> dict[str, str]:
    """Item id → the question it is asked under ``swap`` (see the module docstring).

    >>> d = derangement(["a", "b", "c"], ["q1", "q2", "q3"], seed=0)
    >>> sorted(d.values()) == ["q1", "q2", "q3"]
    True
    >>> [d[i] != q for i, q in [("a", "q1"), ("b", "q2"), ("c", "q3")]]
    [True, True, True]
    """
    n = len(ids)
    if n < 2:
        return {}
    counts = Counter(questions)
    order = sorted(range(n), key=lambda i: (_order_key(seed, "text", questions[i]),
                                            _order_key(seed, "item", ids[i])))
    step = max(counts.values())
    if step >= n:  # every question is the same text: any shift keeps it
        step = 1
    return {ids[order[j]]: questions[order[(j + step) % n]] for j in range(n)}


class Swap(Condition):
    """``swap``: another item's question (same question type); image and options unchanged.

    Without :meth:`prepare` (as in the scorer, which needs only options and answer, both kept)
    :meth:`transform_item` returns the item unchanged.
    """

    removes = frozenset({"question"})

    name = "swap"

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._question: dict[str, str] = {}

    def prepare(self, items: Iterable[Item]) -> None:
        """Draw the derangement over the selected items (ids and question texts only)."""
        groups: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
        for item in items:
            ids, texts = groups[item.question_type]
            ids.append(item.id)
            texts.append(item.question)
        self._question = {}
        for qtype, (ids, texts) in groups.items():
            mapping = derangement(ids, texts, self.seed)
            same = sum(mapping[i] == t for i, t in zip(ids, texts, strict=False) if i in mapping)
            if same:
                log.warning("swap: %d of %d %s items keep an identical question text "
                            "(one text covers more than half of them)", same, len(ids), qtype)
            self._question.update(mapping)

    def applies_to(self, item: Item) -> bool:
        """Items that have a partner whose question text differs."""
        other = self._question.get(item.id)
        return other is not None and other != item.question

    def transform_item(self, item: Item) -> Item:
        """The item with its partner's question."""
        other = self._question.get(item.id)
        if other is None:
            return item
        return item.model_copy(update={"question": other})


def shift_options(item: Item, k: int) -> Item:
    """The item with its options rotated by ``k`` (letters stay in place) and answer remapped.

    >>> it = Item(id="x", question="q", options={"A": "a", "B": "b", "C": "c"}, answer="A",
    ...           question_type="single")
    >>> s = shift_options(it, 1)
    >>> (s.options, s.answer)
    ({'A': 'b', 'B': 'c', 'C': 'a'}, 'C')
    """
    options = item.options
    n = len(options)
    if n == 0 or k % n == 0:
        return item
    k %= n
    letters = list(options)
    texts = list(options.values())
    answer: str | list[str]
    if isinstance(item.answer, list):
        position = {letter: i for i, letter in enumerate(letters)}
        answer = sorted(letters[(position[a] - k) % n] for a in item.answer)
    else:
        answer = letters[(letters.index(item.answer) - k) % n]
    return _updated(item, {"options": dict(zip(letters, texts[k:] + texts[:k], strict=True)),
                           "answer": answer})


def _updated(item: Item, update: dict[str, object]) -> Item:
    """``item.model_copy(update=update)``, without pydantic's generic copy.

    The same object (fields shallow-copied, ``update`` set unvalidated and marked as set), at
    about half the cost: the scorer shifts the options of every ``permute@k`` prediction, a
    million times at the size of real benchmarks. Falls back to ``model_copy`` for a model
    carrying extra or private attributes (``Item`` forbids both).
    """
    if item.__pydantic_extra__ is not None or getattr(item, "__pydantic_private__", None):
        return item.model_copy(update=update)
    new = Item.__new__(type(item))
    fields = item.__dict__.copy()
    fields.update(update)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_fields_set__", item.__pydantic_fields_set__ | update.keys())
    object.__setattr__(new, "__pydantic_private__", None)
    return new


class Permute(Condition):
    """``permute@k``: options shifted cyclically by ``k``; items with ≤ k options skip it."""

    removes = frozenset({"options order"})
    combined_as = "permute"

    def __init__(self, seed: int = 0, shift: int = 0):
        super().__init__(seed)
        if shift < 0:
            raise ValueError(f"permute@{shift}: the shift must be ≥ 0")
        self.shift = shift
        self.name = f"permute@{shift}"

    def applies_to(self, item: Item) -> bool:
        """Choice items with more than ``k`` options."""
        return item.question_type in CHOICE_TYPES and len(item.options) > self.shift

    def transform_item(self, item: Item) -> Item:
        """The item with shifted options (unchanged for non-choice items)."""
        if item.question_type not in CHOICE_TYPES:
            return item
        return shift_options(item, self.shift)
