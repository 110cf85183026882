"""A tiny text-only benchmark to overfit (LoRA tests and bench): answers no model can know."""

from __future__ import annotations

import random
from pathlib import Path

from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl

WORDS = ["amber", "basalt", "cobalt", "dahlia", "ember", "fjord", "garnet", "harbor"]
CODES = ["ruby", "opal", "jade", "onyx"]


def write_text_bench(root: Path, n: int = 8, seed: int = 0) -> Path:
    """``n`` four-option items whose answer letter is drawn at random (seeded)."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        options = {"ABCD"[j]: c for j, c in enumerate(CODES)}
        items.append(Item(
            id=f"word-{i}", images=[], question=f"Which code name belongs to {WORDS[i % 8]}?",
            options=options, answer=rng.choice("ABCD"), question_type="single",
            category="codes", case_id=None, source="synthetic", split="train",
            meta={"explanation": f"{WORDS[i % 8]} was assigned this code."}))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(
        name="codes", created_with=CreatedWith(tool_version="test"), items_sha256=sha))
    return root
