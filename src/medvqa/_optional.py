"""Import heavy optional dependencies with a one-line install hint when they are missing."""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingDependencyError(ImportError):
    """An optional dependency is not installed; the message says how to install it."""


def optional_import(module: str, install: str | None = None) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the pip package."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        pkg = install or module.split(".")[0]
        raise MissingDependencyError(
            f"{module} is needed for this feature: pip install {pkg}"
        ) from exc
