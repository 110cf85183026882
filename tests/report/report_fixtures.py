"""Small scored runs in memory (LoadedRun of a MetricsFile), rendered to HTML and Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medvqa.report._render import render_html, render_markdown
from medvqa.report._report import LoadedRun, build_sections, methods_text
from medvqa.schema import MetricsFile


def block(acc: float, ci: tuple[float, float], n: int) -> dict[str, Any]:
    value = {"value": acc, "ci": list(ci)}
    return {"overall": {"accuracy": value, "weighted_accuracy": value, "macro_f1": value,
                        "invalid_rate": {"value": 0.0, "ci": [0.0, 0.0]},
                        "valid_accuracy": value, "random_baseline": 1 / 3,
                        "frequent_baseline": 0.4, "n": n}}


def delta(clean: float, cond: float, ci: tuple[float, float], p: float, holm: float | None,
          needs: bool, family: str = "controls") -> dict[str, Any]:
    return {"overall": {"n": 30, "clean": clean, "condition": cond, "delta": clean - cond,
                        "ci": list(ci), "p_value": p, "test": "McNemar exact", "family": family,
                        "p_holm": holm, "clean_only": 10, "condition_only": 1,
                        "needs_image": needs}}


def run(model: str, bench: str, acc: float, ci: tuple[float, float], n: int,
        controls: dict[str, Any] | None = None) -> LoadedRun:
    metrics = MetricsFile.model_validate({
        "style": "strict", "n": n, "seed": 0, "resamples": 999, "clustered": False,
        "model": model, "benchmark": bench, "conditions": {"clean": block(acc, ci, n)},
        "controls": controls})
    return LoadedRun(Path(model), None, metrics)


def reads_images() -> list[LoadedRun]:
    """A CNN that needs the image (blind Δ +0.53) beside text-only baselines, n 30."""
    cnn = run("supervised:cnn", "z-lung", 0.867, (0.733, 0.967), 30, {
        "deltas": {"blind": delta(0.867, 0.333, (0.3, 0.767), 0.000855, 0.0188, True),
                   "corrupt:hue@1": delta(0.867, 0.833, (0.0, 0.1), 1.0, None, False, ""),
                   "corrupt:hue@5": delta(0.867, 0.333, (0.367, 0.7), 3e-5, None, False, "")},
        "trends": {"hue": {"levels": [0, 1, 5], "accuracy": [0.867, 0.833, 0.333], "n": 30,
                           "slope": -0.11, "test": "stratified trend permutation (999)",
                           "p_value": 0.001, "family": "curves", "p_holm": 0.001,
                           "declines": True}},
        "degradation": {"hue": [0.867, 0.833, None, None, None, 0.333]}})
    return [cnn, run("random", "z-lung", 0.333, (0.133, 0.6), 15),
            run("frequent", "z-lung", 0.333, (0.133, 0.6), 15)]


def tiny() -> list[LoadedRun]:
    """The demo's IDRiD: 10 test items, intervals 0.1–0.7, no image control."""
    return [run("random", "a-idrid", 0.4, (0.1, 0.7), 10),
            run("frequent", "a-idrid", 0.2, (0.0, 0.5), 10)]


def rendered(runs: list[LoadedRun]) -> tuple[str, str]:
    sections = build_sections(runs)
    methods = methods_text(runs)
    return render_html(sections, methods), render_markdown(sections, methods)
