"""Near-duplicate image pairs of one collection, or between two, from their fingerprints.

A pair is near-duplicate when each hash is within its threshold (:class:`Thresholds`: the
centre hash, the two whole-image hashes, the fine 256-bit centre hash); the pair's distance is
the largest of the three coarse distances. The index (:func:`near_pairs`) searches the centre
hash (``INDEXED``) at its threshold; the rest are checked on its candidates. With
``mirrored``, the mirrored hashes of one side are searched against the other's too (a flipped
copy), and such pairs say so. Unreadable images take no part.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from medvqa.benchmark.audit._collection import ImageTable
from medvqa.benchmark.audit._hashing import COLUMN_LIMIT, INDEXED, NEAR_THRESHOLD, Thresholds
from medvqa.benchmark.audit._index import near_pairs, popcount


class NearPair(NamedTuple):
    """Images ``a`` (of the first table) and ``b`` (of the second, or the same) look alike."""

    a: int
    b: int
    distance: int
    mirrored: bool


class _Side(NamedTuple):
    coarse: np.ndarray
    fine: np.ndarray


def _search(query: _Side, base: _Side | None,
            limits: Thresholds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs of rows within the thresholds: (query row, base row, largest coarse distance)."""
    found = near_pairs(query.coarse[:, INDEXED],
                       None if base is None else base.coarse[:, INDEXED], limits.centre)
    other = query if base is None else base
    worst, keep = found.distance, np.ones(len(found.i), dtype=bool)
    for col, limit in enumerate(COLUMN_LIMIT):
        if col != INDEXED:
            d = popcount(query.coarse[found.i, col] ^ other.coarse[found.j, col])
            keep &= d <= getattr(limits, limit)
            worst = np.maximum(worst, d)
    fine = sum(popcount(query.fine[found.i, w] ^ other.fine[found.j, w])
               for w in range(query.fine.shape[1]))
    keep &= fine <= limits.fine
    return found.i[keep], found.j[keep], worst[keep]


def near_duplicates(first: ImageTable, second: ImageTable | None, mirrored: bool = True,
                    limits: Thresholds = NEAR_THRESHOLD) -> list[NearPair]:
    """Near-duplicate pairs, sorted by ``(a, b)``; within one table each pair once, ``a < b``.

    A pair found both as is and mirrored is reported as is.
    """
    ia = np.flatnonzero(first.ok)
    other = first if second is None else second
    ib = ia if second is None else np.flatnonzero(other.ok)
    mine = _Side(first.hashes[ia], first.fine[ia])
    theirs = _Side(other.hashes[ib], other.fine[ib])
    i, j, d = _search(mine, None if second is None else theirs, limits)
    pairs = {(int(ia[x]), int(ib[y])): (int(dd), False) for x, y, dd in zip(i, j, d, strict=True)}
    if mirrored:
        flipped = _Side(first.mirrored[ia], first.fine_mirrored[ia])
        i, j, d = _search(flipped, theirs, limits)
        for x, y, dd in zip(i, j, d, strict=True):
            a, b = int(ia[x]), int(ib[y])
            if second is None:
                if a == b:
                    continue  # an image that is its own mirror image
                a, b = min(a, b), max(a, b)
            pairs.setdefault((a, b), (int(dd), True))
    return [NearPair(a, b, dist, flip) for (a, b), (dist, flip) in sorted(pairs.items())]
