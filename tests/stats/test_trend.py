"""The trend test of a severity curve (medvqa.stats._trend): properties and known values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.rng import rng_for
from medvqa.stats import _trend, trend_test

LEVELS = (0, 1, 3, 5)


@st.composite
def blocks(draw: st.DrawFn) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
    """(levels, items × levels outcomes, units): a few items, some cases repeating."""
    levels = draw(st.sampled_from([(0, 3), (0, 1, 5), LEVELS]))
    n = draw(st.integers(1, 12))
    flat = draw(st.lists(st.integers(0, 1), min_size=n * len(levels), max_size=n * len(levels)))
    units = draw(st.lists(st.integers(0, max(0, n // 2)), min_size=n, max_size=n))
    return levels, np.array(flat).reshape(n, len(levels)), np.array(units)


@settings(max_examples=40, deadline=None)
@given(blocks())
def test_p_is_a_probability_and_the_slope_is_least_squares(block) -> None:
    levels, ok, units = block
    t = trend_test(levels, ok, units, 199, rng_for(0, "t"))
    assert 0 < t.p_value <= 1
    assert t.slope == pytest.approx(np.polyfit(levels, ok.mean(axis=0), 1)[0], abs=1e-9)
    assert t.n == len(ok) and t.accuracy == pytest.approx(tuple(ok.mean(axis=0)))


@settings(max_examples=30, deadline=None)
@given(blocks())
def test_items_alike_at_every_level_leave_p_at_one(block) -> None:
    levels, ok, units = block
    same = np.repeat(ok[:, :1], len(levels), axis=1)
    assert trend_test(levels, same, units, 199, rng_for(0, "t")).p_value == 1.0


@settings(max_examples=30, deadline=None)
@given(blocks())
def test_same_inputs_and_seed_give_the_same_p(block) -> None:
    levels, ok, units = block
    assert (trend_test(levels, ok, units, 199, rng_for(3, "t"))
            == trend_test(levels, ok, units, 199, rng_for(3, "t")))


@settings(max_examples=40, deadline=None)
@given(blocks())
def test_a_fall_and_its_mirror_cannot_both_be_significant(block) -> None:
    """1 − outcomes negates S: p(fall) + p(mirrored fall) = 1 + P(S* = S) ≥ 1."""
    levels, ok, units = block
    fall = trend_test(levels, ok, units, 199, rng_for(0, "t"))
    mirror = trend_test(levels, 1 - ok, units, 199, rng_for(0, "t"))
    assert fall.p_value + mirror.p_value >= 1 - 1e-12


def test_a_clear_fall_is_significant_and_a_flat_curve_is_not() -> None:
    units = np.arange(30)
    fall = np.array([[1, 1, 1, 0]] * 12 + [[1, 1, 1, 1]] * 18)
    assert trend_test(LEVELS, fall, units, 999, rng_for(0, "t")).p_value < 0.01
    flat = np.array([[1, 0, 1, 1], [1, 1, 0, 1], [0, 1, 1, 1], [1, 1, 1, 0]] * 5)
    assert trend_test(LEVELS, flat, np.arange(20), 999, rng_for(0, "t")).p_value > 0.2


def test_items_of_one_case_are_permuted_together() -> None:
    """Six items that fall, all of one case: one stratum, so at best 1/4! — not 1/4!^6."""
    ok = np.array([[1, 1, 1, 0]] * 6)
    one_case = trend_test(LEVELS, ok, np.zeros(6, dtype=int), 999, rng_for(0, "t"))
    items = trend_test(LEVELS, ok, np.arange(6), 999, rng_for(0, "t"))
    assert one_case.p_value == pytest.approx(1 / 4) and one_case.test.endswith("(exact)")
    assert items.p_value < 0.01


def test_the_normal_approximation_agrees_with_the_permutations(monkeypatch) -> None:
    rng = np.random.default_rng(5)
    ok = (rng.random((300, 4)) < np.array([0.8, 0.78, 0.74, 0.7])).astype(int)
    exact = trend_test(LEVELS, ok, np.arange(300), 9999, rng_for(0, "t"))
    monkeypatch.setattr(_trend, "PERMUTATION_MAX_UNITS", 10)
    normal = trend_test(LEVELS, ok, np.arange(300), 9999, rng_for(0, "t"))
    assert normal.test.startswith("stratified trend z")
    assert normal.p_value == pytest.approx(exact.p_value, abs=0.01)
