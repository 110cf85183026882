"""Answer a benchmark's splits with a freshly trained classifier, through the ordinary runner.

Going through :func:`medvqa.run.run_benchmark` with the ``supervised:RUN`` backend means the
RUN/ folder is exactly what ``medvqa run`` writes (run.json, predictions.jsonl, cache), so
``medvqa score``, ``compare`` and ``report`` read it like any model's, and a later
``medvqa run BENCH/ --model supervised:RUN --out RUN --conditions blind,…`` adds controls to it.
"""

from __future__ import annotations

import os
from pathlib import Path

from medvqa.models import ModelConfig


def supervised_spec(out_dir: Path) -> str:
    """The spec of the classifier in ``out_dir`` (path normalised, as the backend names it)."""
    return f"supervised:{os.path.normpath(out_dir)}"


def predict_splits(bench_dir: Path, out_dir: Path, splits: tuple[str, ...], *, device: str,
                   seed: int, retrained: bool) -> int:
    """Run the classifier on each split (clean); returns predictions written in RUN/.

    Args:
        bench_dir: the benchmark.
        out_dir: the RUN/ folder holding the classifier.
        splits: splits to answer, one runner pass each.
        device: resolved torch device.
        seed: run seed.
        retrained: the weights changed, so earlier predictions in RUN/ are discarded.
    """
    from medvqa.run import RunConfig, run_benchmark

    model = ModelConfig(spec=supervised_spec(out_dir), device=device, seed=seed)
    count = 0
    for i, split in enumerate(splits):
        summary = run_benchmark(RunConfig(
            bench_dir=bench_dir, out_dir=out_dir, model=model, split=split,
            conditions=["clean"], seed=seed, force_new=retrained and i == 0, concurrency=1))
        count = summary.predictions
    return count
