"""Write what an LLM builder produced: a normal BENCH/ plus ``dropped.jsonl`` and ``review.jsonl``.

The folder is assembled beside the target and renamed into place (a killed build never leaves a
half-written BENCH/). ``benchmark.json`` counts carry ``generated``, ``kept`` and ``dropped``
by reason, so the honest yield of a weak generator is visible without reading the files.
``review.jsonl`` is the input of the expert review app: one line per kept item with the source
text, the judges' scores and ``status: "pending"``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa import __version__
from medvqa.schema import (
    BENCHMARK_FILE,
    ITEMS_FILE,
    Benchmark,
    CreatedWith,
    Item,
    SourceInfo,
    write_json,
    write_jsonl,
)
from medvqa.sources import Problems
from medvqa.store import ImageStore, atomic_write_text

DROPPED_FILE = "dropped.jsonl"
REVIEW_FILE = "review.jsonl"


@dataclass
class Dropped:
    """One generation that did not become an item, and why (``reason`` is a short category)."""

    key: str
    source_id: str
    stage: str
    reason: str
    detail: str = ""
    raw: str | None = None

    def line(self) -> str:
        """JSON line for dropped.jsonl."""
        return (
            json.dumps(
                {
                    "key": self.key,
                    "source_id": self.source_id,
                    "stage": self.stage,
                    "reason": self.reason,
                    "detail": self.detail,
                    "raw": self.raw,
                },
                ensure_ascii=False,
                sort_keys=True,
            )
            + "\n"
        )


@dataclass
class BuildOutput:
    """Everything a builder writes.

    Attributes:
        name: benchmark name.
        description: what it measures.
        recipe: how it was built (command summary), for ``created_with.recipe``.
        seed: seed of every random step.
        sources: source datasets.
        items: the kept items.
        dropped: what was dropped and why.
        review: review.jsonl records (one per kept item).
        generated: generations attempted (kept + dropped).
        problems: skipped input rows.
        extra_counts: builder-specific counts added to benchmark.json.
    """

    name: str
    description: str
    recipe: str
    seed: int
    sources: list[SourceInfo]
    items: list[Item] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    review: list[dict[str, Any]] = field(default_factory=list)
    generated: int = 0
    problems: Problems = field(default_factory=Problems)
    extra_counts: dict[str, Any] = field(default_factory=dict)


@dataclass
class LLMBuildResult:
    """What an LLM builder wrote: the BENCH/ folder, benchmark.json's counts, skipped rows."""

    out: Path
    counts: dict[str, Any]
    problems: Problems


def dropped_counts(dropped: list[Dropped]) -> dict[str, int]:
    """``stage:reason`` → count, sorted."""
    return dict(sorted(Counter(f"{d.stage}:{d.reason}" for d in dropped).items()))


def new_folder(out: Path) -> Path:
    """A temporary folder beside ``out`` to assemble the benchmark in."""
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.building-"))


def store_image(tmp: Path, path: Path) -> str:
    """Copy an image into the content-addressed store of the folder being built."""
    return ImageStore(tmp).add_file(path)


def write_output(tmp: Path, out: Path, result: BuildOutput) -> dict[str, Any]:
    """Write the files into ``tmp`` and rename it to ``out``; returns benchmark.json's counts."""
    from medvqa.builders._pipeline import _replace, bench_counts

    try:
        digest = write_jsonl(tmp / ITEMS_FILE, result.items)
        counts: dict[str, Any] = bench_counts(
            result.items, len(result.problems), len({p for i in result.items for p in i.images})
        )
        counts["generated"] = result.generated
        counts["dropped"] = dropped_counts(result.dropped)
        counts["dropped_total"] = len(result.dropped)
        counts.update(result.extra_counts)
        bench = Benchmark(
            name=result.name,
            description=result.description,
            license="; ".join(sorted({s.license for s in result.sources if s.license})),
            sources=result.sources,
            created_with=CreatedWith(
                tool_version=__version__, recipe=result.recipe, seed=result.seed
            ),
            counts=counts,
            items_sha256=digest,
        )
        write_json(tmp / BENCHMARK_FILE, bench)
        atomic_write_text(tmp / DROPPED_FILE, "".join(d.line() for d in result.dropped))
        atomic_write_text(
            tmp / REVIEW_FILE,
            "".join(
                json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in result.review
            ),
        )
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return counts
