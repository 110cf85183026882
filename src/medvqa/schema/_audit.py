"""The reader audit's formats: the adjudication file, and metrics.json's ``reading.audit``.

``medvqa review adjudicate`` draws, per run, a random audit sample of its responses (stratified
by the reader's decision) and queues every response two readers read differently; clinicians
read each queued (options, response) pair once in the review app. ``medvqa review
export-adjudication`` writes what they decided as one :class:`AdjudicationFile` (JSON), which
``medvqa score --adjudication`` reads (or the review database itself). A response is found by
its :func:`question_key`; a run by its :class:`PopulationHash`, the hash of the responses the
sample was drawn from (so the file cannot be applied to another run, or to this run after its
responses changed).
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Version of the adjudication file format.
ADJUDICATION_VERSION = 1
#: The reader's decision on a response: the strata of the audit sample.
STRATA = ("read", "invalid", "extracted")
#: What a human may answer about a response besides an option.
READING_VERDICTS = ("answer", "no_answer", "refusal")


def question_key(question_type: str, options: dict[str, str], response: str) -> str:
    """The identity of one thing to read: question type, options as shown, response.

    Identical (options, response) pairs are read once, whichever items or runs they came from.

    >>> question_key("single", {"A": "x", "B": "y"}, "B") == question_key(
    ...     "single", {"A": "x", "B": "y"}, "B")
    True
    """
    text = json.dumps([question_type, list(options.items()), response], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class PopulationHash:
    """An order-free SHA-256 of (item id, condition, response) triples: a run's audited responses.

    The sum of the triples' digests modulo 2**256, with their count: the same responses in any
    file order give the same hash.

    >>> a, b = PopulationHash(), PopulationHash()
    >>> a.add("q1", "clean", "A"); a.add("q2", "clean", "B")
    >>> b.add("q2", "clean", "B"); b.add("q1", "clean", "A")
    >>> a.hexdigest() == b.hexdigest()
    True
    """

    def __init__(self) -> None:
        self.total = 0
        self.count = 0

    def add(self, item_id: str, condition: str, response: str) -> None:
        """Count one response."""
        raw = "\x1f".join((item_id, condition, response)).encode("utf-8", "surrogatepass")
        self.total = (self.total + int.from_bytes(hashlib.sha256(raw).digest(), "big")) % 2**256
        self.count += 1

    def hexdigest(self) -> str:
        """The hash (64 hex digits), the count folded in."""
        return hashlib.sha256(f"{self.count}:{self.total:064x}".encode()).hexdigest()


class AuditStratum(BaseModel):
    """One stratum of an audit sample."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    population: int
    """Responses of the run (and condition) with this reader decision (N_h)."""
    sampled: int
    """Of them, drawn into the sample (n_h); each carries the weight N_h / n_h."""


class AuditDesign(BaseModel):
    """How one run's audit sample was drawn (one run and condition)."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    run: str
    """The RUN/ folder's name when the sample was drawn."""
    model: str
    """run.json's model spec."""
    condition: str
    """The condition whose responses were sampled."""
    population_sha256: str
    """:class:`PopulationHash` of the condition's scored responses."""
    responses: int
    """Responses the sample was drawn from (N)."""
    requested: int
    """The sample size asked for (``--sample``); more than ``responses`` is capped."""
    seed: int
    """Seed of the draw (``--seed``)."""
    readers: int = 1
    """Human readers wanted per response (a second one measures their agreement)."""
    strata: dict[str, AuditStratum] = Field(default_factory=dict)
    """Reader decision (read, invalid, extracted) → its size and sample size."""


class AuditEntry(BaseModel):
    """One queued response of one run."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    population_sha256: str
    """The run it belongs to (its design's hash)."""
    item_id: str
    """The item answered."""
    condition: str
    """The condition it was answered under."""
    question_key: str
    """:func:`question_key` of what a human reads."""
    kind: Literal["sample", "disagreement"]
    """``sample``: drawn at random (estimates use it); ``disagreement``: two readers (rules and
    extractor, or two styles) read it differently (its human reading replaces the automatic
    one, but it is no random draw)."""
    stratum: str | None = None
    """The reader's decision when queued (read, invalid, extracted)."""
    weight: float | None = None
    """Sampling weight N_h / n_h (sample entries only)."""
    rank: int = 0
    """Serving order: a seeded random order of the sample first, so any finished prefix of
    each stratum is itself a random sample; then the disagreements."""


class HumanReading(BaseModel):
    """What the humans read in one response."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    status: Literal["agreed", "adjudicated", "disputed", "pending"]
    """``agreed``: every reader read the same; ``adjudicated``: an admin decided (final);
    ``disputed``: readers differ and no admin decided yet (not used, counted);
    ``pending``: nobody read it yet."""
    verdict: Literal["answer", "no_answer", "refusal"] | None = None
    """An option (``answer``), no answer committed, or a refusal; null unless decided."""
    choice: str | list[str] | None = None
    """The letter (sorted letters for multi-answer items) when ``verdict`` is ``answer``."""
    readers: list[str] = Field(default_factory=list)
    """Everyone who read it (reviewer names)."""
    by: list[str] = Field(default_factory=list)
    """Whose reading counts (the agreeing readers, or the adjudicating admin)."""


class AdjudicationFile(BaseModel):
    """``medvqa review export-adjudication``'s file: the audit designs, entries and readings."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    version: int = ADJUDICATION_VERSION
    """Version of this format."""
    benchmark: str
    """Benchmark name."""
    benchmark_key: str
    """The review app's key of the benchmark (``name@sha12``)."""
    items_sha256: str
    """SHA-256 of the benchmark's items.jsonl; scoring refuses a file of another benchmark."""
    designs: list[AuditDesign] = Field(default_factory=list)
    """Every run's audit design."""
    entries: list[AuditEntry] = Field(default_factory=list)
    """Every queued response."""
    readings: dict[str, HumanReading] = Field(default_factory=dict)
    """Question key → what the humans read."""


class AuditRate(BaseModel):
    """A design-weighted rate on the audit sample, with its 95 % Wilson interval."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    value: float | None
    """The weighted rate; null with no response in its denominator."""
    ci: list[float | None]
    """95 % Wilson interval on Kish's effective sample size of the weights."""
    n: int = 0
    """Adjudicated responses in the denominator."""
    n_effective: float | None = None
    """Kish's effective sample size of their weights."""


class AuditEstimate(BaseModel):
    """An accuracy estimated from the audit sample, with its 95 % interval."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    value: float | None
    """The estimate; null when some stratum has no adjudicated response yet."""
    ci: list[float | None]
    """95 % normal interval, clipped to [0, 1]."""
    se: float | None = None
    """Standard error."""
    lam: float | None = None
    """PPI++'s power-tuning λ (1: plain PPI; 0: the human sample alone)."""


class ConditionAudit(BaseModel):
    """The reader audit of one condition of one run."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    responses: int
    """Responses the audit sample was drawn from (N)."""
    sampled: int
    """Responses in the random audit sample."""
    adjudicated: int
    """Of them, with a human reading that counts (agreed or adjudicated)."""
    disputed: int
    """Of them, read differently by two humans and not yet adjudicated (not used)."""
    pending: int
    """Of them, not read yet."""
    strata: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Reader decision → population, sampled and adjudicated counts."""
    replaced: int = 0
    """Responses of the condition whose automatic reading a human one replaced (sample and
    disagreements; marked ``read_by: human:NAME`` in predictions.jsonl)."""
    disagreements: dict[str, int] = Field(default_factory=dict)
    """Queued because two readers differ: ``queued``, ``adjudicated``, ``disputed``."""
    readers: list[str] = Field(default_factory=list)
    """Who read the adjudicated responses."""
    agreement: AuditRate | None = None
    """Share of sampled responses the automatic reader read as the humans did (same option(s),
    or both no answer)."""
    false_credit_rate: AuditRate | None = None
    """Of the sampled responses the humans read as not right, the share the reader counted
    right."""
    miss_rate: AuditRate | None = None
    """Of the sampled responses the humans read as right, the share the reader did not."""
    reader_accuracy: float | None = None
    """Accuracy by the automatic reading alone (every response as the reader read it)."""
    prediction_powered: AuditEstimate | None = None
    """Accuracy by prediction-powered inference (stratified PPI++): the automatic reading of
    every response, corrected by the random sample's human readings."""
    human_only: AuditEstimate | None = None
    """Accuracy from the audit sample's human readings alone (weighted by its design)."""
    notes: list[str] = Field(default_factory=list)
    """Why an estimate is missing or to be read with care."""


class ReadingAudit(BaseModel):
    """metrics.json's ``reading.audit``: the reader's error on this run, measured by humans."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    source: str
    """The adjudication file or database used (``--adjudication``)."""
    benchmark_key: str
    """The review app's key of the benchmark."""
    method: str
    """The estimators, in words (PPI++, stratified; Wilson on Kish's effective n)."""
    conditions: dict[str, ConditionAudit] = Field(default_factory=dict)
    """Condition → its audit."""
