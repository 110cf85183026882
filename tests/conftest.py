"""Suite-wide fixtures: the real sample data shipped in the repository, and small benchmarks
built from it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _lung_bench import make_bench
from hypothesis import settings

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


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    """A clean 12-item benchmark with real JPEG tiles."""
    return make_bench(tmp_path / "bench")


@pytest.fixture
def bench_factory():
    """``make_bench(root, n)``: write a benchmark of real lung tiles."""
    return make_bench
