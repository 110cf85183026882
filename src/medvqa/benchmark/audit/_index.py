"""Every pair of 64-bit hashes within a Hamming radius, without comparing all pairs.

Multi-index hashing (Norouzi, Punjani & Fleet, CVPR 2012), vectorised with NumPy. The 64 bits
are cut into ``m`` chunks; if two hashes differ in at most ``R`` bits, then by the pigeonhole
principle some chunk ``j`` differs in at most ``r_j`` bits whenever ``Σ (r_j + 1) = R + 1``.
Each chunk of the base hashes is bucketed in a direct-address table (a counting sort), and for
every bit pattern ``p`` of at most ``r_j`` bits the query chunks XOR ``p`` are looked up in it at
once, for all queries. Every candidate is then checked on its full 64 bits, so the answer is
exactly the brute-force answer (a property test checks this), found with
``O(n · patterns)`` table look-ups plus the candidates instead of ``n²`` comparisons.

The plan (:func:`plan`) picks 2 to 8 chunks by expected work. At radius 12 of 64 bits the
chunks can be at most 16 bits wide, probed with up to three flipped bits each, so buckets
hold ``n / 2**16`` hashes and candidate pairs grow as ``n²``: close to linear up to about
30,000 hashes, time exponent about 1.7 from 10k to 100k. This is the audit's *exact* search
(``near_duplicates(..., exact=True)``); the default is the bit-sampling search of ``_lsh``.
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


#: Cost of one candidate pair (counted ``n_query · n_base / 2**width`` per pattern) and of
#: one bit pattern's Python round, relative to one look-up of one distinct key (measured on
#: the 2-core development machine at 10k, 30k and 100k hashes).
_CANDIDATE_COST = 0.75
_PATTERN_COST = 3000


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


def _expected_keys(n: int, width: int) -> float:
    """Expected distinct ``width``-bit keys among ``n`` uniform ones."""
    size = 2.0**width
    return size * (1 - (1 - 1 / size) ** n)


def plan(n_query: int, n_base: int, radius: int) -> list[_Chunk]:
    """The chunks searched for ``n_query`` hashes against ``n_base`` at ``radius``.

    Of 2 to 8 chunks, the number with the least expected work for uniformly spread hashes:
    per chunk, its bit patterns times (one look-up per distinct query key + the candidate
    pairs, ``n_query · n_base / 2**width`` + the fixed cost of a round). Chunks with radius -1
    are skipped.

    >>> [(c.width, c.radius) for c in plan(100_000, 100_000, 12)]
    [(16, 3), (16, 2), (16, 2), (16, 2)]
    >>> sum(c.radius + 1 for c in plan(1000, 1000, 5))
    6
    """
    def cost(chunks: list[_Chunk]) -> float:
        return sum(len(_patterns(c.width, c.radius))
                   * (_expected_keys(n_query, c.width) + _PATTERN_COST
                      + _CANDIDATE_COST * n_query * n_base / 2**c.width)
                   for c in chunks)

    options = [_chunks(m, radius) for m in range(2, 9) if 64 // m <= 20]
    return min(options, key=cost)


class _Buckets(NamedTuple):
    """Hashes sorted by one chunk's key, and where each distinct key's run is.

    ``order`` sorts them, ``hashes`` are they in that order; ``start`` and ``sizes`` give the
    run of each of ``keys`` in it.
    """

    order: np.ndarray
    hashes: np.ndarray
    keys: np.ndarray
    start: np.ndarray
    sizes: np.ndarray


def _buckets(hashes: np.ndarray, keys: np.ndarray) -> _Buckets:
    order = np.argsort(keys, kind="stable")
    distinct, start, sizes = np.unique(keys[order], return_index=True, return_counts=True)
    return _Buckets(order, hashes[order], distinct, start, sizes)


def _cross(sa: np.ndarray, sb: np.ndarray, first_a: np.ndarray,
           first_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted positions of every pair of members of run ``n`` of A and run ``n`` of B.

    Run ``n`` of A has ``sa[n]`` members from position ``first_a[n]``; likewise B.
    """
    total = sa * sb
    pair = np.repeat(np.arange(len(sa)), total)
    pos = np.arange(len(pair)) - (np.cumsum(total) - total)[pair]
    width = sb[pair]
    ra = pos // width
    return first_a[pair] + ra, first_b[pair] + (pos - ra * width)


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
    for chunk in plan(len(query), len(base), radius):
        mask, shift = np.uint64((1 << chunk.width) - 1), np.uint64(chunk.shift)
        qb = _buckets(query, ((query >> shift) & mask).astype(np.int64))
        bb = qb if self_join else _buckets(base, ((base >> shift) & mask).astype(np.int64))
        # Direct-address tables of the base buckets: where key k's run starts, how long it is.
        b_start = np.zeros(1 << chunk.width, dtype=np.int64)
        b_size = np.zeros(1 << chunk.width, dtype=np.int64)
        b_start[bb.keys], b_size[bb.keys] = bb.start, bb.sizes
        for pattern in _patterns(chunk.width, chunk.radius):
            partner = qb.keys ^ pattern
            ia = np.flatnonzero(b_size[partner])
            if self_join and pattern:
                # Bucket pairs (k, k ^ p) are met from both ends: take each from its smaller key.
                ia = ia[qb.keys[ia] < partner[ia]]
            if not len(ia):
                continue
            kb = partner[ia]
            xs, ys = _cross(qb.sizes[ia], b_size[kb], qb.start[ia], b_start[kb])
            keep = popcount(qb.hashes[xs] ^ bb.hashes[ys]) <= radius
            if self_join and not pattern:
                keep &= xs < ys  # one run with itself: each pair once, never an item with itself
            x, y = qb.order[xs[keep]], bb.order[ys[keep]]
            if self_join:
                x, y = np.minimum(x, y), np.maximum(x, y)
            found_i.append(x)
            found_j.append(y)
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
