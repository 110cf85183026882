"""A build's peak Python memory grows by well under a kilobyte per image (issue 5: flat)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from medvqa.measurements._build import make_images
from medvqa.recipes import BuildConfig, build_benchmark

SMALL, LARGE = 300, 1500
#: KB per image; holding every item or record in memory costs about 4 KB per image.
LIMIT_KB = 1.5


def _peak_mb(root: Path, out: Path) -> float:
    tracemalloc.start()
    try:
        build_benchmark(BuildConfig(str(root / "recipe.yaml"), out, data_root=root))
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    out = {}
    for n in (SMALL, LARGE):
        out[n] = tmp_path_factory.mktemp(f"images{n}")
        make_images(out[n], n, seed=n)
    # Warm up (imports, caches) so the measured builds see only their own allocations.
    build_benchmark(BuildConfig(str(out[SMALL] / "recipe.yaml"), out[SMALL] / "warm",
                                data_root=out[SMALL]))
    return out


def test_build_peak_memory_grows_under_limit_per_image(trees: dict[int, Path]) -> None:
    small = _peak_mb(trees[SMALL], trees[SMALL] / "out")
    large = _peak_mb(trees[LARGE], trees[LARGE] / "out")
    per_image_kb = (large - small) * 1024 / (LARGE - SMALL)
    assert per_image_kb < LIMIT_KB, f"{small:.2f} MB -> {large:.2f} MB: {per_image_kb:.2f} KB/image"
