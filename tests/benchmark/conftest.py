"""Benchmarks the audit tests share: the shipped VQA-RAD import built from the real sample data,
and small benchmarks of real lung tiles whose items a test arranges (splits, cases, images)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from _audit_helpers import Row, item

from medvqa.recipes import BuildConfig, build_benchmark
from medvqa.schema import Item
from medvqa.store import ImageStore


@pytest.fixture(scope="session")
def vqa_rad(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    """The shipped VQA-RAD import (published splits, the same images in train and test)."""
    out = tmp_path_factory.mktemp("audit") / "vqa_rad"
    build_benchmark(BuildConfig("vqa_rad", out, seed=0, data_root=data_dir))
    return out


@pytest.fixture
def arranged(tmp_path: Path, bench_factory: Callable[..., Path]) -> Callable[..., Path]:
    """``arranged(rows, name=…, items=…)``: a BENCH/ whose items are ``rows`` (split, case,
    image bytes or file), or the given ``items`` builder applied to the stored paths."""

    def make(rows: list[Row], name: str = "bench",
             build: Callable[[int, str, str, str | None], Item] | None = None) -> Path:
        root = tmp_path / name
        store = ImageStore(root)
        items = []
        for n, (split, case, image) in enumerate(rows):
            if isinstance(image, Path):
                rel = store.add_file(image)
            else:
                rel = store.add_bytes(image, ".png" if image[:4] == b"\x89PNG" else ".jpg")
            items.append((build or item)(n, rel, split, case))
        return bench_factory(root, items=items)

    return make
