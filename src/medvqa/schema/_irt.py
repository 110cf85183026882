"""``irt.json`` (what ``medvqa irt fit`` writes) and ``BENCH/flagged.jsonl`` (items sent to review).

``irt.json`` calibrates one benchmark version's items on a zoo of scored runs: each item's
discrimination and difficulty with their uncertainty, each model's ability, fit diagnostics,
and the items whose parameters suggest a wrong answer key or a broken question.
``medvqa run --adaptive``, ``medvqa audit --irt`` and the review app read it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

IRT_VERSION = 1

#: Why an item is flagged: code → the sentence shown to people (audit, review app, console).
FLAG_REASONS: dict[str, str] = {
    "negative-discrimination": "stronger models get it wrong more often than weaker ones "
                               "(negative discrimination): check the answer key",
    "consensus-other-answer": "most of the stronger models give one other answer: check the "
                              "answer key",
    "other-answer-rises": "stronger models turn to another answer more than to the key: "
                          "check the answer key",
    "near-zero-discrimination": "right or wrong regardless of how strong the model is "
                                "(near-zero discrimination): ambiguous or broken item?",
    "misfit": "answers do not follow the item model (misfit): check the item",
    "all-right": "every model answers it right: uninformative",
    "all-wrong": "every model answers it wrong: uninformative (too hard, or a wrong key)",
    "unanswered": "no model answered it: uninformative",
}
#: The flags that suspect a wrong answer key (label error).
LABEL_ERROR_FLAGS = frozenset({"negative-discrimination", "consensus-other-answer",
                               "other-answer-rises"})
#: The flags that suspect a broken or ambiguous item.
BROKEN_FLAGS = frozenset({"near-zero-discrimination", "misfit"})
#: The flags of items that tell models apart not at all.
UNINFORMATIVE_FLAGS = frozenset({"all-right", "all-wrong", "unanswered"})


class IrtItem(BaseModel):
    """One calibrated item."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    id: str
    """Item id in items.jsonl."""
    case_id: str | None = None
    """The item's case (items of one case are not asked together by an adaptive run)."""
    answered: int
    """Models of the zoo that answered it (failed requests left out)."""
    right: int
    """Of those, how many answered it right."""
    a: float
    """Discrimination (slope): how much more often a stronger model is right; negative when
    stronger models are wrong more often."""
    d: float
    """Intercept: the log-odds of a right answer at ability 0 (the zoo's average model)."""
    b: float | None
    """Difficulty ``-d / a``, the ability at which the item is right half the time; null where
    the discrimination is near zero (|a| < 0.05)."""
    a_se: float
    """Standard error of ``a``."""
    d_se: float
    """Standard error of ``d``."""
    ad_cov: float
    """Covariance of the estimates of ``a`` and ``d``."""
    c: float = 0.0
    """Lower asymptote (guessing floor), fixed, never estimated: ``1/k`` for ``k`` options under
    ``guessing: chance``, 0 under ``none`` (then the item is a 2PL one)."""
    exposure_k: float = 1.0
    """Sympson–Hetter exposure parameter: the probability the item is given when an adaptive
    test selects it (1: never held back)."""
    slope_z: float | None = None
    """The item's slope on the zoo's abilities, unshrunk (logistic regression on each model's
    ability), over its standard error: strongly negative for a wrong key; null for an item
    every model answered alike."""
    item_rest: float | None = None
    """Correlation of the item with the models' accuracy on the other items (null: no
    variation)."""
    infit: float | None = None
    """Information-weighted mean-square residual (1: as the model expects)."""
    outfit: float | None = None
    """Unweighted mean-square residual (1: as the model expects; large: surprising answers)."""
    outfit_p: float | None = None
    """p-value of the outfit under the model (χ² approximation)."""
    top_other: str | None = None
    """The answer (option text) other than the key that the stronger half of the zoo mostly
    agrees on, or else whose choice rises most with ability when that is flagged."""
    flags: list[str] = Field(default_factory=list)
    """Codes of why the item is suspect (keys of ``FLAG_REASONS``); empty: nothing suspect."""


class IrtModel(BaseModel):
    """One model of the zoo (a run under one condition)."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    name: str
    """Display name (with the condition when it is not clean)."""
    run: str
    """The RUN/ folder as given."""
    spec: str
    """Model spec from run.json."""
    condition: str
    """The condition its answers were taken from."""
    answered: int
    """Items it answered (failed requests left out)."""
    accuracy: float
    """Share of those it answered right."""
    theta: float
    """Ability (posterior mean, on the zoo's standard scale: mean 0, SD 1)."""
    theta_sd: float
    """Posterior standard deviation of the ability (times the case design effect's root)."""
    design_effect: float = 1.0
    """Case design effect of its answers (1: cases of one item, or no extra dependence)."""


class IrtPriors(BaseModel):
    """The priors of the item parameters at the estimate."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    slope_mean: float
    """Mean of the normal prior of ``a``."""
    slope_sd: float
    """Its standard deviation."""
    intercept_mean: float = 0.0
    """Mean of the normal prior of ``d`` (0 in files written before it was estimated)."""
    intercept_sd: float
    """Its standard deviation."""
    empirical: bool
    """Whether both priors were estimated from the items (empirical Bayes; before the
    intercept's was, the slope's only)."""


class IrtExposure(BaseModel):
    """How the items' Sympson–Hetter exposure parameters were set (by simulation)."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    method: Literal["sympson-hetter"] = "sympson-hetter"
    """The exposure control the parameters are for."""
    max_rate: float
    """The cap aimed at: the largest share of adaptive tests that should give one item."""
    target_se: float
    """Standard error the simulated tests stopped at (shorter tests expose less)."""
    simulees: int
    """Simulated tests per round (abilities from the zoo's population)."""
    rounds: int
    """Rounds simulated."""
    max_given: float
    """The highest exposure rate of an item in the last round."""
    mean_given: float
    """The mean exposure rate (test length over bank size: no cap can go below it)."""


class IrtCrossValidation(BaseModel):
    """Held-out-model checks: each fold's models predicted by a calibration without them."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    folds: int
    """Folds of models."""
    repeats: int = 1
    """Dealings of the models into folds (each model held out once per dealing); the
    prediction losses are of the first, the adaptive replays of all."""
    replays: int | None = None
    """Adaptive replays the ``z_rms`` (and the interval inflation) is measured on."""
    log_loss: dict[str, float]
    """Mean log-loss of the held-out models' answers on half of the items (by case), their
    ability read from the other half: per item model (``1pl``, ``2pl``) and ``baseline``
    (each item's share right in the other models)."""
    brier: dict[str, float]
    """The same as mean squared error of the predicted probabilities."""
    accuracy_mae: float
    """Mean absolute error of the predicted accuracy on the held-out half (chosen model)."""
    adaptive_items: float | None = None
    """Mean items an adaptive replay of each held-out model asked (its real answers) to reach
    ``adaptive_target_se``."""
    adaptive_target_se: float | None = None
    """The target standard error of the replays (null: each model's full-run standard error,
    the binomial SE of its accuracy on every item)."""
    adaptive_error: float | None = None
    """Mean absolute error of the replays' full-benchmark accuracy against the real one."""
    adaptive_coverage: float | None = None
    """Share of replays whose 95 % interval (uninflated) held the real accuracy."""
    z_rms: float | None = None
    """Root mean square of (real − estimated) / standard error over the replays (1: honest
    intervals)."""


class IrtQuality(BaseModel):
    """Counts of flagged items."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    suspected_label_errors: int = 0
    """Items with a flag of ``LABEL_ERROR_FLAGS``."""
    broken: int = 0
    """Items with a flag of ``BROKEN_FLAGS`` (and none of the label-error flags)."""
    uninformative: int = 0
    """Items every model answered alike (or none answered)."""
    by_flag: dict[str, int] = Field(default_factory=dict)
    """Flag code → items."""


class IrtCalibration(BaseModel):
    """``irt.json``: one benchmark version calibrated on a zoo of scored runs."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    schema_version: int = IRT_VERSION
    """Version of this format."""
    tool_version: str
    """medvqa version that wrote it."""
    benchmark: str
    """benchmark.json's name."""
    benchmark_version: str = ""
    """benchmark.json's version."""
    items_sha256: str
    """SHA-256 of the items.jsonl calibrated (an adaptive run refuses other items)."""
    item_model: Literal["1pl", "2pl"]
    """The item model: one shared slope (1pl) or a slope per item (2pl)."""
    guessing: Literal["chance", "none"] = "none"
    """Guessing floors: ``chance`` (each item's ``c`` is 1/k of its options, a 3PL with ``c``
    fixed) or ``none`` (every ``c`` is 0)."""
    conditions: list[str]
    """The conditions whose answers make the zoo (each run under each is one model)."""
    style: str = ""
    """Parser style the runs were scored with (metrics.json), which an adaptive run reads
    answers with."""
    seed: int = 0
    """Seed of the cross-validation folds and splits."""
    priors: IrtPriors
    """The item priors at the estimate."""
    loglik: float
    """Marginal log-likelihood of the zoo's answers."""
    aic: float
    """Akaike information criterion (2k − 2 loglik)."""
    bic: float
    """Bayesian information criterion (k ln n − 2 loglik, n answers)."""
    iterations: int
    """EM iterations."""
    converged: bool
    """Whether EM converged."""
    interval_inflation: float = 1.0
    """Factor an adaptive run puts on its standard errors: the cross-validated replays'
    ``z_rms`` when above 1 (their intervals were too narrow), else 1."""
    models: list[IrtModel]
    """The zoo, in the order the runs were given."""
    items: list[IrtItem]
    """Every item, in benchmark order."""
    exposure: IrtExposure | None = None
    """How the items' ``exposure_k`` were set (null: not set, every ``exposure_k`` is 1)."""
    cv: IrtCrossValidation | None = None
    """Held-out-model diagnostics (null with fewer than 2 folds' worth of models)."""
    quality: IrtQuality = Field(default_factory=IrtQuality)
    """Counts of flagged items."""
    notes: list[str] = Field(default_factory=list)
    """What was left out or could not be estimated, in words."""


class FlaggedItem(BaseModel):
    """One line of ``BENCH/flagged.jsonl``: an item sent to the review app's queue, and why."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    item_id: str
    """Item id in items.jsonl."""
    source: str
    """What flagged it (``irt``: ``medvqa irt fit --to-review``)."""
    reasons: list[str]
    """Why, one sentence each (shown to the reviewer)."""
    flags: list[str] = Field(default_factory=list)
    """The flag codes behind the reasons."""
    data: dict[str, Any] = Field(default_factory=dict)
    """Figures behind the flags (discrimination, its z, the other answer …)."""


class AdaptiveEstimate(BaseModel):
    """An adaptive run's estimate of the accuracy it would have had on every item."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    accuracy: float
    """Estimated accuracy over every item of the selection: the answers given, plus each item
    not asked at its probability of being right, averaged over the ability posterior."""
    se: float
    """Its standard error (unasked items' outcomes, the ability, the calibration; times the
    calibration's interval inflation)."""
    ci: list[float]
    """[low, high] of the 95 % interval (normal; never outside what the answers allow)."""
    theta: float
    """Ability, posterior mean (the calibration's scale)."""
    theta_sd: float
    """Ability, posterior standard deviation."""
    asked: int
    """Items answered and counted."""
    right: int
    """Of those, answered right."""


class AdaptiveRecord(BaseModel):
    """run.json ``adaptive``: how an adaptive run chose its items, why it stopped, what it found."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    irt: str
    """The irt.json used, as given."""
    irt_sha256: str
    """SHA-256 of that file."""
    item_model: str
    """Its item model (1pl, 2pl)."""
    style: str
    """Parser style answers were read with while choosing (the calibration's)."""
    condition: str
    """The one condition asked."""
    target_se: float
    """Standard error the run stopped at (accuracy scale)."""
    budget: int | None = None
    """Most items it could ask (null: every item)."""
    exposure: str = "randomesque"
    """The exposure control: ``sympson-hetter`` (the calibration's ``exposure_k``),
    ``randomesque`` or ``none``."""
    randomesque: int
    """``randomesque``: items the next one was drawn among."""
    batch: int
    """Items chosen at once."""
    inflation: float
    """The calibration's interval inflation applied to the standard error."""
    items_total: int
    """Items of the selection the estimate is about."""
    asked_ids: list[str] = Field(default_factory=list)
    """Ids of the items asked, in the order they were chosen."""
    failed_ids: list[str] = Field(default_factory=list)
    """Items chosen whose request failed (not counted; predicted like the unasked)."""
    stop: str = ""
    """Why it stopped: ``target`` (standard error reached), ``budget``, ``exhausted`` (every
    item asked), or empty while unfinished."""
    note: str = ""
    """In words, when the target was not reached."""
    estimate: AdaptiveEstimate | None = None
    """The estimate when it stopped (``medvqa score`` recomputes it from its own reading)."""
