"""A numbering the response itself gives the options, and the answer it names by that numbering.

"Sorting the options alphabetically:⏎1. Bone metastases⏎2. Degenerative changes … → answer 1",
"(i) epidural — no⏎(ii) subdural — no⏎(iii) subarachnoid — yes … Answer: (iii)", "options
(0-indexed): [0] Myocarditis, [1] … prediction: 2": the response lists the options under labels
of its own, each item naming one option, then answers by a label. :func:`relabelled_answer`
maps the labels it answers with back to the options (``structural.relabelled``).

It reads only where every item names exactly one option, no two items name the same one, and the
answer's labels are all among the items'; the answer is the last place the response names
labels after an answer word ("my choice is 1", "Selected: I and III", "prediction: 2").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["RELABELLED", "relabelled_answer"]

RELABELLED: Final = "structural.relabelled"
_LABEL = r"(?:\d{1,2}|[ivx]{1,4}|[IVX]{1,4})"
# an item on its own line ("1. Pulmonary embolism", "(iii) subarachnoid — yes", "II) …")
_LINE_ITEM: Final = re.compile(r"(?m)^[ \t]*(?:[-*\u2022][ \t]*)?[(\[]?(?P<label>" + _LABEL
                               + r")[.):\]][ \t]+(?P<text>[^\n]+)")
# an item inline, its label in brackets ("[0] Myocarditis, [1] …", "(1) stenosis, (2) …")
_INLINE_ITEM: Final = re.compile(r"[(\[](?P<label>" + _LABEL + r")[)\]][ \t]*(?P<text>[^,;\n(\[]+)")
# the answer by labels: an answer word, then labels
_ANSWERED: Final = re.compile(
    r"\b(?:choice|answer|answers|select|selected|selection|prediction|pred|pick|picks|items?|"
    r"option|options|present|final)\b[^\n\d\[(]{0,16}?[(\[]?(?P<labels>" + _LABEL
    + r"(?![\w])(?:[)\]]?[ \t]*(?:,|and|&|\+)[ \t]*[(\[]?" + _LABEL + r"(?![\w]))*)[)\]]?"
    r"(?!\.\w)",
    re.IGNORECASE)
_ITEM_HEAD: Final = re.compile(r"[ \t]*(?:[\u2014\u2013:=|]|[ \t]-[ \t]|\.[ \t]).*$")
_LABELS: Final = re.compile(_LABEL)

def _items(body: str) -> list[tuple[str, str, int]]:
    """(label, item text, end of the list) of the response's own numbered list, or []."""
    lines = list(_LINE_ITEM.finditer(body))
    found = lines if len(lines) >= 2 else list(_INLINE_ITEM.finditer(body))
    if len(found) < 2:
        return []
    return [(m.group("label").lower(), _ITEM_HEAD.sub("", m.group("text")).strip(" *_"),
             found[-1].end()) for m in found]


def relabelled_answer(body: str, keys: frozenset[str],
                      name_of: Callable[[str], str | None]) -> list[str] | None:
    """The option letters the response's answer by its own labels names, or None.

    Args:
        body: the response as the reader reads it.
        keys: the item's option letters.
        name_of: the one option letter a short text names, or None (the reader's reading of
            an item's text on its own).
    """
    items = _items(body)
    if not items or len(items) > len(keys):
        return None
    mapping: dict[str, str] = {}
    for label, text, _ in items:
        letter = name_of(text) if text else None
        if letter is None or label in mapping or letter in mapping.values():
            return None
        mapping[label] = letter
    if len(mapping) < len(keys) - 1:
        return None  # a list of a few options is no numbering of all of them
    answered = [m for m in _ANSWERED.finditer(body, items[-1][2])]
    if not answered:
        return None
    labels = [x.lower() for x in _LABELS.findall(answered[-1].group("labels"))]
    if not labels or any(x not in mapping for x in labels):
        return None
    return sorted({mapping[x] for x in labels})
