"""The near-duplicate index finds exactly what comparing all pairs finds."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from medvqa.benchmark.audit import brute_force_pairs, near_pairs
from medvqa.benchmark.audit._index import plan, popcount

HASH = st.integers(min_value=0, max_value=2**64 - 1)
FLIPS = st.lists(st.integers(min_value=0, max_value=63), max_size=20)


@st.composite
def hash_sets(draw: st.DrawFn) -> np.ndarray:
    """Random hashes, some of them copies of others with a few bits flipped (near pairs)."""
    base = draw(st.lists(HASH, min_size=0, max_size=60))
    near = []
    for _ in range(draw(st.integers(0, 30))):
        if not base:
            break
        src = base[draw(st.integers(0, len(base) - 1))]
        for bit in draw(FLIPS):
            src ^= 1 << bit
        near.append(src)
    return np.array(base + near, dtype=np.uint64)


def _same(a, b) -> bool:
    return (np.array_equal(a.i, b.i) and np.array_equal(a.j, b.j)
            and np.array_equal(a.distance, b.distance))


@given(hash_sets(), st.integers(0, 20))
def test_self_join_equals_brute_force(hashes: np.ndarray, radius: int) -> None:
    assert _same(near_pairs(hashes, radius=radius), brute_force_pairs(hashes, radius=radius))


@given(hash_sets(), hash_sets(), st.integers(0, 20))
def test_cross_join_equals_brute_force(query: np.ndarray, base: np.ndarray, radius: int) -> None:
    assert _same(near_pairs(query, base, radius), brute_force_pairs(query, base, radius))


@given(st.integers(1, 200_000), st.integers(1, 200_000), st.integers(0, 24))
def test_plan_covers_the_radius_by_pigeonhole(nq: int, nb: int, radius: int) -> None:
    chunks = plan(nq, nb, radius)
    assert sum(c.radius + 1 for c in chunks) == radius + 1
    assert all(0 <= c.shift and c.shift + c.width <= 64 for c in chunks)


def test_self_join_pairs_are_ordered_and_unique() -> None:
    h = np.array([5, 5, 5, 4], dtype=np.uint64)
    p = near_pairs(h, radius=1)
    pairs = list(zip(p.i.tolist(), p.j.tolist(), strict=True))
    assert pairs == sorted(set(pairs)) and all(i < j for i, j in pairs)
    assert len(pairs) == 6


def test_popcount_without_numpy_bitwise_count_agrees() -> None:
    x = np.array([0, 1, 3, 2**63, 2**64 - 1], dtype=np.uint64)
    from medvqa.benchmark.audit._index import _BYTE_POPCOUNT

    lut = _BYTE_POPCOUNT[x.view(np.uint8)].reshape(-1, 8).sum(axis=1)
    assert popcount(x).tolist() == lut.tolist() == [0, 1, 2, 1, 64]
