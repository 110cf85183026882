"""What a reviewer can decide about an item, and the reasons a rejection may give.

The reasons follow the expert criteria of PathMMU (seed 004: answerable without the image,
answer not inferable from question and image, wrong / no / several correct answers, atypical
question) and MIRA (seed 001: visual clarity, diagnostic relevance), merged into one short list;
``other`` carries free text.
"""

from __future__ import annotations

from typing import Literal

Verdict = Literal["accept", "edit", "reject"]
VERDICTS: tuple[str, ...] = ("accept", "edit", "reject")

#: Rejection reason → the sentence a reviewer sees.
REASONS: dict[str, str] = {
    "not_answerable": "Not answerable from the image",
    "ambiguous": "Ambiguous question or options",
    "wrong_answer": "Wrong answer (or none / several correct)",
    "guessable": "Guessable from the text alone",
    "image_quality": "Poor image quality",
    "other": "Other (explain)",
}

#: Roles a reviewer may hold; an admin also adjudicates and sees progress.
ROLES: tuple[str, ...] = ("reviewer", "admin")


def keeps(verdict: str) -> bool:
    """Whether a verdict keeps the item in the next benchmark version (accept or edit).

    >>> keeps("edit"), keeps("reject")
    (True, False)
    """
    return verdict in ("accept", "edit")
