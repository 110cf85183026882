"""Bootstrap intervals, metric definitions, paired comparisons and subgroup tests."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.score import (
    chance_of_guess,
    macro_f1,
    mcnemar_exact,
    paired_difference,
    subgroup_analysis,
    weighted_accuracy,
)
from medvqa.score._block_input import BaseSums, BlockInput
from medvqa.score._metrics import macro_f1_from_sums, weighted_accuracy_from_sums
from medvqa.score._rows import ScoredRow
from medvqa.stats import Resampler, cluster_index, ratio_ci, resampled_sums

# --- bootstrap ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(outcomes=st.lists(st.booleans(), min_size=1, max_size=300), seed=st.integers(0, 2**32 - 1))
def test_ci_contains_the_point_estimate(outcomes, seed):
    x = np.array(outcomes, dtype=float)
    lo, hi = ratio_ci(x, np.ones(len(x)), None, 999, seed)
    assert lo <= x.mean() + 1e-12 and x.mean() - 1e-12 <= hi


def test_same_seed_same_interval_other_seed_other_interval():
    x = (np.random.default_rng(3).random(500) < 0.4).astype(float)
    a = ratio_ci(x, np.ones(500), None, 9999, 7)
    assert a == ratio_ci(x, np.ones(500), None, 9999, 7)
    draws = [np.concatenate(list(resampled_sums(x[:, None], None, 200, s))) for s in (7, 7, 8)]
    assert np.array_equal(draws[0], draws[1]) and not np.array_equal(draws[0], draws[2])


def test_clustered_ci_is_wider_when_items_of_a_case_agree():
    rng = np.random.default_rng(0)
    cases = np.repeat(np.arange(100), 8)
    outcomes = np.repeat((rng.random(100) < 0.5).astype(float), 8)  # all items of a case agree
    naive = ratio_ci(outcomes, np.ones(800), None, 4999, 1)
    clustered = ratio_ci(outcomes, np.ones(800), cases, 4999, 1)
    assert (clustered.high - clustered.low) > 2 * (naive.high - naive.low)


def test_cluster_index_only_when_a_case_repeats():
    assert cluster_index(["a", "b", "c"], 3) is None
    assert cluster_index(["a", "a", "b"], 3).tolist() == [0, 0, 1]


def test_multinomial_and_gather_paths_agree_in_distribution():
    rng = np.random.default_rng(5)
    x = (rng.random(400) < 0.3).astype(float)
    # 0/1 rows: a few distinct types (multinomial path); adding unique noise forces gather.
    typed = np.concatenate(list(resampled_sums(x[:, None], None, 4000, 1)))[:, 0]
    noisy = x + rng.random(400) * 1e-9
    gathered = np.concatenate(list(resampled_sums(noisy[:, None], None, 4000, 1)))[:, 0]
    assert typed.mean() == pytest.approx(gathered.mean(), rel=0.02)
    assert typed.std() == pytest.approx(gathered.std(), rel=0.1)
    assert typed.std() == pytest.approx(math.sqrt(400 * 0.3 * 0.7), rel=0.15)


def test_resampled_sums_hold_every_resample_in_bounded_chunks():
    x = np.ones((50_000, 2))
    chunks = list(resampled_sums(x + np.arange(50_000)[:, None], None, 1000, 0))
    assert sum(len(c) for c in chunks) == 1000
    assert max(c.size for c in chunks) <= 12_000_000


# --- metric definitions ------------------------------------------------------------------


def test_weighted_accuracy_is_the_mean_of_class_accuracies():
    correct = np.array([1, 1, 1, 0, 1, 0])
    gold = np.array([0, 0, 0, 1, 2, 2])
    assert weighted_accuracy(correct, gold) == pytest.approx((1 + 0 + 0.5) / 3)


def test_macro_f1_counts_invalid_as_a_non_class():
    # class 0: TP 1, FN 1 → F1 2/3; class 1: TP 1, FP 1, FN 1 (the invalid one) → F1 1/2.
    assert macro_f1(np.array([0, 1, 1, -1]), np.array([0, 1, 0, 1])) == pytest.approx(
        (2 / 3 + 1 / 2) / 2)


def _block(correct, gold, pred, units, resamples=1999, seed=0):
    """A BlockInput over 0/1 outcomes with gold and predicted class codes."""
    n = len(correct)
    resampler = Resampler(int(np.max(units)) + 1, resamples, seed)
    return BlockInput("b", np.asarray(correct, float), np.zeros(n), np.asarray(gold),
                      np.asarray(pred), np.full(n, 0.25), np.full(n, -1, dtype=np.int8),
                      np.asarray(units), {}, resampler)


@settings(max_examples=100, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 3), st.integers(-1, 3)), min_size=1, max_size=60))
def test_sum_forms_equal_the_direct_definitions(data):
    gold = np.array([g for g, _ in data]) + 10
    pred = np.array([p for _, p in data]) + 10
    correct = (pred == gold).astype(float)
    b = _block(correct, gold, pred, np.arange(len(data)))
    c = len(b.classes.labels)
    cols = b._base_columns(c, False)
    sums = np.zeros((1, cols.k))
    for part in cols.parts:  # every row drawn once: the plain column sums
        n_rows = len(data) if part.rows is None else len(part.rows)
        weight = np.ones(n_rows) if part.weight is None else part.weight
        np.add.at(sums[0], np.broadcast_to(part.col, (n_rows,)), weight)
    s = BaseSums(sums, c, False)
    assert weighted_accuracy_from_sums(s.hits, s.tot)[0] == pytest.approx(
        weighted_accuracy(correct, gold))
    assert macro_f1_from_sums(s.tp, s.fp, s.fn)[0] == pytest.approx(macro_f1(pred, gold))
    assert s.correct[0] == correct.sum() and s.n[0] == len(data)


def test_weighted_accuracy_ci_contains_estimate_and_is_clustered():
    rng = np.random.default_rng(2)
    cases = np.repeat(np.arange(60), 5)
    gold = rng.integers(0, 3, 300)
    correct = np.repeat((rng.random(60) < 0.7).astype(float), 5)  # a case is all right or wrong
    pred = np.where(correct == 1, gold, (gold + 1) % 3)

    def interval(units):
        b = _block(correct, gold, pred, units)
        ref = b.base(lambda s: weighted_accuracy_from_sums(s.hits, s.tot))
        b.resampler.run()
        return ref.interval

    items, clustered = interval(np.arange(300)), interval(cases)
    assert clustered.low <= weighted_accuracy(correct, gold) <= clustered.high
    assert (clustered.high - clustered.low) > 1.5 * (items.high - items.low)


def test_random_baseline_is_exact_for_multiple_choice():
    assert chance_of_guess(4, "single") == 0.25
    assert chance_of_guess(3, "multi") == pytest.approx(1 / 7)  # one of 7 non-empty subsets


# --- paired comparisons ------------------------------------------------------------------


def test_mcnemar_exact_matches_the_binomial_test():
    assert mcnemar_exact(10, 2) == pytest.approx(0.0385742, rel=1e-5)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(5, 5) == 1.0


def test_paired_difference_interval_and_discordant_counts():
    a = np.array([1] * 70 + [0] * 30)
    b = np.array([1] * 50 + [0] * 50)
    cmp = paired_difference(a, b, None, 2999, 0)
    assert cmp.difference == pytest.approx(0.2)
    assert (cmp.a_only, cmp.b_only) == (20, 0)
    assert cmp.ci[0] <= 0.2 <= cmp.ci[1] and cmp.excludes_zero
    assert cmp.test == "McNemar mid-p" and not cmp.clustered
    assert cmp.p_value == pytest.approx(0.5**20)  # 20 discordant pairs, all one way: mid-p


def test_paired_difference_with_repeating_cases_uses_the_cluster_test():
    # The 20 discordant items sit in 2 cases: as items p ≈ 2e-6, as cases only 2 sign flips.
    a = np.array([1] * 70 + [0] * 30)
    b = np.array([1] * 50 + [0] * 50)
    cases = [f"c{i}" if not 50 <= i < 70 else f"d{i // 60}" for i in range(100)]
    cmp = paired_difference(a, b, cases, 999, 0)
    assert cmp.test == "cluster sign-flip (exact)" and cmp.clustered
    assert cmp.p_value == pytest.approx(0.5)  # d = (10, 10): |sum| = 20 in 2 of 4 patterns


# --- subgroups ---------------------------------------------------------------------------


def _row(i: int, correct: bool, meta: dict, source: str = "S") -> ScoredRow:
    return ScoredRow(item_id=str(i), condition="clean", correct=correct, invalid=False,
                     choice="A", gold_class="x", pred_class="x", n_options=2,
                     question_type="single", category="c", source=source, split="test",
                     case_id=str(i), meta=meta)


def test_subgroups_age_bands_and_unclustered_chi2():
    from scipy.stats import chi2_contingency

    rows = [_row(i, i % 3 != 0 if i < 60 else i % 3 == 0,
                 {"age": 25 + i % 50, "sex": "F" if i % 2 else "M"}) for i in range(120)]
    out = subgroup_analysis(rows, resamples=999)
    assert set(out["age_band"]["groups"]) <= {"18-40", "40-60", "60+"}
    sex = out["sex"]
    table = [[sum(r.correct for r in rows if r.meta["sex"] == g),
              sum(not r.correct for r in rows if r.meta["sex"] == g)] for g in ("F", "M")]
    assert sex["test"] == "chi2"
    assert sex["p_value"] == pytest.approx(chi2_contingency(table, correction=False).pvalue,
                                           rel=1e-3)


def test_subgroups_with_repeating_cases_permute_cases():
    # 30 cases × 4 items, sex constant within a case: the cluster permutation test.
    # F cases right in 10 of 15, M cases in 5 of 15: strong as 120 items, weak as 30 cases.
    rows = [_row(i, (i // 4) % 6 != 1 if (i // 4) % 2 else (i // 4) % 6 == 0,
                 {"sex": "F" if (i // 4) % 2 else "M"}) for i in range(120)]
    rows = [replace(r, case_id=f"p{i // 4}") for i, r in enumerate(rows)]
    clustered = subgroup_analysis(rows, resamples=999)["sex"]
    items = subgroup_analysis(rows, cluster=False, resamples=999)["sex"]
    assert clustered["test"] == "cluster permutation (999)" and items["test"] == "chi2"
    assert items["p_value"] < 0.001 < 0.03 < clustered["p_value"]


def test_small_expected_counts_beyond_2x2_use_an_exact_test():
    rows = [_row(i, i % 10 != 0, {}, source="ABC"[i % 3]) for i in range(30)]
    out = subgroup_analysis(rows, resamples=999)["source"]
    assert out["test"] == "exact permutation (999)"
    assert 0 < out["p_value"] <= 1 and "p_holm" not in out  # Holm is applied per metrics.json


def test_subgroups_treat_nan_and_none_as_unknown():
    metas = [{"age": float("nan"), "sex": float("nan")}, {"age": None, "sex": None},
             {"age": "n/a", "sex": ""}, {"age": 30, "sex": "F"}, {"age": 70, "sex": "M"}] * 4
    out = subgroup_analysis([_row(i, i % 2 == 0, m) for i, m in enumerate(metas)])
    assert "nan" not in out["sex"]["groups"] and "unknown" in out["sex"]["groups"]
    assert out["age_band"]["groups"]["unknown"]["n"] == 12
