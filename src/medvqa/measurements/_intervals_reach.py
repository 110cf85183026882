"""Where a paired difference's interval can cover on few pairs: a finer grid and the limit.

Two exact checks behind the ``intervals`` bench's paired-difference rows, on independent pairs
(cell probabilities (p11, p10, p01, p00): both right, A only, B only, neither):

- **a finer grid** that no choice was tuned on: every n from 10 to 40, p (A's accuracy) from
  0.50 to 0.97 in steps of 0.01, and five families of cells (:data:`FAMILIES`): the bench's own
  (B right with p − 0.1; discordant both ways, p01 = r = min(p − gap, 1 − p) / 4), a gap of 0.05
  or 0.2, and twice or half the discordance r. Each cell's coverage is summed over every table
  (:func:`~medvqa.measurements._intervals_exact.exact_paired`), so the grid has no Monte Carlo
  error;
- **the limit of any interval** (:func:`monotone_reach`). With n fixed, the discordant counts
  (b, c) are sufficient for Δ = p10 − p01: given b + c, how the other pairs split into both
  right and both wrong does not depend on Δ. An interval that is a function of (b, c), holds
  its own estimate (b − c) / n, and is monotone (bounds that rise with b and fall with c)
  excludes a truth Δ0 from below on an up-set of outcomes ((b, c) excluded, so is every
  (b' ≥ b, c' ≤ c)), and from above on a down-set: a staircase each side. Enumerating every
  pair of staircases enumerates every such interval's coverage at Δ0 — on several cells at
  once where they share Δ0, as the bench's cells of one n do (Δ = 0.1). On 10 pairs no such
  interval puts p = 0.5 (or 0.7) and p = 0.97 both within 0.93–0.98: reaching the range at
  p = 0.97 (1.15 discordant pairs expected) needs an upper bound under 0.1 for one pair
  against A and none for it, which drops p = 0.5 below 0.93. The over-coverage of those cells
  is the discreteness of the outcomes, not a method to be replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from medvqa.measurements._intervals_exact import exact_paired

#: The finer grid: every n, and p in steps of 0.01 up to the issue's 0.97.
FINE_N = tuple(range(10, 41))
FINE_P = tuple(round(0.50 + 0.01 * i, 2) for i in range(48))
#: … and ``--quick``'s.
QUICK_FINE_N, QUICK_FINE_P = (10, 15, 20), (0.5, 0.8, 0.97)
#: Families of cells: name → (gap between the arms, r over min(p − gap, 1 − p)).
FAMILIES: dict[str, tuple[float, float]] = {
    "the bench's": (0.1, 0.25), "gap 0.05": (0.05, 0.25), "gap 0.2": (0.2, 0.25),
    "twice the discordance": (0.1, 0.5), "half the discordance": (0.1, 0.125)}


def paired_cell_probs(p: float, gap: float, spread: float) -> np.ndarray:
    """(p11, p10, p01, p00) of arms right with p and p − gap, p01 = spread·min(p − gap, 1 − p).

    >>> paired_cell_probs(0.97, 0.1, 0.25).round(4).tolist()
    [0.8625, 0.1075, 0.0075, 0.0225]
    """
    r = spread * min(p - gap, 1 - p)
    return np.array([p - gap - r, gap + r, r, 1 - p - r])


class FineCell(NamedTuple):
    """One cell of the finer grid.

    Attributes:
        family: the family of cells (a key of :data:`FAMILIES`).
        n: pairs.
        p: A's accuracy.
        coverage: medvqa's interval's exact coverage of the true difference (the gap).
        discordant: discordant pairs expected, n·(p10 + p01).
    """

    family: str
    n: int
    p: float
    coverage: float
    discordant: float


def finer_grid(ns: Sequence[int] = FINE_N, ps: Sequence[float] = FINE_P) -> list[FineCell]:
    """The exact coverage of medvqa's paired interval on every cell of every family."""
    out = []
    for family, (gap, spread) in FAMILIES.items():
        for n in ns:
            for p in ps:
                cells = paired_cell_probs(p, gap, spread)
                out.append(FineCell(family, n, p, exact_paired(n, cells, gap).coverage,
                                    n * float(cells[1] + cells[2])))
    return out


def _outcome_mass(n: int, cells: np.ndarray) -> np.ndarray:
    """P(b, c) on n pairs, an (n + 1) × (n + 1) array (zero where b + c > n)."""
    from scipy.special import gammaln

    b, c = np.indices((n + 1, n + 1)).astype(float)
    rest = np.maximum(n - b - c, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log = (gammaln(n + 1) - gammaln(b + 1) - gammaln(c + 1) - gammaln(rest + 1)
               + b * np.log(cells[1]) + c * np.log(cells[2]) + rest * np.log(cells[0] + cells[3]))
    return np.asarray(np.where(b + c <= n, np.exp(log), 0.0))


def _staircases(rows: list[int], first: list[int], last: list[int], tail: np.ndarray,
                cap: float) -> np.ndarray:
    """Excluded mass (per cell) of every staircase whose mass stays within ``cap``.

    Row i excludes its outcomes from a threshold t_i in [first_i, last_i] on, or none; the
    thresholds never fall from one row to the next, and a row that excludes none ends the
    staircase. ``tail[:, i, t]``: the mass of row i from t on, per cell.
    """
    found: list[np.ndarray] = []

    def walk(i: int, low: int, acc: np.ndarray) -> None:
        if (acc > cap).any():
            return
        found.append(acc)  # rows i… exclude nothing
        for t in range(max(first[i], low), last[i] + 1) if i < len(rows) else ():
            walk(i + 1, t, acc + tail[:, i, t])

    walk(0, 0, np.zeros(tail.shape[0]))
    return np.unique(np.round(np.array(found), 12), axis=0)


class Reach(NamedTuple):
    """What monotone intervals of (b, c) can do on cells sharing one true difference.

    Attributes:
        together: pairs of staircases that put every cell within the target at once.
        alone: for each cell, whether some interval puts it within the target by itself.
    """

    together: int
    alone: tuple[bool, ...]


def _count(n: int, steps: int, masses: np.ndarray, target: tuple[float, float]) -> int:
    """Staircase pairs that put every cell of ``masses`` (cells × b × c) within ``target``."""
    cap = 1 - target[0] + 5e-4
    lows = [c for c in range(n + 1) if c + steps + 1 <= n - c]
    tail_b = np.flip(np.cumsum(np.flip(masses, 1), 1), 1)  # [k, t, c]: row c from b = t on
    below = _staircases(lows, [c + steps + 1 for c in lows], [n - c for c in lows],
                        np.stack([tail_b[:, :, c] for c in lows], 1), cap)
    highs = [b for b in range(n + 1) if max(b - steps + 1, 0) <= n - b]
    tail_c = np.flip(np.cumsum(np.flip(masses, 2), 2), 2)  # [k, b, t]: row b from c = t on
    above = _staircases(highs, [max(b - steps + 1, 0) for b in highs], [n - b for b in highs],
                        np.stack([tail_c[:, b, :] for b in highs], 1), cap)
    cov = np.round(1 - below[:, None, :] - above[None, :, :], 3)
    return int(((cov >= target[0]) & (cov <= target[1])).all(-1).sum())


def monotone_reach(n: int, cells: Sequence[np.ndarray], truth: float,
                   target: tuple[float, float]) -> Reach:
    """Whether any monotone interval of (b, c) on n pairs puts these cells within ``target``.

    ``cells``: (p11, p10, p01, p00) of each, all with p10 − p01 = ``truth``, a multiple of
    1 / n. The interval must hold its estimate, so it may exclude the truth from below only
    where b − c > n·truth and from above only where b − c < n·truth.

    >>> cell = [paired_cell_probs(p, 0.1, 0.25) for p in (0.5, 0.97)]
    >>> monotone_reach(10, cell, 0.1, (0.93, 0.98))
    Reach(together=0, alone=(True, True))
    """
    steps = round(truth * n)
    if abs(steps - truth * n) > 1e-9:
        raise ValueError(f"truth {truth} is not a multiple of 1/{n}")
    masses = np.stack([_outcome_mass(n, np.asarray(c, dtype=float)) for c in cells])
    alone = tuple(_count(n, steps, masses[i:i + 1], target) > 0 for i in range(len(cells)))
    return Reach(_count(n, steps, masses, target), alone)
