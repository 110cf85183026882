"""Importers that keep a published split say so in benchmark.json; other recipes do not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.recipes import BuildConfig, build_benchmark


@pytest.mark.parametrize(("name", "expected"), [
    ("vqa_rad", "VQA-RAD phrase_type: test_freeform / test_para → test, else train"),
    ("pathmmu_socialpath", "PathMMU's JSON keys (test, test_tiny, val)"),
    ("idrid_dr_grade", None),
])
def test_published_split_in_benchmark_json(name: str, expected: str | None, tmp_path: Path,
                                           data_dir: Path) -> None:
    build_benchmark(BuildConfig(name, tmp_path / name, data_root=data_dir))
    card = json.loads((tmp_path / name / "benchmark.json").read_text())
    assert card.get("published_split") == expected
    assert ("published_split" in card) == (expected is not None)  # absent, not null
