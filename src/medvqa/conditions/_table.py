"""The condition families: one row each, ``fn(seed, variant, parameter) -> Condition``.

A light module (no NumPy, no images): the command line's help text is made from it at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from medvqa._registry import Entry, Registry

if TYPE_CHECKING:
    from medvqa.conditions._base import Condition

_F = "medvqa.conditions._factories"

#: Condition family → factory; ``example`` is how a user writes the family in ``--conditions``.
CONDITIONS: Registry[Callable[[int, str, str], Condition]] = Registry("condition", {
    "clean": Entry(f"{_F}:make_clean", "the item as built (the baseline)"),
    "blind": Entry(f"{_F}:make_blind", "a black (or :grey) image instead of the real one",
                   example="blind[:grey]"),
    "noise": Entry(f"{_F}:make_noise", "Gaussian noise instead of the image"),
    "text-only": Entry(f"{_F}:make_text_only", "no image sent"),
    "corrupt": Entry(f"{_F}:make_corrupt", "a corruption at severities 1-5 (all: every one)",
                     example="corrupt:NAME|all@1-5"),
    "swap": Entry(f"{_F}:make_swap", "another item's question with this item's image"),
    "permute": Entry(f"{_F}:make_permute", "options shifted by K (circular evaluation)",
                     example="permute[@K]"),
    "ood": Entry(f"{_F}:make_ood", "an out-of-domain photo and an abstention instruction"),
})
