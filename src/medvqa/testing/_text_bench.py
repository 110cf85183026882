"""A tiny text-only benchmark to overfit (LoRA tests and bench): answers no model can know."""

from __future__ import annotations

from pathlib import Path

from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl

WORDS = ["amber", "basalt", "cobalt", "dahlia", "ember", "fjord", "garnet", "harbor"]
CODES = ["ruby", "opal", "jade", "onyx"]


def write_text_bench(root: Path, n: int = 4, answers: str = "DDAD") -> Path:
    """``n`` four-option items about made-up codes, answers cycling through ``answers``.

    SmolLM2-135M answers these mostly B or C before tuning; the default answers are mostly D,
    so a few LoRA steps move accuracy reliably (a model that learned only the prior gets 0.75;
    one that memorised the items gets 1.0).
    """
    items = []
    for i in range(n):
        options = {"ABCD"[j]: c for j, c in enumerate(CODES)}
        items.append(Item(
            id=f"word-{i}", images=[], question=f"Which code name belongs to {WORDS[i % 8]}?",
            options=options, answer=answers[i % len(answers)], question_type="single",
            category="codes", case_id=None, source="synthetic", split="train",
            meta={"explanation": f"{WORDS[i % 8]} was assigned this code."}))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(
        name="codes", created_with=CreatedWith(tool_version="test"), items_sha256=sha))
    return root
