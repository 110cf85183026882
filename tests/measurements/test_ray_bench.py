"""The Ray bench's verdict: the paired overhead of distribution and its 95 % interval."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from medvqa.measurements._ray import paired_overhead

walls = st.floats(min_value=0.5, max_value=10.0)


def test_equal_rounds_have_no_overhead_and_a_symmetric_interval() -> None:
    mean, lo, hi = paired_overhead([2.0, 2.0, 2.0], [2.0, 2.2, 1.8])
    assert math.isclose(mean, 0.0, abs_tol=1e-12) and math.isclose(lo, -hi)
    # scipy's t quantile with 2 degrees of freedom: 4.303 × sd 0.1 / √3.
    assert math.isclose(hi, 4.302653 * 0.1 / 3**0.5, rel_tol=1e-5)


def test_one_round_says_nothing() -> None:
    assert paired_overhead([2.0], [2.5])[1:] == (-math.inf, math.inf)


def test_a_consistently_slower_ray_is_caught() -> None:
    _, lo, _ = paired_overhead([2.0] * 6, [2.1, 2.12, 2.08, 2.1, 2.11, 2.09])
    assert lo > 0  # the bench marks the target as missed


@given(st.lists(st.tuples(walls, walls), min_size=2, max_size=20))
def test_the_interval_holds_the_mean(pairs: list[tuple[float, float]]) -> None:
    local, ray = [p[0] for p in pairs], [p[1] for p in pairs]
    mean, lo, hi = paired_overhead(local, ray)
    assert lo <= mean + 1e-12 and mean <= hi + 1e-12
