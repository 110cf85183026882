"""A typed, lazily loaded registry: one table of name → ``"module:attribute"`` per kind.

Nothing registers itself on import (no process-wide side effects for tests to snapshot); the
table is the whole truth, and an unknown name gets a "did you mean …?" error.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from medvqa._suggest import did_you_mean

T = TypeVar("T")


class UnknownNameError(KeyError):
    """An unknown registry name; the message suggests close matches."""

    def __str__(self) -> str:
        return str(self.args[0])


class Registry(Generic[T]):
    """Name → object, resolved from ``"package.module:attr"`` strings on first use.

    Args:
        kind: what the entries are ("parser style", "condition", …), for error messages.
        table: name → import path.
    """

    def __init__(self, kind: str, table: Mapping[str, str]):
        self.kind = kind
        self._table = dict(table)
        self._loaded: dict[str, Any] = {}

    def names(self) -> list[str]:
        """Registered names, in table order."""
        return list(self._table)

    def __contains__(self, name: object) -> bool:
        return name in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def get(self, name: str) -> T:
        """The object registered as ``name``; raises :class:`UnknownNameError` with hints."""
        if name not in self._table:
            hint = did_you_mean(name, self._table)
            known = ", ".join(self._table)
            raise UnknownNameError(f"unknown {self.kind} {name!r}.{hint} Known: {known}.")
        if name not in self._loaded:
            module, _, attr = self._table[name].partition(":")
            self._loaded[name] = getattr(importlib.import_module(module), attr)
        return self._loaded[name]
