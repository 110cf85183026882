"""RUN/metrics.json: what ``medvqa score`` writes and ``medvqa report`` reads."""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
)

# --- RUN/metrics.json ----------------------------------------------------------------------
# The public format ``medvqa score`` writes and ``medvqa report`` reads. Each field's docstring
# is its documentation (and its JSON-schema description).

#: 3 (issue 40): every interval names its ``method``; small blocks get score intervals; blocks
#: count their resampling ``units``; ``power``. 2: one bootstrap for the whole run (issue 22).
METRICS_VERSION = 3


class MetricValue(BaseModel):
    """A figure with its 95 % interval and the method that made it."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    value: float | None
    """Point estimate; null where undefined (e.g. accuracy over valid answers with none valid)."""
    ci: list[float | None]
    """[low, high] of the 95 % interval ([null, null]: none); never of zero width for a rate."""
    method: str | None = None
    """How ``ci`` was made (``medvqa.stats._intervals``): ``wilson`` (Wilson score interval,
    the exact Clopper–Pearson bound at 0 or n where wider), ``wilson-ess`` (the same on the
    effective sample size n / design effect, when items share a case), ``wilson-kish`` /
    ``wilson-kish-ess`` (weighted accuracy: Wilson on Kish's effective sample size of the
    class weights, over the design effect when items share a case; ``mover-wilson`` /
    ``mover-wilson-ess``, per-class intervals combined by MOVER, in earlier files),
    ``bootstrap`` (percentile, cases resampled when clustered: from 300 units with 10 or
    more of the rarer outcome, and always for macro-F1, region and open scores), ``none
    (bootstrap degenerate)`` (every resample gave one value: no interval is claimed); null in
    files written before schema 3 (all bootstrap)."""
    design_effect: float | None = None
    """The design effect the sample size was divided by (score intervals; 1 when no case
    repeats); null for the bootstrap."""


class MetricsBlock(BaseModel):
    """The figures of one set of items (overall, or one category / source / split).

    Every figure comes from the metric registry (``medvqa.score._metric_table.METRICS``); a
    registered metric not declared here is kept as an extra key.
    """

    model_config = ConfigDict(use_attribute_docstrings=True, extra="allow")

    accuracy: MetricValue
    """Mean correctness over all scored items; an invalid (unreadable, refused) answer is wrong."""
    weighted_accuracy: MetricValue
    """Mean over gold answer classes of the per-class accuracy (MammoVQA; balanced accuracy);
    null where the condition's answers are no label set (see the condition's ``notes``)."""
    macro_f1: MetricValue
    """Unweighted mean of per-class F1 over the gold classes present; invalid is its own class;
    null where the condition's answers are no label set (see the condition's ``notes``)."""
    invalid_rate: MetricValue
    """Share of responses the parser abstained on (no option, several options, a refusal)."""
    valid_accuracy: MetricValue
    """Accuracy over the responses the parser could read (oncology paper, seed 003)."""
    random_fallbacks: int | None = None
    """Items the parser answered with a random draw (the pathmmu style's fallback); null for
    styles that never guess. Read it beside accuracy: the invalid rate is 0 by construction."""
    random_baseline: float | None = None
    """Expected accuracy of a uniform guess: mean of 1/k (single) or 1/(2^k − 1) (multi)."""
    frequent_baseline: float | None = None
    """Accuracy of always giving the most frequent gold answer text."""
    n: int
    """Items scored (errored requests excluded)."""
    units: int | None = None
    """Resampling units of the block: its cases when cases repeat (and clustering is on), else
    its items. Figures on fewer than 30 are marked in the console and the report; null in files
    written before schema 3."""
    errors: int = 0
    """Requests that failed (API errors); counted, not scored."""
    region: dict[str, MetricValue] | None = None
    """LMOD region recognition: precision, recall, f1 over correctly typed regions, and
    hallucination_resistance over IDs not on the image (mean over valid predictions)."""
    open: dict[str, MetricValue] | None = None
    """Open questions (MIRA): exact and token_f1 (SQuAD normalisation), rouge_l (Unicode word
    tokens), bleu4 (corpus BLEU-4, sacreBLEU, lower-cased, 13a tokeniser, no smoothing)."""


class ConditionMetrics(BaseModel):
    """Everything measured for one condition."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    overall: MetricsBlock
    """All items of the condition."""
    by: dict[str, dict[str, MetricsBlock]] = Field(default_factory=dict)
    """Breakdowns: field (category, source, split) → value → block."""
    subgroups: dict[str, Any] | None = None
    """LMOD subgroup analysis: grouping (age_band, sex, source) → groups (accuracy, n), test,
    p_value (4 significant digits), family ("subgroups") and p_holm (Holm within the
    family)."""
    consistency: float | None = None
    """permute only: share of items answered alike under all option shifts."""
    confusion: dict[str, Any] | None = None
    """Grading items: labels, predicted labels and counts[gold][predicted]."""
    notes: dict[str, str] = Field(default_factory=dict)
    """Metric → why it is null or has no interval in this condition's blocks: weighted accuracy
    and macro-F1 need a label set (at most 20 distinct gold answers, or at least 2 items per
    answer on average) and get an interval up to 100 answers; empty when every figure is
    there."""


class Power(BaseModel):
    """How small a difference between two models this benchmark's scored items can show.

    From the items scored under the baseline condition: their cases, the intra-case
    correlation of correctness estimated on them, and Connor's (1987) power of a paired test
    at 80 % power and two-sided 5 % (``medvqa.stats._power``); ``medvqa power`` computes the
    same before a run, and for a given difference the items needed.
    """

    model_config = ConfigDict(use_attribute_docstrings=True)

    items: int
    """Items scored under the baseline condition."""
    cases: int
    """Their cases (an item without a case_id is its own)."""
    weighted_case_size: float
    """Σm²/n: the mean number of items per case, weighted by size (1: no case repeats)."""
    icc: float | None
    """One-way ANOVA intra-case correlation of correctness on these items (null: no case
    repeats, or not estimable)."""
    design_effect: float
    """1 + (weighted_case_size − 1) · max(icc, 0)."""
    effective_n: float
    """items / design_effect."""
    accuracy: float
    """Baseline accuracy on these items."""
    discordance: float
    """Share of items two models are assumed to disagree on: 2p(1 − p) for two models of this
    accuracy whose errors are unrelated."""
    detectable_difference: float | None
    """Smallest difference in accuracy a paired test detects with 80 % power at two-sided
    5 %; null when no difference could be (fewer than 4 effective items)."""


class MetricsFile(BaseModel):
    """``RUN/metrics.json``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    schema_version: int = METRICS_VERSION
    """Version of this format."""
    style: str
    """Parser style used for choice questions (strict, mammovqa, pathmmu)."""
    n: int
    """Predictions scored, all conditions."""
    seed: int
    """Seed of the bootstrap and permutation tests."""
    resamples: int
    """Bootstrap resamples (and Monte Carlo permutations)."""
    clustered: bool
    """Whether intervals and tests resampled cases: true only when some case contributed
    several items and clustering was on."""
    clustering: str = ""
    """What was resampled, in words: 'cases (40 cases, 120 items)' or 'items (…why…)'."""
    resample_groups: int | None = None
    """Null when each unit (case or item) is drawn on its own; beyond 4,096 units, the number
    of random groups of units that were drawn instead (a seeded deal; see docs/formats.md)."""
    tests_adjusted: int = 0
    """How many p-values in this file were Holm-adjusted (each has a p_holm beside it), all
    families together."""
    test_families: dict[str, int] = Field(default_factory=dict)
    """Family → how many tests Holm adjusted together: controls (the primary claims: each
    control that is not a point of a severity curve), curves (one trend test per curve),
    categories (per-category Δs of the controls), subgroups."""
    skipped: int = 0
    """Predictions skipped for bad input."""
    notes: list[str] = Field(default_factory=list)
    """What was left out and why, beyond skipped lines (a breakdown with more than 200
    values)."""
    model: str = ""
    """Model spec from run.json."""
    benchmark: str = ""
    """Benchmark name."""
    conditions: dict[str, ConditionMetrics] = Field(default_factory=dict)
    """Condition → its metrics (clean first)."""
    controls: dict[str, Any] | None = None
    """Δ = clean − condition with paired bootstrap intervals, the paired test (name, p_value,
    family, p_holm) and verdicts (``deltas``); one trend test per severity curve (``trends``);
    and corruption degradation curves (medvqa.score._controls.Controls)."""
    failure_modes: dict[str, Any] | None = None
    """Condition → rule-based LMOD / MIRA failure tag counts and abstention rate; with --judge,
    each condition's ``judge`` block holds the LLM judge's counts."""
    failure_judge: dict[str, Any] | None = None
    """The failure-mode judge used: model spec and parameters, prompt version, text and
    SHA-256, image use, max_items (null: no judge)."""
    provenance: dict[str, Any] | None = None
    """What these figures were computed from: run.json's identity and predictions.jsonl's
    SHA-256 (medvqa.score._provenance.Provenance); report and compare refuse a metrics.json
    whose run changed since."""
    coverage: dict[str, Any] | None = None
    """Per condition: expected items, scored, errors, missing (count and first ids),
    complete-case and all-items accuracy (medvqa.score._coverage)."""
    seeds: dict[str, int] | None = None
    """The seed of each random step: ``bootstrap`` (intervals and permutation tests,
    ``--seed``), ``parser`` (a seeded style's fallback, ``--parser-seed``) and ``conditions``
    (run.json's seed, with which the conditions are re-derived)."""
    adaptive: dict[str, Any] | None = None
    """An adaptive run's estimate of its accuracy on every item of the selection (null for
    other runs; ``conditions`` then hold the accuracy on the items asked, which were chosen
    for being informative, not at random): accuracy, se, ci, asked, right, items_total,
    target_se, budget, stop, note, the calibration (irt, item_model, inflation), and
    ``recomputed`` (false: irt.json could not be read, the run's own estimate is shown)
    (medvqa.score._adaptive)."""
    power: Power | None = None
    """How small a difference between two models these items can show (null: no baseline
    condition, or before schema 3)."""
    reading: dict[str, Any] | None = None
    """How much of the score is the reader (``--extract``, ``--styles``; null when neither):
    per condition, rules-only accuracy and invalid rate, the same with the extractor (rescued,
    rescue rate, asked, NONE, errors), each compared style's accuracy, invalid rate and
    disagreements (medvqa.score._reading). With ``--adjudication``, ``audit`` holds the reader's
    error measured by humans on a random audit sample and the prediction-powered accuracy
    (:class:`~medvqa.schema.ReadingAudit`, checked when the file is read)."""

    @field_validator("reading")
    @classmethod
    def _audit_is_a_reading_audit(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        """Check ``reading.audit`` against its model (the rest of the block stays free-form)."""
        if value and value.get("audit") is not None:
            from medvqa.schema._audit import ReadingAudit

            value = {**value, "audit": ReadingAudit.model_validate(value["audit"]).model_dump()}
        return value
