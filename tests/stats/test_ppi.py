"""Prediction-powered means: against ppi-python, reductions, properties and a coverage check."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.stats._ppi import (
    Stratum,
    design_effect,
    ppi_mean,
    stratified_ppi,
    weighted_rate,
)
from medvqa.stats._sampling import allocate, draw_stratified


def _labels(seed: int, n: int, big_n: int, agree: float):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).astype(float)
    f = np.where(rng.random(n) < agree, y, 1 - y)
    fu = (rng.random(big_n) < 0.55).astype(float)
    return y, f, fu


@pytest.mark.parametrize("lam", [1.0, None, 0.3, 0.0])
def test_ppi_mean_matches_ppi_python(lam):
    """The papers' estimator, point and interval, as the ppi-python package computes them."""
    ppi_py = pytest.importorskip("ppi_py")
    y, f, fu = _labels(1, 120, 4000, 0.8)
    ours = ppi_mean(y, f, fu, lam=lam)
    low, high = ppi_py.ppi_mean_ci(y, f, fu, alpha=0.05, lam=lam)
    point = ppi_py.ppi_mean_pointestimate(y, f, fu, lam=lam)
    assert ours.value == pytest.approx(float(np.ravel(point)[0]), abs=1e-12)
    assert (ours.low, ours.high) == pytest.approx((float(low[0]), float(high[0])), abs=1e-12)


def test_ppi_mean_with_lambda_one_is_the_rectified_mean():
    y, f, fu = _labels(2, 50, 500, 0.9)
    est = ppi_mean(y, f, fu, lam=1)
    assert est.value == pytest.approx(fu.mean() + (y - f).mean())
    assert est.lam == 1


def test_one_stratum_with_a_small_sample_is_the_papers_estimator():
    """Sampled from the N units, n ≪ N: the stratified estimator is ppi_mean up to 1/N terms."""
    rng = np.random.default_rng(3)
    big_n = 200_000
    f_all = (rng.random(big_n) < 0.6).astype(float)
    idx = rng.choice(big_n, 200, replace=False)
    y = np.where(rng.random(200) < 0.85, f_all[idx], 1 - f_all[idx])
    ours = stratified_ppi(f_all.mean(), big_n, [Stratum(big_n, y, f_all[idx])], lam=1)
    paper = ppi_mean(y, f_all[idx], f_all, lam=1)
    assert ours.value == pytest.approx(paper.value, abs=1e-12)
    assert ours.se == pytest.approx(paper.se, rel=0.01)


def test_lambda_zero_is_the_stratified_human_mean():
    strata = [Stratum(700, np.array([1., 1, 0, 1, 1]), np.array([1., 1, 1, 1, 0])),
              Stratum(300, np.array([0., 1, 0, 0]), np.array([0., 0, 0, 0]))]
    est = stratified_ppi(0.62, 1000, strata, lam=0)
    assert est.value == pytest.approx(0.7 * 0.8 + 0.3 * 0.25)
    assert est.lam == 0


def test_tuned_lambda_is_never_wider_than_either_end():
    y, f, _ = _labels(4, 150, 0, 0.9)
    strata = [Stratum(10_000, y, f)]
    widths = {lam: stratified_ppi(f.mean() + 0.01, 10_000, strata, lam=lam).se
              for lam in (0.0, 1.0, None)}
    assert widths[None] <= min(widths[0.0], widths[1.0]) + 1e-12


def test_a_stratum_without_a_labelled_unit_is_refused():
    with pytest.raises(ValueError, match="labelled unit"):
        stratified_ppi(0.5, 10, [Stratum(6, np.array([1.]), np.array([1.])),
                                 Stratum(4, np.zeros(0), np.zeros(0))])
    with pytest.raises(ValueError, match="add up"):
        stratified_ppi(0.5, 11, [Stratum(10, np.array([1., 0]), np.array([1., 0]))])


def test_the_stratified_interval_covers_a_biased_reader():
    """400 seeded replicates: a reader that misses 30 % of right answers, 200 adjudicated."""
    rng = np.random.default_rng(5)
    big_n, p, covered = 5_000, 0.7, 0
    for _ in range(400):
        y_all = (rng.random(big_n) < p).astype(float)
        f_all = np.where((y_all == 1) & (rng.random(big_n) < 0.3), 0.0, y_all)
        strata_units = {"read": np.flatnonzero(f_all == 1), "invalid": np.flatnonzero(f_all == 0)}
        counts = allocate({k: len(v) for k, v in strata_units.items()}, 200)
        drawn = draw_stratified(strata_units, counts, rng)
        est = stratified_ppi(f_all.mean(), big_n, [
            Stratum(len(strata_units[h]), y_all[drawn[h]], f_all[drawn[h]]) for h in drawn])
        covered += est.low <= p <= est.high
    assert covered / 400 >= 0.92  # nominal 0.95; the plain reader's mean is 0.49 here


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["read", "invalid", "extracted"]),
                       st.integers(0, 5000), min_size=1), st.integers(0, 800))
def test_allocation_caps_and_sums(sizes, n):
    out = allocate(sizes, n)
    assert set(out) == set(sizes)
    assert sum(out.values()) == min(n, sum(sizes.values()))
    assert all(0 <= out[k] <= sizes[k] for k in sizes)
    assert all(out[k] > 0 for k in sizes if sizes[k] and n >= len(sizes) * 2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(0.1, 50)), min_size=1, max_size=60))
def test_weighted_rate_lies_in_its_interval(rows):
    hits = np.array([h for h, _ in rows])
    weights = np.array([w for _, w in rows])
    r = weighted_rate(hits, weights)
    assert r is not None
    assert 0 <= r.low <= r.value <= r.high <= 1
    assert r.low < r.high  # never a zero-width interval
    assert 1 - 1e-9 <= r.n_effective <= len(rows) + 1e-9


def test_equal_weights_give_the_plain_wilson_interval():
    from statsmodels.stats.proportion import proportion_confint

    r = weighted_rate(np.array([True] * 7 + [False] * 3), np.ones(10))
    assert (r.low, r.high) == pytest.approx(proportion_confint(7, 10, method="wilson"))
    assert weighted_rate(np.zeros(0, dtype=bool), np.zeros(0)) is None


def test_design_effect_grows_when_cases_agree_within():
    values = np.repeat([1.0, 0.0, 1.0, 0.0, 1.0], 4)
    assert design_effect(values, np.repeat(np.arange(5), 4)) > 3
    assert design_effect(values, None) == 1.0
    assert design_effect(values, np.arange(20)) == 1.0
