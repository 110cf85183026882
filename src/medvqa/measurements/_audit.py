"""``medvqa bench`` section ``audit``: hashing speed, search scaling, detection quality, memory.

- Hashing throughput: the shipped sample images fingerprinted on 2 threads (images/s).
- Near-duplicate search over 10k, 30k and 100k synthetic fingerprints (uniform random
  hashes, mirrored and corner-view search included; each corner view a few bits from its
  image's hashes, as measured on real images; and at the largest size without the corner
  views, what they cost): seconds, the time per image at 100k against 10k (1 would
  be exactly linear, 10 all pairs) and the growth exponent (log of the time ratio over log
  of the size ratio: 1 linear, 2 all pairs); and what the bit-sampling search gives up:
  the share it finds of random pairs at the limits of all three thresholds at once.
- Detection quality (:mod:`._audit_quality`): thresholds tuned on one half of the shipped
  images, recall of each altered copy through the search (and under the thresholds alone) and
  the false-match rate reported on the other half.
- Memory: peak Python memory of a whole audit of a synthetic benchmark at two sizes, and
  what each more image costs (kept: fingerprints, not pixels).
"""

from __future__ import annotations

import math
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from medvqa.benchmark.audit import (
    CORNER_NAMES,
    NEAR_THRESHOLD,
    ImageTable,
    hash_files,
    near_duplicates,
)
from medvqa.measurements._audit_quality import (
    RECALL_TARGET,
    VARIANTS,
    false_match_rate,
    fingerprint_samples,
    halves,
    recall,
    sample_images,
    search_recall,
    tune,
)
from medvqa.measurements._figure import BenchFigure

A = "audit"


def _data_root() -> Path | None:
    from medvqa.sources import sample_data_roots

    return next(iter(sample_data_roots()), None)


def _throughput(root: Path, quick: bool) -> list[BenchFigure]:
    files = [str(p) for p in sample_images(root, 3 if quick else 1)]
    t0 = time.perf_counter()
    done = sum(1 for r in hash_files(files, 2) if not isinstance(r, str))
    dt = time.perf_counter() - t0
    megapixels = 0.0
    from PIL import Image

    for f in files:
        with Image.open(f) as im:
            megapixels += im.width * im.height / 1e6
    return [
        BenchFigure(A, f"fingerprints of the shipped images, 2 threads ({done} images, "
                       f"{megapixels / max(1, len(files)):.2f} MP on average)", done / dt,
                    "images/s"),
        BenchFigure(A, "fingerprint throughput in decoded pixels, 2 threads", megapixels / dt,
                    "MP/s"),
    ]


def synthetic_table(n: int, seed: int = 0) -> ImageTable:
    """``n`` random fingerprints, every 50th a near copy (4 bits off) of the one before.

    Each corner view is its image's hashes with 8 / 8 / 12 random bits flipped (the median
    distance of a corner view from its image on the shipped images), so one image's rows
    collide in the search as real ones do.
    """
    rng = np.random.default_rng(seed)
    table = ImageTable(paths=[f"{k}.png" for k in range(n)], sha256=[str(k) for k in range(n)],
                       pixels=[str(k) for k in range(n)])
    table.hashes = rng.integers(0, 2**64 - 1, size=(n, 3), dtype=np.uint64, endpoint=True)
    table.fine = rng.integers(0, 2**64 - 1, size=(n, 4), dtype=np.uint64, endpoint=True)
    table.mirrored = rng.integers(0, 2**64 - 1, size=(n, 3), dtype=np.uint64, endpoint=True)
    table.fine_mirrored = rng.integers(0, 2**64 - 1, size=(n, 4), dtype=np.uint64,
                                       endpoint=True)
    table.hashes[1::50] = table.hashes[0:-1:50][: len(table.hashes[1::50])] ^ np.uint64(0xF)
    table.fine[1::50] = table.fine[0:-1:50][: len(table.fine[1::50])]
    table.corners = np.repeat(table.hashes[:, None, :], len(CORNER_NAMES), axis=1)
    for col, flips in enumerate((8, 8, 12)):
        bits = np.argsort(rng.random((n, len(CORNER_NAMES), 64)), axis=2)[..., :flips]
        table.corners[..., col] ^= np.bitwise_or.reduce(
            np.uint64(1) << bits.astype(np.uint64), axis=2)
    table.fine_corners = rng.integers(0, 2**64 - 1, size=(n, len(CORNER_NAMES), 4),
                                      dtype=np.uint64, endpoint=True)
    table.ok = np.ones(n, dtype=bool)
    return table


def _search(quick: bool) -> list[BenchFigure]:
    sizes = (10_000, 30_000) if quick else (10_000, 30_000, 100_000)
    out, times = [], {}
    for n in sizes:
        table = synthetic_table(n)
        t0 = time.process_time()  # CPU time: the search is one thread; others share the cores
        pairs = near_duplicates(table, None, mirrored=True)
        times[n] = time.process_time() - t0
        out.append(BenchFigure(A, f"near-duplicate search, {n:,} images (as is, mirrored and "
                                  f"corner views; {len(pairs)} pairs)", times[n], "CPU s"))
    big = sizes[-1]
    table = synthetic_table(big)
    t0 = time.process_time()
    near_duplicates(table, None, mirrored=True, corners=False)
    out.append(BenchFigure(A, f"  … {big:,} images without the corner views (as is and "
                              "mirrored)", time.process_time() - t0, "CPU s"))
    ratio = (times[big] / big) / (times[10_000] / 10_000)
    exponent = 1 + math.log(ratio) / math.log(big / 10_000)
    out.append(BenchFigure(A, f"search time per image at {big // 1000}k / at 10k (1 = linear, "
                              f"{big // 10_000} = all pairs)", ratio, "×"))
    out.append(BenchFigure(A, f"growth exponent of the search time, 10k → {big // 1000}k "
                              "(1 = linear, 2 = all pairs)", exponent, ""))
    out.append(BenchFigure(A, "random pairs at the limits of all three thresholds (14 / 14 / 12 "
                              "bits) found by the search (exact: 1)", _at_limits(), "fraction"))
    return out


def _at_limits(n: int = 2_000, seed: int = 0) -> float:
    """Share found of ``n`` pairs at the limits of the three coarse thresholds.

    Their hashes differ in exactly 14 / 14 / 12 bits spread at random (the fine hashes
    agree): the bit-sampling search's worst case.
    """
    from medvqa.benchmark.audit import COLUMN_LIMIT

    rng = np.random.default_rng(seed)
    first = synthetic_table(n, seed)
    second = synthetic_table(n, seed)
    for col, limit in enumerate(COLUMN_LIMIT):
        bits = np.argsort(rng.random((n, 64)), axis=1)[:, :getattr(NEAR_THRESHOLD, limit)]
        flips = np.bitwise_or.reduce(np.uint64(1) << bits.astype(np.uint64), axis=1)
        second.hashes[:, col] ^= flips
    found = {(p.a, p.b) for p in near_duplicates(first, second, mirrored=False)}
    return sum((k, k) in found for k in range(n)) / n


def _quality(root: Path, quick: bool) -> list[BenchFigure]:
    samples = fingerprint_samples(root, sample_images(root, 2 if quick else 1))
    tuning, held = halves(samples)
    tuned = tune(tuning)
    shipped = NEAR_THRESHOLD
    out = [BenchFigure(A, f"threshold of the centre hash tuned on {len(tuning)} images "
                          f"(shipped: {shipped.centre})", tuned.centre, "bits of 64"),
           BenchFigure(A, f"… of the whole-image hashes (shipped: {shipped.whole})", tuned.whole,
                       "bits of 64"),
           BenchFigure(A, f"… of the fine hash (shipped: {shipped.fine})", tuned.fine,
                       "bits of 256")]
    for variant in VARIANTS:
        r = search_recall(held, variant, shipped)
        targeted = variant in RECALL_TARGET
        out.append(BenchFigure(A, f"recall of {variant} copies through the search, held-out "
                                  f"{len(held)} images (thresholds alone: "
                                  f"{recall(held, variant, shipped):.3f})"
                                  + ("" if targeted else "; reported, no target"), r,
                               "fraction", ">= 0.95" if targeted else "",
                               r >= 0.95 if targeted else None))
    rate, pairs = false_match_rate(held, shipped, mirrored=False)
    out.append(BenchFigure(A, f"false matches among distinct same-folder images, held-out half "
                              f"({pairs} pairs; corner views included)", rate, "fraction",
                           "<= 0.01", rate <= 0.01))
    rate_m, _ = false_match_rate(held, shipped, mirrored=True)
    out.append(BenchFigure(A, "the same with the mirrored search (flips)", rate_m, "fraction"))
    return out


def _memory(quick: bool) -> list[BenchFigure]:
    from medvqa.benchmark.audit import AuditConfig, run_audit
    from medvqa.measurements._build import make_images
    from medvqa.recipes import BuildConfig, build_benchmark

    sizes = (300, 1_200) if quick else (1_000, 5_000)
    peaks = {}
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-audit-") as tmp:
        for n in (50, *sizes):  # the first, small audit imports what the audit needs
            root = Path(tmp) / f"n{n}"
            make_images(root, n)
            build_benchmark(BuildConfig(str(root / "recipe.yaml"), root / "bench",
                                        data_root=root))
            tracemalloc.start()
            run_audit(AuditConfig(root / "bench", workers=2))
            peaks[n] = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
    small, big = sizes
    per = (peaks[big] - peaks[small]) * 1e6 / (big - small)
    return [BenchFigure(A, f"peak Python memory of an audit, {small:,} → {big:,} images",
                        peaks[big], "MB"),
            BenchFigure(A, f"  … at {small:,} images", peaks[small], "MB"),
            BenchFigure(A, "memory per more image (fingerprints and item rows, no pixels)", per,
                        "bytes", "flat (< 5,000)", per < 5_000)]


def bench_audit(quick: bool) -> list[BenchFigure]:
    """Every figure of the audit section (smaller sizes when ``quick``)."""
    root = _data_root()
    figures = _search(quick)
    if root is not None:
        figures = _throughput(root, quick) + figures + _quality(root, quick)
    return figures + _memory(quick)
