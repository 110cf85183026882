"""Write what an LLM builder produced: a normal BENCH/ plus ``dropped.jsonl`` and ``review.jsonl``.

Everything goes through the builders' one BENCH/ writer (:class:`medvqa.builders.BenchWriter`).
``benchmark.json`` counts carry ``generated``, ``kept`` and ``dropped`` by reason, so the honest
yield of a weak generator is visible without reading the files.
``review.jsonl`` is the input of the expert review app: one line per kept item with the source
text, the judges' scores and ``status: "pending"``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa import __version__
from medvqa.builders import BenchWriter
from medvqa.schema import Benchmark, CreatedWith, Item, SourceInfo
from medvqa.sources import Problems

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

    def record(self) -> dict[str, Any]:
        """The dropped.jsonl record."""
        return {
            "key": self.key,
            "source_id": self.source_id,
            "stage": self.stage,
            "reason": self.reason,
            "detail": self.detail,
            "raw": self.raw,
        }


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


#: Each drop reason in words, for the one-line summary of a build.
REASON_WORDS = {
    "no_json": "no JSON",
    "schema": "invalid fields",
    "model_error": "model error",
    "copied_example": "copied the example",
    "degenerate_options": "degenerate options",
    "not_a_question": "not a question",
    "constant_answer": "answer always at one position",
    "ungrounded": "answer not in the source",
    "low_score": "judge score below the threshold",
    "no_valid_scores": "no valid judge scores",
}


def drop_summary(dropped: dict[str, int]) -> str:
    """``": degenerate options 5, no JSON 1"`` from benchmark.json's ``dropped`` counts.

    Reasons of every stage are summed, most frequent first; "" when nothing was dropped.

    >>> drop_summary({"check:degenerate_options": 5, "generate:no_json": 1})
    ': degenerate options 5, no JSON 1'
    """
    by_reason: Counter[str] = Counter()
    for key, n in dropped.items():
        reason = key.split(":", 1)[-1]
        by_reason[REASON_WORDS.get(reason, reason.replace("_", " "))] += n
    ranked = sorted(by_reason.items(), key=lambda kv: (-kv[1], kv[0]))
    return (": " + ", ".join(f"{words} {n}" for words, n in ranked)) if ranked else ""


#: Drops named one per line by a build's summary; the rest are counted (all are in dropped.jsonl).
SHOWN_DROPS = 20


def drop_lines(records: list[dict[str, Any]], limit: int = SHOWN_DROPS) -> list[str]:
    """One line per dropped generation — which, at what stage and why — then a count of the rest.

    Why: a count by reason says how a build went; a reader deciding whether the filter was
    right needs each item's reason, which ``dropped.jsonl`` holds with the raw reply.

    >>> drop_lines([{"key": "c1:single", "stage": "check", "reason": "not_a_question",
    ...              "detail": "question: asks nothing"}])
    ['dropped c1:single (check, not a question): question: asks nothing']
    """
    out = []
    for rec in records[:limit]:
        reason = str(rec.get("reason", ""))
        words = REASON_WORDS.get(reason, reason.replace("_", " "))
        detail = " ".join(str(rec.get("detail", "")).split())
        out.append(f"dropped {rec.get('key')} ({rec.get('stage')}, {words})"
                   + (f": {detail}" if detail else ""))
    if len(records) > limit:
        out.append(f"… and {len(records) - limit} more dropped (every one in {DROPPED_FILE})")
    return out


def write_output(writer: BenchWriter, result: BuildOutput) -> dict[str, Any]:
    """Write the benchmark through ``writer`` and commit it; returns benchmark.json's counts."""
    written = writer.write_items(result.items)
    counts: dict[str, Any] = written.tally.counts(
        len(result.problems), len({p for i in result.items for p in i.images})
    )
    counts["generated"] = result.generated
    counts["dropped"] = dropped_counts(result.dropped)
    counts["dropped_total"] = len(result.dropped)
    counts.update(result.extra_counts)
    writer.write_benchmark(
        Benchmark(
            name=result.name,
            description=result.description,
            license="; ".join(sorted({s.license for s in result.sources if s.license})),
            sources=result.sources,
            created_with=CreatedWith(
                tool_version=__version__, recipe=result.recipe, seed=result.seed
            ),
            counts=counts,
            items_sha256=written.sha256,
        )
    )
    writer.write_records(DROPPED_FILE, (d.record() for d in result.dropped))
    writer.write_records(REVIEW_FILE, result.review)
    writer.commit()
    return counts
