"""Controls: how much of the clean score needs the image (Δ = clean − condition).

For every condition other than the baseline (``clean``) and those scoring combines (the
``permute@k`` shifts, ``Condition.combined_as``), the items
scored under both are paired by id and compared (:func:`paired_delta`): Δ of accuracy with a
paired interval — Newcombe's square-and-add interval on Jeffreys intervals, on the effective
sample size, or from 300 units and
10 discordant pairs the paired percentile bootstrap (items resampled together, or whole cases
when a ``case_id`` repeats, as the oncology paper's blind ablation does, seed 003 §4.3; drawn
with every other interval of the run, :mod:`medvqa.stats._resample`; the rule in
:mod:`medvqa.score._choose`) — and a paired test clustered the same way (McNemar's mid-p test,
or the exact cluster sign-flip test when cases repeat; :mod:`medvqa.stats._tests`). The same
is done per category.

Which of these are claims, and how they are adjusted, is the ``family`` of each test
(:mod:`medvqa.score._family`): the overall Δ of a control that is not a point of a severity
curve (blind, noise, text-only, swap, ood: what its ``removes`` declares, never its name) is in
the primary family ``controls``; its per-category Δs are in ``categories``. A point of a
severity curve (``Condition.curve``: a corruption at one severity) is shown with its Δ and
unadjusted p but is no claim (family ""): each curve gets one one-sided trend test of accuracy
over severity instead (:mod:`medvqa.stats._trend`), in the family ``curves``. The verdicts
(``needs_image``, ``declines``) follow the Holm-adjusted decision of the family. Corruptions
also give a degradation curve per corruption: accuracy at severity 0 (clean) to 5, PathMMU's
Fig. 7 (seed 004).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from medvqa.conditions import baseline_of, describe
from medvqa.rng import rng_for
from medvqa.score._choose import Chosen, n_units, paired_choice
from medvqa.stats import Resampler, paired_test, significant, trend_test

#: Family of the overall Δ of a control that is not a point of a curve (the primary claims).
PRIMARY = "controls"
#: Family of the per-category Δs of the primary controls (exploratory).
CATEGORIES = "categories"
#: Family of the one trend test per severity curve.
CURVES = "curves"


class Delta(BaseModel):
    """Clean − condition on the items scored under both."""

    n: int = Field(description="Paired items.")
    units: int | None = Field(default=None, description="Their resampling units: cases when "
                              "cases repeat, else items (null before schema 3).")
    clean: float | None = Field(description="Clean accuracy on those items.")
    condition: float | None = Field(description="Accuracy under the condition on those items.")
    delta: float | None = Field(description="clean − condition.")
    ci: list[float | None] = Field(description="95 % paired interval of delta.")
    ci_method: str = Field(default="", description="How ci was made: 'newcombe-jeffreys' "
                           "(Newcombe's square-and-add interval on Jeffreys intervals), "
                           "'newcombe-jeffreys-ess' (on the effective sample size, cases "
                           "repeating) or 'bootstrap' (paired percentile, from 300 units with "
                           "10 discordant pairs); 'tango' / 'tango-ess' (Tango's score "
                           "interval) in earlier files, '' in files before schema 3.")
    p_value: float | None = Field(description="Two-sided p of the paired test (4 significant "
                                  "digits).")
    test: str = Field(default="", description="McNemar mid-p, or cluster sign-flip (exact) "
                      "when cases repeat (McNemar exact before schema 3).")
    family: str = Field(default="", description="The family the test is Holm-adjusted in: "
                        "'controls' (primary), 'categories', or '' for a point of a severity "
                        "curve (no claim: its curve has one trend test).")
    p_holm: float | None = Field(default=None, description="Holm-adjusted within its family; "
                                 "null for a point of a curve.")
    clean_only: int = Field(description="Items right only when clean.")
    condition_only: int = Field(description="Items right only under the condition.")
    needs_image: bool = Field(default=False, description="The verdict: p_holm < 0.05 and the "
                              "interval of delta lies above 0 (never for a point of a curve).")


class CurveTrend(BaseModel):
    """One severity curve's trend test (does accuracy fall as the corruption gets worse)."""

    levels: list[int] = Field(description="Severity levels compared, 0 (clean) first.")
    accuracy: list[float | None] = Field(description="Accuracy at each level on the n items "
                                         "scored at every level.")
    n: int = Field(description="Items scored clean and at every severity run.")
    slope: float | None = Field(description="Least-squares slope of accuracy per severity "
                                "level (negative: it falls).")
    test: str = Field(description="Stratified trend permutation test (units: cases or items), "
                      "or its normal approximation.")
    p_value: float | None = Field(description="One-sided p of a decline (4 significant "
                                  "digits).")
    family: str = Field(default=CURVES, description="Always 'curves'.")
    p_holm: float | None = Field(default=None, description="Holm-adjusted over the run's "
                                 "curves.")
    declines: bool = Field(default=False, description="The verdict: p_holm < 0.05 and the "
                           "slope is negative.")


class ControlResult(BaseModel):
    """One condition's comparison with clean, overall and per category."""

    overall: Delta
    by_category: dict[str, Delta] = Field(default_factory=dict)


class Controls(BaseModel):
    """``metrics.json`` → ``controls``."""

    deltas: dict[str, ControlResult] = Field(default_factory=dict)
    trends: dict[str, CurveTrend] = Field(
        default_factory=dict, description="curve → its one trend test over severities.")
    degradation: dict[str, list[float | None]] = Field(
        default_factory=dict, description="corruption → accuracy at severity 0 (clean) … 5.")


def _nan_to_none(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 6)


@dataclass
class PendingDelta:
    """A :class:`Delta` whose interval is computed, or filled by the run's resampler."""

    fields: dict[str, Any]
    ci: Chosen | None

    def finish(self) -> Delta:
        """The delta, interval drawn."""
        ref = self.ci.ref if self.ci is not None else None
        lo, hi = (ref.low, ref.high) if ref is not None else (math.nan, math.nan)
        lo_, hi_ = _nan_to_none(lo), _nan_to_none(hi)
        return Delta(**self.fields, ci=[lo_, hi_],
                     ci_method=self.ci.method if self.ci is not None else "")


def paired_delta(key: Hashable, a: np.ndarray, b: np.ndarray, units: np.ndarray,
                 resampler: Resampler, family: str = PRIMARY) -> PendingDelta:
    """Clean − condition on paired 0/1 outcomes: paired interval (pending) and paired test.

    Args:
        key: identifies the pair (its columns).
        a: outcomes under clean, item by item.
        b: outcomes under the condition, same items.
        units: resampling unit of each item (the resampler's numbering); the test is the
            clustered one when a unit repeats among the items.
        resampler: the run's resampler.
        family: the family its test is adjusted in ("" for a point of a curve).
    """
    n = len(a)
    clusters = units if len(np.unique(units)) < n else None
    d = a - b
    ci = paired_choice(key, a, b, units, resampler)
    test, p = paired_test(a, b, clusters)

    def mean(x: np.ndarray) -> float:
        return float(x.mean()) if n else float("nan")

    return PendingDelta({
        "n": n, "units": n_units(units) if n else None, "clean": _nan_to_none(mean(a)),
        "condition": _nan_to_none(mean(b)),
        "delta": _nan_to_none(mean(d)), "p_value": significant(p), "test": test,
        "family": family,
        "clean_only": int(np.sum((a == 1) & (b == 0))),
        "condition_only": int(np.sum((a == 0) & (b == 1)))}, ci)


@dataclass
class PendingControls:
    """The controls table with intervals still to draw."""

    deltas: dict[str, tuple[PendingDelta, dict[str, PendingDelta]]]
    degradation: dict[str, list[float | None]]
    trends: dict[str, CurveTrend]

    def finish(self) -> Controls | None:
        """The controls, intervals drawn (None when nothing was compared)."""
        if not self.deltas:
            return None
        out = Controls(degradation=self.degradation, trends=self.trends)
        for cond, (overall, by_cat) in self.deltas.items():
            out.deltas[cond] = ControlResult(
                overall=overall.finish(), by_category={c: d.finish() for c, d in by_cat.items()})
        return out


def control_table(correct: dict[str, tuple[np.ndarray, np.ndarray]], category: np.ndarray,
                  category_labels: list[str] | None, units: np.ndarray,
                  resampler: Resampler) -> PendingControls | None:
    """Δ against clean for every other condition, and corruption degradation curves.

    Args:
        correct: condition → (item index of each row, 0/1 correct), rows in file order.
        category: category code of each item.
        category_labels: label of each category code, or None (no per-category deltas).
        units: resampling unit of each item (cases when clustered, else the items).
        resampler: the run's resampler.

    Returns None when there is no clean condition or nothing to compare with it.
    """
    base = baseline_of(correct)
    if base is None:
        return None
    clean_items, clean_ok = correct[base]
    out = PendingControls({}, degradation_curves(correct, base),
                          trend_tests(correct, base, units, resampler))
    for cond in sorted(correct):
        info = describe(cond)
        if info.baseline or info.combined_as:
            continue
        items, ok = _paired(clean_items, clean_ok, *correct[cond])
        if not len(items):
            continue
        a, b = clean_ok[ok[0]], correct[cond][1][ok[1]]
        unit = units[items]
        on_curve = info.curve is not None
        overall = paired_delta((cond, "Δ"), a, b, unit, resampler, "" if on_curve else PRIMARY)
        by_cat: dict[str, PendingDelta] = {}
        cats = category[items]
        if category_labels is not None and len(np.unique(cats)) > 1:
            for code in sorted(np.unique(cats), key=lambda c: category_labels[c]):
                at = cats == code
                by_cat[category_labels[code]] = paired_delta(
                    (cond, "Δ", int(code)), a[at], b[at], unit[at], resampler,
                    "" if on_curve else CATEGORIES)
        out.deltas[cond] = (overall, by_cat)
    return out if out.deltas else None


def trend_tests(correct: dict[str, tuple[np.ndarray, np.ndarray]], baseline: str,
                units: np.ndarray, resampler: Resampler) -> dict[str, CurveTrend]:
    """Curve → its one-sided trend test over the baseline and every severity run.

    Only items scored under the baseline and at every severity of the curve are used (a
    complete block per item); their units (cases or items) are the strata of the test. The
    permutations are drawn from ``rng_for(seed, "trend", curve)`` with the run's resamples.
    """
    curves: dict[str, dict[int, str]] = {}
    for cond in correct:
        point = describe(cond).curve
        if point is not None:
            curves.setdefault(point[0], {})[point[1]] = cond
    out: dict[str, CurveTrend] = {}
    clean_items, clean_ok = correct[baseline]
    for name in sorted(curves):
        levels = sorted(curves[name])
        conds = [curves[name][lv] for lv in levels]
        common = np.unique(clean_items)
        for cond in conds:
            common = np.intersect1d(common, correct[cond][0], assume_unique=False)
        cols = [clean_ok[_last_row(clean_items)(common)]]
        cols += [correct[c][1][_last_row(correct[c][0])(common)] for c in conds]
        t = trend_test((0, *levels), np.column_stack(cols) if len(common) else
                       np.zeros((0, len(levels) + 1)), units[common], resampler.resamples,
                       rng_for(resampler.seed, "trend", name))
        out[name] = CurveTrend(
            levels=list(t.levels), accuracy=[_nan_to_none(a) for a in t.accuracy], n=t.n,
            slope=_nan_to_none(t.slope), test=t.test, p_value=significant(t.p_value))
    return out


def _paired(clean_items: np.ndarray, clean_ok: np.ndarray, items: np.ndarray,
            ok: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Items scored under both, in clean's row order: (items, (clean rows, condition rows)).

    A repeated item counts once: its first clean row's position, its last rows' outcomes
    (as a dict keyed by item would keep them).
    """
    last_clean = _last_row(clean_items)
    last_other = _last_row(items)
    _, first = np.unique(clean_items, return_index=True)
    order = np.sort(first)
    picked = clean_items[order]
    both = np.isin(picked, items)
    picked = picked[both]
    return picked, (last_clean(picked), last_other(picked))


def _last_row(items: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """Lookup item → index of its last row in ``items`` (vectorised)."""
    rev = items[::-1]
    uniq, first_rev = np.unique(rev, return_index=True)
    last = len(items) - 1 - first_rev

    def lookup(wanted: np.ndarray) -> np.ndarray:
        return last[np.searchsorted(uniq, wanted)]
    return lookup


def degradation_curves(correct: dict[str, tuple[np.ndarray, np.ndarray]],
                       baseline: str | None) -> dict[str, list[float | None]]:
    """Curve → [accuracy at the baseline, level 1, …, 5] (None where a level was not run).

    The curves are the conditions that declare one (``Condition.curve``: corruptions).
    """
    clean = correct[baseline][1] if baseline is not None and baseline in correct else None
    base = float(np.mean(clean)) if clean is not None and len(clean) else None
    curves: dict[str, list[float | None]] = {}
    for cond, (_, ok) in correct.items():
        point = describe(cond).curve
        if point is None or not len(ok):
            continue
        name, level = point
        curve = curves.setdefault(name, [_nan_to_none(base) if base is not None else None]
                                  + [None] * 5)
        curve[level] = round(float(np.mean(ok)), 6)
    return dict(sorted(curves.items()))
