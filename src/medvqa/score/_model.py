"""``RUN/metrics.json`` as pydantic models (the shape DESIGN.md fixes)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

METRICS_VERSION = 1


class MetricValue(BaseModel):
    """A figure with its 95 % bootstrap interval (null where undefined, e.g. no valid answer)."""

    value: float | None = Field(description="Point estimate.")
    ci: list[float | None] = Field(description="[low, high] percentile bootstrap interval.")


class MetricsBlock(BaseModel):
    """Metrics of one set of items (overall, or one category/source/split)."""

    accuracy: MetricValue = Field(description="Mean correctness; invalid counts as wrong.")
    weighted_accuracy: MetricValue = Field(description="Mean of per-answer-class accuracy.")
    macro_f1: MetricValue = Field(description="Macro-F1 over gold answer classes.")
    invalid_rate: MetricValue = Field(description="Share of responses the parser abstained on.")
    valid_accuracy: MetricValue = Field(description="Accuracy over readable responses.")
    random_baseline: float | None = Field(description="Expected accuracy of a uniform guess.")
    frequent_baseline: float | None = Field(
        description="Accuracy of always giving the most frequent gold answer text."
    )
    n: int = Field(description="Items scored (errored requests excluded).")
    errors: int = Field(default=0, description="Requests that failed; not scored.")
    region: dict[str, MetricValue] | None = Field(
        default=None, description="precision, recall, f1, hallucination_resistance (LMOD)."
    )
    open: dict[str, MetricValue] | None = Field(
        default=None, description="exact, token_f1, bleu4, rouge_l for open questions (MIRA)."
    )


class ConditionMetrics(BaseModel):
    """Everything measured for one condition."""

    overall: MetricsBlock
    by: dict[str, dict[str, MetricsBlock]] = Field(default_factory=dict)
    subgroups: dict[str, Any] | None = Field(
        default=None, description="Accuracy by age band / sex / source with tests (LMOD)."
    )
    consistency: float | None = Field(
        default=None, description="permute only: share of items answered alike under all shifts."
    )
    confusion: dict[str, Any] | None = Field(
        default=None, description="Grading items: labels and counts[gold][predicted]."
    )


class MetricsFile(BaseModel):
    """``metrics.json``."""

    schema_version: int = Field(default=METRICS_VERSION)
    style: str = Field(description="Parser style used.")
    n: int = Field(description="Predictions scored, all conditions.")
    seed: int = Field(description="Bootstrap seed.")
    resamples: int = Field(description="Bootstrap resamples.")
    clustered: bool = Field(description="Whether CIs resample cases (a case_id repeats).")
    skipped: int = Field(default=0, description="Predictions skipped for bad input.")
    model: str = Field(default="", description="Model spec from run.json.")
    benchmark: str = Field(default="", description="Benchmark name.")
    conditions: dict[str, ConditionMetrics] = Field(default_factory=dict)
    controls: dict[str, Any] | None = Field(
        default=None, description="Δ = clean − condition with paired CIs, McNemar, verdicts, "
        "and corruption degradation curves (medvqa.score._controls.Controls).")
    failure_modes: dict[str, Any] | None = Field(
        default=None, description="condition → rule-based LMOD / MIRA failure tag counts and "
        "abstention rate (medvqa.score._failure_modes); with ``--judge``, each condition's "
        "``judge`` block holds the LLM judge's counts (medvqa.score._judge).")
    failure_judge: dict[str, Any] | None = Field(
        default=None, description="The failure-mode judge used: model spec and parameters, "
        "prompt version, text and SHA-256, image use, max_items (null: no judge).")
    provenance: dict[str, Any] | None = Field(
        default=None, description="What these figures were computed from: run.json identity "
        "and predictions.jsonl SHA-256 (medvqa.score._provenance.Provenance); report and "
        "compare refuse a metrics.json whose run changed since.")
    coverage: dict[str, Any] | None = Field(
        default=None, description="Per condition: expected items, scored, errors, missing "
        "(count and first ids), complete-case and all-items accuracy "
        "(medvqa.score._coverage).")
