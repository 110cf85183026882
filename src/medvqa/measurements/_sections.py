"""The bench sections: one row each, ``fn(quick: bool) -> list[BenchFigure]``, loaded when run."""

from __future__ import annotations

from collections.abc import Callable

from medvqa._registry import Entry, Registry
from medvqa.measurements._figure import BenchFigure

_B = "medvqa.measurements"

SECTIONS: Registry[Callable[[bool], list[BenchFigure]]] = Registry("bench section", {
    "runner": Entry(f"{_B}._runner:bench_runner", "runner throughput against a loopback server"),
    "scoring": Entry(f"{_B}._scoring:bench_scoring", "parsers and bootstrap speed"),
    "intervals": Entry(f"{_B}._intervals:bench_intervals", "coverage and width of each "
                       "interval method on small and clustered simulated sets"),
    "scale": Entry(f"{_B}._scale:bench_scale", "scoring a million predictions: time, memory, "
                   "against a bare JSON read"),
    "extraction": Entry(f"{_B}._extraction:bench_extraction", "answer reading on the labelled "
                        "set: recall, false credit, speed; an extractor's rescues"),
    "build": Entry(f"{_B}._build:bench_build", "recipe build speed and memory"),
    "conditions": Entry(f"{_B}._conditions:bench_conditions", "corruptions and controls"),
    "llm": Entry(f"{_B}._llm:bench_llm", "the local LLM (SmolLM2) and the LLM builders"),
    "interop": Entry(f"{_B}._interop:bench_interop", "exports and imports of other tools"),
    "review": Entry(f"{_B}._review:bench_review", "the review app under load"),
    "ray": Entry(f"{_B}._ray:bench_ray", "runs distributed over Ray"),
    "local": Entry(f"{_B}._local:bench_local", "the hf: backend on the CPU"),
    "gpu": Entry(f"{_B}._local:bench_gpu", "the hf: backend on a GPU (skipped without one)"),
    "hardening": Entry(f"{_B}._hardening:bench_hardening", "hostile-input checks' cost"),
    "audit": Entry(f"{_B}._audit:bench_audit", "the integrity audit: hashing, near-duplicate "
                   "search, detection quality"),
    "train": Entry(f"{_B}._train:bench_train", "trained baselines"),
    "reader-error": Entry(f"{_B}._reader_error:bench_reader_error", "reader-audit intervals "
                          "by simulation: coverage and width of prediction-powered, plain and "
                          "humans-only accuracy"),
    "adaptive": Entry(f"{_B}._adaptive:bench_adaptive", "IRT calibration and adaptive runs: "
                      "items saved, ranking, error, coverage; planted label errors found"),
})
