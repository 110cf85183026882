"""Near-duplicate image pairs of one collection, or between two, from their fingerprints.

A pair is near-duplicate when each hash is within its threshold (:class:`Thresholds`: the
centre hash, the two whole-image hashes, the fine 256-bit centre hash); the pair's distance is
the largest of the three coarse distances. With ``mirrored``, the mirrored hashes of one side
are compared with the other's too (a flipped copy), and such pairs say so. With ``corners``,
so are the hashes of each image's four corner views (the image cut at two adjacent sides,
``_hashing.CORNER_CUT``) with the other images' plain hashes, both ways: a copy cropped off
one side or corner looks like a corner view of its original; such pairs say ``cropped``.
Unreadable images take no part.

Two stages. Candidates come from bit sampling over the three coarse hashes
(:func:`colliding_rows`, ``_lsh``: 240 fixed key tables, time close to linear in the number of
images); every threshold is then checked on each candidate, so nothing beyond the thresholds
is ever reported. The plain hashes come first in the sorted rows and only pairs with a plain
row are listed, so mirrored and corner rows add their sort, never pairs among themselves.
The first stage finds every pair differing in fewer than 10 of the 192 coarse bits, and in
practice every altered copy the thresholds accept; pairs at the very limits of all three
thresholds at once can be missed (the trade-off is measured and documented in ``_lsh``).
``exact=True`` searches with exact multi-index hashing over the centre hash instead
(``_index``: equal to comparing all pairs; its time grows as ``n**1.7`` above 30,000 images).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from medvqa.benchmark.audit._collection import ImageTable
from medvqa.benchmark.audit._config import NEAR_THRESHOLD, Thresholds
from medvqa.benchmark.audit._hashing import COLUMN_LIMIT, INDEXED
from medvqa.benchmark.audit._index import near_pairs, popcount
from medvqa.benchmark.audit._lsh import colliding_rows


class NearPair(NamedTuple):
    """Images ``a`` (of the first table) and ``b`` (of the second, or the same) look alike.

    ``mirrored``: one is a flipped copy of the other; ``cropped``: found through a corner view
    (one looks like the other cut at a side or corner). A pair found as is says neither.
    """

    a: int
    b: int
    distance: int
    mirrored: bool
    cropped: bool = False


class _Side(NamedTuple):
    """Hash rows to search.

    ``image[r]`` is row ``r``'s image: its position among the readable images of table
    ``table`` (0 the first, 1 the second).
    """

    coarse: np.ndarray
    fine: np.ndarray
    image: np.ndarray
    table: int


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


def _exact(query: _Side, base: _Side, self_join: bool, limits: Thresholds) -> _Found:
    """Every pair within the thresholds, by the exact index over the centre hash."""
    found = near_pairs(query.coarse[:, INDEXED], None if self_join else base.coarse[:, INDEXED],
                       limits.centre)
    return _check(query, base, found.i, found.j, limits)


def _sampled(sides: list[_Side], target: list[int | None], limits: Thresholds) -> list[_Found]:
    """Pairs within the thresholds, through the bit-sampling tables, for each query side.

    Side ``s`` is searched against side ``target[s]`` (None: it is only searched against);
    the searched sides come first, and a side searched against itself (a self-join) gives
    each pair once, query row above base row. All sides are stacked into one set of rows, so
    every search shares each table's sort; only pairs with a searched row are listed. Rows
    are numbered within each side; one image's own rows are never paired.
    """
    rows = np.concatenate([s.coarse for s in sides])
    stacked = _Side(rows, np.concatenate([s.fine for s in sides]), np.zeros(0), 0)
    start = np.cumsum([0] + [len(s.coarse) for s in sides])
    bases = {t for t in target if t is not None}
    first = int(start[max(bases) + 1]) if bases else 0
    # Per row: its side, the side it is searched against (-1: none), its image (both tables
    # numbered apart), so each candidate is kept or dropped by three look-ups.
    side = np.repeat(np.arange(len(sides)), np.diff(start))
    wanted = np.array([-1 if t is None else t for t in target])[side]
    owner = np.concatenate([s.image * 2 + s.table for s in sides])
    codes: list[np.ndarray] = []
    for cand in colliding_rows(rows, first):
        keep = (wanted[cand.q] == side[cand.p]) & (owner[cand.p] != owner[cand.q])
        found = _check(stacked, stacked, cand.q[keep], cand.p[keep], limits)
        codes.append(found.i * len(rows) + found.j)  # stacked query row, base row
    code = np.unique(np.concatenate(codes)) if codes else np.zeros(0, dtype=np.int64)
    q, j = np.divmod(code, max(1, len(rows)))
    out = []
    for s, t in enumerate(target):
        if t is None:
            out.append(_Found(*(np.zeros(0, dtype=np.int64) for _ in range(3))))
            continue
        mine = (q >= start[s]) & (q < start[s + 1])
        out.append(_check(sides[s], sides[t], q[mine] - start[s], j[mine] - start[t], limits))
    return out


def _sides(first: ImageTable, second: ImageTable | None, ia: np.ndarray, ib: np.ndarray,
           mirrored: bool, corners: bool) -> tuple[list[_Side], list[int | None], list[str]]:
    """The rows searched, what each side is searched against, and what a match through it is.

    Self-join: the plain rows against themselves, mirrored and corner rows against the plain
    ones. Two tables: the second's plain rows are searched against by the first's plain,
    mirrored and corner rows, and the first's plain rows by the second's corner rows.
    """
    def plain(t: ImageTable, idx: np.ndarray, which: int) -> _Side:
        return _Side(t.hashes[idx], t.fine[idx], np.arange(len(idx)), which)

    def corner(t: ImageTable, idx: np.ndarray, which: int) -> _Side:
        k = t.corners.shape[1]
        return _Side(t.corners[idx].reshape(-1, 3), t.fine_corners[idx].reshape(-1, 4),
                     np.repeat(np.arange(len(idx)), k), which)

    flipped = _Side(first.mirrored[ia], first.fine_mirrored[ia], np.arange(len(ia)), 0)
    target: list[int | None]
    if second is None:
        sides, target, how = [plain(first, ia, 0)], [0], ["as-is"]
        base = 0
    else:
        sides = [plain(second, ib, 1), plain(first, ia, 0)]
        target, how, base = [None, 0], ["", "as-is"], 0
    if mirrored:
        sides, target, how = sides + [flipped], target + [base], how + ["mirrored"]
    # A table built without corner views (an empty array) is searched without them.
    if corners and len(first.corners) == len(first):
        sides, target, how = sides + [corner(first, ia, 0)], target + [base], how + ["cropped"]
    if corners and second is not None and len(second.corners) == len(second):
        sides, target, how = sides + [corner(second, ib, 1)], target + [1], how + ["cropped"]
    return sides, target, how


def near_duplicates(first: ImageTable, second: ImageTable | None, mirrored: bool = True,
                    limits: Thresholds = NEAR_THRESHOLD, exact: bool = False,
                    corners: bool = True) -> list[NearPair]:
    """Near-duplicate pairs, sorted by ``(a, b)``; within one table each pair once, ``a < b``.

    A pair found as is is reported as is, else mirrored, else cropped. ``exact`` uses the
    exact index (slower above 30,000 images) instead of the bit-sampling tables; ``corners``
    also compares the corner views of each table that holds them.
    """
    ia = np.flatnonzero(first.ok)
    other = first if second is None else second
    ib = ia if second is None else np.flatnonzero(other.ok)
    sides, target, how = _sides(first, second, ia, ib, mirrored, corners)
    if exact:
        found = [_Found(*(np.zeros(0, dtype=np.int64) for _ in range(3))) if t is None
                 else _exact(sides[s], sides[t], s == t, limits) for s, t in enumerate(target)]
    else:
        found = _sampled(sides, target, limits)
    pairs: dict[tuple[int, int], tuple[int, bool, bool]] = {}
    for kind in ("as-is", "mirrored", "cropped"):
        for s, t in enumerate(target):
            if t is None or how[s] != kind:
                continue
            side, got = sides[s], found[s]
            qa = side.image[got.i]
            pb = sides[t].image[got.j]
            for x, y, dd in zip(qa, pb, got.distance, strict=True):
                if second is None:
                    a, b = int(ia[x]), int(ia[y])
                    if a == b:
                        continue  # an image that is its own mirror image, or its own view
                    a, b = min(a, b), max(a, b)
                elif side.table == 0:
                    a, b = int(ia[x]), int(ib[y])
                else:
                    a, b = int(ia[y]), int(ib[x])
                pairs.setdefault((a, b), (int(dd), kind == "mirrored", kind == "cropped"))
    return [NearPair(a, b, dist, flip, crop)
            for (a, b), (dist, flip, crop) in sorted(pairs.items())]
