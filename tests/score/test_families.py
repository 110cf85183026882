"""Issue 23 item 17: the verdicts follow the Holm-adjusted test of their family.

The shortcut controls (conditions that are no point of a severity curve) are the primary
family; each corruption's severities are one curve with one trend test, never one claim per
severity.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from medvqa.schema import MetricsFile
from medvqa.score._controls import control_table
from medvqa.score._family import adjust_family
from medvqa.stats import Resampler

N = 40


def outcomes(wrong: list[int] = (), right: list[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """All N items scored; clean's wrong items are 30..39, ``wrong``/``right`` flip others."""
    ok = np.array([1] * 30 + [0] * 10)
    ok[list(wrong)] = 0
    ok[list(right)] = 1
    return np.arange(N), ok


def adjusted(correct: dict[str, tuple[np.ndarray, np.ndarray]]) -> tuple[dict[str, Any], Any]:
    """controls (as in metrics.json) and what adjust_family returned."""
    resampler = Resampler(N, 999, 0)
    pending = control_table(correct, np.zeros(N, dtype=int), None, np.arange(N), resampler)
    assert pending is not None
    resampler.run()
    finished = pending.finish()
    assert finished is not None
    metrics = MetricsFile.model_construct(controls=finished.model_dump(), conditions={})
    return metrics.controls, adjust_family(metrics)


def test_a_control_significant_only_before_holm_gets_no_needs_the_image_verdict() -> None:
    # blind: 10 items right only when clean, 2 only when blind: McNemar mid-p 0.022, the
    # interval of Δ above 0. Three more shortcut controls that change nothing make the
    # primary family four tests: Holm p 4 × 0.022 = 0.09.
    correct = {"clean": outcomes(), "blind": outcomes(wrong=range(10), right=[30, 31]),
               "noise": outcomes(), "text-only": outcomes(), "swap": outcomes()}
    controls, _ = adjusted(correct)
    blind = controls["deltas"]["blind"]["overall"]
    assert blind["p_value"] < 0.05 and blind["ci"][0] > 0
    assert blind["family"] == "controls" and blind["p_holm"] >= 0.05
    assert not blind["needs_image"]


def test_a_control_significant_after_holm_needs_the_image() -> None:
    correct = {"clean": outcomes(), "blind": outcomes(wrong=range(20)), "swap": outcomes()}
    controls, _ = adjusted(correct)
    blind = controls["deltas"]["blind"]["overall"]
    assert blind["p_holm"] < 0.05 and blind["needs_image"]
    assert not controls["deltas"]["swap"]["overall"]["needs_image"]


def test_a_curve_gets_one_trend_test_not_one_per_severity() -> None:
    correct = {"clean": outcomes(), "blind": outcomes(wrong=range(20)),
               "corrupt:jpeg@1": outcomes(wrong=range(2)),
               "corrupt:jpeg@3": outcomes(wrong=range(8)),
               "corrupt:jpeg@5": outcomes(wrong=range(16)),
               "corrupt:hue@1": outcomes(), "corrupt:hue@5": outcomes(wrong=[0], right=[30])}
    controls, families = adjusted(correct)
    assert families == {"controls": 1, "curves": 2}
    jpeg, hue = controls["trends"]["jpeg"], controls["trends"]["hue"]
    assert jpeg["levels"] == [0, 1, 3, 5] and jpeg["n"] == N
    assert jpeg["accuracy"] == [0.75, 0.7, 0.55, 0.35] and jpeg["slope"] < 0
    assert jpeg["family"] == "curves" and jpeg["p_holm"] < 0.05 and jpeg["declines"]
    assert hue["p_value"] > 0.05 and not hue["declines"]
    # Each severity keeps its Δ and unadjusted p as a description: no family, no verdict.
    point = controls["deltas"]["corrupt:jpeg@5"]["overall"]
    assert point["p_value"] < 0.05 and point["ci"][0] > 0
    assert point["family"] == "" and point["p_holm"] is None and not point["needs_image"]


def test_a_curve_uses_only_items_scored_at_every_level() -> None:
    items, ok = outcomes(wrong=range(10))
    correct = {"clean": outcomes(), "corrupt:jpeg@1": outcomes(),
               "corrupt:jpeg@3": (items[5:], ok[5:])}
    controls, _ = adjusted(correct)
    trend = controls["trends"]["jpeg"]
    assert trend["n"] == N - 5 and trend["accuracy"][2] == pytest.approx(20 / 35, abs=1e-6)


def test_trend_tests_are_deterministic() -> None:
    correct = {"clean": outcomes(), "corrupt:jpeg@1": outcomes(wrong=range(3)),
               "corrupt:jpeg@3": outcomes(wrong=range(5), right=[31])}
    assert adjusted(correct)[0] == adjusted(correct)[0]
