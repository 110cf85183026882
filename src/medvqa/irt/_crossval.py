"""Held-out-model cross-validation: whether the calibration predicts models it has not seen.

The zoo's models are dealt into folds (seeded). For each fold the items are calibrated on the
other models, and each held-out model is checked two ways:

* **prediction**: its items are split in two halves by case (items of one case stay together,
  so no half learns from a sibling of the items it predicts); its ability is read from one half
  and its answers on the other are predicted — log-loss and Brier score for the 1PL and 2PL
  models and for the baseline that knows only each item's share right in the other models;
* **adaptive replay**: an adaptive test on its real answers, stopped at the target standard
  error (by default the one its own full run has), against its real accuracy: items asked,
  error, whether the 95 % interval held the real accuracy, and (real − estimated) / SE. The
  root mean square of that z over the zoo is the calibration's *interval inflation* when it is
  above 1: an adaptive run widens its intervals by it, so their coverage is what was
  measured, not what was assumed.

One dealing gives one replay per model: 30 of them for a zoo of 30, and a root mean square of
30 z's is uncertain by about ±0.13 (every test of the next model pays for an inflation estimated
too high, and an interval covers less than it says where it was estimated too low). The dealing
is therefore repeated with fresh folds (:data:`MIN_REPLAYS`: until there are at least that many
replays, at most :data:`MAX_REPEATS` dealings, so the time stays bounded: a calibration per fold
and dealing), each model held out once per dealing against other companions. The other item
model's comparison fit runs on the first dealing only: the log-loss comparison needs no more.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from medvqa.irt._calibrate import Priors, calibrate
from medvqa.irt._model import ItemBank
from medvqa.irt._session import AdaptiveSession, AdaptiveSettings, predict
from medvqa.rng import rng_for
from medvqa.schema import IrtCrossValidation

_EPS = 1e-6
#: Replays the interval inflation is estimated from, at least (dealings repeat until then).
MIN_REPLAYS = 90
#: Most dealings into folds (each costs a calibration per fold).
MAX_REPEATS = 3


def repeats_for(models: int, min_replays: int = MIN_REPLAYS,
                max_repeats: int = MAX_REPEATS) -> int:
    """Dealings into folds for a zoo of ``models``: enough for ``min_replays``, at most max.

    >>> repeats_for(30), repeats_for(10), repeats_for(100)
    (3, 3, 1)
    """
    return max(1, min(max_repeats, -(-min_replays // max(models, 1))))


@dataclass(frozen=True)
class CrossValidationResult:
    """The diagnostics and the interval inflation they imply."""

    summary: IrtCrossValidation
    inflation: float


def _halves(cases: np.ndarray, answered: np.ndarray, seed: int,
            m: int) -> tuple[np.ndarray, np.ndarray]:
    labels = np.unique(cases[answered])
    pick = rng_for(seed, "irt-cv-half", m).permutation(labels)[: len(labels) // 2]
    first = np.isin(cases, pick) & answered
    return np.flatnonzero(first), np.flatnonzero(answered & ~first)


def _losses(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(p, _EPS, 1 - _EPS)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).sum()), float(((p - y) ** 2).sum())


def _predictions(fits: dict[str, ItemBank], item_model: str, base: np.ndarray, row: np.ndarray,
                 cases: np.ndarray, answered: np.ndarray, seed: int, m: int,
                 loss: dict[str, float], brier: dict[str, float], acc_err: list[float]) -> int:
    """Add one held-out model's half-from-half prediction losses; return the items predicted."""
    first, second = _halves(cases, answered, seed, m)
    if len(first) == 0 or len(second) == 0:
        return 0
    y2 = row[second]
    for name, bank in fits.items():
        p = predict(bank, first, row[first], second)
        ll, br = _losses(p, y2)
        loss[name] += ll
        brier[name] += br
        if name == item_model:
            acc_err.append(abs(float(p.mean() - y2.mean())))
    ll, br = _losses(base[second], y2)
    loss["baseline"] += ll
    brier["baseline"] += br
    return len(second)


def full_run_se(y: np.ndarray) -> float:
    """The binomial standard error of a model's accuracy on every item it answered."""
    p = float(np.mean(y))
    return max(float(np.sqrt(p * (1.0 - p) / max(len(y), 1))), 1e-4)


def _replay(bank: ItemBank, y: np.ndarray, target_se: float | None, seed: int,
            m: int, repeat: int = 0) -> tuple[int, float, float, bool]:
    target = full_run_se(y) if target_se is None else target_se
    key = (m,) if repeat == 0 else (m, repeat)
    session = AdaptiveSession(bank, AdaptiveSettings(target_se=target),
                              rng_for(seed, "irt-cv-replay", *key))
    est = session.estimate()
    while session.stop_reason(est) is None:
        for i in session.next_items():
            session.record(i, bool(y[i]))
        est = session.estimate()
    real = float(y.mean())
    z = (real - est.value) / est.se if est.se > 0 else 0.0
    return est.asked, abs(real - est.value), z, est.low <= real <= est.high


def cross_validate(correct: np.ndarray, cases: np.ndarray, item_model: str, priors: Priors,
                   *, seed: int, folds: int = 5,
                   target_se: float | None = None,
                   compare: bool = True,
                   floors: np.ndarray | None = None,
                   repeats: int | None = None) -> CrossValidationResult:
    """Cross-validate a calibration over models (see the module's docstring).

    Args:
        correct: models × items of 1, 0, NaN.
        cases: integer case label per item.
        item_model: the chosen model (``1pl`` or ``2pl``): the replays use it.
        priors: the calibration's starting priors.
        seed: seed of the folds and the splits.
        folds: folds (at most one per model).
        compare: also fit the other item model, for the log-loss comparison (first dealing).
        floors: per item the fixed guessing floor (None: 0, the 2PL).
        repeats: dealings into folds (None: :func:`repeats_for` the zoo's size).
        target_se: standard error the replays stop at (None: each held-out model's full-run
            standard error, where an interval is narrowest and the calibration's own error
            weighs most: the inflation measured there is safe at any wider target).
    """
    n_models = correct.shape[0]
    k = max(2, min(folds, n_models))
    dealings = repeats_for(n_models) if repeats is None else max(1, repeats)
    loss = {"1pl": 0.0, "2pl": 0.0, "baseline": 0.0}
    brier = dict.fromkeys(loss, 0.0)
    count = 0
    acc_err: list[float] = []
    replays: list[tuple[int, float, float, bool]] = []
    names = ("1pl", "2pl") if compare else (item_model,)
    for r in range(dealings):
        key = () if r == 0 else (r,)  # the first dealing is the one of a single dealing
        fold_of = rng_for(seed, "irt-cv-folds", *key).permutation(np.arange(n_models) % k)
        for f in range(k):
            train = correct[fold_of != f]
            fits = {name: calibrate(train, name, priors, cases=cases, floors=floors).bank
                    for name in (names if r == 0 else (item_model,))}
            obs = ~np.isnan(train)
            base = (np.nansum(train, axis=0) + 0.5) / (obs.sum(axis=0) + 1.0)
            for m in np.flatnonzero(fold_of == f):
                row = correct[m]
                answered = ~np.isnan(row)
                if r == 0:
                    count += _predictions(fits, item_model, base, row, cases, answered, seed,
                                          int(m), loss, brier, acc_err)
                idx = np.flatnonzero(answered)
                replays.append(_replay(fits[item_model].subset(idx), row[idx], target_se, seed,
                                       int(m), r))
    n = max(count, 1)
    z = np.array([r[2] for r in replays]) if replays else np.zeros(0)
    z_rms = float(np.sqrt(np.mean(z**2))) if len(z) else None
    kept = [*names, "baseline"]
    summary = IrtCrossValidation(
        folds=k, repeats=dealings, replays=len(replays),
        log_loss={name: round(loss[name] / n, 6) for name in kept},
        brier={name: round(brier[name] / n, 6) for name in kept},
        accuracy_mae=round(float(np.mean(acc_err)), 6) if acc_err else 0.0,
        adaptive_items=round(float(np.mean([r[0] for r in replays])), 3) if replays else None,
        adaptive_target_se=target_se,
        adaptive_error=round(float(np.mean([r[1] for r in replays])), 6) if replays else None,
        adaptive_coverage=round(float(np.mean([r[3] for r in replays])), 6) if replays else None,
        z_rms=round(z_rms, 6) if z_rms is not None else None,
    )
    return CrossValidationResult(summary, max(1.0, z_rms or 1.0))
