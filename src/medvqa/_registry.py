"""A typed, lazily loaded registry: one table of name → row per kind of extension.

Nothing registers itself on import (no process-wide side effects for tests to snapshot); the
table is the whole truth. It also produces everything that talks about its names: the help
text of the option that takes one (:meth:`Registry.help_text`), the ``--list`` output
(:meth:`Registry.listing`) and the "did you mean …?" error for an unknown name
(:meth:`Registry.check`), so none of these is typed by hand anywhere else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from medvqa._suggest import did_you_mean
from medvqa.errors import UsageError

T = TypeVar("T")


class UnknownNameError(UsageError, KeyError):
    """An unknown registry name (a usage error, exit 1); the message suggests close matches."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Entry:
    """One row of a registry; kinds with more to say subclass it (backends, import formats).

    Attributes:
        target: ``"package.module:attribute"`` of the object, imported on first use.
        summary: one line saying what the row is, for help texts and ``--list``.
        example: how a user writes it where that differs from the name (``openai:MODEL@URL``).
    """

    target: str
    summary: str = ""
    example: str = ""


class Registry(Generic[T]):
    """Name → object, resolved from its row's ``target`` on first use.

    Args:
        kind: what the entries are ("parser style", "condition", …), for messages.
        table: name → row, or name → ``"module:attr"`` (a row without a summary).
    """

    def __init__(self, kind: str, table: Mapping[str, str | Entry]):
        self.kind = kind
        self._rows: dict[str, Entry] = {
            name: row if isinstance(row, Entry) else Entry(row) for name, row in table.items()}
        self._loaded: dict[str, Any] = {}

    def names(self) -> list[str]:
        """Registered names, in table order."""
        return list(self._rows)

    def rows(self) -> dict[str, Entry]:
        """Name → row, in table order (a copy)."""
        return dict(self._rows)

    def __contains__(self, name: object) -> bool:
        return name in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def check(self, name: str) -> str:
        """``name`` when registered; else :class:`UnknownNameError` with close matches.

        >>> Registry("colour", {"red": "m:r"}).check("rad")
        Traceback (most recent call last):
        ...
        medvqa._registry.UnknownNameError: unknown colour 'rad'. Did you mean 'red'? Known: red.
        """
        if name not in self._rows:
            hint = did_you_mean(name, self._rows)
            raise UnknownNameError(
                f"unknown {self.kind} {name!r}.{hint} Known: {', '.join(self._rows)}.")
        return name

    def row(self, name: str) -> Entry:
        """The row of ``name`` (checked)."""
        return self._rows[self.check(name)]

    def get(self, name: str) -> T:
        """The object registered as ``name``; raises :class:`UnknownNameError` with hints."""
        if name not in self._loaded:
            module, _, attr = self.row(name).target.partition(":")
            self._loaded[name] = getattr(importlib.import_module(module), attr)
        return self._loaded[name]

    def help_text(self, sep: str = " | ") -> str:
        """The names (or their examples) joined, for an option's help: ``strict | open``.

        >>> Registry("style", {"a": "m:a", "b": Entry("m:b", example="b:X")}).help_text()
        'a | b:X'
        """
        return sep.join(row.example or name for name, row in self._rows.items())

    def listing(self) -> list[tuple[str, str]]:
        """``(name or example, summary)`` per row, for ``--list`` output."""
        return [(row.example or name, row.summary) for name, row in self._rows.items()]

    def where(self, kind: str, keep: Callable[[Entry], bool]) -> Registry[T]:
        """The rows that ``keep`` accepts, as a registry of their own (a view of one table)."""
        return Registry(kind, {n: r for n, r in self._rows.items() if keep(r)})

    def __or__(self, other: Registry[Any]) -> Registry[Any]:
        """Both tables as one (names must not repeat), keeping this one's kind."""
        clash = set(self._rows) & set(other._rows)
        if clash:
            raise ValueError(f"{self.kind}: names in both tables: {sorted(clash)}")
        return Registry(self.kind, {**self._rows, **other._rows})
