"""The ``intervals`` bench section: its quick run, and the simulation behind it."""

from __future__ import annotations

import numpy as np
import pytest

from medvqa.measurements import SECTIONS
from medvqa.measurements._intervals import (
    BOOT,
    CLASS_SHARE,
    ICC,
    MEDVQA,
    P_GRID,
    PAIRED_GAP,
    _paired_cells,
    accuracy_cells,
    case_sizes,
)
from medvqa.measurements._intervals_exact import exact_paired, exact_weighted
from medvqa.rng import rng_for
from medvqa.stats import icc_anova, paired_interval, weighted_interval


def test_quick_run_reports_coverage_and_no_zero_width_interval():
    figures = SECTIONS.get("intervals")(True)
    named = {f.name: f for f in figures}
    zero = next(f for n, f in named.items() if n.startswith(f"zero-width intervals, {MEDVQA}"))
    assert zero.value == 0 and zero.met
    before = next(f for n, f in named.items() if n.startswith(f"zero-width intervals, {BOOT}"))
    assert before.value > 0  # the bootstrap of before said [1, 1] on small all-correct sets
    ours = [f for f in figures if f.unit == "coverage" and f": {MEDVQA}," in f.name]
    assert ours and all(0.85 <= f.value <= 1 for f in ours)
    acc = {f.name.split(": ")[1].split(",")[0]: f.value for f in figures
           if f.name.startswith("accuracy, independent, n 10, p 0.9:")}
    assert acc[MEDVQA] > acc[BOOT] + 0.2  # 0.93 against about 0.65


def test_clustered_sets_have_the_intra_case_correlation_they_claim():
    rng = np.random.default_rng(0)
    m = case_sizes(4000, 1, rng, True)[0]
    assert m.sum() == 4000 and set(np.unique(m[m > 0])) <= {1.0, 2.0, 3.0, 4.0}
    from medvqa.measurements._intervals import _case_beta

    sizes = m[m > 0]
    y = rng.binomial(sizes.astype(int), _case_beta(rng.random(len(sizes)), 0.7))
    assert abs(icc_anova(y.astype(float), sizes) - ICC) < 0.04


def test_cells_are_seeded():
    a = accuracy_cells(20, 0.9, True, 100, 99, rng_for(0, "t"))
    b = accuracy_cells(20, 0.9, True, 100, 99, rng_for(0, "t"))
    assert a == b


@pytest.mark.parametrize("n", [10, 20, 30, 50, 100])
def test_exact_coverage_of_weighted_accuracy_on_independent_items(n):
    for p in P_GRID:
        gap = min(0.1, (1 - p) / 2)
        got = exact_weighted(n, CLASS_SHARE, (p + gap, p - gap))
        assert 0.93 <= got.coverage <= 0.98 and got.zero_width == 0, (n, p, got)


@pytest.mark.parametrize("n", [20, 30, 50, 100])
def test_exact_coverage_of_the_paired_difference_on_independent_pairs(n):
    # From 20 pairs within 0.93-0.99 (20 pairs at p = 0.97 hold 2.3 discordant ones: 0.986).
    for p in P_GRID:
        got = exact_paired(n, _paired_cells(p), PAIRED_GAP)
        assert 0.93 <= got.coverage <= 0.99 and got.zero_width == 0, (n, p, got)


def test_exact_sums_agree_with_a_simulation_of_the_public_intervals():
    # 4,000 sets drawn item by item, each given the interval metrics.json would: the share
    # that holds the truth lies within four Monte Carlo standard errors of the exact sum.
    rng = np.random.default_rng(7)
    reps, n = 4000, 20
    gold = rng.random((reps, n)) < CLASS_SHARE
    right = rng.random((reps, n)) < np.where(gold, 0.85, 0.95)
    held = [weighted_interval(right[i].astype(float), gold[i].astype(int)) for i in range(reps)]
    hit = np.mean([r.low <= 0.9 <= r.high for r in held])
    se = (0.05 * 0.95 / reps) ** 0.5
    assert abs(hit - exact_weighted(n, CLASS_SHARE, (0.95, 0.85)).coverage) < 4 * se
    cells = _paired_cells(0.7)
    draw = rng.choice(4, size=(reps, n), p=cells)  # 0: both right, 1: A only, 2: B only
    a, b = np.isin(draw, (0, 1)).astype(float), np.isin(draw, (0, 2)).astype(float)
    held = [paired_interval(a[i], b[i]) for i in range(reps)]
    hit = np.mean([r.low <= PAIRED_GAP <= r.high for r in held])
    assert abs(hit - exact_paired(n, cells, PAIRED_GAP).coverage) < 4 * se
