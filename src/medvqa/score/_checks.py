"""Checks of ``medvqa score`` / ``compare`` options, each failing with one usage line."""

from __future__ import annotations

import difflib
from dataclasses import fields

from medvqa.errors import UsageError

#: ScoredRow fields that are not groupings (ids, outcomes, per-row scores).
_NOT_GROUPS = frozenset({"item_id", "correct", "invalid", "choice", "meta", "region", "open"})


def breakdown_fields() -> list[str]:
    """Names ``--by`` accepts: the item fields a scored row carries."""
    from medvqa.score._rows import ScoredRow

    return [f.name for f in fields(ScoredRow) if f.name not in _NOT_GROUPS]


def check_by(by: str) -> tuple[str, ...]:
    """The ``--by`` fields, each one known.

    Raises:
        UsageError: an unknown field (with a suggestion and the accepted names).

    """
    names = tuple(b.strip() for b in by.split(",") if b.strip())
    known = breakdown_fields()
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(
                f"--by {name!r} is not a field of scored items{hint}; use {', '.join(known)}"
            )
    return names


def check_resamples(resamples: int) -> None:
    """Refuse a bootstrap with no resample (a NumPy error otherwise).

    Raises:
        UsageError: ``resamples`` below 1.

    """
    if resamples < 1:
        raise UsageError(f"--resamples must be at least 1 (got {resamples})")
