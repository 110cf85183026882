"""A stratified random sample: how many units each stratum gives, and which ones.

The audit sample of a run is stratified by the reader's decision (read, invalid, extracted), so
that the rare strata, where an automatic reader errs most, are not left to chance. Allocation
is proportional to the square root of each stratum's size — the classical compromise between
proportional allocation (a 3 % stratum gets 3 % of the sample) and equal allocation (every
stratum the same), Neyman allocation when the strata's spreads are unknown and alike —
never more than a stratum holds, the rest handed on to the strata that still have units. Each
sampled unit keeps its weight ``N_h / n_h``; estimators use it (:mod:`medvqa.stats._ppi`).

>>> allocate({"read": 900, "invalid": 90, "extracted": 10}, 100)
{'read': 70, 'invalid': 22, 'extracted': 8}
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np


def allocate(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """Units to draw from each stratum: ∝ √size, capped at the size, summing to min(n, total).

    Rounding is by largest remainder, ties to the stratum named first, so the result depends
    only on ``sizes`` and ``n``.

    >>> allocate({"a": 4, "b": 0}, 10)
    {'a': 4, 'b': 0}
    """
    out = {k: 0 for k in sizes}
    left = min(max(0, n), sum(max(0, v) for v in sizes.values()))
    open_ = [k for k, v in sizes.items() if v > 0]
    while left > 0 and open_:
        roots = {k: math.sqrt(sizes[k]) for k in open_}
        total = sum(roots.values())
        share = {k: left * roots[k] / total for k in open_}
        floors = {k: min(int(share[k]), sizes[k] - out[k]) for k in open_}
        given = sum(floors.values())
        rest = sorted((k for k in open_ if out[k] + floors[k] < sizes[k]),
                      key=lambda k: (-(share[k] - int(share[k])), open_.index(k)))
        for k in rest[:left - given]:
            floors[k] += 1
        for k in open_:
            out[k] += floors[k]
        left -= sum(floors.values())
        open_ = [k for k in open_ if out[k] < sizes[k]]
        if not sum(floors.values()):
            break
    return out


def draw_stratified(strata: Mapping[str, np.ndarray], counts: Mapping[str, int],
                    rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Without replacement, ``counts[h]`` of the unit indices in ``strata[h]`` (sorted)."""
    return {h: np.sort(rng.choice(units, size=counts.get(h, 0), replace=False))
            if counts.get(h, 0) else np.zeros(0, dtype=units.dtype)
            for h, units in strata.items()}
