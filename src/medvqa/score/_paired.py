"""Paired comparison of two runs (or two conditions of one run) on the same items.

The difference in accuracy (A − B) gets a paired interval chosen as the controls' are
(:mod:`medvqa.score._choose`): Newcombe's square-and-add interval on Jeffreys intervals, on the
effective sample size, or from 300 units and 10 discordant pairs the paired bootstrap — items
(or cases, when a case_id repeats) resampled once and both runs scored on the same resample —
and a paired test that agrees with it about clustering
(:func:`medvqa.stats._tests.paired_test`): McNemar's mid-p test when every case has one item,
the exact cluster sign-flip test when cases repeat. Items are matched by item id; only items
scored (not errored) in both are compared.

>>> mcnemar_exact(10, 2)
0.03857421875
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from medvqa.errors import BadInputError
from medvqa.schema import (
    CLEAN,
    ITEMS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    Item,
    Prediction,
    read_jsonl,
)
from medvqa.score._checks import check_resamples
from medvqa.score._choose import paired_choice
from medvqa.score._config import ScoreConfig
from medvqa.stats import Resampler, cluster_index, paired_test


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
    p_value: float
    test: str
    clustered: bool
    ci_method: str = ""

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
    units = clusters if clusters is not None else np.arange(n)
    # The draws of metrics.json's intervals (medvqa.stats._resample), on these items' units.
    resampler = Resampler(int(units.max(initial=-1)) + 1, resamples, seed)
    chosen = paired_choice("Δ", a, b, units, resampler)
    resampler.run()
    ci = chosen.ref.interval if chosen is not None else (float("nan"), float("nan"))
    a_only = int(np.sum((a == 1) & (b == 0)))
    b_only = int(np.sum((a == 0) & (b == 1)))
    test, p = paired_test(a, b, clusters)
    return PairedComparison(
        label_a, label_b, n, float(a.mean()) if n else float("nan"),
        float(b.mean()) if n else float("nan"), float((a - b).mean()) if n else float("nan"),
        (ci[0], ci[1]), a_only, b_only, p, test, clusters is not None,
        chosen.method if chosen is not None else "",
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
    run_a: Path, run_b: Path, condition_a: str = CLEAN, condition_b: str = CLEAN,
    bench_dir: Path | None = None, resamples: int = ScoreConfig.resamples,
    seed: int = ScoreConfig.seed, cluster: bool = True,
) -> PairedComparison:
    """Paired comparison of two scored runs (or two conditions of one run when run_a == run_b).

    Case ids come from ``bench_dir``. Without it, a run whose metrics.json says it was scored
    case-clustered is refused (BadInputError) unless ``cluster`` is False: clustering is never
    dropped silently.
    """
    check_resamples(resamples)
    from medvqa.score._score import (
        previous_style,
        refuse_mixed_items,
        refuse_mixed_styles,
        scored_items_sha256,
    )

    refuse_mixed_styles({str(r): previous_style(Path(r) / METRICS_FILE) or "strict"
                         for r in dict.fromkeys((run_a, run_b))})
    # One key for both runs: two runs scored on different items are refused whatever their
    # benchmarks are named (a paired test pairs items by id).
    refuse_mixed_items({str(r): ("", scored_items_sha256(Path(r) / METRICS_FILE))
                        for r in dict.fromkeys((run_a, run_b))})
    a, b = _scored(run_a, condition_a), _scored(run_b, condition_b)
    ids = sorted(a.keys() & b.keys())
    if not ids:
        raise BadInputError(f"{run_a} and {run_b} share no scored items")
    cases: list[str | None] | None = None
    if cluster and bench_dir is not None and (Path(bench_dir) / ITEMS_FILE).is_file():
        case_of = {
            i.id: i.case_id for i in read_jsonl(Path(bench_dir) / ITEMS_FILE, Item, errors=[])
        }
        cases = [case_of.get(i) for i in ids]
    elif cluster:
        for run in {Path(run_a), Path(run_b)}:
            if _was_clustered(run):
                raise BadInputError(
                    f"{run}: scored with case-clustered intervals; pass --bench BENCH so the "
                    "comparison resamples cases too, or --no-cluster to compare items")
    return paired_difference(
        np.array([a[i] for i in ids]), np.array([b[i] for i in ids]), cases, resamples, seed,
        f"{Path(run_a).name}:{condition_a}", f"{Path(run_b).name}:{condition_b}",
    )


def _was_clustered(run: Path) -> bool:
    """Whether ``medvqa score`` resampled cases for this run (metrics.json ``clustered``)."""
    import json

    path = run / METRICS_FILE
    if not path.is_file():
        return False
    try:
        return bool(json.loads(path.read_text(encoding="utf-8")).get("clustered"))
    except ValueError:
        return False
