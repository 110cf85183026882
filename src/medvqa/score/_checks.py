"""Checks of ``medvqa score`` / ``compare`` options, each failing with one usage line.

(``--by`` is checked by :func:`medvqa.score._by.check_by`.)
"""

from __future__ import annotations

from medvqa.errors import UsageError


def check_resamples(resamples: int) -> None:
    """Refuse a bootstrap with no resample (a NumPy error otherwise).

    Raises:
        UsageError: ``resamples`` below 1.

    """
    if resamples < 1:
        raise UsageError(f"--resamples must be at least 1 (got {resamples})")
