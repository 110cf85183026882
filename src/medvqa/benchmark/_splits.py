"""The one default split of run and export: ``test``, where a benchmark has one.

A model is measured on the split a benchmark holds out, not on the items a supervised baseline
was trained on: ``medvqa run`` and every exporter take ``test`` unless told otherwise, and
``all`` asks for every split. ``medvqa score`` scores what the run answered and the report names
it, so all four agree. A benchmark without a ``test`` split is used whole.
"""

from __future__ import annotations

import json
from pathlib import Path

from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, iter_json_lines

__all__ = ["ALL_SPLITS", "DEFAULT_SPLIT", "chosen_split", "has_split"]

#: The split used when none is asked for (where the benchmark has it).
DEFAULT_SPLIT = "test"
#: What ``--split`` takes for every split.
ALL_SPLITS = "all"


def has_split(bench: Path, split: str) -> bool:
    """Whether ``bench`` has an item of ``split`` (benchmark.json's counts, else items.jsonl)."""
    card = Path(bench) / BENCHMARK_FILE
    if card.is_file():
        try:
            by = json.loads(card.read_text("utf-8")).get("counts", {}).get("by_split")
        except (ValueError, AttributeError):
            by = None
        if isinstance(by, dict) and by:
            return bool(by.get(split))
    items = Path(bench) / ITEMS_FILE
    if not items.is_file():
        return False
    return any(isinstance(v := line.value, dict) and v.get("split") == split
               for line in iter_json_lines(items))


def chosen_split(bench: Path, asked: str | None) -> str | None:
    """The split a command uses (None: every split).

    ``asked`` where given; :data:`ALL_SPLITS` is every split; else :data:`DEFAULT_SPLIT` where
    ``bench`` has it, every split where it does not.

    >>> chosen_split(Path("/nonexistent"), "val"), chosen_split(Path("/nonexistent"), "all")
    ('val', None)
    """
    if asked == ALL_SPLITS:
        return None
    if asked:
        return asked
    return DEFAULT_SPLIT if has_split(bench, DEFAULT_SPLIT) else None
