"""``medvqa power`` and metrics.json's ``power``: the smallest difference a benchmark can show.

A benchmark of n items in K cases, whose correctness correlates within a case by ρ (the ICC),
has the effective size n / D with D = 1 + (Σm²/n − 1)·ρ; a paired test of two models on it
detects, with 80 % power at two-sided 5 %, differences down to Connor's (1987) bound for the
share ψ of items the two models disagree on (:mod:`medvqa.stats._power`).

- ρ: estimated from scored runs where given (one-way ANOVA on each run's baseline outcomes per
  case, averaged over runs), else ``--icc``, else :data:`ASSUMED_ICC` when cases repeat.
- ψ: observed between pairs of the runs given (their share of discordant items, averaged), else
  2p(1 − p) for two models of the runs' accuracy p whose errors are unrelated, else 0.5.

``medvqa score`` writes the same for its own run (:func:`run_power`, ψ from its accuracy); the
report states it under each comparison table (:func:`power_line`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np

from medvqa.errors import BadInputError
from medvqa.schema import (
    ITEMS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    Item,
    Power,
    Prediction,
    RunInfo,
    file_sha256,
    read_json,
    read_jsonl,
)
from medvqa.score._power_config import ASSUMED_ICC, PowerConfig
from medvqa.stats import (
    dense_labels,
    detectable_difference,
    effective_pairs_needed,
    icc_anova,
    independent_discordance,
    kish_design_effect,
)


def power_line(items: int, cases: int, detectable: float | None) -> str:
    """The sentence under a comparison table.

    >>> power_line(47, 18, 0.2104)
    'with these 47 items in 18 cases, differences under 0.21 cannot be told from noise'
    >>> power_line(3, 3, None)
    'with these 3 items in 3 cases, no difference can be told from noise'
    """
    where = f"with these {items:,} items in {cases:,} cases"
    if detectable is None:
        return f"{where}, no difference can be told from noise"
    return f"{where}, differences under {detectable:.2f} cannot be told from noise"


def _case_sizes(cases: np.ndarray) -> np.ndarray:
    """Items per case from a case label per item."""
    return np.bincount(dense_labels(np.asarray(cases))).astype(float) if len(cases) else \
        np.zeros(0)


def design_power(cases: np.ndarray, icc: float | None, accuracy: float,
                 discordance: float) -> Power:
    """The :class:`~medvqa.schema.Power` of items with these case labels (one per item)."""
    sizes = _case_sizes(cases)
    n = float(sizes.sum())
    deff = kish_design_effect(icc if icc is not None else 0.0, sizes) if n else 1.0
    n_eff = n / deff if deff else 0.0
    mdd = detectable_difference(n_eff, discordance)
    return Power(items=int(n), cases=len(sizes),
                 weighted_case_size=round(float(np.sum(sizes ** 2)) / n, 4) if n else 0.0,
                 icc=None if icc is None or icc != icc else round(icc, 4),
                 design_effect=round(deff, 4), effective_n=round(n_eff, 2),
                 accuracy=round(accuracy, 6), discordance=round(discordance, 6),
                 detectable_difference=None if mdd is None else round(mdd, 4))


def run_power(cases: np.ndarray, correct: np.ndarray) -> Power | None:
    """metrics.json's ``power``: one run's baseline items, their cases and outcomes.

    Args:
        cases: case label of each scored baseline item.
        correct: its 0/1 outcome.
    """
    if len(correct) < 2:
        return None
    codes = dense_labels(np.asarray(cases))
    sizes = np.bincount(codes).astype(float)
    icc = icc_anova(np.bincount(codes, weights=np.asarray(correct, float)), sizes) \
        if len(sizes) < len(codes) else None
    accuracy = float(np.mean(correct))
    return design_power(codes, icc, accuracy, independent_discordance(accuracy))


def pooled_power(powers: list[Power]) -> Power | None:
    """One benchmark's power from its runs' ``power`` blocks (None without any).

    The fewest items and cases any run scored, the runs' mean weighted case size, ICC (over
    those that estimate one) and accuracy; ψ for two models of that accuracy whose errors are
    unrelated.
    """
    if not powers:
        return None
    iccs = [p.icc for p in powers if p.icc is not None]
    icc = float(np.mean(iccs)) if iccs else None
    items, cases = min(p.items for p in powers), min(p.cases for p in powers)
    m_w = float(np.mean([p.weighted_case_size for p in powers]))
    accuracy = float(np.mean([p.accuracy for p in powers]))
    deff = 1 + (m_w - 1) * max(icc or 0.0, 0.0)
    psi = independent_discordance(accuracy)
    mdd = detectable_difference(items / deff, psi)
    return Power(items=items, cases=cases, weighted_case_size=round(m_w, 4),
                 icc=None if icc is None else round(icc, 4), design_effect=round(deff, 4),
                 effective_n=round(items / deff, 2), accuracy=round(accuracy, 6),
                 discordance=round(psi, 6),
                 detectable_difference=None if mdd is None else round(mdd, 4))


def power_note(p: Power) -> str:
    """The power line with how it was computed (the report's comparison tables).

    >>> power_note(Power(items=47, cases=18, weighted_case_size=3.1, icc=0.2, design_effect=1.42,
    ...     effective_n=33.1, accuracy=0.7, discordance=0.42, detectable_difference=0.2897))[:81]
    'With these 47 items in 18 cases, differences under 0.29 cannot be told from noise'
    """
    line = power_line(p.items, p.cases, p.detectable_difference)
    icc = "" if p.icc is None else f"intra-case correlation {p.icc:.2f}, "
    return (line[0].upper() + line[1:] + f" (paired test, 80 % power, two-sided 5 %; {icc}"
            f"design effect {p.design_effect:.2f}; two models of accuracy {p.accuracy:.2f} "
            "whose errors are unrelated; `medvqa power` sizes a benchmark).")


@dataclass
class PowerReport:
    """What ``medvqa power`` found.

    Attributes:
        power: the benchmark's figures (items, cases, ICC, design effect, detectable
            difference).
        icc_source: where the ICC comes from, in words.
        discordance_source: where ψ comes from, in words.
        delta: the difference sized for.
        items_needed: items a paired test needs to detect ``delta`` (inf when it cannot).
        cases_needed: cases of this benchmark's mean size that hold them.
        runs_icc: each run's ICC estimate (NaN where not estimable).
    """

    power: Power
    icc_source: str
    discordance_source: str
    delta: float
    items_needed: float
    cases_needed: float
    runs_icc: dict[str, float] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """What the command prints, one line each."""
        p = self.power
        per_case = p.items / p.cases if p.cases else 0.0
        icc = "no case repeats" if p.weighted_case_size <= 1 else \
            f"ICC {p.icc if p.icc is not None else 0:.2f} ({self.icc_source})"
        out = [f"{p.items:,} items in {p.cases:,} cases ({per_case:.2f} items per case); "
               f"{icc}; design effect {p.design_effect:.2f}, effective n {p.effective_n:,.1f}",
               f"paired test of two models, 80 % power, two-sided 5 %: discordance "
               f"{p.discordance:.3f} ({self.discordance_source})",
               power_line(p.items, p.cases, p.detectable_difference)]
        if math.isinf(self.items_needed):
            out.append(f"a difference of {self.delta:g} cannot be detected at this "
                       f"discordance (it needs more than {p.discordance:.3f} of items to "
                       "differ)")
        else:
            out.append(f"to detect a difference of {self.delta:g}: "
                       f"{math.ceil(self.items_needed):,} items (about "
                       f"{math.ceil(self.cases_needed):,} cases of {per_case:.2f} items)")
        return out


def _check_delta(delta: float) -> None:
    if not 0 < delta < 1:
        raise BadInputError(f"--delta {delta:g}: a difference in accuracy between 0 and 1 "
                            "(exclusive), e.g. 0.05")


def _bench_cases(bench_dir: Path) -> tuple[list[str], np.ndarray]:
    """Item ids and a case label per item (an item without a case_id is its own case)."""
    path = Path(bench_dir) / ITEMS_FILE
    if not path.is_file():
        raise BadInputError(f"{bench_dir}: not a benchmark folder (no {ITEMS_FILE})")
    items = list(read_jsonl(path, Item))
    if len(items) < 2:
        raise BadInputError(f"{path}: {len(items)} item(s); a power calculation needs at least "
                            "2 items")
    labels = [i.case_id if i.case_id is not None else f"\x00item:{i.id}" for i in items]
    _, codes = np.unique(np.asarray(labels, dtype=object).astype(str), return_inverse=True)
    return [i.id for i in items], codes.reshape(-1)


def _run_outcomes(run: Path, bench_sha: str, bench_dir: Path,
                  condition: str) -> dict[str, bool]:
    """Item id → correct under ``condition`` of one scored run of this benchmark."""
    info_path = Path(run) / RUN_FILE
    if not info_path.is_file():
        raise BadInputError(f"{run}: not a run folder (no {RUN_FILE})")
    info = read_json(info_path, RunInfo)
    if info.items_sha256 and info.items_sha256 != bench_sha:
        raise BadInputError(
            f"{info_path}: made for another benchmark (items_sha256 {info.items_sha256[:12]}…, "
            f"{bench_dir}/{ITEMS_FILE} is {bench_sha[:12]}…); give runs of this benchmark")
    path = Path(run) / PREDICTIONS_FILE
    out = {p.item_id: bool(p.correct) for p in read_jsonl(path, Prediction, errors=[])
           if p.condition == condition and p.error is None and p.correct is not None} \
        if path.is_file() else {}
    if not out:
        raise BadInputError(f"{path}: no scored predictions for condition {condition!r} "
                            "(run `medvqa score` first)")
    return out


def benchmark_power(config: PowerConfig) -> PowerReport:
    """The power of a benchmark's paired comparisons (see the module docstring)."""
    _check_delta(config.delta)
    if config.icc is not None and not 0 <= config.icc <= 1:
        raise BadInputError(f"--icc {config.icc:g}: an intra-case correlation between 0 and 1")
    ids, codes = _bench_cases(config.bench_dir)
    bench_sha = file_sha256(Path(config.bench_dir) / ITEMS_FILE)
    outcomes = {str(r): _run_outcomes(r, bench_sha, config.bench_dir, config.condition)
                for r in config.runs}
    sizes = np.bincount(codes).astype(float)
    repeats = len(sizes) < len(codes)
    runs_icc = {}
    accuracies = []
    for name, got in outcomes.items():
        at = np.array([i in got for i in ids])
        y = np.array([got.get(i, False) for i in ids], dtype=float)
        accuracies.append(float(y[at].mean()))
        if repeats:
            runs_icc[name] = icc_anova(np.bincount(codes[at], weights=y[at], minlength=len(sizes)),
                                       np.bincount(codes[at], minlength=len(sizes)).astype(float))
    estimated = [v for v in runs_icc.values() if v == v]
    if config.icc is not None:
        icc, icc_source = config.icc, "--icc"
    elif estimated:
        icc = float(np.mean(estimated))
        icc_source = f"estimated from {len(estimated)} run(s)"
    else:
        icc = ASSUMED_ICC
        icc_source = ("assumed: no scored run given; --runs or --icc" if not outcomes else
                      "assumed: not estimable from the runs; --icc sets it")
    accuracy = float(np.mean(accuracies)) if accuracies else 0.5
    pairs = [d for a, b in combinations(outcomes, 2)
             if (d := _discordance(outcomes[a], outcomes[b])) is not None]
    if pairs:
        psi = max(float(np.mean(pairs)), 1e-9)
        source = f"observed between {len(pairs)} pair(s) of runs"
    elif accuracies:
        psi = independent_discordance(accuracy)
        source = f"two models of accuracy {accuracy:.3f} whose errors are unrelated"
    else:
        psi = 0.5
        source = "two models of accuracy 0.5 whose errors are unrelated (no run given)"
    power = design_power(codes, icc if repeats else None, accuracy, psi)
    needed = effective_pairs_needed(config.delta, power.discordance) * power.design_effect
    per_case = power.items / power.cases
    return PowerReport(power, icc_source, source, config.delta, needed, needed / per_case,
                       runs_icc)


def _discordance(a: dict[str, bool], b: dict[str, bool]) -> float | None:
    """Share of the items scored in both runs on which they disagree (None: none shared)."""
    common = a.keys() & b.keys()
    if not common:
        return None
    return sum(a[i] != b[i] for i in common) / len(common)


def power_json(report: PowerReport) -> str:
    """The report as JSON (``medvqa power --json``)."""
    return json.dumps({**report.power.model_dump(), "icc_source": report.icc_source,
                       "discordance_source": report.discordance_source,
                       "delta": report.delta,
                       "items_needed": None if math.isinf(report.items_needed)
                       else math.ceil(report.items_needed),
                       "runs_icc": {k: (None if v != v else round(v, 4))
                                    for k, v in report.runs_icc.items()}}, indent=2)
