"""A local validator for built benchmarks (used until ``medvqa validate`` lands)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

from scipy.stats import chisquare

from medvqa.schema import Benchmark, Item, read_jsonl


def load(bench: Path) -> tuple[Benchmark, list[Item]]:
    meta = Benchmark.model_validate_json((bench / "benchmark.json").read_text("utf-8"))
    return meta, list(read_jsonl(bench / "items.jsonl", Item))


def check_bench(bench: Path) -> tuple[Benchmark, list[Item]]:
    """Assert the BENCH/ contract: unique ids, answers among options, images hash to names,
    items_sha256 matches, counts match, sources carry licences."""
    meta, items = load(bench)
    data = (bench / "items.jsonl").read_bytes()
    assert meta.items_sha256 == hashlib.sha256(data).hexdigest()
    ids = [i.id for i in items]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for it in items:
        if it.question_type in {"single", "yesno", "grade"}:
            assert it.answer in it.options
        if it.question_type == "multi":
            assert set(it.answer) <= set(it.options)
        for rel in it.images:
            path = bench / rel
            assert path.is_file(), rel
            assert hashlib.sha256(path.read_bytes()).hexdigest() == Path(rel).stem
    assert meta.counts["items"] == len(items)
    assert dict(Counter(i.split for i in items)) == meta.counts["by_split"]
    assert meta.sources and all(s.dataset for s in meta.sources)
    assert all(s.license for s in meta.sources)
    on_disk = {
        p.relative_to(bench).as_posix() for p in (bench / "images").rglob("*") if p.is_file()
    }
    assert on_disk == {r for i in items for r in i.images}, "stray or missing image files"
    return meta, items


def tree_digest(bench: Path) -> dict[str, str]:
    """File path → SHA-256 of items.jsonl, benchmark.json and every image."""
    out = {}
    for path in sorted(bench.rglob("*")):
        if path.is_file():
            out[path.relative_to(bench).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def letter_balance_p(items: list[Item]) -> float:
    """Chi-square p-value of answer-letter counts against uniform over the letters used
    (items with the same number of options, single-answer)."""
    letters = Counter(i.answer for i in items if isinstance(i.answer, str))
    k = max(len(i.options) for i in items)
    observed = [letters.get(chr(65 + j), 0) for j in range(k)]
    return float(chisquare(observed).pvalue)


def cases_by_split(items: list[Item]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for it in items:
        out.setdefault(f"{it.source}|{it.case_id}", set()).add(it.split)
    return out


def dumps(obj: object) -> str:
    return json.dumps(obj, sort_keys=True)
