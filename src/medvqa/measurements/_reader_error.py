"""``medvqa bench`` section ``reader-error``: whether the reader-audit intervals keep their promise.

A simulated run: N responses (1,000–100,000), each right with probability p = 0.6 (what a human
reads), read by an automatic reader with known miss and false-credit rates into three
decisions — read, invalid (abstained), extracted (a second reader rescued it) — the strata of
``medvqa review adjudicate``. An audit sample of n (50–500) is drawn as the command draws it
(:func:`~medvqa.stats.allocate`, ∝ √N_h, without replacement) and read by a perfect human.
Per setting, over seeded replicates, the coverage of the true accuracy p and the mean width of:

- the **plain** interval: the reader's accuracy on all N with medvqa score's percentile
  bootstrap (for 0/1 outcomes exactly Binomial(N, p̂)/N quantiles) — it covers the reader's
  expected accuracy, not p, so it under-covers as soon as the reader errs;
- the **prediction-powered** interval (stratified PPI++, :func:`~medvqa.stats.stratified_ppi`,
  what ``medvqa score --adjudication`` reports);
- the **humans only** interval: the same sample's design-weighted human accuracy (λ = 0).

Only cell counts are drawn (a multinomial over decision × reader-right × human-right, then a
multivariate hypergeometric sample within each stratum), so any N costs the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from medvqa.measurements._figure import BenchFigure
from medvqa.rng import rng_for
from medvqa.stats import Stratum, allocate, stratified_ppi

_AREA = "reader-error"
#: The true accuracy (what a human reads) of every simulated run.
TRUE_ACCURACY = 0.6
STRATA = ("read", "invalid", "extracted")


@dataclass(frozen=True)
class Reader:
    """A simulated automatic reader.

    Attributes:
        name: how the figures name it.
        miss: chance that a right answer is not credited (abstained on, or misread).
        false_credit: chance that a response that is not right is credited.
    """

    name: str
    miss: float
    false_credit: float


READERS = (Reader("good reader", 0.05, 0.02), Reader("rules-like reader", 0.30, 0.03),
           Reader("poor reader", 0.50, 0.12))


def cell_probabilities(reader: Reader, p: float = TRUE_ACCURACY) -> np.ndarray:
    """P(stratum, reader right, human right): shape (3 strata, 2, 2).

    A miss is an abstention 70 % of the time (a misreading otherwise); a response that is not
    right is read (wrongly) 60 % of the time, abstained on otherwise. A fifth of the
    abstentions go to an extractor, which reads a right answer 80 % of the time and credits a
    wrong one 10 % of the time.
    """
    cells = np.zeros((3, 2, 2))
    m, c = reader.miss, reader.false_credit
    cells[0, 1, 1] = p * (1 - m)
    cells[0, 0, 1] = p * m * 0.3
    invalid_right = p * m * 0.7
    cells[0, 1, 0] = (1 - p) * c
    cells[0, 0, 0] = (1 - p) * (1 - c) * 0.6
    invalid_wrong = (1 - p) * (1 - c) * 0.4
    cells[1, 0, 1], cells[1, 0, 0] = invalid_right * 0.8, invalid_wrong * 0.8
    cells[2, 1, 1], cells[2, 0, 1] = invalid_right * 0.2 * 0.8, invalid_right * 0.2 * 0.2
    cells[2, 1, 0], cells[2, 0, 0] = invalid_wrong * 0.2 * 0.1, invalid_wrong * 0.2 * 0.9
    return cells


def reader_rates(cells: np.ndarray) -> dict[str, float]:
    """Agreement P(f = Y), miss P(f = 0 | Y = 1), false credit P(f = 1 | Y = 0), E[f]."""
    by = cells.sum(axis=0)
    return {"agreement": float(by[0, 0] + by[1, 1]),
            "miss": float(by[0, 1] / by[:, 1].sum()),
            "false_credit": float(by[1, 0] / by[:, 0].sum()),
            "reader_accuracy": float(by[1, :].sum())}


@dataclass
class Coverage:
    """Coverage and mean width of the three intervals in one setting."""

    ppi: float
    plain: float
    human: float
    ppi_width: float
    plain_width: float
    human_width: float


def simulate(reader: Reader, population: int, sample: int, reps: int, seed: int = 0
             ) -> Coverage:
    """Seeded replicates of one setting (see the module docstring)."""
    cells = cell_probabilities(reader).reshape(-1)
    rng = rng_for(seed, "reader-error", reader.name, population, sample)
    hit = np.zeros((3, reps), dtype=bool)
    width = np.zeros((3, reps))
    p = TRUE_ACCURACY
    for r in range(reps):
        counts = rng.multinomial(population, cells).reshape(3, 2, 2)
        sizes = {h: int(counts[i].sum()) for i, h in enumerate(STRATA)}
        alloc = allocate(sizes, sample)
        strata = []
        for i, h in enumerate(STRATA):
            if not sizes[h]:
                continue
            got = rng.multivariate_hypergeometric(counts[i].reshape(-1), alloc[h])
            f = np.repeat([0.0, 0.0, 1.0, 1.0], got)
            y = np.repeat([0.0, 1.0, 0.0, 1.0], got)
            strata.append(Stratum(sizes[h], y, f))
        f_mean = float(counts[:, 1, :].sum()) / population
        for j, lam in ((0, None), (2, 0.0)):
            est = stratified_ppi(f_mean, population, strata, lam=lam)
            hit[j, r] = est.low <= p <= est.high
            width[j, r] = est.high - est.low
        lo, hi = sps.binom.ppf([0.025, 0.975], population, f_mean) / population
        hit[1, r] = lo <= p <= hi
        width[1, r] = hi - lo
    cov, w = hit.mean(axis=1), width.mean(axis=1)
    return Coverage(float(cov[0]), float(cov[1]), float(cov[2]), float(w[0]), float(w[1]),
                    float(w[2]))


def bench_reader_error(quick: bool) -> list[BenchFigure]:
    """Coverage and width of the PPI, plain and humans-only intervals per setting."""
    sizes = (1_000,) if quick else (1_000, 10_000, 100_000)
    samples = (100,) if quick else (50, 100, 200, 500)
    readers = READERS[1:2] if quick else READERS
    reps = 200 if quick else 1000
    figures: list[BenchFigure] = []
    worst_ppi, narrower, narrower_of, worst_plain = 1.0, 0, 0, 1.0
    for reader in readers:
        rates = reader_rates(cell_probabilities(reader))
        figures.append(BenchFigure(
            _AREA, f"{reader.name}: miss {rates['miss']:.3f}, false credit "
            f"{rates['false_credit']:.3f}, agreement {rates['agreement']:.3f}; reader's "
            f"expected accuracy − true ({TRUE_ACCURACY})",
            rates["reader_accuracy"] - TRUE_ACCURACY, "accuracy"))
        for big_n in sizes:
            for n in samples:
                c = simulate(reader, big_n, n, reps)
                tag = f"{reader.name}, N {big_n:,}, audit {n}, {reps} replicates"
                target = n >= 100
                figures += [
                    BenchFigure(_AREA, f"{tag}: coverage, prediction-powered", c.ppi,
                                "fraction", ">= 0.93" if target else "",
                                c.ppi >= 0.93 if target else None),
                    BenchFigure(_AREA, f"{tag}: coverage, plain (reader alone)", c.plain,
                                "fraction"),
                    BenchFigure(_AREA, f"{tag}: coverage, humans only", c.human, "fraction"),
                    BenchFigure(_AREA, f"{tag}: mean width, prediction-powered", c.ppi_width,
                                "accuracy", "< humans only" if rates["agreement"] >= 0.8 else "",
                                c.ppi_width < c.human_width if rates["agreement"] >= 0.8
                                else None),
                    BenchFigure(_AREA, f"{tag}: mean width, humans only", c.human_width,
                                "accuracy"),
                    BenchFigure(_AREA, f"{tag}: mean width, plain", c.plain_width, "accuracy"),
                ]
                if target:
                    worst_ppi = min(worst_ppi, c.ppi)
                worst_plain = min(worst_plain, c.plain)
                if rates["agreement"] >= 0.8:
                    narrower_of += 1
                    narrower += c.ppi_width < c.human_width
    figures += [
        BenchFigure(_AREA, "lowest prediction-powered coverage, audits of >= 100", worst_ppi,
                    "fraction", ">= 0.93", worst_ppi >= 0.93),
        BenchFigure(_AREA, f"settings with agreement >= 0.8 where prediction-powered is "
                    f"narrower than humans only (of {narrower_of})", narrower, "settings",
                    f"= {narrower_of}", narrower == narrower_of),
        BenchFigure(_AREA, "lowest plain-interval coverage (nominal 0.95)", worst_plain,
                    "fraction"),
    ]
    return figures
