"""What the report says first: whether a model reads the images, and whether n is enough.

medvqa is for telling a model that reads the images from one that answers from the text. The
headline of each benchmark is therefore its best model that was run with an image control
(a condition that removes the image and is no point of a severity curve: blind, noise,
text-only; read from ``describe``, never the name), set against the two baselines every
benchmark has — chance (a uniform guess) and the most frequent answer — and against its own
accuracy without the image (the control's Δ and its Holm-adjusted verdict).

Whether a benchmark's test set can compare models at all is said by one documented rule
(:func:`sample_check`): it is too small when a model's 95 % interval of clean accuracy is wider
than ±:data:`MAX_HALF_WIDTH`, or a model scored fewer than :data:`MIN_ITEMS` items (the n at
which an accuracy of 0.5 has a 95 % interval of ±0.10: ⌈(1.96 · 0.5 / 0.10)²⌉ = 97).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from medvqa.conditions import baseline_of, describe
from medvqa.report._console import fmt, interval_text, p_text

if TYPE_CHECKING:
    from medvqa.report._loaded import LoadedRun

#: Widest half-width (accuracy units) of a 95 % interval at which models can be compared.
MAX_HALF_WIDTH = 0.10
#: Fewest scored items at which models can be compared: ⌈(1.96 · 0.5 / MAX_HALF_WIDTH)²⌉.
MIN_ITEMS = math.ceil((1.96 * 0.5 / MAX_HALF_WIDTH) ** 2)

#: The rule, as the report states it.
SAMPLE_RULE = (
    f"A benchmark's sample is too small to compare models when a model's 95 % interval of "
    f"accuracy is wider than ±{MAX_HALF_WIDTH:.2f} or it scored fewer than {MIN_ITEMS} items "
    f"(where an accuracy of 0.5 has an interval of ±{MAX_HALF_WIDTH:.2f}); differences between "
    "models smaller than about twice the half-width cannot be told apart there.")


@dataclass(frozen=True)
class SampleCheck:
    """Whether a benchmark's models can be compared at its sample size.

    Attributes:
        too_small: the rule says the sample is too small to compare models.
        half_width: widest half-width of a model's 95 % interval of clean accuracy.
        n: fewest items a model was scored on.
    """

    too_small: bool
    half_width: float
    n: int

    def text(self) -> str:
        """'too small to compare models (95 % intervals up to ±0.30, n 10)' or the width."""
        width = ("no interval" if math.isinf(self.half_width)
                 else f"95 % intervals up to ±{self.half_width:.2f}")
        what = f"{width}, n {self.n}"
        return f"too small to compare models ({what})" if self.too_small else what


def _clean(run: LoadedRun) -> Any:
    name = baseline_of(run.metrics.conditions)
    return None if name is None else run.metrics.conditions[name]


def sample_check(runs: list[LoadedRun]) -> SampleCheck | None:
    """The rule of :data:`SAMPLE_RULE` over the runs of one benchmark (None without a run)."""
    blocks = [b.overall for r in runs if (b := _clean(r)) is not None]
    if not blocks:
        return None
    widths = [(hi - lo) / 2 for o in blocks
              if None not in (ci := o.accuracy.ci) and (lo := ci[0]) is not None
              and (hi := ci[1]) is not None]
    half = max(widths, default=math.inf)
    n = min(o.n for o in blocks)
    return SampleCheck(half > MAX_HALF_WIDTH or n < MIN_ITEMS, half, n)


def _image_controls(run: LoadedRun) -> list[tuple[str, dict[str, Any]]]:
    """(condition, overall Δ) of each control that removes the image and is no curve point."""
    out = []
    for cond, res in sorted((run.metrics.controls or {}).get("deltas", {}).items()):
        info = describe(cond)
        if "image" in info.removes and "domain" not in info.removes and info.curve is None:
            out.append((cond, res["overall"]))
    return out


def headline(name: str, runs: list[LoadedRun],
             common: dict[str, float] | None = None) -> dict[str, Any] | None:
    """The headline row of one benchmark (None when no run has a clean condition).

    The model is the most accurate (clean) of the runs with an image control — models sent
    the images before text-only ones — or of all runs when none has one; with ``common``
    (model → accuracy on the items every model answered), the most accurate there, so a model
    measured on a few lucky items is not picked over one measured on all. ``rank`` orders
    benchmarks: a model that needs the image first, then one with an image control, then the
    rest; larger samples first within each.
    """
    scored = [(r, b) for r in runs if (b := _clean(r)) is not None]
    if not scored:
        return None
    with_control = [(r, b) for r, b in scored if _image_controls(r)]
    # A model that is sent the images first: a text-only model's image control is moot.
    run, block = max(with_control or scored, key=lambda rb: (
        not (rb[0].info and rb[0].info.model_info.get("text_only")),
        (common or {}).get(rb[0].label, rb[1].overall.accuracy.value or 0.0), rb[1].overall.n))
    text_only = bool(run.info and run.info.model_info.get("text_only"))
    o = block.overall
    controls = _image_controls(run)
    needs = any(d.get("needs_image") for _, d in controls)
    low = o.accuracy.ci[0]
    bases = [b for b in (o.random_baseline, o.frequent_baseline) if b is not None]
    check = sample_check(runs)
    return {
        "benchmark": name, "model": run.label, "n": o.n, "accuracy": fmt(o.accuracy, o.units),
        "random": "–" if o.random_baseline is None else f"{o.random_baseline:.3f}",
        "frequent": "–" if o.frequent_baseline is None else f"{o.frequent_baseline:.3f}",
        "baselines": "above both" if bases and low is not None and low > max(bases)
        else "not above both",
        "control": "; ".join(_control_text(c, d) for c, d in controls) or "no image control run",
        "verdict": ("not applicable (a text-only model never sees the image)" if text_only
                    else "needs the image" if needs else "no evidence it needs the image")
        if controls else "–",
        "sample": check.text() if check else "–",
        "too_small": bool(check and check.too_small),
        "rank": (0 if needs else 1 if controls else 2, -o.n, name),
    }


def _control_text(cond: str, d: dict[str, Any]) -> str:
    """'blind Δ +0.533 [+0.300, +0.767], Holm p 0.0188' (the unadjusted p when not adjusted)."""
    ci = d.get("ci") or [None, None]
    interval = " " + interval_text(ci[0], ci[1], d.get("ci_method"), d.get("units"), signed=True) \
        if None not in ci else ""
    delta = "–" if d.get("delta") is None else f"{d['delta']:+.3f}"
    p = d.get("p_holm")
    test = f"Holm p {p:.3g}" if p is not None else f"p {p_text(d.get('p_value'))}"
    return f"{cond} Δ {delta}{interval}, {test}"
