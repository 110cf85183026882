"""Paired comparison of two runs (or two conditions of one run) on the same items.

The difference in accuracy (A − B) gets a paired bootstrap interval — items (or cases, when a
case_id repeats) are resampled once and both runs are scored on the same resample — and McNemar's
exact test on the discordant pairs (two-sided binomial test with p = 1/2). Items are matched by
item id; only items scored (not errored) in both are compared.

>>> mcnemar_exact(10, 2)
0.03857421875
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from medvqa.errors import BadInputError
from medvqa.schema import ITEMS_FILE, PREDICTIONS_FILE, Item, Prediction, read_jsonl
from medvqa.score._bootstrap import cluster_index, ratio_ci


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts."""
    from scipy.stats import binomtest

    n = a_only + b_only
    return 1.0 if n == 0 else float(binomtest(a_only, n, 0.5).pvalue)


@dataclass(frozen=True)
class PairedComparison:
    """A − B on the items both scored."""

    label_a: str
    label_b: str
    n: int
    accuracy_a: float
    accuracy_b: float
    difference: float
    ci: tuple[float, float]
    a_only: int
    b_only: int
    mcnemar_p: float
    clustered: bool

    @property
    def excludes_zero(self) -> bool:
        """True when the interval of the difference excludes 0."""
        return self.ci[0] > 0 or self.ci[1] < 0


def paired_difference(
    a: np.ndarray, b: np.ndarray, case_ids: list[str | None] | None, resamples: int, seed: int,
    label_a: str = "A", label_b: str = "B",
) -> PairedComparison:
    """Compare paired 0/1 outcomes ``a`` and ``b`` (same items, same order)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    n = len(a)
    clusters = cluster_index(case_ids, n)
    ci = ratio_ci(a - b, np.ones(n), clusters if clusters is not None else np.arange(n),
                  resamples, seed)
    a_only = int(np.sum((a == 1) & (b == 0)))
    b_only = int(np.sum((a == 0) & (b == 1)))
    return PairedComparison(
        label_a, label_b, n, float(a.mean()) if n else float("nan"),
        float(b.mean()) if n else float("nan"), float((a - b).mean()) if n else float("nan"),
        (ci.low, ci.high), a_only, b_only, mcnemar_exact(a_only, b_only), clusters is not None,
    )


def _scored(run_dir: Path, condition: str) -> dict[str, bool]:
    path = Path(run_dir) / PREDICTIONS_FILE
    if not path.is_file():
        raise BadInputError(f"{run_dir}: no {PREDICTIONS_FILE}")
    out = {p.item_id: bool(p.correct) for p in read_jsonl(path, Prediction, errors=[])
           if p.condition == condition and p.error is None and p.correct is not None}
    if not out:
        raise BadInputError(
            f"{path}: no scored predictions for condition {condition!r} (run `medvqa score` first)"
        )
    return out


def compare_runs(
    run_a: Path, run_b: Path, condition_a: str = "clean", condition_b: str = "clean",
    bench_dir: Path | None = None, resamples: int = 9999, seed: int = 0,
) -> PairedComparison:
    """Paired comparison of two scored runs (or two conditions of one run when run_a == run_b)."""
    a, b = _scored(run_a, condition_a), _scored(run_b, condition_b)
    ids = sorted(a.keys() & b.keys())
    if not ids:
        raise BadInputError(f"{run_a} and {run_b} share no scored items")
    cases: list[str | None] | None = None
    if bench_dir is not None and (Path(bench_dir) / ITEMS_FILE).is_file():
        case_of = {
            i.id: i.case_id for i in read_jsonl(Path(bench_dir) / ITEMS_FILE, Item, errors=[])
        }
        cases = [case_of.get(i) for i in ids]
    return paired_difference(
        np.array([a[i] for i in ids]), np.array([b[i] for i in ids]), cases, resamples, seed,
        f"{Path(run_a).name}:{condition_a}", f"{Path(run_b).name}:{condition_b}",
    )
