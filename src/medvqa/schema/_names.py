"""The names of the file formats: files, question types, splits, the identity condition.

A light module (no pydantic): the command line reads these at start-up.
"""

from __future__ import annotations

from typing import Literal

SCHEMA_VERSION = 1

QuestionType = Literal["single", "multi", "yesno", "open", "region", "grade"]
Split = Literal["train", "val", "test", "test_tiny", "external"]
#: Question types answered by choosing among options (letters).
CHOICE_TYPES: frozenset[str] = frozenset({"single", "multi", "yesno", "grade"})

ITEMS_FILE = "items.jsonl"
BENCHMARK_FILE = "benchmark.json"
PREDICTIONS_FILE = "predictions.jsonl"
RUN_FILE = "run.json"
METRICS_FILE = "metrics.json"
CACHE_FILE = "cache.sqlite"
#: Items sent to the review app's queue, with the reason (``medvqa irt fit --to-review``).
FLAGGED_FILE = "flagged.jsonl"

#: The identity condition: the item as built, image and question untouched.
CLEAN = "clean"
