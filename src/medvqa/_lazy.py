"""Lazy public names for a package (PEP 562): imported from their private module on first use.

A package whose public API pulls heavy modules (SQLite, tenacity, torch) keeps ``medvqa --help``
fast by exporting those names through :func:`lazy_exports` instead of importing them eagerly.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, where: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``.

    Args:
        package: the package's dotted name.
        where: public name → private module (relative to the package) that defines it.
        namespace: the package's ``globals()``; a resolved name is cached there.
    """

    def getattr_(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(where))

    return getattr_, dir_
