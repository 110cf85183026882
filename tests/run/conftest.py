"""Fixtures of the runner tests: small benchmarks built from real LC25000 lung tiles."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from medvqa.models import GenerateRequest, GenerateResponse, TransientModelError
from medvqa.schema import Benchmark, CreatedWith, Item, file_sha256, write_json, write_jsonl
from medvqa.store import ImageStore

LUNG = Path(__file__).resolve().parents[2] / "data" / "lc25000_lung_224" / "lung_image_sets"
LABELS = {"lung_aca": "adenocarcinoma", "lung_n": "benign", "lung_scc": "squamous cell carcinoma"}
OPTIONS = {"A": "adenocarcinoma", "B": "benign", "C": "squamous cell carcinoma"}


def make_bench(root: Path, n: int = 12, *, items: list[Item] | None = None) -> Path:
    """Write a benchmark of ``n`` real lung tiles (round robin over classes) to ``root``."""
    store = ImageStore(root)
    if items is None:
        files = {k: sorted((LUNG / k).glob("*.jpeg")) for k in LABELS}
        items = []
        for i in range(n):
            cls = list(LABELS)[i % 3]
            rel = store.add_file(files[cls][i // 3])
            letter = next(k for k, v in OPTIONS.items() if v == LABELS[cls])
            items.append(
                Item(
                    id=f"lung-{i:03d}",
                    images=[rel],
                    question=f"[lung-{i:03d}] What tissue does this H&E tile show?",
                    options=dict(OPTIONS),
                    answer=letter,
                    question_type="single",
                    category=cls,
                    case_id=f"case-{i // 2}",
                    source="LC25000",
                    split="test" if i % 4 else "train",
                )
            )
    sha = write_jsonl(root / "items.jsonl", items)
    assert sha == file_sha256(root / "items.jsonl")
    write_json(
        root / "benchmark.json",
        Benchmark(
            name="lung-test",
            created_with=CreatedWith(tool_version="test"),
            items_sha256=sha,
        ),
    )
    return root


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    """A clean 12-item benchmark with real JPEG tiles."""
    return make_bench(tmp_path / "bench")


class ScriptedBackend:
    """An in-process backend for engine tests: answers "A", counts calls, fails on script.

    ``fail[item_id]`` is a list of exceptions raised on successive calls for that item.
    """

    def __init__(self, batch_size: int = 1, latency_s: float = 0.0, fail=None, text_only=False):
        self.name = "scripted"
        self.params = {"answer": "A"}
        self.info = {"text_only": text_only}
        self.batch_size = batch_size
        self.latency_s = latency_s
        self.fail = {k: list(v) for k, v in (fail or {}).items()}
        self.calls: dict[str, int] = {}
        self.batches: list[int] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.images_seen = 0

    async def start(self) -> None:
        return None

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        self.batches.append(len(requests))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            for r in requests:
                self.calls[r.item_id] = self.calls.get(r.item_id, 0) + 1
                self.images_seen += len(r.images)
            await asyncio.sleep(self.latency_s)
            for r in requests:
                script = self.fail.get(r.item_id)
                if script:
                    raise script.pop(0)
            return [GenerateResponse(text="A", latency_s=self.latency_s) for _ in requests]
        finally:
            self.in_flight -= 1

    async def aclose(self) -> None:
        return None


@pytest.fixture
def transient() -> type[TransientModelError]:
    return TransientModelError


@pytest.fixture
def bench_factory():
    """``make_bench(root, n)``: write a benchmark of real lung tiles."""
    return make_bench


@pytest.fixture
def scripted():
    """The :class:`ScriptedBackend` class."""
    return ScriptedBackend
