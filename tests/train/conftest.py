"""Fixtures for training tests: a small real benchmark of lung tiles."""

from __future__ import annotations

from pathlib import Path

import pytest
from _train_bench import write_train_bench


@pytest.fixture(scope="session")
def train_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """48 lung tiles, two categories (96 items): 60 train, 18 val, 18 test items."""
    return write_train_bench(tmp_path_factory.mktemp("train-bench") / "bench")
