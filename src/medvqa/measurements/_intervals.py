"""``medvqa bench`` section ``intervals``: coverage and mean width of each interval method.

Simulated sets of n items with known truth, n ∈ :data:`N_GRID`, p ∈ :data:`P_GRID`, items
independent or **clustered**: cases of 1–4 items (uniform; mean 2.5, as the demo's VQA-RAD
test set, 47 items in 18 cases), a case's items sharing a case-level probability drawn from
Beta(p·(1 − ρ)/ρ, (1 − p)·(1 − ρ)/ρ), which gives 0/1 outcomes an intra-case correlation of
exactly ρ = :data:`ICC`. Three statistics:

- **accuracy** (true p);
- **paired difference** of two conditions on the same items, A right with probability p, B
  with p − 0.1, discordant both ways (cells p11, p10 = 0.1 + r, p01 = r, p00 with
  r = min(p − 0.1, 1 − p) / 4; clustered: a case's four cell probabilities from a Dirichlet of
  total (1 − ρ)/ρ, so each indicator has ICC ρ); true difference 0.1;
- **weighted accuracy** of two gold classes (the second with a :data:`CLASS_SHARE` of the
  items) with accuracies p ± d, d = min(0.1, (1 − p)/2) (clustered: one case-level uniform
  draw mapped through each class's Beta quantile, so the classes of a case move together);
  true value p.

Each method's 95 % intervals are computed on the same replicates: **medvqa** (the rule
metrics.json uses: Wilson for accuracy, Newcombe's square-and-add on Jeffreys intervals for the
difference, Wilson on Kish's effective n for weighted accuracy, each on the effective sample
size; the percentile bootstrap from 300 units with 10 of the rarer outcome), the **percentile
bootstrap** medvqa used before for every figure (cases resampled when clustered;
:data:`RESAMPLES` resamples), and for comparison on the same effective sample size: the Jeffreys
and Clopper–Pearson intervals (accuracy), Tango's score interval and Newcombe's hybrid on Wilson
intervals (difference), per-class Wilson intervals combined by MOVER (weighted accuracy; Tango
and MOVER were medvqa's rule before). A figure's value is its coverage (share of replicates
whose interval holds the truth; Monte Carlo standard error ≈ √(0.05·0.95/R), 0.005 at R =
2,000), its name the mean width; medvqa's accuracy on independent items is summed exactly over
the binomial outcomes instead (:func:`exact_accuracy_cell`), and so are the difference and
weighted accuracy on fewer than 300 independent items
(:mod:`medvqa.measurements._intervals_exact`). Seeded (``rng_for(0, "bench intervals", …)``):
the same figures on every run. Target (issue 40): medvqa's coverage within 0.93–0.98 for n ≥ 10
(to three decimals: at n = 10, p = 0.9 an interval either excludes 7 of 10 — coverage P(X ≥ 8) =
0.9298 — or includes it, 0.987), and no zero-width interval for a rate. A paired difference on
10 items expects 1.2–3 discordant pairs, and there the target is out of reach of any interval
of the discordant counts; the section says so, and gives medvqa's interval's coverage on a
finer grid of n and p that no choice was tuned on (:mod:`medvqa.measurements._intervals_reach`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from medvqa.measurements._figure import BenchFigure
from medvqa.measurements._intervals_exact import exact_paired, exact_weighted
from medvqa.measurements._intervals_reach import (
    FAMILIES,
    FINE_N,
    FINE_P,
    QUICK_FINE_N,
    QUICK_FINE_P,
    finer_grid,
    monotone_reach,
    paired_cell_probs,
)
from medvqa.rng import rng_for
from medvqa.stats import (
    BOOTSTRAP_MIN_UNITS,
    PairedSums,
    UnitSums,
    WeightedSums,
    bootstrap_mask,
    newcombe_bounds,
    paired_bounds,
    rate_bounds,
    score_bounds,
    tango_bounds,
    weighted_bounds,
    wilson_bounds,
)

#: Set sizes simulated.
N_GRID = (5, 10, 20, 30, 50, 100, 300)
#: True accuracies simulated.
P_GRID = (0.5, 0.7, 0.9, 0.97)
#: Intra-case correlation of the clustered sets.
ICC = 0.3
#: Items per case of the clustered sets: uniform over this range.
CASE_SIZES = (1, 4)
#: Replicates and bootstrap resamples per cell (full size, and ``--quick``).
REPLICATES, QUICK_REPLICATES = 2000, 200
RESAMPLES, QUICK_RESAMPLES = 999, 199
#: The issue's coverage target, from this n.
TARGET, TARGET_FROM_N = (0.93, 0.98), 10
#: Difference between the two conditions of the paired statistic.
PAIRED_GAP = 0.1
#: Share of the second gold class of the weighted-accuracy statistic.
CLASS_SHARE = 0.4

MEDVQA = "medvqa"
BOOT = "bootstrap (before)"


@dataclass(frozen=True)
class Cell:
    """One method on one simulated cell.

    Attributes:
        statistic: accuracy, paired difference or weighted accuracy.
        clustered: whether items share cases.
        n: items.
        p: true accuracy.
        method: the interval method.
        coverage: share of replicates whose interval holds the truth.
        width: mean width.
        zero_width: replicates whose interval has zero width.
    """

    statistic: str
    clustered: bool
    n: int
    p: float
    method: str
    coverage: float
    width: float
    zero_width: int


def case_sizes(n: int, reps: int, rng: np.random.Generator, clustered: bool) -> np.ndarray:
    """Reps × n items per case (cases packed first, zeros after the last case)."""
    if not clustered:
        return np.ones((reps, n))
    lo, hi = CASE_SIZES
    sizes = rng.integers(lo, hi + 1, size=(reps, n)).astype(float)
    total = np.cumsum(sizes, axis=1)
    last = np.argmax(total >= n, axis=1)
    rows = np.arange(reps)
    sizes[rows, last] -= total[rows, last] - n
    sizes[np.arange(n)[None, :] > last[:, None]] = 0
    return sizes


def _concentration() -> float:
    return (1 - ICC) / ICC


def _case_beta(u: np.ndarray, p: float) -> np.ndarray:
    """The case-level accuracy at uniform draw u: the Beta(p·c, (1 − p)·c) quantile."""
    from scipy.stats import beta

    c = _concentration()
    return np.asarray(beta.ppf(u, p * c, (1 - p) * c))


def _percentile(stats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bounds along the last axis, NaN resamples left out (as metrics.json)."""
    lo, hi = np.nanquantile(stats, [0.025, 0.975], axis=-1)
    return lo, hi


def bootstrap(columns: np.ndarray, sizes: np.ndarray,
              statistic: Callable[[np.ndarray], np.ndarray], resamples: int,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap of every replicate: units (cases) drawn with replacement.

    ``columns``: reps × units × k per-unit sums; ``statistic`` maps (… × k) sums to values.
    Replicates with the same number of units share one draw of the unit weights.
    """
    units = (sizes > 0).sum(axis=1)
    lo, hi = np.empty(len(sizes)), np.empty(len(sizes))
    for k in np.unique(units):
        at = np.flatnonzero(units == k)
        weights = rng.multinomial(int(k), np.full(int(k), 1 / k), size=resamples).astype(float)
        sums = np.einsum("bk,rkc->rbc", weights, columns[at][:, :int(k)], optimize=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = statistic(sums)
        lo[at], hi[at] = _percentile(values)
    return lo, hi


def _record(out: list[Cell], key: tuple[str, bool, int, float], method: str, lo: np.ndarray,
            hi: np.ndarray, truth: float) -> None:
    width = hi - lo
    out.append(Cell(*key, method, float(np.mean((lo <= truth + 1e-12) & (truth - 1e-12 <= hi))),
                    float(np.mean(width)), int(np.sum(width <= 1e-12))))


def accuracy_cells(n: int, p: float, clustered: bool, reps: int, resamples: int,
                   rng: np.random.Generator) -> list[Cell]:
    """Accuracy: medvqa's rule, the bootstrap, Jeffreys and Clopper–Pearson (effective n)."""
    from scipy.stats import beta

    m = case_sizes(n, reps, rng, clustered)
    pk = _case_beta(rng.random(m.shape), p) if clustered else np.full(m.shape, p)
    y = rng.binomial(m.astype(int), pk).astype(float)
    x, total = y.sum(1), m.sum(1)
    ph = x / total
    rare = np.where((x <= total - x)[:, None], y, m - y)
    s = UnitSums(x, total, ((y - ph[:, None] * m) ** 2).sum(1), (m * m).sum(1),
                 (m > 0).sum(1).astype(float), (rare > 0).sum(1).astype(float))
    lo, hi, deff = rate_bounds(s)
    blo, bhi = bootstrap(np.stack([y, m], -1), m, lambda v: v[..., 0] / v[..., 1], resamples,
                         rng)
    keep = bootstrap_mask(s.k, np.minimum(x, total - x) / deff)
    key = ("accuracy", clustered, n, p)
    out: list[Cell] = []
    if clustered:
        _record(out, key, MEDVQA, np.where(keep, blo, lo), np.where(keep, bhi, hi), p)
    else:
        out.append(exact_accuracy_cell(n, p))
    _record(out, key, BOOT, blo, bhi, p)
    xe, ne = x / deff, total / deff
    with np.errstate(invalid="ignore", divide="ignore"):
        jl = np.where(x > 0, beta.ppf(0.025, xe + 0.5, ne - xe + 0.5), 0.0)
        jh = np.where(x < total, beta.ppf(0.975, xe + 0.5, ne - xe + 0.5), 1.0)
        cl = np.where(x > 0, beta.ppf(0.025, np.maximum(xe, 1e-12), ne - xe + 1), 0.0)
        ch = np.where(x < total, beta.ppf(0.975, xe + 1, np.maximum(ne - xe, 1e-12)), 1.0)
    _record(out, key, "Jeffreys (effective n)", jl, jh, p)
    _record(out, key, "Clopper-Pearson (effective n)", cl, ch, p)
    return out


def exact_accuracy_cell(n: int, p: float) -> Cell:
    """Medvqa's rule on n independent items, its coverage summed over every outcome exactly.

    Each number right x has one interval: the score interval, or where the rule keeps the
    bootstrap its limit (the 2.5 % and 97.5 % quantiles of Binomial(n, x/n) / n, what the
    percentile bootstrap of 0/1 items converges to); coverage is Σ P(x) over the x whose
    interval holds p — no Monte Carlo error.

    >>> round(exact_accuracy_cell(10, 0.9).coverage, 4)
    0.9298
    """
    from scipy.stats import binom

    x = np.arange(n + 1, dtype=float)
    lo, hi = score_bounds(x, np.full(n + 1, float(n)))
    keep = bootstrap_mask(np.full(n + 1, n), np.minimum(x, n - x))
    lo = np.where(keep, binom.ppf(0.025, n, x / n) / n, lo)
    hi = np.where(keep, binom.ppf(0.975, n, x / n) / n, hi)
    pmf = binom.pmf(x, n, p)
    return Cell("accuracy", False, n, p, MEDVQA, float(pmf[(lo <= p) & (p <= hi)].sum()),
                float(np.sum(pmf * (hi - lo))), int(np.sum(hi - lo <= 1e-12)))


def _paired_cells(p: float) -> np.ndarray:
    return paired_cell_probs(p, PAIRED_GAP, 0.25)


def paired_cells(n: int, p: float, clustered: bool, reps: int, resamples: int,
                 rng: np.random.Generator) -> list[Cell]:
    """Paired difference: medvqa's rule, the bootstrap, Tango and Newcombe-Wilson."""
    m = case_sizes(n, reps, rng, clustered)
    probs = _paired_cells(p)
    if clustered:
        g = rng.gamma(probs * _concentration(), size=m.shape + (4,))
        pk = g / np.maximum(g.sum(-1, keepdims=True), 1e-300)
    else:
        pk = np.broadcast_to(probs, m.shape + (4,))
    counts = np.zeros(m.shape + (4,))
    left, mass = m.copy(), np.ones(m.shape)
    for j in range(3):
        q = np.clip(pk[..., j] / np.maximum(mass, 1e-300), 0.0, 1.0)
        counts[..., j] = rng.binomial(left.astype(int), q)
        left -= counts[..., j]
        mass = mass - pk[..., j]
    counts[..., 3] = left
    a11, b, c, _ = (counts[..., j].sum(1) for j in range(4))
    total = m.sum(1)
    diff = counts[..., 1] - counts[..., 2]
    delta = (b - c) / total
    s = PairedSums(a11, b, c, total, ((diff - delta[:, None] * m) ** 2).sum(1), (m * m).sum(1),
                   (m > 0).sum(1).astype(float))
    lo, hi, deff = paired_bounds(s)
    blo, bhi = bootstrap(np.stack([diff, m], -1), m, lambda v: v[..., 0] / v[..., 1],
                         resamples, rng)
    keep = bootstrap_mask(s.k, (b + c) / deff)
    key = ("paired difference", clustered, n, p)
    out: list[Cell] = []
    if clustered or n >= BOOTSTRAP_MIN_UNITS:
        _record(out, key, MEDVQA, np.where(keep, blo, lo), np.where(keep, bhi, hi), PAIRED_GAP)
    else:
        out.append(Cell(*key, MEDVQA, *exact_paired(n, probs, PAIRED_GAP)))
    _record(out, key, BOOT, blo, bhi, PAIRED_GAP)
    tl, th = tango_bounds(b / deff, c / deff, total / deff)
    _record(out, key, "Tango (effective n)", tl, th, PAIRED_GAP)
    nl, nh = newcombe_bounds(a11 / deff, b / deff, c / deff, total / deff, wilson_bounds)
    _record(out, key, "Newcombe-Wilson (effective n)", nl, nh, PAIRED_GAP)
    return out


def _weighted_statistic(v: np.ndarray) -> np.ndarray:
    """Mean over the classes drawn of per-class accuracy, from (… × [x0, x1, n0, n1]) sums."""
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = v[..., :2] / v[..., 2:]
    return np.asarray(np.nanmean(np.where(v[..., 2:] > 0, acc, np.nan), axis=-1))


def weighted_cells(n: int, p: float, clustered: bool, reps: int, resamples: int,
                   rng: np.random.Generator) -> list[Cell]:
    """Weighted accuracy of two classes: medvqa's rule, the bootstrap, MOVER-Wilson."""
    gap = min(0.1, (1 - p) / 2)
    accs = (p + gap, p - gap)
    m = case_sizes(n, reps, rng, clustered)
    m1 = rng.binomial(m.astype(int), CLASS_SHARE).astype(float)
    sizes = np.stack([m - m1, m1], -1)
    if clustered:
        u = rng.random(m.shape)
        pk = np.stack([_case_beta(u, a) for a in accs], -1)
    else:
        pk = np.broadcast_to(np.array(accs), m.shape + (2,))
    y = rng.binomial(sizes.astype(int), pk).astype(float)
    x_c, n_c = y.sum(1), sizes.sum(1)
    present = n_c > 0
    w = present / present.sum(-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_c = np.where(present, x_c / np.where(present, n_c, 1.0), 0.0)
        influence = (w[:, None, :] * (y - p_c[:, None, :] * sizes)
                     / np.where(present, n_c, 1.0)[:, None, :]).sum(-1)
    right = y.sum(-1)
    rare = np.where((np.sum(w * p_c, -1) <= 0.5)[:, None], right, m - right)
    s = WeightedSums(x_c, n_c, (influence ** 2).sum(1), (m * m).sum(1),
                     (m > 0).sum(1).astype(float), (rare > 0).sum(1).astype(float))
    bounds = weighted_bounds(s)
    truth = float(np.mean(accs))
    blo, bhi = bootstrap(np.concatenate([y, sizes], -1), m, _weighted_statistic, resamples, rng)
    keep = bootstrap_mask(s.k, bounds.rarer)
    key = ("weighted accuracy", clustered, n, p)
    out: list[Cell] = []
    if clustered or n >= BOOTSTRAP_MIN_UNITS:
        _record(out, key, MEDVQA, np.where(keep, blo, bounds.low),
                np.where(keep, bhi, bounds.high), truth)
    else:
        out.append(Cell(*key, MEDVQA, *exact_weighted(n, CLASS_SHARE, accs)))
    _record(out, key, BOOT, blo, bhi, truth)
    ml, mh = mover_wilson(x_c, n_c, bounds.design_effect)
    _record(out, key, "MOVER-Wilson (effective n)", ml, mh, truth)
    return out


def mover_wilson(x: np.ndarray, n: np.ndarray,
                 deff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-class score intervals on n_c / D combined by MOVER (Zou & Donner 2008).

    ``x``, ``n``: sets × classes (n 0 where a class is absent); ``deff``: one D per set.

    >>> lo, hi = mover_wilson(np.array([[6.0, 3.0]]), np.array([[7.0, 3.0]]), np.array([1.0]))
    >>> round(float(lo[0]), 3), round(float(hi[0]), 3)
    (0.529, 0.987)
    """
    present = n > 0
    w = present / np.maximum(present.sum(-1, keepdims=True), 1)
    n_safe = np.where(present, n, 1.0)
    p_c = np.where(present, x / n_safe, 0.0)
    lo_c, hi_c = score_bounds(x / deff[:, None], n_safe / deff[:, None])
    point = np.sum(w * p_c, -1)
    down = np.sqrt(np.sum(np.where(present, w * (p_c - lo_c), 0.0) ** 2, -1))
    up = np.sqrt(np.sum(np.where(present, w * (hi_c - p_c), 0.0) ** 2, -1))
    return np.clip(point - down, 0.0, 1.0), np.clip(point + up, 0.0, 1.0)


STATISTICS = {"accuracy": accuracy_cells, "paired difference": paired_cells,
              "weighted accuracy": weighted_cells}


def simulate(quick: bool) -> list[Cell]:
    """Every cell of the grid (``quick``: n 10 and 30, p 0.9, fewer replicates)."""
    reps = QUICK_REPLICATES if quick else REPLICATES
    resamples = QUICK_RESAMPLES if quick else RESAMPLES
    ns, ps = ((10, 30), (0.9,)) if quick else (N_GRID, P_GRID)
    out: list[Cell] = []
    for name, fn in STATISTICS.items():
        for clustered in (False, True):
            for n in ns:
                for p in ps:
                    rng = rng_for(0, "bench intervals", name, clustered, n, p)
                    out += fn(n, p, clustered, reps, resamples, rng)
    return out


def _in_target(c: Cell) -> bool:
    return TARGET[0] <= round(c.coverage, 3) <= TARGET[1]


def bench_intervals(quick: bool) -> list[BenchFigure]:
    """Coverage and mean width of each method on the grid; the target on medvqa's rows."""
    cells = simulate(quick)
    figures = []
    for c in cells:
        design = f"clustered (ICC {ICC:g})" if c.clustered else "independent"
        aimed = c.method == MEDVQA and c.n >= TARGET_FROM_N
        figures.append(BenchFigure(
            "intervals", f"{c.statistic}, {design}, n {c.n}, p {c.p:g}: {c.method}, mean "
            f"width {c.width:.3f}", c.coverage, "coverage",
            f"{TARGET[0]:.2f}-{TARGET[1]:.2f}" if aimed else "",
            _in_target(c) if aimed else None))
    ours = [c for c in cells if c.method == MEDVQA and c.n >= TARGET_FROM_N]
    inside = sum(_in_target(c) for c in ours)
    reps = QUICK_REPLICATES if quick else REPLICATES
    se = (0.05 * 0.95 / reps) ** 0.5
    figures.append(BenchFigure("intervals", f"medvqa's cells (n >= {TARGET_FROM_N}) with "
                               f"coverage in {TARGET[0]:.2f}-{TARGET[1]:.2f} (Monte Carlo SE "
                               f"of a coverage near 0.95: {se:.3f})", inside,
                               f"of {len(ours)}"))
    figures += _paired_limits(quick)
    for method, target in ((MEDVQA, "0"), (BOOT, "")):
        zero = sum(c.zero_width for c in cells if c.method == method)
        figures.append(BenchFigure(
            "intervals", f"zero-width intervals, {method}, every statistic and n "
            f"({reps:,} replicates a cell)", zero, "intervals", target,
            zero == 0 if target else None))
    return figures


def _paired_limits(quick: bool) -> list[BenchFigure]:
    """The paired difference on few pairs: the limit of any interval, and the finer grid."""
    ps = P_GRID
    reach = monotone_reach(TARGET_FROM_N, [_paired_cells(p) for p in ps], PAIRED_GAP, TARGET)
    pair = monotone_reach(TARGET_FROM_N, [_paired_cells(p) for p in (ps[0], ps[-1])],
                          PAIRED_GAP, TARGET)
    span = f"{TARGET[0]:.2f}-{TARGET[1]:.2f}"
    alone = "reachable" if all(reach.alone) else "not all reachable"
    ns, fps = (QUICK_FINE_N, QUICK_FINE_P) if quick else (FINE_N, FINE_P)
    grid = finer_grid(ns, fps)
    cov = np.round([c.coverage for c in grid], 3)
    over = [c.discordant for c, v in zip(grid, cov, strict=True) if v > TARGET[1]]
    where = (f"finer grid (independent pairs, n {ns[0]}-{ns[-1]} ({len(ns)} values), p "
             f"{fps[0]:.2f}-{fps[-1]:.2f} ({len(fps)} values), {len(FAMILIES)} families of "
             f"cells, exact)")
    return [
        BenchFigure("intervals", f"paired difference, {TARGET_FROM_N} independent pairs: monotone "
                    f"intervals of the discordant counts with p {', '.join(f'{p:g}' for p in ps)} "
                    f"all in {span} (each p alone: {alone})", reach.together, "intervals"),
        BenchFigure("intervals", f"paired difference, {TARGET_FROM_N} independent pairs: the same "
                    f"with p {ps[0]:g} and {ps[-1]:g} both in {span}", pair.together,
                    "intervals"),
        BenchFigure("intervals", f"paired difference, {where}: medvqa's cells in {span}",
                    int(np.sum((cov >= TARGET[0]) & (cov <= TARGET[1]))), f"of {len(grid):,}"),
        BenchFigure("intervals", f"paired difference, {where}: medvqa's cells below "
                    f"{TARGET[0]:.2f}", int(np.sum(cov < TARGET[0])), "cells", "0",
                    bool(np.sum(cov < TARGET[0]) == 0)),
        BenchFigure("intervals", f"paired difference, {where}: most discordant pairs expected "
                    f"in a cell above {TARGET[1]:.2f}", round(max(over, default=0.0), 2),
                    "pairs"),
    ]
