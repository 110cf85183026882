"""``medvqa bench`` section ``interop``: VLMEvalKit TSV import and export, prediction import."""

from __future__ import annotations

import base64
import csv
import io
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from medvqa.measurements._figure import BenchFigure

_RECIPE = """
name: bench_tsv
type: vlmevalkit
sources:
  - dataset: synthetic
    license: CC0
    reader: table
    path: bench.tsv
"""


def write_tsv(path: Path, n: int, seed: int = 0) -> None:
    """A VLMEvalKit MCQ TSV of ``n`` rows, each with its own 32×32 PNG (base64)."""
    rng = np.random.default_rng(seed)
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(["index", "image", "question", "A", "B", "C", "D", "answer", "category",
                         "department"])
        for i in range(n):
            buf = io.BytesIO()
            Image.fromarray(rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)).save(buf, "PNG")
            writer.writerow([i, base64.b64encode(buf.getvalue()).decode(), f"Q{i}?", "a", "b",
                             "c", "d", "ABCD"[i % 4], f"cat{i % 5}", f"dept{i % 3}"])


def bench_interop(quick: bool) -> list[BenchFigure]:
    """Rows/s importing a VLMEvalKit TSV, exporting it back, and importing predictions for it.

    2,000 rows when quick, 10,000 otherwise; each row carries its own small PNG.
    """
    from medvqa.interop import export_vlmevalkit, read_vlmevalkit, write_run
    from medvqa.recipes import BuildConfig, build_benchmark

    n = 2_000 if quick else 10_000
    figures = []
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-interop-") as tmp:
        root = Path(tmp)
        write_tsv(root / "bench.tsv", n)
        (root / "recipe.yaml").write_text(_RECIPE)
        t0 = time.perf_counter()
        build_benchmark(BuildConfig(str(root / "recipe.yaml"), root / "b", data_root=root))
        figures.append(BenchFigure("interop", f"VLMEvalKit TSV import, {n:,} rows",
                                   n / (time.perf_counter() - t0), "rows/s"))
        t0 = time.perf_counter()
        export_vlmevalkit(root / "b", root / "out.tsv")
        figures.append(BenchFigure("interop", f"VLMEvalKit TSV export, {n:,} rows",
                                   n / (time.perf_counter() - t0), "rows/s"))
        csv.field_size_limit(1 << 30)
        with (root / "out.tsv").open(newline="") as src, (root / "pred.tsv").open("w") as dst:
            dst.write("index\tid\tprediction\n")
            for row in csv.DictReader(src, delimiter="\t"):
                dst.write(f"{row['index']}\t{row['id']}\tB\n")
        t0 = time.perf_counter()
        write_run(root / "b", root / "run", read_vlmevalkit(root / "pred.tsv"), "vlmevalkit",
                  root / "pred.tsv")
        figures.append(BenchFigure("interop", f"import-predictions (VLMEvalKit TSV), {n:,} rows",
                                   n / (time.perf_counter() - t0), "rows/s"))
    return figures
