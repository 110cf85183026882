"""Near-duplicate image pairs of one collection, or between two, from their fingerprints.

A pair is near-duplicate when each hash is within its threshold (:class:`Thresholds`: the
centre hash, the two whole-image hashes, the fine 256-bit centre hash); the pair's distance is
the largest of the three coarse distances. With ``mirrored``, the mirrored hashes of one side
are compared with the other's too (a flipped copy), and such pairs say so. Unreadable images
take no part.

Two stages. Candidates come from bit sampling over the three coarse hashes
(:func:`colliding_rows`, ``_lsh``: 160 fixed key tables, time close to linear in the number of
images); every threshold is then checked on each candidate, so nothing beyond the thresholds
is ever reported. The first stage finds every pair differing in fewer than 10 of the 192
coarse bits, and in practice every altered copy the thresholds accept; pairs at the very
limits of all three thresholds at once can be missed (the trade-off is measured and
documented in ``_lsh``). ``exact=True`` searches with exact multi-index hashing over the
centre hash instead (``_index``: equal to comparing all pairs; its time grows as ``n**1.7``
above 30,000 images).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from medvqa.benchmark.audit._collection import ImageTable
from medvqa.benchmark.audit._hashing import COLUMN_LIMIT, INDEXED, NEAR_THRESHOLD, Thresholds
from medvqa.benchmark.audit._index import near_pairs, popcount
from medvqa.benchmark.audit._lsh import colliding_rows


class NearPair(NamedTuple):
    """Images ``a`` (of the first table) and ``b`` (of the second, or the same) look alike."""

    a: int
    b: int
    distance: int
    mirrored: bool


class _Side(NamedTuple):
    coarse: np.ndarray
    fine: np.ndarray


class _Found(NamedTuple):
    """Rows ``i`` of the query side and ``j`` of the base side within every threshold."""

    i: np.ndarray
    j: np.ndarray
    distance: np.ndarray


def _check(query: _Side, base: _Side, i: np.ndarray, j: np.ndarray,
           limits: Thresholds) -> _Found:
    """The pairs ``(i, j)`` within every threshold, with their largest coarse distance."""
    worst = np.zeros(len(i), dtype=np.int64)
    # The indexed (centre) hash first: it rejects almost every chance candidate at once.
    for col in (INDEXED, *(c for c in range(len(COLUMN_LIMIT)) if c != INDEXED)):
        d = popcount(query.coarse[i, col] ^ base.coarse[j, col])
        keep = d <= getattr(limits, COLUMN_LIMIT[col])
        i, j, worst = i[keep], j[keep], np.maximum(worst[keep], d[keep])
    fine = sum((popcount(query.fine[i, w] ^ base.fine[j, w]) for w in range(query.fine.shape[1])),
               np.zeros(len(i), dtype=np.int64))
    keep = fine <= limits.fine
    return _Found(i[keep], j[keep], worst[keep])


def _exact(query: _Side, base: _Side | None, limits: Thresholds) -> _Found:
    """Every pair within the thresholds, by the exact index over the centre hash."""
    found = near_pairs(query.coarse[:, INDEXED],
                       None if base is None else base.coarse[:, INDEXED], limits.centre)
    return _check(query, query if base is None else base, found.i, found.j, limits)


def _sampled(sides: list[_Side], self_join: bool, limits: Thresholds) -> list[_Found]:
    """Pairs within the thresholds, through the bit-sampling tables, for each query side.

    ``sides[0]`` is the base. The query sides are the others, and in a self-join the base
    too (its pairs then come once, query row above base row). All sides are stacked into one
    set of rows, so the as-is and the mirrored search share each table's sort. Rows are
    numbered within each side.
    """
    rows = np.concatenate([s.coarse for s in sides])
    stacked = _Side(rows, np.concatenate([s.fine for s in sides]))
    start = np.cumsum([0] + [len(s.coarse) for s in sides])
    n_base, first = len(sides[0].coarse), 0 if self_join else 1
    codes: list[np.ndarray] = []
    for cand in colliding_rows(rows):
        # p < q, so the base row is p; a query row is any row of a query side.
        keep = (cand.p < n_base) & (cand.q >= start[first])
        found = _check(stacked, stacked, cand.q[keep], cand.p[keep], limits)
        codes.append(found.i * n_base + found.j)  # stacked query row, base row
    code = np.unique(np.concatenate(codes)) if codes else np.zeros(0, dtype=np.int64)
    q, j = np.divmod(code, max(1, n_base))
    out = []
    for s in range(first, len(sides)):
        mine = (q >= start[s]) & (q < start[s + 1])
        out.append(_check(sides[s], sides[0], q[mine] - start[s], j[mine], limits))
    return out


def near_duplicates(first: ImageTable, second: ImageTable | None, mirrored: bool = True,
                    limits: Thresholds = NEAR_THRESHOLD, exact: bool = False) -> list[NearPair]:
    """Near-duplicate pairs, sorted by ``(a, b)``; within one table each pair once, ``a < b``.

    A pair found both as is and mirrored is reported as is. ``exact`` uses the exact index
    (slower above 30,000 images) instead of the bit-sampling tables.
    """
    ia = np.flatnonzero(first.ok)
    other = first if second is None else second
    ib = ia if second is None else np.flatnonzero(other.ok)
    mine = _Side(first.hashes[ia], first.fine[ia])
    theirs = _Side(other.hashes[ib], other.fine[ib])
    flipped = _Side(first.mirrored[ia], first.fine_mirrored[ia])
    if exact:
        as_is = _exact(mine, None if second is None else theirs, limits)
        flips = _exact(flipped, theirs, limits) if mirrored else None
    else:
        sides = [theirs] if second is None else [theirs, mine]
        found = _sampled(sides + ([flipped] if mirrored else []), second is None, limits)
        as_is, flips = found[0], (found[1] if mirrored else None)
    pairs = {}
    for x, y, dd in zip(as_is.i, as_is.j, as_is.distance, strict=True):
        a, b = int(ia[x]), int(ib[y])
        pairs[(min(a, b), max(a, b)) if second is None else (a, b)] = (int(dd), False)
    if flips is not None:
        for x, y, dd in zip(flips.i, flips.j, flips.distance, strict=True):
            a, b = int(ia[x]), int(ib[y])
            if second is None:
                if a == b:
                    continue  # an image that is its own mirror image
                a, b = min(a, b), max(a, b)
            pairs.setdefault((a, b), (int(dd), True))
    return [NearPair(a, b, dist, flip) for (a, b), (dist, flip) in sorted(pairs.items())]
