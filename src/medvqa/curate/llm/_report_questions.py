"""Questions from reports (seed 003): RADS-style field questions and report-derived MCQs.

RADS-style questions come from schema fields; report-derived multiple-choice questions are
written by an LLM.

* binary field → a yes/no question;
* multi field → one question with 3–5 options: the extracted value plus distractors drawn
  (seeded by ``(seed, report id, field)``) from the values seen for that field across the whole
  dataset, topped up from the schema's allowed values only when too few were seen (recorded in
  ``meta.provenance.distractor_source``);
* report-derived MCQ → the LLM writes a question with options and an answer plus a quote (with
  constrained decoding, one of the clauses of the reports of its batch); it is kept only when
  it passes structural validation (3–5 distinct options, the answer among them) and the
  negation-aware grounding check (the quote is in the report and supports the correct option
  with the polarity the option states).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from medvqa.benchmark import item_flaws
from medvqa.curate.llm._extract import ReportExtraction
from medvqa.curate.llm._generate import Outcome, Task, generate_structured
from medvqa.curate.llm._grounding import answer_supported, quote_pools, span_in_text
from medvqa.curate.llm._report_schema import ReportSchema
from medvqa.curate.llm._texts import TextRecord, load_prompts
from medvqa.models import LLMSettings
from medvqa.rng import rng_for
from medvqa.schema import Item

LETTERS = "ABCDE"


@dataclass
class QuestionDraft:
    """A question before it becomes an :class:`~medvqa.schema.Item`."""

    id: str
    report: TextRecord
    question: str
    options: dict[str, str]
    answer: str
    question_type: str
    category: str
    provenance: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SkippedQuestion:
    """A question that could not be made, and why."""

    key: str
    source_id: str
    reason: str
    detail: str
    raw: str | None = None


def field_questions(
    schema: ReportSchema, extractions: list[ReportExtraction], seed: int, generator: str
) -> tuple[list[QuestionDraft], list[SkippedQuestion]]:
    """Yes/no and multi-value questions from grounded field values (see module docstring)."""
    seen: dict[str, set[str]] = {f.name: set() for f in schema.fields}
    for ex in extractions:
        for name, val in ex.values.items():
            seen[name].add(val.value)
    drafts: list[QuestionDraft] = []
    skipped: list[SkippedQuestion] = []
    for ex in extractions:
        for f in schema.fields:
            found = ex.values.get(f.name)
            if found is None:
                continue
            val = found
            prov = {
                "source_id": ex.report.id,
                "generator": generator,
                "schema": schema.name,
                "field": f.name,
                "value": val.value,
                "prompt_sha256": ex.prompt_sha256,
                "grounding_span": val.evidence,
            }
            qid = f"{ex.report.id}-{f.name}"
            if f.kind == "binary":
                drafts.append(
                    QuestionDraft(
                        qid,
                        ex.report,
                        f.question,
                        {"A": "Yes", "B": "No"},
                        "A" if val.value == "yes" else "B",
                        "yesno",
                        f.name,
                        prov,
                    )
                )
                continue
            pool = sorted(seen[f.name] - {val.value})
            source = "dataset"
            if len(pool) < 2:
                extra = [v for v in f.values if v != val.value and v not in pool]
                pool, source = pool + extra, "dataset+schema"
            if len(pool) < 2:
                skipped.append(
                    SkippedQuestion(
                        qid, ex.report.id, "too_few_values", f"{f.name}: fewer than 2 distractors"
                    )
                )
                continue
            rng = rng_for(seed, ex.report.id, f.name)
            n = min(4, len(pool))
            picks = [pool[i] for i in sorted(rng.choice(len(pool), size=n, replace=False))]
            values = [val.value, *picks]
            order = rng.permutation(len(values))
            options = {LETTERS[k]: values[int(i)] for k, i in enumerate(order)}
            answer = next(k for k, v in options.items() if v == val.value)
            drafts.append(
                QuestionDraft(
                    qid,
                    ex.report,
                    f.question,
                    options,
                    answer,
                    "single",
                    f.name,
                    {**prov, "distractor_source": source},
                )
            )
    return drafts, skipped


class GeneratedMCQ(BaseModel):
    """A report-derived multiple-choice question as the model must return it."""

    model_config = ConfigDict(extra="ignore")

    question: str = Field(min_length=8, max_length=400)
    options: dict[str, str]
    answer: str
    evidence: str = Field(min_length=3)

    @model_validator(mode="after")
    def _structure(self) -> GeneratedMCQ:
        letters = list(self.options)
        if not 3 <= len(letters) <= 5 or letters != list(LETTERS[: len(letters)]):
            raise ValueError("options: need 3-5 options lettered A, B, C…")
        texts = [t.strip().lower() for t in self.options.values()]
        if any(not t for t in texts) or len(set(texts)) != len(texts):
            raise ValueError("options: empty or repeated option text")
        self.answer = self.answer.strip().upper().rstrip(").")
        if self.answer not in self.options:
            raise ValueError(f"answer: {self.answer!r} is not an option letter")
        return self


def mcq_json_schema(quotes: list[str] | None = None) -> dict[str, Any]:
    """JSON schema of an MCQ reply; with ``quotes`` the evidence must be one of them."""
    evidence: dict[str, Any] = (
        {"type": "string", "enum": quotes} if quotes else {"type": "string", "maxLength": 200}
    )
    return {
        "type": "object",
        "properties": {
            "question": {"type": "string", "maxLength": 200},
            "options": {
                "type": "object",
                "properties": {k: {"type": "string", "maxLength": 80} for k in "ABCD"},
                "required": list("ABCD"),
                "additionalProperties": False,
            },
            "answer": {"type": "string", "enum": list("ABCD")},
            "evidence": evidence,
        },
        "required": ["question", "options", "answer", "evidence"],
        "additionalProperties": False,
    }


MCQ_JSON_SCHEMA: dict[str, Any] = mcq_json_schema()


def mcq_questions(
    settings: LLMSettings, reports: list[TextRecord]
) -> tuple[list[QuestionDraft], list[SkippedQuestion]]:
    """One LLM-written MCQ per report, validated and grounded (see module docstring)."""
    prompts = load_prompts()
    by_id = {r.id: r for r in reports}
    pools = quote_pools([r.text for r in reports], settings.batch_size)
    tasks = [
        Task(
            r.id,
            prompts["mcq_user"].format(report=r.text),
            prompts["mcq_system"],
            mcq_json_schema(pool),
        )
        for r, pool in zip(reports, pools, strict=True)
    ]

    def parse(task: Task, value: Any) -> GeneratedMCQ:
        mcq = GeneratedMCQ.model_validate(value)
        text = by_id[task.key].text
        if not span_in_text(mcq.evidence, text):
            raise ValueError(f"evidence: {mcq.evidence[:80]!r} is not a quote of the report")
        if not answer_supported(mcq.options[mcq.answer], mcq.evidence, context=text):
            raise ValueError("evidence: the quote does not support the correct option")
        return mcq

    outcomes: list[Outcome[GeneratedMCQ]] = generate_structured(
        settings, "mcq", tasks, parse, MCQ_JSON_SCHEMA
    )
    drafts, skipped = [], []
    for o in outcomes:
        rep = by_id[o.key]
        if o.value is None:
            err = o.error or ""
            reason = (
                "ungrounded"
                if err.startswith("evidence")
                else "no_json"
                if err.startswith("no complete JSON")
                else "model_error"
                if err.startswith("model error")
                else "structure"
            )
            skipped.append(SkippedQuestion(f"{rep.id}-mcq", rep.id, reason, err, o.raw))
            continue
        mcq = o.value
        flaws = item_flaws(Item(id=o.key, question=mcq.question, options=dict(mcq.options),
                                answer=mcq.answer, question_type="single"))
        if flaws:  # valid JSON, grounded, and still not an item (options that are letters …)
            skipped.append(SkippedQuestion(f"{rep.id}-mcq", rep.id, flaws[0].reason,
                                           "; ".join(map(str, flaws)), o.raw))
            continue
        drafts.append(
            QuestionDraft(
                f"{rep.id}-mcq",
                rep,
                mcq.question,
                dict(mcq.options),
                mcq.answer,
                "single",
                "report-derived",
                {
                    "source_id": rep.id,
                    "generator": settings.model,
                    "prompt_sha256": o.prompt_sha256,
                    "attempts": o.attempts,
                    "grounding_span": mcq.evidence,
                },
            )
        )
    return drafts, skipped
