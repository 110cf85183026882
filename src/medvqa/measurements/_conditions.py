"""``medvqa bench`` section ``conditions``: corruption speed, and what controls add to a run.

1. Each of the eight corruptions at severity 3 on a 1024×1024 colour image (scikit-image's
   bundled astronaut photo, upscaled), OpenCV limited to one thread: median ms per image.
   Target: ≤ 150 ms each. PNG encoding of the result (paid once per perturbed image, then
   cached by hash) is reported apart.
2. A 7-condition run (clean, blind, noise, two corruptions, swap, ood) of the real ``openai:``
   backend against a chat server with 200 ms latency in a child process, against a clean-only
   run with as many requests on the same server: what the conditions add to the model's own
   latency (target ≤ 10 %, issue 14), for a first run (images perturbed by worker processes
   ahead of the runner) and for a second model on the same benchmark (perturbed images read
   from the first run's RUN/perturbed). The 7-condition wall time over the latency-bound ideal
   (requests × 0.2 s / concurrency) is reported too; that one also holds the runner's fixed
   start-up and shut-down costs.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from medvqa.measurements._figure import BenchFigure

SEVERITY = 3
RUN_CONDITIONS = ["clean", "blind", "noise", "corrupt:jpeg@3", "corrupt:motion@3", "swap", "ood"]
LATENCY_S = 0.2
CONCURRENCY = 64  # as in the runner bench (issue 3: the 200 ms server at concurrency 64)


def _test_image(side: int = 1024) -> np.ndarray:
    import skimage.data

    rgb = np.asarray(skimage.data.astronaut())
    return cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), (side, side),
                      interpolation=cv2.INTER_CUBIC)


def corruption_figures(repeats: int) -> list[BenchFigure]:
    """Median ms per 1024² image for each corruption at severity 3, on one OpenCV thread."""
    from medvqa.conditions import CORRUPTIONS, encode

    image = _test_image()
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    figures = []
    try:
        for name, info in CORRUPTIONS.items():
            times = []
            for r in range(repeats):
                rng = np.random.default_rng(r)
                t0 = time.perf_counter()
                out = info.fn(image, SEVERITY, rng)
                times.append((time.perf_counter() - t0) * 1000)
            ms = statistics.median(times)
            figures.append(BenchFigure("conditions", f"{name}@{SEVERITY}, 1024² colour, 1 thread",
                                       ms, "ms", "<= 150", ms <= 150))
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            encode(out)
            times.append((time.perf_counter() - t0) * 1000)
        figures.append(BenchFigure("conditions", "PNG encode of a perturbed 1024² image (cached "
                                   "after)", statistics.median(times), "ms"))
    finally:
        cv2.setNumThreads(threads)
    return figures


def _timed_run(bench: Path, out: Path, url: str, conditions: list[str],
               perturbed: Path | None = None) -> tuple[float, int]:
    from medvqa.measurements._runner import timed_run
    from medvqa.models import ModelConfig
    from medvqa.run import RunConfig

    summary, wall = timed_run(RunConfig(bench, out, ModelConfig(f"openai:bench@{url}"),
                                        conditions=conditions, concurrency=CONCURRENCY,
                                        perturbed_dir=perturbed))
    return wall, summary.completed


def run_overhead_figure(n_items: int) -> list[BenchFigure]:
    """Overhead of a 7-condition run over a clean run of as many requests, same server."""
    from medvqa.measurements._runner import write_synthetic_bench
    from medvqa.testing import ChatServerProcess

    with tempfile.TemporaryDirectory(prefix="medvqa-bench-cond-") as tmp:
        root = Path(tmp)
        bench = write_synthetic_bench(root / "bench", n_items, image_size=224)
        clean = write_synthetic_bench(root / "clean", n_items * len(RUN_CONDITIONS),
                                      image_size=224, seed=1)
        with ChatServerProcess(latency_s=LATENCY_S) as server:
            wall, requests = _timed_run(bench, root / "run", server.url, RUN_CONDITIONS)
            # A second model on the same benchmark: its perturbed images are already on disk.
            warm_wall, _ = _timed_run(bench, root / "run-2", server.url, RUN_CONDITIONS,
                                      root / "run" / "perturbed")
            clean_wall, clean_requests = _timed_run(clean, root / "run-clean", server.url,
                                                    ["clean"])
    added = wall / (clean_wall * requests / clean_requests) - 1
    warm_added = warm_wall / (clean_wall * requests / clean_requests) - 1
    ideal = requests * LATENCY_S / CONCURRENCY
    return [
        BenchFigure("conditions", f"7-condition run, {requests} requests, 200 ms server, "
                    f"concurrency {CONCURRENCY}: wall time", wall, "s"),
        BenchFigure("conditions", f"clean-only run, {clean_requests} requests, same server",
                    clean_wall, "s"),
        BenchFigure("conditions", "what 7 conditions add over a clean run of as many requests",
                    added, "fraction", "<= 0.10", added <= 0.10),
        BenchFigure("conditions", "the same, second model (perturbed images on disk, RUN/"
                    "perturbed)", warm_added, "fraction", "<= 0.10", warm_added <= 0.10),
        BenchFigure("conditions", "7-condition run over the latency-bound ideal",
                    wall / ideal - 1, "fraction"),
    ]


def bench_conditions(quick: bool) -> list[BenchFigure]:
    """Corruption speed and the 7-condition run overhead (quick: 5 repeats, 48 items)."""
    return corruption_figures(5 if quick else 15) + run_overhead_figure(48 if quick else 192)
