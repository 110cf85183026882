"""``medvqa bench`` section ``runner``: throughput, latency hiding, cache replay, memory, SmolLM2.

Every figure runs the real ``medvqa run`` machinery (:func:`medvqa.run.run_benchmark` with the
real ``openai:`` backend over aiohttp) against a real chat server on 127.0.0.1 in a child
process, so the client keeps its own core. Benchmarks are synthetic (written here) so the section
runs from an installed package with no data folder.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from medvqa.measurements._figure import BenchFigure
from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
from medvqa.store import ImageStore

if TYPE_CHECKING:
    from medvqa.models import ModelBackend
    from medvqa.run import RunConfig, RunSummary

_OPTIONS = {"A": "benign", "B": "malignant", "C": "normal", "D": "indeterminate"}


def write_synthetic_bench(root: Path, n: int, image_size: int = 0, seed: int = 0) -> Path:
    """Write a BENCH/ of ``n`` four-option items; with ``image_size``, one distinct PNG each.

    Images are smooth gradients with mild noise, every one distinct: ~260 KB PNGs (~350 KB of
    base64), the size HTTP clients were timed with.
    """
    rng = np.random.default_rng(seed)
    store = ImageStore(root)
    base = None
    if image_size:
        y, x = np.mgrid[0:image_size, 0:image_size]
        base = np.stack([x, y, (x + y) // 2], axis=-1).astype(np.int16) * 255 // image_size

    def items() -> list[Item]:
        out = []
        for i in range(n):
            images = []
            if base is not None:
                noise = rng.integers(-2, 3, base.shape, dtype=np.int16)
                pixels = np.clip(base + noise + (i % 50), 0, 255).astype(np.uint8)
                buf = io.BytesIO()
                Image.fromarray(pixels).save(buf, format="PNG", compress_level=1)
                images = [store.add_bytes(buf.getvalue(), ".png")]
            out.append(Item(
                id=f"bench-{i:06d}", images=images,
                question=f"Item {i}: what does this image show?", options=dict(_OPTIONS),
                answer="ABCD"[i % 4], question_type="single", category=f"c{i % 5}",
                case_id=f"case-{i // 2}", source="synthetic",
            ))
        return out

    sha = write_jsonl(root / "items.jsonl", items())
    card = Benchmark(name=f"bench-{n}", created_with=CreatedWith(tool_version="bench"),
                     items_sha256=sha)
    write_json(root / "benchmark.json", card)
    return root


def timed_run(config: RunConfig,
              backend: ModelBackend | None = None) -> tuple[RunSummary, float]:
    """``run_benchmark(config)``'s summary and its wall time in seconds (every bench section)."""
    from medvqa.run import run_benchmark

    t0 = time.perf_counter()
    summary = run_benchmark(config, backend=backend)
    return summary, time.perf_counter() - t0


def _run(bench: Path, out: Path, spec: str, concurrency: int = 64, force_new: bool = False):
    from medvqa.models import ModelConfig
    from medvqa.run import RunConfig

    return timed_run(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=spec),
                               concurrency=concurrency, force_new=force_new))


def _throughput(tmp: Path, quick: bool) -> list[BenchFigure]:
    from medvqa.testing import ChatServerProcess

    figures = []
    n_text, n_img = (3_000, 300) if quick else (10_000, 1_000)
    text = write_synthetic_bench(tmp / "text", n_text)
    img = write_synthetic_bench(tmp / "img", n_img, image_size=512)
    png_kb = np.mean([p.stat().st_size for p in (tmp / "img" / "images").rglob("*.png")]) / 1024
    with ChatServerProcess(0.0) as server:
        spec = f"openai:bench@{server.url}"
        s, dt = _run(text, tmp / "run-text", spec)
        rate = s.sent / dt
        figures.append(BenchFigure("runner", f"text items/s, zero-latency server, c=64, {n_text:,}"
                                   " items", rate, "items/s", ">= 1000", rate >= 1000))
        s, dt = _run(img, tmp / "run-img", spec)
        rate = s.sent / dt
        figures.append(BenchFigure("runner", f"items/s with one 512x512 PNG ({png_kb:.0f} KB) each,"
                                   f" zero-latency, c=64, {n_img:,} items", rate, "items/s",
                                   ">= 300", rate >= 300))
        s, dt = _run(text, tmp / "run-text", spec, force_new=True)
        figures.append(BenchFigure("runner", f"replay of a fully cached run, {n_text:,} items"
                                   f" ({s.cached:,} cache hits, {s.sent} sent)", dt, "s",
                                   "< 5 (10,000 items)", dt < 5 and s.sent == 0))
    n_slow = 640 if quick else 1_920
    slow = write_synthetic_bench(tmp / "slow", n_slow)
    with ChatServerProcess(0.2) as server:
        s, dt = _run(slow, tmp / "run-slow", f"openai:bench@{server.url}")
        fraction = (s.sent / dt) / (64 / 0.2)
        figures.append(BenchFigure("runner", f"fraction of ideal 320 items/s, 200 ms server, c=64,"
                                   f" {n_slow:,} items", fraction, "fraction", ">= 0.90",
                                   fraction >= 0.9))
    return figures


_MEMORY_SCRIPT = """
import sys
from pathlib import Path
from medvqa.measurements._runner import _run
s, dt = _run(Path(sys.argv[1]), Path(sys.argv[2]), "random")
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent across exec.
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(int(hwm.split()[1]) / 1024, s.completed / dt)
"""


def _memory(tmp: Path, quick: bool) -> list[BenchFigure]:
    """Peak RSS of a whole ``random`` run in a fresh process, at two benchmark sizes."""
    sizes = (5_000, 20_000) if quick else (10_000, 100_000)
    peaks = []
    for n in sizes:
        bench = write_synthetic_bench(tmp / f"mem{n}", n)
        cmd = [sys.executable, "-c", _MEMORY_SCRIPT, str(bench), str(tmp / f"r{n}")]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rss, rate = map(float, proc.stdout.split())
        peaks.append((n, rss, rate))
    (n0, m0, _), (n1, m1, rate) = peaks
    growth_kb = (m1 - m0) * 1024 / (n1 - n0)
    return [
        BenchFigure("runner", f"peak RSS of a run, {n0:,} items", m0, "MB"),
        BenchFigure("runner", f"peak RSS of a run, {n1:,} items", m1, "MB"),
        BenchFigure("runner", "peak RSS growth per item (flat = streamed)", growth_kb, "KB",
                    "< 1", growth_kb < 1),
        BenchFigure("runner", f"random baseline run, {n1:,} items", rate, "items/s"),
    ]


def _smollm2(quick: bool) -> list[BenchFigure]:
    import asyncio

    from medvqa.models import GenerateRequest, ModelConfig, load_model

    batch = 8
    model = load_model(ModelConfig(spec="smollm2", max_tokens=32, batch_size=batch))
    asyncio.run(model.start())
    load_s = model._lm.load_s  # type: ignore[attr-defined]  # loaded once per process
    prompts = [f"Question {i}: which organ does a mammogram image? Answer in one word."
               for i in range(batch)]
    requests = [GenerateRequest(item_id=str(i), condition="clean", prompt=p)
                for i, p in enumerate(prompts)]
    rounds = 1 if quick else 3
    for _ in range(rounds):
        asyncio.run(model.generate(requests))
    tokens_per_s = model.tokens_generated / model.generate_s  # type: ignore[attr-defined]
    return [
        BenchFigure("runner", "SmolLM2-135M load (transformers + gguf, CPU)", load_s, "s"),
        BenchFigure("runner", f"SmolLM2-135M tokens/s, batch {batch}, greedy, CPU",
                    tokens_per_s, "tokens/s"),
    ]


def bench_runner(quick: bool) -> list[BenchFigure]:
    """Runner figures: throughput, 200 ms latency hiding, cache replay, memory, SmolLM2."""
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-runner-") as tmp:
        figures = _throughput(Path(tmp), quick)
        figures += _memory(Path(tmp), quick)
    return figures + _smollm2(quick)


if __name__ == "__main__":  # python -m medvqa.measurements._runner: JSON figures, for scripting
    from dataclasses import asdict

    print(json.dumps([asdict(f) for f in bench_runner("--quick" in sys.argv)], indent=1))
