"""The one "did you mean …?" hint for unknown names (registries, recipes, prompts, model kinds)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str], n: int = 3) -> str:
    """`` Did you mean 'a', 'b'?`` for the closest known names, or ``""`` when none is close.

    >>> did_you_mean("blnd", ["blind", "noise"])
    " Did you mean 'blind'?"
    >>> did_you_mean("zzz", ["blind"])
    ''
    """
    close = difflib.get_close_matches(name, list(known), n=n)
    return f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
