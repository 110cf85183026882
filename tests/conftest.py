"""Suite-wide fixtures: the real sample data shipped in the repository, and small benchmarks
built from it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from medvqa.schema import Benchmark, CreatedWith, Item, file_sha256, write_json, write_jsonl
from medvqa.store import ImageStore

# Under pytest-xdist each worker is a process of its own: two workers with torch's default of
# one OpenMP thread per core would oversubscribe the 2-core machines and spin against each
# other (local-model tests slow down tenfold), so each worker computes on one thread.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")

# Property tests check behaviour, not speed: no per-example deadline (a loaded 2-core CI machine
# would turn slow examples into failures), and on CI the same examples every run.
settings.register_profile("medvqa", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("medvqa")

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The repository's real sample data (see data/README.md)."""
    return DATA


LUNG = DATA / "lc25000_lung_224" / "lung_image_sets"
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


@pytest.fixture
def bench_factory():
    """``make_bench(root, n)``: write a benchmark of real lung tiles."""
    return make_bench
