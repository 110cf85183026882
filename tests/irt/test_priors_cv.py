"""The empirical intercept prior, and the repeated cross-validation behind the interval
inflation."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.irt import (
    Priors,
    calibrate,
    correctness,
    cross_validate,
    simulate_choices,
    simulate_items,
)
from medvqa.irt._calibrate import _normal_update
from medvqa.irt._crossval import repeats_for
from medvqa.rng import rng_for


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=2, max_size=40),
       st.floats(0.0, 2.0), st.floats(0.05, 1.0), st.floats(1.0, 3.0))
def test_a_normal_prior_update_is_the_mean_and_the_spread_within_its_bounds(
        x: list[float], var: float, floor: float, ceiling: float) -> None:
    values = np.array(x)
    mean, spread = _normal_update(values, np.full(len(values), var), floor, ceiling)
    assert mean == pytest.approx(values.mean())
    assert floor <= spread <= ceiling
    raw = float(np.sqrt(values.var() + var))
    assert spread == pytest.approx(min(max(raw, floor), ceiling))


def test_the_intercept_prior_is_estimated_from_the_bank() -> None:
    """A bank of easy items: the prior's mean moves to them, its spread to theirs."""
    rng = rng_for(3, "test-intercepts")
    truth = simulate_items(300, rng, guessing=False, difficulty_sd=0.6)
    easy = replace(truth, b=truth.b - 1.0)  # every item one SD easier: intercepts around +1
    y = correctness(easy, simulate_choices(easy, rng.normal(size=40), rng))
    fit = calibrate(y, "2pl")
    assert fit.priors.intercept_mean > 0.5
    assert fit.priors.min_intercept_sd <= fit.priors.intercept_sd < Priors().intercept_sd
    assert fit.priors.intercept_mean == pytest.approx(float(fit.bank.d.mean()), abs=0.2)
    fixed = calibrate(y, "2pl", Priors(empirical=False))
    assert fixed.priors.intercept_mean == 0.0 and fixed.priors.intercept_sd == 2.5
    # An item every model got right sits no further out than the bank's prior lets it.
    y[:, 0] = 1.0
    assert calibrate(y, "2pl").bank.d[0] < calibrate(y, "2pl", Priors(empirical=False)).bank.d[0]


def test_cross_validation_deals_the_zoo_again_until_it_has_enough_replays() -> None:
    assert repeats_for(30) == 3 and repeats_for(100) == 1 and repeats_for(5) == 3
    rng = rng_for(0, "test-cv-repeats")
    truth = simulate_items(60, rng)
    y = correctness(truth, simulate_choices(truth, rng.normal(size=8), rng))
    cases = np.arange(60)
    once = cross_validate(y, cases, "2pl", Priors(), seed=0, folds=4, repeats=1, compare=False)
    thrice = cross_validate(y, cases, "2pl", Priors(), seed=0, folds=4, compare=False)
    assert once.summary.replays == 8 and once.summary.repeats == 1
    assert thrice.summary.replays == 24 and thrice.summary.repeats == 3
    # The first dealing is the single dealing's: its predictions are the same.
    assert thrice.summary.log_loss == once.summary.log_loss
    again = cross_validate(y, cases, "2pl", Priors(), seed=0, folds=4, compare=False)
    assert again == thrice
