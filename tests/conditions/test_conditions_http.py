"""Conditions end to end: the real ``openai:`` backend sends transformed images to a real
chat-completions server on 127.0.0.1; reruns send byte-identical images; BENCH/ is untouched."""

from __future__ import annotations

import base64
import hashlib
from collections import defaultdict
from pathlib import Path

from _cond_images import LUNG, MIAS

from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import (
    Benchmark,
    CreatedWith,
    Item,
    Prediction,
    read_jsonl,
    write_json,
    write_jsonl,
)
from medvqa.store import ImageStore
from medvqa.testing import ChatServer

OPTIONS = {"A": "benign", "B": "malignant", "C": "normal"}
CONDITIONS = ["clean", "blind", "noise", "corrupt:jpeg@3", "corrupt:hue@2", "text-only"]


def make_bench(root: Path) -> Path:
    store = ImageStore(root)
    items = []
    for k, (path, modality) in enumerate([(LUNG[0], "histopathology (H&E)"),
                                          (LUNG[1], "histopathology (H&E)"),
                                          (MIAS[0], "mammography (MLO)"),
                                          (MIAS[1], "mammography (MLO)")]):
        items.append(Item(id=f"it-{k}", images=[store.add_file(path)],
                          question=f"[it-{k}] What does this image show?", options=OPTIONS,
                          answer="ABC"[k % 3], question_type="single", category=modality,
                          meta={"modality": modality}))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(name="cond-http", items_sha256=sha,
                                                  created_with=CreatedWith(tool_version="test")))
    return root


def images_by_prompt(server: ChatServer) -> dict[str, list[str]]:
    """Sorted image digests received, keyed by prompt text (arrival order varies)."""
    out: dict[str, list[str]] = defaultdict(list)
    for body in server.bodies:
        parts = body["messages"][-1]["content"]
        text = "".join(p.get("text", "") for p in parts if p.get("type") == "text")
        for p in parts:
            if p.get("type") == "image_url":
                data = base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
                out[text].append(hashlib.sha256(data).hexdigest())
    return {k: sorted(v) for k, v in out.items()}


def run(bench: Path, out: Path, url: str) -> None:
    run_benchmark(RunConfig(bench, out, ModelConfig(f"openai:test@{url}"), conditions=CONDITIONS,
                            concurrency=4))


def test_conditions_send_transformed_images_and_reruns_are_identical(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "bench")
    before = sorted(p.relative_to(bench) for p in bench.rglob("*"))
    with ChatServer() as first:
        run(bench, tmp_path / "run1", first.url)
    with ChatServer() as second:
        run(bench, tmp_path / "run2", second.url)
    assert sorted(p.relative_to(bench) for p in bench.rglob("*")) == before  # nothing cached here

    preds = list(read_jsonl(tmp_path / "run1" / "predictions.jsonl", Prediction))
    per_condition = defaultdict(int)
    for p in preds:
        assert p.error is None
        per_condition[p.condition] += 1
    # hue skips the two greyscale mammograms; every other condition asks all four items
    assert per_condition == {c: 2 if c == "corrupt:hue@2" else 4 for c in CONDITIONS}

    kinds = [tuple(p["image_url"]["url"][:15] for p in b["messages"][-1]["content"]
                   if p.get("type") == "image_url") for b in first.bodies]
    assert sum(k == () for k in kinds) == 4  # text-only: four requests without an image
    assert sum(k == ("data:image/png;",) for k in kinds) == 4 + 4 + 4 + 2  # perturbed → PNG
    digests = {h for hs in images_by_prompt(first).values() for h in hs}
    assert len(digests) == 4 + 1 + 1 + 4 + 4 + 2  # clean, black 224², black 1024², noise, …

    assert images_by_prompt(first) == images_by_prompt(second)  # byte-identical reruns
