"""Where an item came from, in words: the fields of its meta a reviewer checks it against.

An item built from labels carries, in ``meta``, the source file of its image and the label
table's file and row it was read from (``builders``); an imported one, the dataset's own id.
The report's item view and the review app show the same list, from this one function.
"""

from __future__ import annotations

from typing import Any

from medvqa.schema import Item

__all__ = ["PROVENANCE_KEYS", "item_provenance"]

#: meta keys that say where an item came from, in the order shown, with their labels.
PROVENANCE_KEYS = (("source_file", "image file"), ("source_files", "image files"),
                   ("label_file", "label file"), ("label_row", "label row"),
                   ("label_rows", "label rows"), ("label", "label"),
                   ("source_id", "source id"), ("original_id", "original id"),
                   ("normal_crop_for", "normal crop for"))


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value[:10])) + (f" and {len(value) - 10} more"
                                                  if len(value) > 10 else "")
    return str(value)


def item_provenance(item: Item) -> list[tuple[str, str]]:
    """(label, value) pairs of where ``item`` came from: its source dataset, then its meta.

    >>> item = Item(id="x", question="q?", answer="A", options={"A": "a", "B": "b"},
    ...             question_type="single",
    ...             source="LC25000", meta={"source_file": "lung/a1.jpeg", "label_rows": [7]})
    >>> item_provenance(item)
    [('dataset', 'LC25000'), ('image file', 'lung/a1.jpeg'), ('label rows', '7')]
    """
    out = [("dataset", item.source)] if item.source else []
    meta = item.meta or {}
    out += [(label, _text(meta[key])) for key, label in PROVENANCE_KEYS
            if meta.get(key) not in (None, "", [])]
    return out
