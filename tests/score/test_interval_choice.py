"""Which interval a metrics.json figure gets (:mod:`medvqa.score._choose`), and what it says.

Small blocks get score intervals named by their method, large ones keep the bootstrap they had
(the same bits as the resampler alone), a degenerate bootstrap is no interval, and the
controls' Δ gets Newcombe's interval on Jeffreys intervals with its method and units.
"""

from __future__ import annotations

import numpy as np
import pytest

from medvqa.score._block import metrics_block
from medvqa.score._controls import paired_delta
from medvqa.score._rows import ScoredRow
from medvqa.stats import Columns, Resampler, rate_interval


def _rows(correct: list[bool], cases: list[str | None] | None = None,
          invalid: list[bool] | None = None, gold: list[str] | None = None) -> list[ScoredRow]:
    n = len(correct)
    cases = cases or [None] * n
    invalid = invalid or [False] * n
    gold = gold or ["yes" if i % 2 else "no" for i in range(n)]
    return [ScoredRow(f"i{i}", "clean", c, bad, None, g,
                      "invalid" if bad else (g if c else ("no" if g == "yes" else "yes")), 2,
                      "yesno", "cat", "src", "test", case)
            for i, (c, case, bad, g) in enumerate(zip(correct, cases, invalid, gold,
                                                      strict=True))]


def test_ten_of_ten_is_no_certainty():
    block = metrics_block(_rows([True] * 10), 999, 0, cluster=True)
    assert block.accuracy.method == "wilson" and block.units == 10
    assert block.accuracy.ci == [pytest.approx(0.025 ** 0.1, abs=1e-6), 1.0]
    # No invalid answer among 10: the rate is 0, its interval is not [0, 0].
    assert block.invalid_rate.ci[0] == 0.0 and block.invalid_rate.ci[1] > 0.25
    assert block.weighted_accuracy.method == "wilson-kish"
    assert block.weighted_accuracy.ci[1] - block.weighted_accuracy.ci[0] > 0
    # Macro-F1 of 1 on every resample: the bootstrap says nothing, so no interval is claimed.
    assert block.macro_f1.value == 1.0 and block.macro_f1.ci == [None, None]
    assert block.macro_f1.method == "none (bootstrap degenerate)"


def test_items_sharing_a_case_get_the_effective_sample_size():
    correct = [True, True, False, False] * 5 + [True] * 20
    cases = [f"c{i // 4}" for i in range(40)]
    block = metrics_block(_rows(correct, cases), 999, 0, cluster=True)
    assert block.accuracy.method == "wilson-ess" and block.units == 10
    assert block.accuracy.design_effect is not None and block.accuracy.design_effect >= 1
    flat = metrics_block(_rows(correct, cases), 999, 0, cluster=False)
    assert flat.accuracy.method == "wilson" and flat.units == 40
    assert (block.accuracy.ci[1] - block.accuracy.ci[0]) > (flat.accuracy.ci[1]
                                                            - flat.accuracy.ci[0])
    assert block.accuracy.ci == pytest.approx(list(rate_interval(
        np.array(correct, float), np.arange(40) // 4)[:2]), abs=1e-6)


def test_valid_accuracy_is_a_rate_over_the_valid_answers():
    correct = [True] * 6 + [False] * 4
    invalid = [False] * 6 + [True] * 2 + [False] * 2
    block = metrics_block(_rows(correct, invalid=invalid), 999, 0, cluster=True)
    r = rate_interval(np.array([1.0] * 6 + [0.0] * 2))
    assert block.valid_accuracy.value == pytest.approx(0.75)
    assert block.valid_accuracy.ci == pytest.approx([r.low, r.high], abs=1e-6)


def test_a_large_block_keeps_the_bootstrap_it_had():
    rng = np.random.default_rng(2)
    correct = list(rng.random(400) < 0.7)
    block = metrics_block(_rows(correct), 999, 3, cluster=True)
    assert block.accuracy.method == "bootstrap" and block.accuracy.design_effect is None
    x = np.array(correct, dtype=float)
    r = Resampler(400, 999, 3)
    ref = r.interval("k", np.arange(400), lambda: Columns.dense(x, np.ones(400)),
                     lambda s: s[:, 0] / s[:, 1])
    r.run()
    assert block.accuracy.ci == [round(ref.low, 6), round(ref.high, 6)]
    # A rare outcome in the same large block: the score interval (no invalid answer at all).
    assert block.invalid_rate.method == "wilson" and block.invalid_rate.ci[1] > 0


def test_controls_delta_gets_newcombe_jeffreys_with_its_method_and_units():
    a = np.array([1.0] * 10 + [0.0] * 10)
    b = np.array([1.0] * 2 + [0.0] * 18)
    resampler = Resampler(20, 999, 0)
    pending = paired_delta(("blind", "Δ"), a, b, np.arange(20) // 2, resampler)
    resampler.run()
    d = pending.finish()
    assert d.ci_method == "newcombe-jeffreys-ess" and d.units == 10
    assert d.test == "cluster sign-flip (exact)"
    assert d.ci[0] is not None and d.ci[0] < d.delta < d.ci[1]
    alone = paired_delta(("blind", "Δ", 1), a, b, np.arange(20), resampler).finish()
    assert alone.ci_method == "newcombe-jeffreys" and alone.test == "McNemar mid-p"
    assert alone.units == 20
