"""A benchmark as the review app sees it: items in file order, review.jsonl, safe image paths."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa.benchmark import image_path_problem, resolve_inside
from medvqa.errors import BadInputError
from medvqa.schema import (
    BENCHMARK_FILE,
    FLAGGED_FILE,
    ITEMS_FILE,
    Benchmark,
    FlaggedItem,
    Item,
    ReviewRecord,
    read_json,
    read_jsonl,
)

REVIEW_FILE = "review.jsonl"


@dataclass
class ReviewBench:
    """One benchmark version loaded for review.

    Attributes:
        key: ``name@sha12`` — decisions are tied to the exact items.jsonl bytes.
        path: the BENCH/ folder.
        card: benchmark.json.
        items: item id → item, in file order.
        review: item id → its review.jsonl record (source text, judges' scores), if any.
        flags: item id → why it was sent to review (flagged.jsonl: ``medvqa irt fit
            --to-review``); those items come first in the queue.
        images: the image paths the items reference (the only files the app serves).
    """

    key: str
    path: Path
    card: Benchmark
    items: dict[str, Item]
    review: dict[str, dict[str, Any]] = field(default_factory=dict)
    images: frozenset[str] = frozenset()
    flags: dict[str, list[str]] = field(default_factory=dict)

    def queue_order(self, skip: str | None = None) -> list[str]:
        """Item ids in review order: flagged items first (BENCH/flagged.jsonl), then the rest."""
        ids = [i for i in self.items if i != skip]
        return [i for i in ids if i in self.flags] + [i for i in ids if i not in self.flags]

    def judges(self, item_id: str) -> dict[str, Any]:
        """The LLM judges' verdicts on an item (review.jsonl first, then the item's provenance)."""
        rec = self.review.get(item_id, {})
        if rec.get("judges"):
            return dict(rec["judges"])
        prov = self.items[item_id].meta.get("provenance", {})
        return dict(prov.get("judges", {})) if isinstance(prov, dict) else {}

    def source_text(self, item_id: str) -> str:
        """The caption or report text the item was generated from, when known."""
        rec = self.review.get(item_id, {})
        prov = self.items[item_id].meta.get("provenance", {})
        prov = prov if isinstance(prov, dict) else {}
        return str(rec.get("source_text") or prov.get("source_text") or "")

    def grounding_span(self, item_id: str) -> str:
        """The span of the source text that grounds the answer, when the builder recorded one."""
        rec = self.review.get(item_id, {})
        prov = self.items[item_id].meta.get("provenance", {})
        prov = prov if isinstance(prov, dict) else {}
        return str(rec.get("grounding_span") or prov.get("grounding_span") or "")

    def image_file(self, rel: str) -> Path | None:
        """The file behind an image path, or None unless it is an item's image inside BENCH/.

        Both checks matter: the whitelist refuses ``../`` and arbitrary files (benchmark.json,
        a database), and resolving symlinks refuses a link inside BENCH/ pointing outside it.
        """
        if rel not in self.images or image_path_problem(self.path, rel):
            return None
        return resolve_inside(self.path, rel)


def load_bench(path: Path) -> ReviewBench:
    """Read BENCH/ (items.jsonl, benchmark.json, review.jsonl when present).

    A bad line raises :class:`~medvqa.schema.InputError` naming file, line and field (exit 2).
    """
    path = Path(path)
    if not (path / ITEMS_FILE).is_file() or not (path / BENCHMARK_FILE).is_file():
        raise BadInputError(
            f"{path}: not a benchmark folder (needs {ITEMS_FILE} and {BENCHMARK_FILE})")
    card = read_json(path / BENCHMARK_FILE, Benchmark)
    items = {i.id: i for i in read_jsonl(path / ITEMS_FILE, Item)}
    rfile = path / REVIEW_FILE
    review = ({r.item_id: r.model_dump(mode="json") for r in read_jsonl(rfile, ReviewRecord)}
              if rfile.is_file() else {})
    flags: dict[str, list[str]] = {}
    if (path / FLAGGED_FILE).is_file():
        for rec in read_jsonl(path / FLAGGED_FILE, FlaggedItem):
            if rec.item_id in items:
                flags.setdefault(rec.item_id, []).extend(rec.reasons)
    sha = card.items_sha256 or "nohash"
    return ReviewBench(
        key=f"{card.name}@{sha[:12]}",
        path=path,
        card=card,
        items=items,
        review=review,
        images=frozenset(p for i in items.values() for p in i.images),
        flags=flags,
    )
