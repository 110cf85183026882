"""The guessing floor: the chance an item is answered right by a model that does not know it.

A multiple-choice item with ``k`` options is right ``1/k`` of the time for a model that picks
blindly; a 2PL says a weak enough model is never right, so it reads every lucky answer as
ability, places weak models too high and calls the easy-looking items of a strong model
uninformative. With ``guessing="chance"`` each item gets a fixed lower asymptote ``c`` (the
3PL's, never estimated: tens of models cannot estimate it, and the item's form already says
it):

* one answer among ``k`` options (``single``, ``grade``, ``yesno``): ``1/k``;
* ``multi`` (the exact set of letters among ``k`` options): ``1 / (2^k - 1)``;
* ``open`` and ``region``: 0 (no finite set to guess from).

``guessing="none"`` sets every floor to 0: the 2PL of earlier calibrations. A fixed floor is
wrong for an item where a model that does not know is pulled away from, or towards, the right
option (a yes-biased model is "right" on every yes item it does not know, and never on a no
item): ``medvqa bench --only adaptive`` measures what that costs.

>>> from medvqa.schema import Item
>>> yes = Item(id="1", question="q?", options={"A": "yes", "B": "no"}, answer="A",
...            question_type="yesno")
>>> chance_rate(yes)
0.5
>>> floors([yes], "none").tolist()
[0.0]
"""

from __future__ import annotations

import numpy as np

from medvqa.errors import UsageError
from medvqa.irt._settings import GUESSING
from medvqa.schema import Item


def chance_rate(item: Item) -> float:
    """The rate at which a blind pick among the item's options is right (see the module)."""
    k = len(item.options)
    if item.question_type == "multi":
        return 1.0 / (2**k - 1) if k else 0.0
    if item.question_type in ("open", "region") or k < 2:
        return 0.0
    return 1.0 / k


def floors(items: list[Item], guessing: str) -> np.ndarray:
    """Every item's fixed lower asymptote under ``guessing`` (an array in item order).

    Raises:
        UsageError: a guessing mode that is not one of :data:`GUESSING`.
    """
    if guessing not in GUESSING:
        raise UsageError(f"--guessing {guessing!r}: use {' or '.join(GUESSING)}")
    if guessing == "none":
        return np.zeros(len(items))
    return np.array([chance_rate(it) for it in items], dtype=float)
