"""The BENCH/ and RUN/ file formats as pydantic models, and streaming JSONL read/write.

These models are the public contract described in DESIGN.md: ``items.jsonl`` holds one
:class:`Item` per line, ``benchmark.json`` one :class:`Benchmark`, ``predictions.jsonl`` one
:class:`Prediction` per line and ``run.json`` one :class:`RunInfo`. Readers stream (a 100,000-item
benchmark is never held in memory whole) and report a malformed line as a :class:`RecordError`
naming file, line and field, so callers can skip it and go on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from medvqa.errors import BadInputError
from medvqa.store import atomic_write_text, atomic_writer

SCHEMA_VERSION = 1

QuestionType = Literal["single", "multi", "yesno", "open", "region", "grade"]
Split = Literal["train", "val", "test", "test_tiny", "external"]
CHOICE_TYPES: frozenset[str] = frozenset({"single", "multi", "yesno", "grade"})

ITEMS_FILE = "items.jsonl"
BENCHMARK_FILE = "benchmark.json"
PREDICTIONS_FILE = "predictions.jsonl"
RUN_FILE = "run.json"
METRICS_FILE = "metrics.json"
CACHE_FILE = "cache.sqlite"


#: The identity condition: the item as built, image and question untouched.
CLEAN = "clean"


class Item(BaseModel):
    """One benchmark question about zero or more images (one line of ``items.jsonl``)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Unique item id within the benchmark.")
    images: list[str] = Field(
        default_factory=list, description="Image paths relative to BENCH/ (images/ab/abcd….png)."
    )
    question: str = Field(min_length=1, description="The question text shown to the model.")
    options: dict[str, str] = Field(
        default_factory=dict,
        description="Letter → option text in display order; {} for open questions.",
    )
    answer: str | list[str] = Field(
        description="A letter; a list of letters for multi; text for open; region IDs for region."
    )
    question_type: QuestionType = Field(
        description="single | multi | yesno | open | region | grade"
    )
    category: str = Field(default="", description="Topic or subcategory, for breakdowns.")
    case_id: str | None = Field(
        default=None, description="Patient or study id; repeated ids make CIs case-clustered."
    )
    source: str = Field(default="", description="Dataset the item was built from.")
    split: Split = Field(default="test", description="train | val | test | test_tiny | external")
    meta: dict[str, Any] = Field(
        default_factory=dict,
        description="Modality, view, age, sex, explanation, boxes, provenance, …",
    )

    @model_validator(mode="after")
    def _answer_matches_type(self) -> Item:
        """Check the answer's shape against the question type and the options."""
        qt = self.question_type
        if qt == "multi":
            if not isinstance(self.answer, list) or not self.answer:
                raise ValueError("answer: a multi question needs a non-empty list of letters")
            missing = [a for a in self.answer if a not in self.options]
            if missing:
                raise ValueError(f"answer: letters {missing} are not among the options")
        elif qt in CHOICE_TYPES:
            if not isinstance(self.answer, str):
                raise ValueError(f"answer: a {qt} question needs one letter")
            if self.answer not in self.options:
                raise ValueError(
                    f"answer: {self.answer!r} is not among the options {list(self.options)}"
                )
        elif qt == "region" and not isinstance(self.answer, list):
            raise ValueError("answer: a region question needs a list of region IDs")
        elif qt == "open" and not isinstance(self.answer, str):
            raise ValueError("answer: an open question needs a text answer")
        return self

    @property
    def answer_letters(self) -> list[str]:
        """The gold answer as a list of letters (choice questions only)."""
        return list(self.answer) if isinstance(self.answer, list) else [self.answer]


class SourceInfo(BaseModel):
    """A dataset a benchmark was built from."""

    dataset: str = Field(description="Dataset name.")
    license: str = Field(default="", description="Licence of the original data.")
    url: str = Field(default="", description="Where the original data is published.")


class CreatedWith(BaseModel):
    """How a benchmark version was produced, so it can be rebuilt byte for byte."""

    tool_version: str = Field(description="medvqa version that built it.")
    recipe: str = Field(default="", description="Recipe name or path.")
    seed: int = Field(default=0, description="Seed of every random step.")


class Benchmark(BaseModel):
    """``benchmark.json``: a benchmark version's card."""

    schema_version: int = Field(default=SCHEMA_VERSION, description="Version of this format.")
    name: str = Field(description="Benchmark name.")
    version: str = Field(default="1.0", description="Benchmark version.")
    description: str = Field(default="", description="What the benchmark measures.")
    license: str = Field(default="", description="Licence of the benchmark as distributed.")
    sources: list[SourceInfo] = Field(default_factory=list, description="Datasets used.")
    prompt_template: str = Field(default="default", description="Name of the prompt template.")
    created_with: CreatedWith = Field(description="Tool version, recipe and seed.")
    counts: dict[str, Any] = Field(default_factory=dict, description="Items by split, type, …")
    items_sha256: str = Field(default="", description="SHA-256 of items.jsonl's bytes.")


class Prediction(BaseModel):
    """One model response to one item under one condition (a line of ``predictions.jsonl``)."""

    item_id: str = Field(description="Id of the item answered.")
    condition: str = Field(default=CLEAN, description="clean, blind, noise, jpeg@3, swap, …")
    response: str | None = Field(default=None, description="Raw model text; null on error.")
    latency_s: float | None = Field(default=None, description="Seconds the request took.")
    error: str | None = Field(default=None, description="Null, or why the request failed.")
    choice: str | list[str] | None = Field(default=None, description="Parsed answer (scored).")
    correct: bool | None = Field(default=None, description="Whether choice is right (scored).")
    invalid: bool | None = Field(default=None, description="Parser abstained (scored).")


class RunInfo(BaseModel):
    """``run.json``: what was run, on what, when, and how it went. Never holds API keys."""

    schema_version: int = Field(default=SCHEMA_VERSION, description="Version of this format.")
    model: str = Field(description="Model spec string, e.g. openai:qwen2.5-vl@http://…/v1.")
    model_params: dict[str, Any] = Field(default_factory=dict, description="Generation settings.")
    model_info: dict[str, Any] = Field(
        default_factory=dict, description="Backend facts, e.g. text_only: true for SmolLM2."
    )
    prompt_template: str = Field(default="default", description="Prompt template name used.")
    conditions: list[str] = Field(default_factory=lambda: [CLEAN], description="Conditions.")
    benchmark_name: str = Field(default="", description="Benchmark name.")
    benchmark_version: str = Field(default="", description="Benchmark version.")
    items_sha256: str = Field(description="items_sha256 of the benchmark this run belongs to.")
    tool_version: str = Field(description="medvqa version.")
    seed: int = Field(default=0, description="Seed of random models and conditions.")
    started_at: str = Field(default="", description="ISO 8601 UTC start time.")
    ended_at: str | None = Field(default=None, description="ISO 8601 UTC end time, if finished.")
    counts: dict[str, int] = Field(default_factory=dict, description="Requests, cached, errors.")
    errors: list[str] = Field(default_factory=list, description="First error messages, deduped.")
    failure_judge: dict[str, Any] | None = Field(
        default=None, description="LLM judge of failure modes used by `medvqa score --judge`: "
        "model spec and parameters, prompt version, prompt text and its SHA-256.")


ModelT = TypeVar("ModelT", bound=BaseModel)


class JudgeVerdict(BaseModel):
    """One LLM judge's scores of a generated item (MIRA's two judges), kept in review.jsonl."""

    model: str = Field(description="Judge model spec.")
    scores: dict[str, Any] = Field(
        default_factory=dict, description="Criterion → score, as the judge prompt defines them."
    )
    error: str | None = Field(default=None, description="Null, or why the judge gave no scores.")
    prompt_sha256: str = Field(default="", description="SHA-256 of the judge prompt template.")


class ReviewRecord(BaseModel):
    """One line of BENCH/review.jsonl: a generated item as the expert review app shows it.

    Written by the LLM builders (one per kept item, ``status: "pending"``) and read by
    ``medvqa review``; the item itself is in items.jsonl under the same id.
    """

    item_id: str = Field(description="Id of the item in items.jsonl.")
    source_id: str = Field(description="Id of the caption or report the item came from.")
    source_text: str = Field(description="The caption or report text, as given to the generator.")
    images: list[str] = Field(default_factory=list, description="Image paths relative to BENCH/.")
    question: str = Field(description="Question as generated.")
    options: dict[str, str] = Field(default_factory=dict, description="Letter → option text.")
    answer: str | list[str] = Field(description="Gold answer as generated.")
    question_type: QuestionType = Field(description="single | multi | yesno | open | …")
    explanation: str = Field(default="", description="The generator's explanation, if any.")
    grounding_span: str = Field(
        default="", description="The report clause the answer is grounded in (report builder)."
    )
    judges: dict[str, JudgeVerdict] = Field(
        default_factory=dict, description="Judge name → its verdict (caption builder)."
    )
    status: Literal["pending"] = Field(
        default="pending", description="Always pending here; decisions live in the review app."
    )


@dataclass(frozen=True)
class RecordError:
    """A line that could not be read, with where and why, for a one-line report."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


class InputError(BadInputError, ValueError):
    """Raised when a caller asked for strict reading and a line is bad."""

    def __init__(self, error: RecordError):
        super().__init__(str(error))
        self.error = error


def _record_error(path: Path, lineno: int, exc: Exception) -> RecordError:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(line)"
        msg = first["msg"].removeprefix("Value error, ")
        return RecordError(str(path), lineno, field, msg)
    return RecordError(str(path), lineno, "(json)", str(exc))


def read_jsonl(
    path: str | Path,
    model: type[ModelT],
    errors: list[RecordError] | None = None,
) -> Iterator[ModelT]:
    """Stream ``model`` records from a JSONL file.

    Args:
        path: the file.
        model: pydantic model of one line.
        errors: when given, bad lines are appended here and skipped; when None the first bad
            line raises :class:`InputError`. Blank lines are ignored.

    Yields:
        One validated record per good line, in file order.
    """
    path = Path(path)
    with path.open("r", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield model.model_validate_json(line)
            except (ValidationError, ValueError) as exc:
                err = _record_error(path, lineno, exc)
                if errors is None:
                    raise InputError(err) from None
                errors.append(err)


class JsonLine(NamedTuple):
    """One non-blank line of a JSON-lines file, parsed.

    Attributes:
        line: 1-based line number.
        value: the parsed JSON value (None when ``error`` is set).
        error: ``""``, or why the line could not be read (``(json): …``, ``(encoding): …``).
    """

    line: int
    value: Any
    error: str


def iter_json_lines(path: str | Path) -> Iterator[JsonLine]:
    """Every non-blank line of a JSON-lines file, parsed; a bad line carries its error.

    The one reader of untyped JSON lines (typed records: :func:`read_jsonl`). Lines are decoded
    one at a time, so a stray non-UTF-8 byte spoils its own line only.
    """
    with Path(path).open("rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                yield JsonLine(lineno, json.loads(raw.decode("utf-8")), "")
            except UnicodeDecodeError as exc:
                yield JsonLine(lineno, None, f"(encoding): not UTF-8 at byte {exc.start}")
            except json.JSONDecodeError as exc:
                yield JsonLine(lineno, None, f"(json): {exc.msg}")


def dump_line(record: BaseModel) -> str:
    """One record as a compact JSON line (deterministic: field order is the model's)."""
    return record.model_dump_json() + "\n"


def write_jsonl(path: str | Path, records: Iterable[BaseModel]) -> str:
    """Write records atomically, streaming; return the SHA-256 of the bytes written."""
    digest = hashlib.sha256()
    with atomic_writer(path, "wb") as fh:
        for record in records:
            line = dump_line(record).encode("utf-8")
            digest.update(line)
            fh.write(line)
    return digest.hexdigest()


def write_json(path: str | Path, record: BaseModel) -> None:
    """Write one model as indented JSON, atomically."""
    atomic_write_text(path, record.model_dump_json(indent=2) + "\n")


def read_json(path: str | Path, model: type[ModelT]) -> ModelT:
    """Read one model from a JSON file; a bad file raises :class:`InputError` naming the field."""
    path = Path(path)
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as exc:
        raise InputError(_record_error(path, 1, exc)) from None


def file_sha256(path: str | Path, chunk: int = 1 << 20) -> str:
    """SHA-256 hex digest of a file, read in chunks."""
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


# --- RUN/metrics.json ----------------------------------------------------------------------
# The public format ``medvqa score`` writes and ``medvqa report`` reads. Each field's docstring
# is its documentation (and its JSON-schema description).

METRICS_VERSION = 2


class MetricValue(BaseModel):
    """A figure with its 95 % percentile bootstrap interval."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    value: float | None
    """Point estimate; null where undefined (e.g. accuracy over valid answers with none valid)."""
    ci: list[float | None]
    """[low, high] of the 95 % percentile bootstrap interval (cases resampled when clustered)."""


class MetricsBlock(BaseModel):
    """The figures of one set of items (overall, or one category / source / split).

    Every figure comes from the metric registry (``medvqa.score._metric_table.METRICS``); a
    registered metric not declared here is kept as an extra key.
    """

    model_config = ConfigDict(use_attribute_docstrings=True, extra="allow")

    accuracy: MetricValue
    """Mean correctness over all scored items; an invalid (unreadable, refused) answer is wrong."""
    weighted_accuracy: MetricValue
    """Mean over gold answer classes of the per-class accuracy (MammoVQA; balanced accuracy)."""
    macro_f1: MetricValue
    """Unweighted mean of per-class F1 over the gold classes present; invalid is its own class."""
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
    p_value (4 significant digits) and p_holm (Holm over every test in the file)."""
    consistency: float | None = None
    """permute only: share of items answered alike under all option shifts."""
    confusion: dict[str, Any] | None = None
    """Grading items: labels, predicted labels and counts[gold][predicted]."""


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
    tests_adjusted: int = 0
    """How many p-values in this file form the Holm family (each has a p_holm beside it)."""
    skipped: int = 0
    """Predictions skipped for bad input."""
    model: str = ""
    """Model spec from run.json."""
    benchmark: str = ""
    """Benchmark name."""
    conditions: dict[str, ConditionMetrics] = Field(default_factory=dict)
    """Condition → its metrics (clean first)."""
    controls: dict[str, Any] | None = None
    """Δ = clean − condition with paired bootstrap intervals, the paired test (name, p_value,
    p_holm), verdicts, and corruption degradation curves (medvqa.score._controls.Controls)."""
    failure_modes: dict[str, Any] | None = None
    """Condition → rule-based LMOD / MIRA failure tag counts and abstention rate; with --judge,
    each condition's ``judge`` block holds the LLM judge's counts."""
    failure_judge: dict[str, Any] | None = None
    """The failure-mode judge used: model spec and parameters, prompt version, text and
    SHA-256, image use, max_items (null: no judge)."""
