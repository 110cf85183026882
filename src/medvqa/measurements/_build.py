"""``medvqa bench`` section ``build``: recipe build speed and peak memory on synthetic images."""

from __future__ import annotations

import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
from PIL import Image

from medvqa.measurements._figure import BenchFigure

_RECIPE = """
name: bench_classify
type: classify
sources:
  - dataset: synthetic
    license: CC0
    reader: image_folder
    path: images
topics:
  - name: class
    column: label
    questions: ["Which class is this?", "What class does this image show?"]
"""


def make_images(root: Path, n: int, classes: int = 4, seed: int = 0) -> None:
    """Write ``n`` distinct 32×32 PNGs into ``classes`` class folders."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        folder = root / "images" / f"class{i % classes}"
        folder.mkdir(parents=True, exist_ok=True)
        Image.fromarray(rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)).save(folder / f"{i}.png")
    (root / "recipe.yaml").write_text(_RECIPE)


def _build(root: Path, out: Path) -> int:
    from medvqa.recipes import BuildConfig, build_benchmark

    result = build_benchmark(BuildConfig(str(root / "recipe.yaml"), out, data_root=root))
    return int(result.counts["items"])  # type: ignore[call-overload]


def bench_build(quick: bool) -> list[BenchFigure]:
    """Items/s building a classification recipe, and the build's peak Python memory.

    The recipe runs over 10,000 images (2,000 when quick); peak memory is taken at a quarter and
    at the full size.
    """
    n = 2_000 if quick else 10_000
    figures: list[BenchFigure] = []
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-build-") as tmp:
        root = Path(tmp)
        make_images(root, n)
        t0 = time.perf_counter()
        items = _build(root, root / "out")
        dt = time.perf_counter() - t0
        rate = items / dt
        figures.append(
            BenchFigure("build", f"classification build, {n:,} images on disk", rate, "items/s",
                        ">= 2000", rate >= 2000)
        )
        peaks = []
        for size in (n // 4, n):
            sub = root / f"sub{size}"
            make_images(sub, size, seed=1)
            tracemalloc.start()
            _build(sub, sub / "out")
            peaks.append(tracemalloc.get_traced_memory()[1] / 2**20)
            tracemalloc.stop()
        figures.append(
            BenchFigure("build", f"peak Python memory, {n // 4:,} images", peaks[0], "MB")
        )
        figures.append(BenchFigure("build", f"peak Python memory, {n:,} images", peaks[1], "MB"))
        per_image_kb = (peaks[1] - peaks[0]) * 1024 / (n - n // 4)
        # Items and records are spilled to scratch files; what stays per image is its stored
        # path, a path digest and its case / stratum codes for splitting (a few hundred bytes).
        figures.append(
            BenchFigure("build", "peak memory growth per image (split keys, image index)",
                        per_image_kb, "KB", "< 1", per_image_kb < 1)
        )
    return figures
