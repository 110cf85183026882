"""Closed-form intervals (:mod:`medvqa.stats._intervals` and the paired and weighted ones).

The Wilson and Jeffreys bounds are checked against statsmodels, the edges against
Clopper–Pearson, Tango's and Newcombe's intervals against published worked examples, and the
coverage of the rate interval on independent items is computed exactly (a sum over the
binomial outcomes), not simulated.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from medvqa.stats import (
    bootstrap_applies,
    jeffreys_bounds,
    newcombe_bounds,
    paired_interval,
    rate_interval,
    score_bounds,
    tango_bounds,
    weighted_interval,
    wilson_bounds,
)


def test_wilson_bounds_are_statsmodels_wilson_also_for_effective_counts():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    x = np.array([0, 1, 3, 9.5, 10, 17.25, 40])
    n = np.array([10, 10, 10, 10, 10, 21.5, 40])
    lo, hi = wilson_bounds(x, n)
    want_lo, want_hi = proportion.proportion_confint(x, n, method="wilson")
    assert lo == pytest.approx(want_lo, abs=1e-12) and hi == pytest.approx(want_hi, abs=1e-12)


def test_at_zero_or_n_the_bound_is_never_narrower_than_clopper_pearson():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    for n in (1, 3, 10, 30, 100, 1000):
        lo, hi = score_bounds(np.array([n, 0.0]), np.array([n, n], dtype=float))
        cp_lo, _ = proportion.proportion_confint(n, n, method="beta")
        _, cp_hi = proportion.proportion_confint(0, n, method="beta")
        w_lo, w_hi = wilson_bounds(np.array([n, 0.0]), np.array([n, n], dtype=float))
        assert lo[0] == pytest.approx(min(cp_lo, w_lo[0])) and hi[0] == 1.0
        assert hi[1] == pytest.approx(max(cp_hi, w_hi[1])) and lo[1] == 0.0
    # Ten of ten: the exact bound 0.025 ** (1 / 10), not Wilson's 0.722, and never [1, 1].
    assert rate_interval(np.ones(10)).low == pytest.approx(0.025 ** 0.1)


@settings(max_examples=60, deadline=None)
@given(outcomes=st.lists(st.booleans(), min_size=1, max_size=80), cases=st.integers(1, 30))
def test_a_rate_interval_holds_its_estimate_and_never_has_zero_width(outcomes, cases):
    y = np.array(outcomes, dtype=float)
    units = np.arange(len(y)) % cases
    for r in (rate_interval(y), rate_interval(y, units)):
        assert 0 <= r.low <= y.mean() <= r.high <= 1
        assert r.high - r.low > 0.01
        assert r.design_effect >= 1


def test_independent_items_have_no_design_effect_and_agreeing_cases_a_large_one():
    y = np.array([1.0] * 12 + [0.0] * 8)
    plain = rate_interval(y)
    assert plain.method == "wilson" and plain.design_effect == 1.0
    assert rate_interval(y, np.arange(20)).method == "wilson"  # no case repeats
    alike = rate_interval(y, np.repeat(np.arange(5), 4))  # each case all right or all wrong
    assert alike.method == "wilson-ess" and alike.design_effect == pytest.approx(4.0)
    assert alike.high - alike.low > plain.high - plain.low
    # Cases whose items disagree as much as independent items would: design effect 1.
    mixed = rate_interval(np.tile([1.0, 0.0, 1.0, 0.0], 5), np.repeat(np.arange(5), 4))
    assert mixed.design_effect == 1.0


@pytest.mark.parametrize("n", [10, 20, 30, 50, 100, 300])
def test_exact_coverage_of_the_rate_interval_on_independent_items(n):
    # Every outcome x of Binomial(n, p) and its interval: coverage without Monte Carlo error.
    x = np.arange(n + 1, dtype=float)
    lo, hi = score_bounds(x, np.full(n + 1, float(n)))
    for p in (0.5, 0.7, 0.9, 0.97):
        coverage = binom.pmf(x, n, p)[(lo <= p) & (p <= hi)].sum()
        # n = 10, p = 0.9: an interval holding 7/10 covers 0.987, one that does not 0.9298.
        assert 0.9295 <= coverage <= 0.98, (n, p, coverage)


def test_tango_interval_matches_the_published_example():
    # Bentur et al. (2009) in Fagerland, Lydersen & Laake (2014): n12 = 1, n21 = 7, n = 21.
    lo, hi = tango_bounds(np.array([1.0]), np.array([7.0]), np.array([21.0]))
    assert (round(float(lo[0]), 3), round(float(hi[0]), 3)) == (-0.517, -0.026)


def test_jeffreys_bounds_are_statsmodels_jeffreys_inside_and_exact_at_the_edges():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    x = np.array([1, 3, 9.5, 17.25, 39])
    n = np.array([10, 10, 10, 21.5, 40])
    lo, hi = jeffreys_bounds(x, n)
    want_lo, want_hi = proportion.proportion_confint(x, n, method="jeffreys")
    assert lo == pytest.approx(want_lo, abs=1e-12) and hi == pytest.approx(want_hi, abs=1e-12)
    lo, hi = jeffreys_bounds(np.array([0.0, 10.0]), np.array([10.0, 10.0]))
    assert lo[0] == 0.0 and hi[1] == 1.0 and 0 < hi[0] < 0.25 and 0.75 < lo[1] < 1


def test_newcombe_matches_the_published_example():
    # Newcombe (1998) method 10 on the table (59, 6 / 16, 80): estimate −0.0621, 95 % CI
    # −0.1186 to −0.0046, as the contingencytables R package (Fagerland et al.) gives it.
    lo, hi = newcombe_bounds(np.array([59.0]), np.array([6.0]), np.array([16.0]),
                             np.array([161.0]), wilson_bounds)
    assert abs(lo[0] + 0.1186) < 5e-5 and abs(hi[0] + 0.0046) < 5e-5


def test_a_paired_interval_without_discordant_pairs_is_no_point():
    r = paired_interval(np.ones(10), np.ones(10))
    assert r.method == "newcombe-jeffreys" and r.low < 0 < r.high
    # Both accuracies 10 of 10: each margin is Jeffreys' at the edge, φ is 0.
    jeffreys_low = jeffreys_bounds(np.array([10.0]), np.array([10.0]))[0][0]
    assert r.high == pytest.approx(1 - jeffreys_low) and r.low == pytest.approx(-r.high)


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60),
       cases=st.integers(1, 20))
def test_a_paired_interval_holds_the_observed_difference(pairs, cases):
    a = np.array([p[0] for p in pairs], dtype=float)
    b = np.array([p[1] for p in pairs], dtype=float)
    for r in (paired_interval(a, b), paired_interval(a, b, np.arange(len(a)) % cases)):
        assert -1 <= r.low <= (a - b).mean() + 1e-9 and (a - b).mean() - 1e-9 <= r.high <= 1
        assert r.high > r.low


def test_paired_interval_is_wider_when_a_case_moves_together():
    a = np.array([1.0] * 16 + [0.0] * 4)
    b = np.array([1.0] * 8 + [0.0] * 12)
    alone = paired_interval(a, b)
    together = paired_interval(a, b, np.repeat(np.arange(5), 4))
    assert together.method == "newcombe-jeffreys-ess" and together.design_effect > 1
    assert together.high - together.low > alone.high - alone.low


def test_weighted_interval_of_one_class_is_that_class_s_rate_interval():
    y = np.array([1.0] * 7 + [0.0] * 3)
    one = weighted_interval(y, np.zeros(10, dtype=int))
    rate = rate_interval(y)
    assert (one.low, one.high) == pytest.approx((rate.low, rate.high))


def test_weighted_interval_of_classes_of_one_size_is_the_rate_interval():
    # Equal classes: balanced accuracy is plain accuracy and Kish's effective n is n.
    y = np.array([1.0] * 5 + [1.0] * 3 + [0.0] * 2)
    gold = np.array([0] * 5 + [1] * 5)
    r, rate = weighted_interval(y, gold), rate_interval(y)
    assert r.method == "wilson-kish" and (r.low, r.high) == pytest.approx((rate.low, rate.high))
    cases = np.arange(10) // 2
    clustered = weighted_interval(y, gold, cases)
    assert clustered.method == "wilson-kish-ess"
    assert (clustered.low, clustered.high) == pytest.approx(rate_interval(y, cases)[:2])


def test_weighted_interval_is_wilson_on_kish_s_effective_n_or_the_classes_own_spread():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    gold = np.array([0] * 8 + [1] * 2)
    n_w = 1 / (2 / 64 + 2 / 16)  # weights 1/16 and 1/4: Kish's n is 6.4, not 10
    # 7 of 8 and 2 of 2: the classes vary less than Kish's n assumes, so n_w it is.
    r = weighted_interval(np.array([1.0] * 7 + [0.0] + [1.0, 1.0]), gold)
    want = proportion.proportion_confint(0.9375 * n_w, n_w, method="wilson")
    assert r.design_effect == 1.0 and (r.low, r.high) == pytest.approx(want, abs=1e-12)
    # 6 of 8 and 1 of 2: their own variance is larger, and the size shrinks to match it.
    r = weighted_interval(np.array([1.0] * 6 + [0.0] * 2 + [1.0, 0.0]), gold)
    own = 0.25 * (0.75 * 0.25 / 8 + 0.5 * 0.5 / 2)
    n_eff = 0.625 * 0.375 / own
    assert n_eff < n_w and r.design_effect == pytest.approx(n_w / n_eff)
    want = proportion.proportion_confint(0.625 * n_eff, n_eff, method="wilson")
    assert (r.low, r.high) == pytest.approx(want, abs=1e-12)


def test_few_wrong_cases_take_the_bound_of_the_design_effect():
    # Two wrong answers in two of 40 cases: the spread cannot say how cases move together.
    y = np.ones(100)
    y[[0, 50]] = 0.0
    gold = np.arange(100) % 2
    cases = np.arange(100) // 2.5
    r = weighted_interval(y, gold, cases.astype(int))
    sizes = np.bincount(cases.astype(int))
    assert r.design_effect == pytest.approx(float(np.sum(sizes ** 2)) / 100)


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(st.booleans(), st.integers(0, 3)), min_size=1, max_size=60),
       cases=st.integers(1, 15))
def test_weighted_interval_holds_balanced_accuracy(rows, cases):
    y = np.array([r[0] for r in rows], dtype=float)
    c = np.array([r[1] for r in rows])
    point = np.mean([y[c == k].mean() for k in np.unique(c)])
    r = weighted_interval(y, c, np.arange(len(y)) % cases)
    assert r.low - 1e-9 <= point <= r.high + 1e-9 and r.high > r.low


def test_the_bootstrap_is_kept_for_many_units_with_both_outcomes_common():
    assert bootstrap_applies(300, 10) and not bootstrap_applies(299, 1000)
    assert not bootstrap_applies(10_000, 9.99)
