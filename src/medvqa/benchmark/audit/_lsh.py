"""Candidate near-duplicate pairs in close to linear time: bit sampling over the coarse hashes.

The first stage of the near-duplicate search (:mod:`._near` then checks every threshold on
what it finds, so nothing beyond the thresholds is reported). Each row is the 192 bits of an
image's three 64-bit perceptual hashes (grey, equalised, centre). A *round* shuffles the 192
bit positions (a fixed shuffle) and cuts them into ``GROUPS`` = 10 groups of 19 or 20 bits;
each group is one *key table*. Two rows are candidates when they agree on every bit of some
group, in any of ``ROUNDS`` = 24 rounds (240 key tables). A table is one sort of
``key << 32 | row`` words, so the work is ``O(tables · n log n)`` plus the candidates, about
``1.5 n² / 2**19`` per table with the mirrored search: at 100,000 images the candidates are
still fewer than the rows sorted, and the time grows close to linearly (CPU seconds at 10k /
30k / 100k synthetic images: ``medvqa bench --only audit``). Only pairs with one of the
leading rows (the plain hashes) are listed: mirrored and corner-view rows (``_near``) cost
their share of each sort, not pairs among themselves.

Why not exact: the thresholds allow 12 of 64 bits (19 %) on the centre hash. Exact
multi-index hashing at that radius (``_index``, still there: ``near_duplicates(...,
exact=True)``) needs chunks of at most 16 bits probed with up to three flipped bits each, and
its candidate pairs grow as ``n²``: time exponent about 1.7 above 30,000 images. Longer keys
without exactness are the way out; sampling whole groups from all three hashes uses the
192 bits the thresholds constrain together.

The trade-off (recall of pairs *within* the thresholds; precision is unchanged, every
candidate is checked):

- Guaranteed: a pair whose three hashes differ in fewer than ``GROUPS`` bits in total is
  always found (within one round some group holds none of the differing bits: pigeonhole).
- A pair differing in ``d`` bits spread at random is missed with probability ``P(every group
  of a round is hit)**24``: measured on 4,000 random pairs each, all found at 20 bits
  (7 / 7 / 6), 99.98 % at 30 (10 / 10 / 10), 99.3 % at 34 (12 / 12 / 10) and 88 % at the very
  limits of all three thresholds at once (14 / 14 / 12).
- Real altered copies sit well inside: of the 340 shipped sample images, the search finds
  exactly the copies that comparing all pairs under the thresholds finds (JPEG q60, 50 %,
  5 % crop, brightness, flips; the bench reports recall through the search). The round count
  was chosen for that: with the 5 % crops' measured distances (most 20–36 bits in total),
  24 rounds leave an expected 0.06 of 334 accepted crops unfound (16 rounds: 0.3; 11 groups
  per round: twice the candidates at 100k, exponent 1.4).

Everything is fixed: the shuffles come from SplitMix64 of (round, bit), not from a random
generator, so the same hashes give the same candidates on every machine and NumPy version.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

import numpy as np

#: Rounds (shuffles of the 192 bits) and key tables per round: 240 tables of 19–20 bits.
ROUNDS = 24
GROUPS = 10
#: 64-bit words per row: the three coarse hashes.
WORDS = 3

_MASK64 = (1 << 64) - 1
#: Odd multipliers that mix each masked word into a 32-bit key (any odd constants would do:
#: rows with the same sampled bits get the same key; others collide by chance, then fail the
#: thresholds).
_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)


class Candidates(NamedTuple):
    """Rows ``p[k] < q[k]`` of one key table that agree on its sampled bits."""

    p: np.ndarray
    q: np.ndarray


def _splitmix64(x: int) -> int:
    """SplitMix64 (Steele, Lea & Flood 2014) of one 64-bit value: a fixed, portable mix."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


@lru_cache(maxsize=8)
def masks(rounds: int = ROUNDS, groups: int = GROUPS, words: int = WORDS) -> np.ndarray:
    """The sampled bits of each key table, as ``(rounds · groups, words)`` uint64 masks.

    Each round's groups partition all ``64 · words`` bits.

    >>> m = masks()
    >>> m.shape, int(sum(int(x).bit_count() for x in m[:GROUPS].ravel()))
    ((240, 3), 192)
    """
    bits = 64 * words
    out = np.zeros((rounds * groups, words), dtype=np.uint64)
    for r in range(rounds):
        weight = [_splitmix64((r << 16) | b) for b in range(bits)]
        order = sorted(range(bits), key=weight.__getitem__)
        for g, chunk in enumerate(np.array_split(np.array(order), groups)):
            for b in chunk.tolist():
                out[r * groups + g, b // 64] |= np.uint64(1 << (b % 64))
    return out


_HIGH = np.uint64(0xFFFFFFFF00000000)
_LOW = np.uint64(0xFFFFFFFF)


def _packed_keys(columns: list[np.ndarray], mask: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Each row's 32-bit key of its sampled bits (high half; equal bits, equal key) | row."""
    acc = (columns[0] & mask[0]) * _MIX[0]
    for w in range(1, len(columns)):
        acc += (columns[w] & mask[w]) * _MIX[w]
    acc &= _HIGH
    acc |= index
    return acc


def _equal_runs(packed: np.ndarray, first: int) -> Candidates:
    """Every pair of rows with equal keys whose lower row is below ``first``.

    From one sort of the ``key << 32 | row`` words.
    """
    packed.sort()
    hi = packed >> np.uint64(32)
    ps, qs = [], []
    at = np.flatnonzero(hi[1:] == hi[:-1])
    # Within a run rows ascend: a row at or above ``first`` is followed by no row below it.
    at = at[(packed[at] & _LOW) < np.uint64(first)]
    gap = 1
    # Sorted keys: row k and row k + gap agree iff all rows between them do, so the pairs
    # at gap + 1 are among those at gap (one pass per gap; a run of m equal keys takes m - 1).
    while len(at):
        ps.append(packed[at])
        qs.append(packed[at + gap])
        gap += 1
        at = at[at + gap < len(hi)]
        at = at[hi[at + gap] == hi[at]]
    if not ps:
        empty = np.zeros(0, dtype=np.int64)
        return Candidates(empty, empty)
    p = (np.concatenate(ps) & _LOW).astype(np.int64)
    q = (np.concatenate(qs) & _LOW).astype(np.int64)
    return Candidates(np.minimum(p, q), np.maximum(p, q))


def colliding_rows(rows: np.ndarray, first: int | None = None) -> Iterator[Candidates]:
    """For each key table, the pairs of ``rows`` that agree on its sampled bits.

    Args:
        rows: ``(n, WORDS)`` uint64, one row per hash set (n below 2**32).
        first: only pairs whose lower row is below ``first`` (None: every pair). The rows
            that are compared with every other come first: pairs among the rest (two
            corner views, say) are never listed, so they cost nothing beyond their sort.

    Yields:
        One :class:`Candidates` per key table (a pair may come from several tables).

    >>> rows = np.array([[1, 2, 3], [1, 2, 2], [2**64 - 1] * 3], dtype=np.uint64)
    >>> found = {(int(p), int(q)) for c in colliding_rows(rows) for p, q in zip(*c)}
    >>> sorted(found)
    [(0, 1)]
    """
    if len(rows) < 2:
        return
    # One contiguous array per word: each table reads them whole, not strided.
    columns = [np.ascontiguousarray(rows[:, w], dtype=np.uint64) for w in range(rows.shape[1])]
    index = np.arange(len(rows), dtype=np.uint64)
    below = len(rows) if first is None else first
    for mask in masks(words=rows.shape[1]):
        yield _equal_runs(_packed_keys(columns, mask, index), below)
