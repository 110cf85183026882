"""``medvqa irt fit`` as one library call: read the zoo, calibrate, judge the items, write irt.json.

Deterministic: the calibration has no random step, and the cross-validation's folds and splits
come from ``rng_for(seed, …)``, so the same runs give the same irt.json bytes (no clock in it).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medvqa.errors import UsageError
from medvqa.irt._calibrate import Calibration, Priors, calibrate
from medvqa.irt._config import IrtFitConfig
from medvqa.irt._crossval import cross_validate
from medvqa.irt._exposure import ExposureParameters, sympson_hetter
from medvqa.irt._guessing import floors
from medvqa.irt._matrix import ResponseMatrix, read_matrix
from medvqa.irt._model import IRT_MODELS
from medvqa.irt._quality import ItemSignals, item_signals
from medvqa.irt._session import case_design_effect
from medvqa.irt._settings import AdaptiveSettings
from medvqa.schema import (
    BROKEN_FLAGS,
    FLAG_REASONS,
    FLAGGED_FILE,
    LABEL_ERROR_FLAGS,
    UNINFORMATIVE_FLAGS,
    FlaggedItem,
    IrtCalibration,
    IrtExposure,
    IrtItem,
    IrtModel,
    IrtPriors,
    IrtQuality,
    Item,
    read_jsonl,
    write_json,
    write_jsonl,
)

log = logging.getLogger(__name__)

#: Source name of the flags this command writes to BENCH/flagged.jsonl.
FLAG_SOURCE = "irt"


@dataclass
class IrtFitResult:
    """What :func:`fit_irt` wrote.

    Attributes:
        calibration: irt.json's content.
        path: where it was written.
        flagged_path: BENCH/flagged.jsonl when ``to_review`` wrote it, else None.
        flagged: items written to the review queue.
    """

    calibration: IrtCalibration
    path: Path
    flagged_path: Path | None = None
    flagged: int = 0
    notes: list[str] = field(default_factory=list)


def key_text(item: Item) -> str:
    """The keyed answer as text (option text for choice items; "" for multi-answer items)."""
    if isinstance(item.answer, list):
        return ""
    return item.options.get(item.answer, item.answer) if item.options else str(item.answer)


def _r(x: float | None, digits: int = 6) -> float | None:
    return None if x is None or not np.isfinite(x) else round(float(x), digits)


def _items(matrix: ResponseMatrix, cal: Calibration, sig: ItemSignals,
           exposure_k: np.ndarray) -> list[IrtItem]:
    obs = ~np.isnan(matrix.correct)
    right = np.nansum(matrix.correct, axis=0)
    bank = cal.bank
    out = []
    for i, item in enumerate(matrix.items):
        a, d = float(bank.a[i]), float(bank.d[i])
        out.append(IrtItem(
            id=item.id, case_id=item.case_id, answered=int(obs[:, i].sum()), right=int(right[i]),
            a=round(a, 6), d=round(d, 6), b=round(-d / a, 6) if abs(a) >= 0.05 else None,
            a_se=round(float(np.sqrt(bank.cov[i, 0, 0])), 6),
            d_se=round(float(np.sqrt(bank.cov[i, 1, 1])), 6),
            ad_cov=round(float(bank.cov[i, 0, 1]), 6),
            c=round(float(bank.c[i]), 6), exposure_k=round(float(exposure_k[i]), 6),
            slope_z=_r(sig.slope_z[i], 4), item_rest=_r(sig.item_rest[i], 4),
            infit=_r(sig.infit[i], 4), outfit=_r(sig.outfit[i], 4),
            outfit_p=_r(sig.outfit_p[i], 6), top_other=sig.top_other[i],
            flags=sig.flags[i]))
    return out


def _models(matrix: ResponseMatrix, cal: Calibration) -> list[IrtModel]:
    out = []
    for m, zm in enumerate(matrix.models):
        row = matrix.correct[m]
        answered = ~np.isnan(row)
        deff = case_design_effect(cal.bank, np.flatnonzero(answered), row[answered],
                                  float(cal.theta[m]))
        out.append(IrtModel(
            name=zm.name, run=zm.run, spec=zm.spec, condition=zm.condition,
            answered=int(answered.sum()),
            accuracy=round(float(np.nanmean(row)) if answered.any() else 0.0, 6),
            theta=round(float(cal.theta[m]), 6),
            theta_sd=round(float(cal.theta_sd[m] * np.sqrt(deff)), 6),
            design_effect=round(deff, 4)))
    return out


def quality_counts(items: list[IrtItem]) -> IrtQuality:
    """Counts of flagged items by kind (a label-error flag outranks the others)."""
    q = IrtQuality()
    for it in items:
        flags = set(it.flags)
        for f in it.flags:
            q.by_flag[f] = q.by_flag.get(f, 0) + 1
        if flags & LABEL_ERROR_FLAGS:
            q.suspected_label_errors += 1
        elif flags & BROKEN_FLAGS:
            q.broken += 1
        elif flags & UNINFORMATIVE_FLAGS:
            q.uninformative += 1
    q.by_flag = dict(sorted(q.by_flag.items()))
    return q


def review_flags(items: list[IrtItem]) -> list[FlaggedItem]:
    """The items to send to review: every item with a label-error or broken flag."""
    out = []
    for it in items:
        suspect = [f for f in it.flags if f in LABEL_ERROR_FLAGS | BROKEN_FLAGS]
        if not suspect:
            continue
        reasons = [FLAG_REASONS[f] for f in suspect]
        if it.top_other:
            reasons.append(f"the stronger models mostly answer {it.top_other!r}")
        out.append(FlaggedItem(item_id=it.id, source=FLAG_SOURCE, reasons=reasons, flags=suspect,
                               data={"a": it.a, "slope_z": it.slope_z, "right": it.right,
                                     "answered": it.answered, "top_other": it.top_other}))
    return out


def write_flagged(bench_dir: Path, flagged: list[FlaggedItem]) -> Path:
    """Replace this command's lines of BENCH/flagged.jsonl with ``flagged`` (others are kept)."""
    path = Path(bench_dir) / FLAGGED_FILE
    kept = [f for f in read_jsonl(path, FlaggedItem) if f.source != FLAG_SOURCE] \
        if path.is_file() else []
    write_jsonl(path, kept + flagged)
    return path


def _notes(matrix: ResponseMatrix, items: list[IrtItem]) -> list[str]:
    notes = []
    alike = sum(1 for it in items if set(it.flags) & UNINFORMATIVE_FLAGS)
    if alike:
        notes.append(f"{alike} of {len(items)} items were answered alike by every model "
                     "(uninformative: their parameters are the prior's, and an adaptive run "
                     "seldom asks them)")
    sparse = [m.name for m, row in zip(matrix.models, matrix.correct, strict=True)
              if np.isnan(row).mean() > 0.5]
    if sparse:
        notes.append(f"{len(sparse)} model(s) answered fewer than half of the items: "
                     + ", ".join(sparse[:5]))
    return notes


def _exposure(fit: ExposureParameters) -> IrtExposure:
    return IrtExposure(max_rate=fit.max_rate, target_se=fit.target_se, simulees=fit.simulees,
                       rounds=fit.rounds, max_given=round(float(fit.given.max()), 6),
                       mean_given=round(float(fit.given.mean()), 6))


def fit_irt(config: IrtFitConfig) -> IrtFitResult:
    """Calibrate a benchmark on a zoo of scored runs and write irt.json.

    Raises:
        BadInputError: a run of other items or an unscored run, fewer than five models
            (names how many more), a bad items.jsonl line.
        UsageError: an unknown item model or guessing mode, an exposure cap outside [0, 1].
    """
    from medvqa import __version__

    if config.item_model not in IRT_MODELS:
        raise UsageError(f"--model {config.item_model!r}: use {' or '.join(IRT_MODELS)}")
    if not 0.0 <= config.exposure_rate <= 1.0:
        raise UsageError(f"--exposure-rate {config.exposure_rate}: use a share of tests in "
                         "[0, 1] (0: no exposure parameters)")
    matrix = read_matrix(config.bench_dir, list(config.runs), tuple(config.conditions))
    cases = matrix.case_labels
    priors = Priors()
    floor = floors(matrix.items, config.guessing)
    cal = calibrate(matrix.correct, config.item_model, priors, cases=cases, floors=floor)
    sig = item_signals(matrix.correct, matrix.chosen, [key_text(it) for it in matrix.items],
                       cal.bank, cal.theta)
    cv = cross_validate(matrix.correct, cases, config.item_model, priors, seed=config.seed,
                        folds=config.folds, target_se=config.cv_target_se, floors=floor) \
        if config.folds >= 2 else None
    inflation = cv.inflation if cv else 1.0
    exposure = sympson_hetter(cal.bank, AdaptiveSettings(target_se=config.exposure_target_se,
                                                         inflation=inflation),
                              seed=config.seed, max_rate=config.exposure_rate) \
        if 0.0 < config.exposure_rate < 1.0 else None
    items = _items(matrix, cal, sig, exposure.k if exposure else np.ones(len(cal.bank)))
    n_answers = int((~np.isnan(matrix.correct)).sum())
    k = cal.parameters
    result = IrtCalibration(
        tool_version=__version__, benchmark=matrix.bench.name,
        benchmark_version=matrix.bench.version, items_sha256=matrix.items_sha256,
        item_model=config.item_model,  # type: ignore[arg-type]
        guessing=config.guessing,  # type: ignore[arg-type]
        conditions=list(config.conditions), style=matrix.style, seed=config.seed,
        priors=IrtPriors(slope_mean=round(cal.priors.slope_mean, 6),
                         slope_sd=round(cal.priors.slope_sd, 6),
                         intercept_mean=round(cal.priors.intercept_mean, 6),
                         intercept_sd=round(cal.priors.intercept_sd, 6),
                         empirical=cal.priors.empirical),
        loglik=round(cal.loglik, 4), aic=round(2 * k - 2 * cal.loglik, 4),
        bic=round(k * np.log(max(n_answers, 1)) - 2 * cal.loglik, 4),
        iterations=cal.iterations, converged=cal.converged,
        interval_inflation=round(inflation, 6),
        exposure=_exposure(exposure) if exposure else None,
        models=_models(matrix, cal), items=items, cv=cv.summary if cv else None,
        quality=quality_counts(items), notes=_notes(matrix, items))
    write_json(config.out, result)
    out = IrtFitResult(result, Path(config.out), notes=list(result.notes))
    if config.to_review:
        flagged = review_flags(items)
        out.flagged_path = write_flagged(config.bench_dir, flagged)
        out.flagged = len(flagged)
    return out
