"""The benchmark the interop round trips share: VQA-RAD built from the shipped sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from medvqa.recipes import BuildConfig, build_benchmark


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    """VQA-RAD at seed 0, built once per test module."""
    out = tmp_path_factory.mktemp("interop") / "vqa_rad"
    build_benchmark(BuildConfig("vqa_rad", out, seed=0, data_root=data_dir))
    return out
