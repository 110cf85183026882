"""``medvqa bench`` section ``ray``: four loopback endpoints through Ray vs one process.

1. The same benchmark (one 224² PNG per item) against four chat servers with 200 ms latency,
   each in its own child process, at the same concurrency: from this process alone (the
   ``openai:`` endpoint pool), and through a local Ray instance of two workers that share the
   four endpoints. The two alternate for several rounds (each into a fresh RUN/), since one
   pair of runs differs by a few per cent either way. The overhead of distribution is the mean
   over rounds of Ray's wall time over one process's, with a 95 % interval; the target (Ray's
   throughput at least that of one process) is met unless the interval lies above 0. Ray's
   start-up, once per run, is reported apart.
2. A 7-condition run (the conditions bench's set) the same two ways, and once more with the
   perturbing moved onto the two Ray actors (``--perturb-workers 2``; by default a cluster
   without CPUs beyond two leaves it in the driver, as this one).
"""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from medvqa.measurements._figure import BenchFigure

LATENCY_S = 0.2
WORKERS = 2
#: (concurrency, items, items when quick): latency-bound at 64 (both ways reach the same
#: bound, so they differ by noise), CPU-bound on two cores at 512 (where distributing pays).
SETTINGS = ((64, 768, 256), (512, 4096, 1024))


def bench_ray(quick: bool) -> list[BenchFigure]:
    """Items/s of one process vs two Ray workers over four endpoints (quick: fewer, 1 round)."""
    from medvqa._optional import optional_import
    from medvqa.measurements._conditions import RUN_CONDITIONS
    from medvqa.measurements._runner import timed_run, write_synthetic_bench
    from medvqa.models import ModelConfig
    from medvqa.run import RayBackend, RayOptions, RunConfig
    from medvqa.testing import ChatServerProcess

    ray = optional_import("ray", "'medvqa[ray]'")
    rounds, n_cond = (2, 48) if quick else (8, 96)
    figures: list[BenchFigure] = []
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-ray-") as tmp, \
            contextlib.ExitStack() as stack:
        root = Path(tmp)
        servers = [stack.enter_context(ChatServerProcess(latency_s=LATENCY_S)) for _ in range(4)]
        urls = [s.url for s in servers]
        model = ModelConfig(spec=f"openai:bench@{urls[0]}", endpoints=tuple(urls[1:]))

        def config(b: Path, name: str, concurrency: int, conditions: Sequence[str] = ("clean",),
                   perturb_workers: int | None = None) -> Any:
            return RunConfig(b, root / name, model, conditions=list(conditions),
                             concurrency=concurrency, perturb_workers=perturb_workers)

        t0 = time.perf_counter()
        ray.init(num_cpus=WORKERS, include_dashboard=False, log_to_driver=False)
        figures.append(BenchFigure("ray", "Ray start-up: local instance",
                                   time.perf_counter() - t0, "s"))
        try:
            for concurrency, full_n, quick_n in SETTINGS:
                n = quick_n if quick else full_n
                bench = write_synthetic_bench(root / f"bench-{n}", n, image_size=224)
                options = RayOptions(workers=WORKERS, concurrency=concurrency)
                local_walls, ray_walls, startups = [], [], []
                for r in range(rounds):
                    local_walls.append(timed_run(config(bench, f"l{concurrency}-{r}",
                                                        concurrency))[1])
                    t0 = time.perf_counter()
                    backend = RayBackend(model, options, bench_dir=bench)
                    startups.append(time.perf_counter() - t0)
                    ray_walls.append(timed_run(config(bench, f"r{concurrency}-{r}",
                                                      concurrency), backend)[1])
                figures += _clean_figures(n, concurrency, rounds, local_walls, ray_walls)
            figures.append(BenchFigure("ray", f"Ray start-up: {WORKERS} actors (median)",
                                       statistics.median(startups), "s"))
            concurrency = SETTINGS[0][0]
            cond_bench = write_synthetic_bench(root / "cond", n_cond, image_size=224, seed=2)
            options = RayOptions(workers=WORKERS, concurrency=concurrency)
            summary, cond_local = timed_run(config(cond_bench, "cond-local", concurrency,
                                                   RUN_CONDITIONS))
            requests = summary.completed
            backend = RayBackend(model, options, bench_dir=cond_bench)
            cond_ray = timed_run(config(cond_bench, "cond-ray", concurrency, RUN_CONDITIONS),
                                 backend)[1]
            backend = RayBackend(model, options, bench_dir=cond_bench)
            cond_actors = timed_run(config(cond_bench, "cond-actors", concurrency,
                                           RUN_CONDITIONS, WORKERS), backend)[1]
        finally:
            ray.shutdown()
    return figures + [
        BenchFigure("ray", f"7-condition run, {requests} requests, concurrency {concurrency}: "
                    "one process", cond_local, "s"),
        BenchFigure("ray", "the same through Ray (the driver perturbs: no CPUs beyond two)",
                    cond_ray, "s"),
        BenchFigure("ray", "7-condition run: Ray wall time / one process - 1",
                    cond_ray / cond_local - 1, "fraction"),
        BenchFigure("ray", f"the same with the {WORKERS} actors perturbing (--perturb-workers "
                    f"{WORKERS}) / one process - 1", cond_actors / cond_local - 1, "fraction"),
    ]


def paired_overhead(local_walls: list[float],
                    ray_walls: list[float]) -> tuple[float, float, float]:
    """Mean over rounds of Ray's wall time / one process's - 1, with its 95 % t interval.

    Rounds are paired (one process, then Ray) because they share the machine's state.

    >>> m, lo, hi = paired_overhead([2.0, 2.0, 2.0], [2.0, 2.2, 1.8])
    >>> round(m, 6), round(lo, 3), round(hi, 3)
    (0.0, -0.248, 0.248)
    """
    from scipy import stats

    diffs = [r / loc - 1 for loc, r in zip(local_walls, ray_walls, strict=True)]
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return mean, float("-inf"), float("inf")
    half = float(stats.t.ppf(0.975, len(diffs) - 1)) * statistics.stdev(diffs) / len(diffs) ** 0.5
    return mean, mean - half, mean + half


def _clean_figures(n: int, concurrency: int, rounds: int, local_walls: list[float],
                   ray_walls: list[float]) -> list[BenchFigure]:
    """Rates, overhead with its interval, and distance from the ideal of one setting's runs."""
    local_s, ray_s = statistics.median(local_walls), statistics.median(ray_walls)
    ideal = n * LATENCY_S / concurrency
    mean, lo, hi = paired_overhead(local_walls, ray_walls)
    return [
        BenchFigure("ray", f"one process, 4 endpoints (200 ms), {n} image items, concurrency "
                    f"{concurrency}, median of {rounds}", n / local_s, "items/s"),
        BenchFigure("ray", f"Ray, {WORKERS} local workers, same endpoints and concurrency",
                    n / ray_s, "items/s"),
        # At the latency bound both reach the same rate and a single pair of runs differs by a
        # few per cent either way; met unless Ray is measurably slower (the interval above 0).
        BenchFigure("ray", f"distribution overhead: Ray wall time / one process - 1, mean of "
                    f"{rounds} alternating rounds, 95 % CI [{lo:+.3f}, {hi:+.3f}]", mean,
                    "fraction", "<= 0 (Ray >= one process)", lo <= 0),
        BenchFigure("ray", "one process over the latency-bound ideal", local_s / ideal - 1,
                    "fraction"),
    ]
