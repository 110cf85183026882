"""``medvqa bench`` section ``ray``: four loopback endpoints through Ray vs one process.

The same benchmark (one 224² PNG per item) against four chat servers with 200 ms latency, each
in its own child process, at the same concurrency: once from this process alone (the
``openai:`` endpoint pool), once through a local Ray instance of two workers that share the
four endpoints. Target: Ray's throughput at least that of one process; the overhead of
distribution is the ratio of wall times (Ray's start-up reported apart).
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from pathlib import Path

from medvqa.bench._figure import BenchFigure

LATENCY_S = 0.2
CONCURRENCY = 64
WORKERS = 2


def bench_ray(quick: bool) -> list[BenchFigure]:
    """Items/s of one process vs two Ray workers over four endpoints (quick: 256 items)."""
    from medvqa._optional import optional_import
    from medvqa.bench._runner import write_synthetic_bench
    from medvqa.models import ModelConfig
    from medvqa.run import RunConfig, run_benchmark
    from medvqa.run._ray import RayBackend, RayOptions
    from medvqa.testing import ChatServerProcess

    ray = optional_import("ray", "'medvqa[ray]'")
    n = 256 if quick else 768
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-ray-") as tmp, \
            contextlib.ExitStack() as stack:
        root = Path(tmp)
        bench = write_synthetic_bench(root / "bench", n, image_size=224)
        servers = [stack.enter_context(ChatServerProcess(latency_s=LATENCY_S)) for _ in range(4)]
        urls = [s.url for s in servers]
        model = ModelConfig(spec=f"openai:bench@{urls[0]}", endpoints=tuple(urls[1:]))

        def config(name: str) -> RunConfig:
            return RunConfig(bench, root / name, model, concurrency=CONCURRENCY)

        t0 = time.perf_counter()
        local = run_benchmark(config("local"))
        local_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        ray.init(num_cpus=WORKERS, include_dashboard=False, log_to_driver=False)
        try:
            backend = RayBackend(model, RayOptions(workers=WORKERS), bench_dir=bench)
            startup_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            dist = run_benchmark(config("ray"), backend=backend)
            ray_s = time.perf_counter() - t0
        finally:
            ray.shutdown()
    ideal = n * LATENCY_S / CONCURRENCY
    local_rate, ray_rate = local.completed / local_s, dist.completed / ray_s
    return [
        BenchFigure("ray", f"one process, 4 endpoints (200 ms), {n} image items, concurrency "
                    f"{CONCURRENCY}", local_rate, "items/s"),
        BenchFigure("ray", f"Ray, {WORKERS} local workers, same endpoints and concurrency",
                    ray_rate, "items/s", ">= one process", ray_rate >= local_rate),
        BenchFigure("ray", "distribution overhead (Ray wall time / one process - 1)",
                    ray_s / local_s - 1, "fraction"),
        BenchFigure("ray", "one process over the latency-bound ideal", local_s / ideal - 1,
                    "fraction"),
        BenchFigure("ray", f"Ray start-up ({WORKERS} actors, local instance)", startup_s, "s"),
    ]
