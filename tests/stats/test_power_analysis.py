"""Power of a paired comparison (:mod:`medvqa.stats._power`): ICC, design effect, Connor's bound.

Connor's sample size is checked against the power of the mid-p McNemar test simulated on
that many pairs, and the ANOVA ICC against clustered outcomes of known correlation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from medvqa.stats import (
    detectable_difference,
    effective_pairs_needed,
    icc_anova,
    independent_discordance,
    kish_design_effect,
)


def test_icc_of_beta_binomial_cases_is_recovered():
    rng = np.random.default_rng(11)
    rho, p, cases = 0.3, 0.7, 4000
    c = (1 - rho) / rho
    sizes = rng.integers(1, 6, cases).astype(float)
    hits = rng.binomial(sizes.astype(int), rng.beta(p * c, (1 - p) * c, cases)).astype(float)
    assert icc_anova(hits, sizes) == pytest.approx(rho, abs=0.03)
    independent = rng.binomial(sizes.astype(int), p).astype(float)
    assert abs(icc_anova(independent, sizes)) < 0.03


def test_icc_is_not_estimable_without_repeats():
    assert math.isnan(icc_anova(np.array([1.0, 0.0]), np.array([1.0, 1.0])))
    assert math.isnan(icc_anova(np.array([3.0]), np.array([4.0])))


def test_kish_design_effect():
    assert kish_design_effect(0.0, np.array([3, 3])) == 1.0
    assert kish_design_effect(1.0, np.array([3, 3])) == pytest.approx(3.0)
    assert kish_design_effect(-0.2, np.array([3, 3])) == 1.0  # never below 1
    assert kish_design_effect(float("nan"), np.array([3, 3])) == 1.0


def test_detectable_difference_inverts_the_sample_size():
    for delta, psi in ((0.05, 0.3), (0.2, 0.5), (0.1, 0.12)):
        n = effective_pairs_needed(delta, psi)
        assert detectable_difference(n, psi) == pytest.approx(delta, rel=1e-6)
    assert detectable_difference(3.0, 0.5) is None  # fewer than z² effective pairs
    assert effective_pairs_needed(0.8, 0.5) == math.inf  # Δ² ≥ ψ: impossible


def test_connor_sample_size_gives_about_80_percent_power_to_the_mid_p_test():
    rng = np.random.default_rng(5)
    delta, psi = 0.15, 0.35
    n = math.ceil(effective_pairs_needed(delta, psi))
    reps = 4000
    discordant = rng.binomial(n, psi, reps)
    a_only = rng.binomial(discordant, (psi + delta) / (2 * psi))
    k = np.minimum(a_only, discordant - a_only)
    p = np.minimum(1.0, 2 * binom.cdf(k, discordant, 0.5) - binom.pmf(k, discordant, 0.5))
    assert 0.76 <= np.mean(p < 0.05) <= 0.86


def test_independent_discordance():
    assert independent_discordance(0.5) == 0.5 and independent_discordance(1.0) == 0.0
