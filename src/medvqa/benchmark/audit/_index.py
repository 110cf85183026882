"""Every pair of 64-bit hashes within a Hamming radius, without comparing all pairs.

Multi-index hashing (Norouzi, Punjani & Fleet, CVPR 2012), vectorised with NumPy. The 64 bits
are cut into ``m`` chunks; if two hashes differ in at most ``R`` bits, then by the pigeonhole
principle some chunk ``j`` differs in at most ``r_j`` bits whenever ``Σ (r_j + 1) = R + 1``.
Each chunk of the base hashes is bucketed in a direct-address table (a counting sort), and for
every bit pattern ``p`` of at most ``r_j`` bits the query chunks XOR ``p`` are looked up in it at
once, for all queries. Every candidate is then checked on its full 64 bits, so the answer is
exactly the brute-force answer (a property test checks this), found with
``O(n · patterns)`` table look-ups plus the candidates instead of ``n²`` comparisons.

Chunks are about ``log2 n`` bits wide (at least 8, at most 20), so a bucket holds about one
hash: the search time grows close to linearly in the number of hashes
(``medvqa bench --only audit``: 10k, 30k and 100k hashes).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np

_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


class Pairs(NamedTuple):
    """Pairs found: ``query[i[k]]`` and ``base[j[k]]`` differ in ``distance[k]`` bits.

    Sorted by ``(i, j)``; each pair once.
    """

    i: np.ndarray
    j: np.ndarray
    distance: np.ndarray


def popcount(x: np.ndarray) -> np.ndarray:
    """Number of set bits of each unsigned 64-bit integer.

    >>> popcount(np.array([0, 1, 0xFF, 2**64 - 1], dtype=np.uint64)).tolist()
    [0, 1, 8, 64]
    """
    x = np.ascontiguousarray(x, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x).astype(np.int64)
    return _BYTE_POPCOUNT[x.view(np.uint8)].reshape(-1, 8).sum(axis=1).astype(np.int64)


def as_hashes(values: list[int] | np.ndarray) -> np.ndarray:
    """Hashes (Python ints below 2**64) as a uint64 array.

    >>> as_hashes([1, 2**64 - 1]).dtype
    dtype('uint64')
    """
    return np.asarray(values, dtype=np.uint64).reshape(-1)


@lru_cache(maxsize=64)
def _patterns(width: int, radius: int) -> np.ndarray:
    """Every ``width``-bit pattern with at most ``radius`` bits set."""
    out = [0]
    for k in range(1, min(radius, width) + 1):
        out += [sum(1 << b for b in bits) for bits in combinations(range(width), k)]
    return np.array(out, dtype=np.int64)


class _Chunk(NamedTuple):
    shift: int
    width: int
    radius: int


#: Cost of one candidate pair relative to one look-up of one query (measured on 2 cores).
_CANDIDATE_COST = 0.5


def _chunks(m: int, radius: int) -> list[_Chunk]:
    """``m`` chunks of (nearly) equal width whose radii add up to ``radius + 1`` chunks' worth."""
    widths = [64 // m + (1 if k < 64 % m else 0) for k in range(m)]
    q, rem = divmod(radius + 1, m)
    chunks, shift = [], 64
    for k, w in enumerate(widths):
        shift -= w
        r = q + (1 if k < rem else 0) - 1
        if r >= 0:
            chunks.append(_Chunk(shift, w, r))
    return chunks


def plan(n: int, radius: int) -> list[_Chunk]:
    """The chunks searched for ``n`` hashes at ``radius`` (chunks of radius -1 are skipped).

    Of 2 to 8 chunks, the number with the least expected work for uniformly spread hashes:
    per chunk, its bit patterns times (one look-up per query + the candidates its bucket
    holds, ``n / 2**width`` each).

    >>> [(c.width, c.radius) for c in plan(100_000, 12)]
    [(16, 3), (16, 2), (16, 2), (16, 2)]
    >>> [(c.width, c.radius) for c in plan(30_000, 12)]
    [(13, 2), (13, 2), (13, 2), (13, 1), (12, 1)]
    >>> sum(c.radius + 1 for c in plan(1000, 5))
    6
    """
    def cost(chunks: list[_Chunk]) -> float:
        return sum(len(_patterns(c.width, c.radius)) * (1 + _CANDIDATE_COST * n / 2**c.width)
                   for c in chunks)

    options = [_chunks(m, radius) for m in range(2, 9) if 64 // m <= 20]
    return min(options, key=cost)


def near_pairs(query: np.ndarray, base: np.ndarray | None = None, radius: int = 12) -> Pairs:
    """All pairs of hashes at Hamming distance ``≤ radius``.

    Args:
        query: uint64 hashes.
        base: uint64 hashes searched; None searches ``query`` against itself and returns each
            unordered pair once, with ``i < j`` (an item never pairs with itself).
        radius: largest distance kept (0–64).

    Returns:
        The pairs, sorted by ``(i, j)``.

    >>> q = as_hashes([0b1011, 0b1000, 0xFFFF])
    >>> p = near_pairs(q, radius=2)
    >>> list(zip(p.i.tolist(), p.j.tolist(), p.distance.tolist()))
    [(0, 1, 2)]
    """
    self_join = base is None
    query = as_hashes(query)
    base = query if base is None else as_hashes(base)
    empty = Pairs(*(np.zeros(0, dtype=np.int64) for _ in range(3)))
    if not len(query) or not len(base):
        return empty
    found_i: list[np.ndarray] = []
    found_j: list[np.ndarray] = []
    for chunk in plan(len(base), radius):
        mask = np.uint64((1 << chunk.width) - 1)
        shift = np.uint64(chunk.shift)
        keys_b = ((base >> shift) & mask).astype(np.int64)
        keys_q = ((query >> shift) & mask).astype(np.int64)
        order = np.argsort(keys_b, kind="stable")
        starts = np.zeros((1 << chunk.width) + 1, dtype=np.int64)
        np.cumsum(np.bincount(keys_b, minlength=1 << chunk.width), out=starts[1:])
        every = np.arange(len(query))
        for pattern in _patterns(chunk.width, chunk.radius):
            keys = keys_q ^ pattern
            # Self-join: bucket pairs (k, k ^ p) are met from both ends; walk each from the
            # smaller key only (pattern 0 stays inside one bucket and keeps i < j below).
            queries = every[keys_q < keys] if self_join and pattern else every
            lo = starts[keys[queries]]
            count = starts[keys[queries] + 1] - lo
            live = np.flatnonzero(count)
            rank = 0
            # Buckets hold about one hash: take the k-th member of every bucket hit, k = 0, 1, …
            while len(live):
                qi = queries[live]
                bj = order[lo[live] + rank]
                if self_join:
                    qi, bj = np.minimum(qi, bj), np.maximum(qi, bj)
                    apart = qi < bj
                    qi, bj = qi[apart], bj[apart]
                close = popcount(query[qi] ^ base[bj]) <= radius
                found_i.append(qi[close])
                found_j.append(bj[close])
                rank += 1
                live = live[count[live] > rank]
    if not found_i:
        return empty
    i = np.concatenate(found_i)
    j = np.concatenate(found_j)
    key = np.unique(i * np.int64(len(base)) + j)
    i, j = np.divmod(key, np.int64(len(base)))
    return Pairs(i, j, popcount(query[i] ^ base[j]))


def brute_force_pairs(query: np.ndarray, base: np.ndarray | None = None,
                      radius: int = 12) -> Pairs:
    """The same answer as :func:`near_pairs` by comparing all pairs (tests and small inputs).

    >>> q = as_hashes([0b1011, 0b1000, 0xFFFF])
    >>> near_pairs(q, radius=2).i.tolist() == brute_force_pairs(q, radius=2).i.tolist()
    True
    """
    self_join = base is None
    query = as_hashes(query)
    base = query if base is None else as_hashes(base)
    d = popcount((query[:, None] ^ base[None, :]).ravel()).reshape(len(query), len(base))
    ok = d <= radius
    if self_join:
        ok &= np.triu(np.ones_like(ok), k=1).astype(bool)
    i, j = np.nonzero(ok)
    return Pairs(i.astype(np.int64), j.astype(np.int64), d[i, j].astype(np.int64))
