"""Null rejection rates of every hypothesis test medvqa reports (no true difference).

50 cases × 4 items, intra-case correlation ≈ 0.3 (a latent threshold model), 400 replicates per
test, nominal 5 %: each test must reject in [0.03, 0.075]. The unclustered tests rejected in
~12 % (McNemar) and ~10 % (χ²) of such runs; they are checked to fail here, so this test can
fail. All replicates are drawn at once (vectorised); the file runs in seconds.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, norm

from medvqa.stats import group_test, holm, paired_test, sign_flip_p, significant

CASES, PER, REPS, LATENT_RHO, ACC = 50, 4, 400, 0.45, 0.6
CLUSTERS = np.repeat(np.arange(CASES), PER)


def _outcomes(rng: np.random.Generator, reps: int) -> np.ndarray:
    """reps × items 0/1 outcomes; items of one case share a latent case effect."""
    case = rng.standard_normal((reps, CASES))[:, CLUSTERS]
    noise = rng.standard_normal((reps, CASES * PER))
    latent = np.sqrt(LATENT_RHO) * case + np.sqrt(1 - LATENT_RHO) * noise
    return (latent < norm.ppf(ACC)).astype(float)


def _icc(y: np.ndarray) -> float:
    """One-way ANOVA intra-class correlation of 0/1 outcomes, averaged over replicates."""
    per_case = y.reshape(len(y), CASES, PER)
    msb = PER * per_case.mean(2).var(1, ddof=1)
    msw = per_case.var(2, ddof=1).mean(1)
    return float(np.mean((msb - msw) / (msb + (PER - 1) * msw)))


@pytest.fixture(scope="module")
def null_runs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20260512)
    return {"a": _outcomes(rng, REPS), "b": _outcomes(rng, REPS),
            "sex": rng.integers(0, 2, (REPS, CASES))[:, CLUSTERS],
            "site": rng.integers(0, 3, (REPS, CASES * PER))}


def _rate(pvalues: list[float]) -> float:
    return float(np.mean(np.asarray(pvalues) < 0.05))


def test_simulated_intra_case_correlation_is_about_0_3(null_runs):
    assert 0.25 <= _icc(null_runs["a"]) <= 0.35


def test_paired_test_null_rejection_rate(null_runs, record_property):
    a, b = null_runs["a"], null_runs["b"]
    clustered = _rate([paired_test(a[r], b[r], CLUSTERS)[1] for r in range(REPS)])
    naive = _rate([paired_test(a[r], b[r], None)[1] for r in range(REPS)])
    record_property("paired clustered", clustered)
    record_property("paired naive McNemar", naive)
    print(f"paired: cluster sign-flip {clustered:.4f}, unclustered McNemar {naive:.4f}")
    assert 0.03 <= clustered <= 0.075
    assert naive > 0.075  # what the unclustered McNemar did: the test can fail


def test_subgroup_tests_null_rejection_rate(null_runs, record_property):
    a, sex, site = null_runs["a"], null_runs["sex"], null_runs["site"]
    by_sex = [group_test(a[r], sex[r], CLUSTERS, resamples=999, seed=r) for r in range(REPS)]
    by_site = [group_test(a[r], site[r], CLUSTERS, resamples=999, seed=r) for r in range(REPS)]
    naive = [chi2_contingency(np.array([[a[r][sex[r] == g].sum(), (1 - a[r][sex[r] == g]).sum()]
                                        for g in (0, 1)]), correction=False).pvalue
             for r in range(REPS)]
    assert {t for t, _ in by_sex} == {"cluster permutation (999)"}
    assert {t for t, _ in by_site} == {"cluster-robust Wald"}
    rates = {"sex (cluster permutation)": _rate([p for _, p in by_sex]),
             "site within cases (cluster-robust Wald)": _rate([p for _, p in by_site]),
             "sex, unclustered chi2": _rate(naive)}
    print("subgroups:", {k: round(v, 4) for k, v in rates.items()})
    for k, v in rates.items():
        record_property(k, v)
    assert 0.03 <= rates["sex (cluster permutation)"] <= 0.075
    assert 0.03 <= rates["site within cases (cluster-robust Wald)"] <= 0.075
    assert rates["sex, unclustered chi2"] > 0.075


def test_unclustered_tests_null_rejection_rate():
    # Independent items (no case repeats): the small-expected-count exact test beyond 2×2 and
    # the exact McNemar must hold their level too.
    rng = np.random.default_rng(7)
    reps, n = 400, 60
    y = (rng.random((reps, n)) < 0.85).astype(float)  # few wrong answers: expected counts < 5
    groups = rng.integers(0, 3, (reps, n))
    tests = [group_test(y[r], groups[r], None, resamples=999, seed=r) for r in range(reps)]
    assert {t for t, _ in tests} <= {"exact permutation (999)", "chi2"}
    assert sum(t.startswith("exact") for t, _ in tests) > reps // 2
    exact_rate = _rate([p for _, p in tests])
    b = (rng.random((reps, 200)) < 0.85).astype(float)
    mcnemar_rate = _rate([paired_test(y2, b2, None)[1] for y2, b2 in
                          zip((rng.random((reps, 200)) < 0.85).astype(float), b, strict=True)])
    print(f"exact G×2 permutation {exact_rate:.4f}, McNemar exact {mcnemar_rate:.4f}")
    assert 0.03 <= exact_rate <= 0.075
    assert 0.02 <= mcnemar_rate <= 0.075  # exact and discrete: at most nominal


def test_sign_flip_equals_mcnemar_exact_without_clusters():
    from scipy.stats import binomtest

    for a_only, b_only in ((10, 2), (0, 5), (7, 7), (30, 12), (1, 0)):
        d = np.array([1] * a_only + [-1] * b_only + [0] * 5)
        assert sign_flip_p(d) == pytest.approx(binomtest(a_only, a_only + b_only).pvalue)


def test_sign_flip_exact_on_a_hand_computed_case():
    # d = (2, 1, 1): the 8 sign patterns give sums 4, 2, 2, 0, 0, -2, -2, -4; |S| ≥ 4 in 2 of 8.
    assert sign_flip_p(np.array([2, 1, 1])) == pytest.approx(0.25)
    assert sign_flip_p(np.array([2, -1, 1])) == pytest.approx(6 / 8)


def test_holm_is_the_step_down_adjustment():
    # Sorted 0.01, 0.02, 0.04 with m = 3: 0.03, 0.04, 0.04 (monotone), back in input order.
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_holm_has_the_bits_of_statsmodels():
    import gc

    multitest = pytest.importorskip("statsmodels.stats.multitest")
    # multipletests runs gc.collect() on every call: freeze the test process's heap (torch and
    # friends are loaded) so each collection is short.
    gc.freeze()
    try:
        for seed in range(4):
            rng = np.random.default_rng(seed)
            for m in (1, 2, 5, 17):
                p = rng.random(m) ** (1 + 6 * seed)
                p[: m // 3] = p[-1]  # ties
                expected = [float(x) for x in multitest.multipletests(list(p), method="holm")[1]]
                assert holm(list(p)) == expected
    finally:
        gc.unfreeze()


def test_p_values_keep_significant_digits():
    assert significant(3.14159e-9) == 3.142e-9
    assert significant(0.000012345) == 1.234e-05 or significant(0.000012345) == 1.235e-05
    assert significant(None) is None


def test_many_cases_use_the_asymptotic_cluster_robust_test():
    # Above PERMUTATION_MAX_CASES cases the Wald test replaces the (cases × resamples) permutation
    # test; the labels of a case need not be contiguous integers.
    from medvqa.stats import PERMUTATION_MAX_CASES

    rng = np.random.default_rng(3)
    k = PERMUTATION_MAX_CASES + 50
    clusters = rng.integers(0, k, 4 * k) * 7  # gaps in the labels
    sex = (clusters // 7) % 2
    y = (rng.random(4 * k) < 0.6).astype(float)
    name, p = group_test(y, sex, clusters, resamples=999)
    assert name == "cluster-robust Wald" and 0 < p <= 1
    few = clusters < 7 * 40
    assert group_test(y[few], sex[few], clusters[few], resamples=999)[0].startswith("cluster perm")
