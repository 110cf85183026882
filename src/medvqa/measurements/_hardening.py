"""``medvqa bench`` section ``hardening``: what the checks on untrusted input cost.

Two checks run before anything is sent: every image is checked as an image of an allowed format
(:func:`medvqa.benchmark.decoded_mime`; the runner's fast check against ``medvqa
validate``'s full decode), and the selection is read once to refuse lines that are not items
(not UTF-8, not JSON, a field that does not validate), duplicate ids and empty selections
(:func:`medvqa.run._selection.scan_selection`).
"""

from __future__ import annotations

import io
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from PIL import Image

from medvqa.measurements._figure import BenchFigure


def _images() -> dict[str, bytes]:
    y, x = np.mgrid[0:512, 0:512]
    base = np.stack([x, y, (x + y) // 2], axis=-1).astype(np.int16) * 255 // 512
    noise = np.random.default_rng(0).integers(-2, 3, base.shape, dtype=np.int16)
    pixels = Image.fromarray(np.clip(base + noise, 0, 255).astype(np.uint8))
    out = {}
    for fmt in ("PNG", "JPEG"):
        buf = io.BytesIO()
        pixels.save(buf, format=fmt)
        out[fmt] = buf.getvalue()
    return out


def _per_call_ms(fn: Callable[[], object], rounds: int) -> float:
    t0 = time.perf_counter()
    for _ in range(rounds):
        fn()
    return (time.perf_counter() - t0) / rounds * 1000


def bench_hardening(quick: bool) -> list[BenchFigure]:
    """Image check per image (fast and thorough), and the selection scan per 100,000 items."""
    from medvqa.benchmark import decoded_mime
    from medvqa.measurements._runner import write_synthetic_bench
    from medvqa.run import ItemSelection, scan_selection

    rounds = 10 if quick else 50
    figures = []
    for fmt, data in _images().items():
        kb = len(data) / 1024
        for thorough in (False, True):
            ms = _per_call_ms(partial(decoded_mime, data, thorough), rounds)
            how = "full decode (validate)" if thorough else "runner check"
            figures.append(BenchFigure("hardening", f"{fmt} 512x512 ({kb:.0f} KB): {how}", ms,
                                       "ms"))
    n = 20_000 if quick else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        bench = write_synthetic_bench(Path(tmp) / "b", n)
        t0 = time.perf_counter()
        scan_selection(ItemSelection(bench / "items.jsonl", None, None, None))
        scan_s = time.perf_counter() - t0
    figures.append(BenchFigure("hardening", f"selection scan before a run, {n:,} items",
                               scan_s * 100_000 / n, "s per 100,000 items"))
    return figures
