"""Bounded memos of pure results the reader asks for at several steps of one response.

A text's words, an option set's spans in a text and a text's folded words are each computed
once and remembered in a :class:`BoundedMemo`: a ``dict`` (so the hot path is one
``dict.get``) that forgets everything when full. Every memo made here is forgotten by
:func:`forget_memos`, which the parsers' ``clear_caches`` calls, so a benchmark starts cold.
"""

from __future__ import annotations

import weakref
from typing import Any, Final, TypeVar

__all__ = ["BoundedMemo", "forget_memos"]

K = TypeVar("K")
V = TypeVar("V")

# (weakly: an option set's memo goes with its option set)
# (by identity: a dict is unhashable, and two empty memos are equal)
_MADE: Final[weakref.WeakValueDictionary[int, Any]] = weakref.WeakValueDictionary()


class BoundedMemo(dict[K, V]):
    """A memo of at most ``size`` entries: :meth:`remember` clears it when full.

    >>> m: BoundedMemo[str, int] = BoundedMemo(2)
    >>> m.remember("a", 1), m.remember("b", 2), m.remember("c", 3), sorted(m)
    (1, 2, 3, ['c'])
    """

    __slots__ = ("__weakref__", "size")

    def __init__(self, size: int):
        super().__init__()
        self.size = size
        _MADE[id(self)] = self

    def remember(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (forgetting everything first when full); return it."""
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value


def forget_memos() -> None:
    """Forget every bounded memo (a benchmark starts cold)."""
    for memo in list(_MADE.values()):
        memo.clear()
