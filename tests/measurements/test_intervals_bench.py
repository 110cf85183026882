"""The ``intervals`` bench section: its quick run, and the simulation behind it."""

from __future__ import annotations

import numpy as np

from medvqa.measurements import SECTIONS
from medvqa.measurements._intervals import (
    BOOT,
    ICC,
    MEDVQA,
    accuracy_cells,
    case_sizes,
    newcombe,
)
from medvqa.rng import rng_for
from medvqa.stats import icc_anova


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


def test_newcombe_matches_a_reference_implementation():
    # Newcombe (1998) method 10 on the table (59, 6 / 16, 80): estimate −0.0621, 95 % CI
    # −0.1186 to −0.0046, as the contingencytables R package (Fagerland et al.) gives it.
    lo, hi = newcombe(np.array([59.0]), np.array([6.0]), np.array([16.0]), np.array([80.0]))
    assert abs(lo[0] + 0.1186) < 5e-5 and abs(hi[0] + 0.0046) < 5e-5
