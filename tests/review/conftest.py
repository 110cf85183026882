"""Fixtures of the review tests: a small real benchmark (see _review_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _review_fixtures import write_review_bench


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    return write_review_bench(tmp_path / "BENCH")
