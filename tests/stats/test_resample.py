"""The one-pass bootstrap (:mod:`medvqa.stats._resample`) against the per-resample loop.

Every statistic read from the shared draws must equal what a naive loop computes on the same
resamples — item by item, resample by resample — to the last bit, however the work is split
(dense or sparse sums, float32 or float64, one pass or several, grouped units).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import medvqa.stats._resample as engine
from medvqa.stats import (
    Columns,
    Resampler,
    draw_indices,
    percentile_interval,
    statistic_ci,
    unit_groups,
)


def _ratio(s):
    return s[:, 0] / s[:, 1]


def _engine(num, den, units, resamples, seed, key="k"):
    r = Resampler(int(units.max()) + 1, resamples, seed)
    ref = r.interval(key, units, lambda: Columns.dense(num, den), _ratio)
    r.run()
    return ref.interval


@settings(max_examples=40, deadline=None)
@given(outcomes=st.lists(st.booleans(), min_size=2, max_size=120),
       cases=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_interval_equals_the_per_resample_loop(outcomes, cases, seed):
    x = np.array(outcomes, dtype=float)
    units = np.arange(len(x)) % cases
    loop = statistic_ci(lambda idx: x[idx].mean(), len(x), units, 199, seed)
    assert _engine(x, np.ones(len(x)), units, 199, seed) == loop


def test_statistics_sharing_columns_see_the_same_draws_as_alone():
    rng = np.random.default_rng(0)
    x, y = (rng.random(300) < 0.4).astype(float), (rng.random(300) < 0.7).astype(float)
    units = np.arange(300) // 3
    r = Resampler(100, 999, 4)
    cols = lambda: Columns.dense(x, y, np.ones(300))  # noqa: E731
    a = r.interval("block", units, cols, lambda s: s[:, 0] / s[:, 2])
    b = r.interval("block", units, cols, lambda s: s[:, 1] / s[:, 2])
    other = r.interval("another block", units[:150], lambda: Columns.dense(x[:150], y[:150]),
                       _ratio)
    r.run()
    assert a.interval == _engine(x, np.ones(300), units, 999, 4)
    assert b.interval == _engine(y, np.ones(300), units, 999, 4)
    # A block over some units sees those units' weights in the same resamples.
    expected = []
    for idx in draw_indices(100, 999, 4):
        for row in idx:
            w = np.bincount(row, minlength=100)[units[:150]]
            expected.append((w * x[:150]).sum() / (w * y[:150]).sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        assert other.interval == percentile_interval(np.array(expected))


def test_sparse_dense_float32_float64_and_passes_give_the_same_bits(monkeypatch):
    rng = np.random.default_rng(1)
    n = 400
    units = rng.integers(0, 90, n)
    hits, noisy = (rng.random(n) < 0.5).astype(float), rng.random(n)

    def run():
        r = Resampler(90, 500, 2)
        refs = [r.interval(("b", i), units,
                           lambda i=i: Columns.dense(hits * (i + 1), np.ones(n)), _ratio)
                for i in range(4)]
        refs.append(r.interval("float", units, lambda: Columns.dense(noisy, np.ones(n)),
                               _ratio))
        r.run()
        return [ref.interval for ref in refs]

    plain = run()
    monkeypatch.setattr(engine, "_DENSE_CELLS", 0)  # everything sparse
    assert run() == plain
    monkeypatch.setattr(engine, "_DENSE_CELLS", 2_000_000)
    monkeypatch.setattr(engine, "_F32_EXACT", 0.0)  # integers in float64
    assert run() == plain
    monkeypatch.setattr(engine, "PASS_BYTES", 1)  # one request per pass (weights kept)
    assert run() == plain
    monkeypatch.setattr(engine, "_KEPT_CELLS", 0)  # each pass draws the weights again
    assert run() == plain
    monkeypatch.setattr(engine, "EVAL_CHUNK", 7)  # chunks of another size
    assert run() == plain


def test_beyond_max_units_groups_of_units_are_drawn(monkeypatch):
    monkeypatch.setattr(engine, "MAX_UNITS", 16)
    rng = np.random.default_rng(3)
    units = np.repeat(np.arange(50), 2)
    x = (rng.random(100) < 0.5).astype(float)
    groups = unit_groups(50, 7, 16)
    assert sorted(np.bincount(groups).tolist()) == [3] * 14 + [4] * 2
    r = Resampler(50, 300, 7)
    assert r.grouped and r.groups == 16
    ref = r.interval("k", units, lambda: Columns.dense(x, np.ones(100)), _ratio)
    r.run()
    # The naive loop: draw 16 groups, take every item of every unit of each group drawn.
    members = [np.flatnonzero(groups[units] == g) for g in range(16)]
    means = [x[np.concatenate([members[g] for g in row])].mean()
             for idx in draw_indices(16, 300, 7) for row in idx]
    assert ref.interval == percentile_interval(np.array(means))


def test_an_empty_block_and_an_undefined_statistic_give_nan():
    r = Resampler(3, 99, 0)
    nothing = r.interval("none", np.zeros(0, dtype=int), lambda: Columns.dense(np.zeros(0)),
                         lambda s: s[:, 0])
    undefined = r.interval("0/0", np.arange(3), lambda: Columns.dense(np.zeros(3), np.zeros(3)),
                           _ratio)
    r.run()
    assert all(np.isnan(v) for v in (*nothing.interval, *undefined.interval))


def test_memory_of_a_pass_is_bounded_by_chunks(monkeypatch):
    import tracemalloc

    n = 60_000
    units = np.arange(n) // 2
    x = (np.random.default_rng(0).random(n) < 0.3).astype(float)
    tracemalloc.start()
    _engine(x, np.ones(n), units, 2000, 0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # Draws come CHUNK resamples at a time over at most MAX_UNITS groups: never resamples × n.
    assert peak < 20 * 2**20
    assert peak < 2000 * n * 8 / 4


@pytest.mark.parametrize("seed", [0, 1])
def test_same_seed_same_bits_other_seed_other_draws(seed):
    x = (np.random.default_rng(9).random(200) < 0.5).astype(float)
    units = np.arange(200)
    a = _engine(x, np.ones(200), units, 999, seed)
    assert a == _engine(x, np.ones(200), units, 999, seed)
    assert a != _engine(x, np.ones(200), units, 999, seed + 10)
