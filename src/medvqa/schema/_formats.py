"""BENCH/, RUN/ and review file formats as pydantic models (one docstring per field)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from medvqa.schema._irt import AdaptiveRecord
from medvqa.schema._names import (
    CHOICE_TYPES,
    CLEAN,
    SCHEMA_VERSION,
    QuestionType,
    Split,
)

#: What an option key is: one capital letter (prompts, parsers and exports name options so).
OPTION_KEY = re.compile(r"[A-Z]")


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
        description="Letter → option text in display order; {} for open questions. Each key "
        "is one capital letter A–Z (what every prompt, parser and exported column names an "
        "option by); letters may skip (A, B, D) where a source does.",
    )
    answer: str | list[str] = Field(
        description="A letter; a list of letters for multi; text for open; region IDs for region."
    )

    @field_validator("options")
    @classmethod
    def _letter_keys(cls, options: dict[str, str]) -> dict[str, str]:
        """Refuse an option key that is not one capital letter ("1", "a", "AA", "")."""
        bad = [k for k in options if not OPTION_KEY.fullmatch(k)]
        if bad:
            raise ValueError(f"key {bad[0]!r} is not an option letter (one capital letter "
                             f"A–Z, e.g. {{\"A\": …, \"B\": …}})")
        return options
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
    published_split: str | None = Field(
        default=None, description="Set by an importer that keeps a dataset's published split: "
        "where that split came from (e.g. 'VQA-RAD phrase_type: test_* → test, else train'). "
        "Leaks across such splits are the publisher's, and `medvqa audit` reports them as "
        "'published' rather than as errors. Absent (not written) when medvqa assigned the "
        "splits, so older benchmark.json files and other recipes are unchanged.")

    @model_serializer(mode="wrap")
    def _drop_absent_published_split(
        self, handler: SerializerFunctionWrapHandler
    ) -> dict[str, Any]:
        """Leave ``published_split`` out when unset (benchmark.json bytes stay as they were)."""
        data: dict[str, Any] = handler(self)
        if data.get("published_split") is None:
            data.pop("published_split", None)
        return data


#: Keys of a predictions.jsonl line left out when null, so lines stay as they were for the
#: backends and scorings that do not record them.
ABSENT_WHEN_NULL = ("sent", "extracted_by", "read_by", "reader")


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
    sent: dict[str, Any] | None = Field(
        default=None, description="What the model was given, where the backend says (local "
        "models: images, image_sizes after the processor, prompt_tokens, new_tokens); the key "
        "is absent from the line when not recorded.")
    extracted_by: dict[str, Any] | None = Field(
        default=None, description="Who read ``choice`` when the rules could not and "
        "``medvqa score --extract`` did: model spec, prompt SHA-256 and version (scored); the "
        "key is absent from the line otherwise.")
    read_by: str | None = Field(
        default=None, description="``human:NAME`` (names joined by ``+`` when several agreed) "
        "when ``medvqa score --adjudication`` took ``choice`` from a human reading of the "
        "response instead of the automatic one (scored); the key is absent otherwise.")
    reader: dict[str, Any] | None = Field(
        default=None, description="The automatic reading a human one replaced: its ``choice``, "
        "``correct``, ``invalid`` and ``extracted_by`` (scored, with ``read_by``); the key is "
        "absent otherwise.")

    @model_serializer(mode="wrap")
    def _drop_absent_sent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave ``sent``, ``extracted_by``, ``read_by`` and ``reader`` out when not recorded."""
        data: dict[str, Any] = handler(self)
        for key in ABSENT_WHEN_NULL:
            if data.get(key) is None:
                data.pop(key, None)
        return data


class AskedSelection(BaseModel):
    """One selection a RUN/ was asked under, and the conditions asked of it (run.json ``asked``)."""

    selection: dict[str, Any] = Field(
        default_factory=dict, description="Item filters (split, category, limit); empty: every "
        "item.")
    conditions: list[str] = Field(
        default_factory=list, description="Conditions asked of the items it selects, over every "
        "invocation with this selection.")


class RunInfo(BaseModel):
    """``run.json``: what was run, on what, when, and how it went. Never holds API keys."""

    schema_version: int = Field(default=SCHEMA_VERSION, description="Version of this format.")
    model: str = Field(description="Model spec string, e.g. openai:qwen2.5-vl@http://…/v1.")
    display_name: str = Field(
        default="", description="Short name shown in the leaderboard, plots, confusion titles "
        "and the console: models.yaml `name`, `medvqa run --name`, else derived from the spec "
        "(`medvqa.models.display_name`: 'small-cnn (supervised)', 'smollm2'). Empty (a run.json "
        "written before it): derived when read.")
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
    environment: dict[str, str] = Field(
        default_factory=dict, description="Where the run was made: medvqa's source commit "
        "(``commit``, empty outside a checkout), the machine (``hardware``) and ``python``; "
        "empty in older files.")
    seed: int = Field(default=0, description="Seed of random models and conditions.")
    selection: dict[str, Any] = Field(
        default_factory=dict, description="Item filters of the run (split, category, limit); "
        "empty: every item. Scoring uses it to tell which items lack a prediction. Of the last "
        "invocation when a resumed run used another selection (then see ``asked``).")
    asked: list[AskedSelection] = Field(
        default_factory=list, description="Every selection the RUN/ was asked under, each with "
        "its conditions, once a resumed run used a selection other than the first (e.g. "
        "`--split test`, then `--split test_tiny`); empty: ``selection`` and ``conditions`` "
        "describe every invocation. Scoring expects of each condition the items of the "
        "selections that asked it.")
    started_at: str = Field(default="", description="ISO 8601 UTC start time.")
    ended_at: str | None = Field(default=None, description="ISO 8601 UTC end time, if finished.")
    counts: dict[str, int] = Field(default_factory=dict, description="Requests, cached, errors.")
    errors: list[str] = Field(default_factory=list, description="First error messages, deduped.")
    failure_judge: dict[str, Any] | None = Field(
        default=None, description="LLM judge of failure modes used by `medvqa score --judge`: "
        "model spec and parameters, prompt version, prompt text and its SHA-256.")

    adaptive: AdaptiveRecord | None = Field(
        default=None, description="An adaptive run (`medvqa run --adaptive irt.json`): the "
        "calibration, the items asked in order, why it stopped and its estimate of the "
        "accuracy on every item; absent from run.json for other runs.")

    @model_serializer(mode="wrap")
    def _drop_absent_adaptive(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave ``adaptive`` out of other runs' run.json (their bytes stay as they were)."""
        data: dict[str, Any] = handler(self)
        if data.get("adaptive") is None:
            data.pop("adaptive", None)
        return data

    def asked_selections(self) -> list[AskedSelection]:
        """Every selection the run was asked under with its conditions (``asked``, or the one)."""
        return self.asked or [AskedSelection(selection=self.selection,
                                             conditions=list(self.conditions))]


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
