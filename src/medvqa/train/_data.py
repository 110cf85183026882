"""A benchmark's train and val splits as labelled image arrays for a supervised classifier.

A classifier learns, per question category, to pick among option *texts*: the classes of a
category are the gold option texts seen in its train split (normalised, sorted), so items whose
options are shuffled or differ per item share one label space. Only items a classifier can
answer are used: a single answer letter among options (``single``, ``yesno``, ``grade``) and at
least one image (the first is used). Everything is checked before anything is written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medvqa.benchmark import iter_items, read_image_file
from medvqa.errors import BadInputError
from medvqa.models import decode_image, norm_text
from medvqa.schema import ITEMS_FILE, Item, RecordError, file_sha256

TRAINABLE_TYPES = frozenset({"single", "yesno", "grade"})


@dataclass
class Split:
    """One split's examples: images ``(N, S, S, 3)`` uint8, labels, categories, item ids.

    A label of -1 marks a val item whose gold text is no trained class (always counted wrong).
    """

    images: np.ndarray
    labels: np.ndarray
    categories: list[str]
    item_ids: list[str]

    def __len__(self) -> int:
        return len(self.item_ids)


@dataclass
class ClassifierData:
    """Train and val examples and the class texts of each category (head order)."""

    categories: dict[str, list[str]]
    train: Split
    val: Split
    items_sha256: str
    skipped: Counter[str] = field(default_factory=Counter)


def trainable(item: Item) -> bool:
    """Whether a classifier can answer ``item`` (one letter among options, an image)."""
    return (item.question_type in TRAINABLE_TYPES and bool(item.options) and bool(item.images)
            and isinstance(item.answer, str) and item.answer in item.options)


def load_classifier_data(bench_dir: Path, image_size: int) -> ClassifierData:
    """Read, check and decode the train and val splits of ``bench_dir``.

    Raises:
        BadInputError: a missing or malformed items.jsonl, no usable train or val items, a
            category with a single class in train, or an image that cannot be read (names the
            file, line and image).
    """
    items_file = Path(bench_dir) / ITEMS_FILE
    if not items_file.is_file():
        raise BadInputError(f"{items_file}: file is missing (is {bench_dir} a benchmark folder?)")
    errors: list[RecordError] = []
    rows: dict[str, list[tuple[int, Item]]] = {"train": [], "val": []}
    skipped: Counter[str] = Counter()
    for lineno, item in iter_items(items_file, errors):
        if item.split not in rows:
            continue
        if not trainable(item):
            skipped[f"{item.split}: not a single-answer item with an image"] += 1
            continue
        rows[item.split].append((lineno, item))
    if errors:
        raise BadInputError(str(errors[0]))
    for split in ("train", "val"):
        if not rows[split]:
            raise BadInputError(
                f"{items_file}: no split={split} items a classifier can learn from (single-answer"
                " items with options and an image); training needs a train and a val split"
            )
    categories = _class_texts(items_file, rows["train"])
    train = _decode(items_file, bench_dir, rows["train"], categories, image_size, skipped)
    val = _decode(items_file, bench_dir, rows["val"], categories, image_size, skipped)
    if not len(val):
        raise BadInputError(f"{items_file}: no split=val item is of a trained category")
    return ClassifierData(categories, train, val, file_sha256(items_file), skipped)


def _gold(item: Item) -> str:
    assert isinstance(item.answer, str)
    return norm_text(item.options[item.answer])


def _class_texts(items_file: Path, train: list[tuple[int, Item]]) -> dict[str, list[str]]:
    texts: dict[str, set[str]] = {}
    for _, item in train:
        texts.setdefault(item.category, set()).add(_gold(item))
    for cat, seen in sorted(texts.items()):
        if len(seen) < 2:
            raise BadInputError(
                f"{items_file}: category {cat!r} has one class in split=train "
                f"({next(iter(seen))!r}); a classifier needs at least two"
            )
    return {cat: sorted(texts[cat]) for cat in sorted(texts)}


def _decode(items_file: Path, bench_dir: Path, rows: list[tuple[int, Item]],
            categories: dict[str, list[str]], size: int, skipped: Counter[str]) -> Split:
    images, labels, cats, ids = [], [], [], []
    for lineno, item in rows:
        if item.category not in categories:
            skipped[f"{item.split}: category not in train"] += 1
            continue
        rel = item.images[0]
        try:
            # read_image_file: inside BENCH/ (links followed), a regular file (never a FIFO)
            images.append(decode_image(read_image_file(bench_dir, rel), size))
        except (OSError, ValueError) as exc:
            raise BadInputError(
                f"{items_file}:{lineno}: field images: {rel} cannot be read as an image ({exc})"
            ) from None
        classes = categories[item.category]
        gold = _gold(item)
        labels.append(classes.index(gold) if gold in classes else -1)
        cats.append(item.category)
        ids.append(item.id)
    stacked = np.stack(images) if images else np.zeros((0, size, size, 3), np.uint8)
    return Split(stacked, np.asarray(labels, dtype=np.int64), cats, ids)
