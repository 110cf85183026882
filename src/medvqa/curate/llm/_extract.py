"""Fill a report schema from each report with an LLM, keeping only grounded values (seed 003).

One request per report asks for every field as ``{"value": …, "evidence": "<quote>"}``. The
reply must be JSON with known fields (unknown ones are ignored, missing ones count as not
stated); each value must be allowed for its field, and each stated value must pass the
grounding check (:mod:`medvqa.curate.llm._grounding`, negation-aware: "No washout" never grounds
``washout: yes``). A field that fails is dropped and counted by reason (``invalid_value``,
``quote_not_in_report``, ``quote_does_not_support``, ``quote_polarity_mismatch``); the other
fields of the report are kept. A report whose reply never parses is dropped whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from medvqa.curate.llm._generate import Task, generate_structured
from medvqa.curate.llm._grounding import ground_value, quote_pools
from medvqa.curate.llm._report_schema import NOT_STATED, ReportSchema, SchemaField
from medvqa.curate.llm._texts import TextRecord, load_prompts
from medvqa.models import LLMSettings


@dataclass(frozen=True)
class Extracted:
    """One grounded field value of one report."""

    field: str
    value: str
    evidence: str


@dataclass
class ReportExtraction:
    """What came of one report.

    Attributes:
        report: the report.
        values: grounded, stated values by field name.
        not_stated: fields the model said the report does not state.
        rejected: (field, reason, detail) for each dropped field value.
        error: why the whole reply was rejected (None when it parsed).
        raw: the last raw reply.
        prompt_sha256: SHA-256 of the extraction prompt.
        attempts: replies requested.
    """

    report: TextRecord
    values: dict[str, Extracted] = field(default_factory=dict)
    not_stated: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str, str]] = field(default_factory=list)
    error: str | None = None
    raw: str | None = None
    prompt_sha256: str = ""
    attempts: int = 0


def _fields_text(schema: ReportSchema) -> str:
    return "\n".join(f"- {f.name}: {' | '.join(f.allowed())}" for f in schema.fields)


def extraction_tasks(schema: ReportSchema, reports: list[TextRecord], chunk: int = 1) -> list[Task]:
    """One extraction prompt per report, keyed by report id.

    Each task's JSON schema allows only clauses of the reports of its chunk of ``chunk``
    reports as evidence, so constrained decoding quotes report text while a batch of reports
    still shares one schema (see :func:`~medvqa.curate.llm._grounding.quote_pools`).
    """
    prompts = load_prompts()
    fields = _fields_text(schema)
    pools = quote_pools([r.text for r in reports], chunk)
    return [
        Task(
            r.id,
            prompts["extract_user"].format(fields=fields, report=r.text),
            prompts["extract_system"],
            schema.json_schema(pool),
        )
        for r, pool in zip(reports, pools, strict=True)
    ]


def _parse(_task: Task, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not value:
        raise ValueError("reply: not a JSON object of fields")
    return value


def check_value(f: SchemaField, entry: Any, report: str) -> tuple[str, str, str]:
    """Classify one field entry: (``ok`` | ``not_stated`` | reason, value, detail)."""
    if isinstance(entry, str):  # a bare value without a quote cannot be grounded
        entry = {"value": entry, "evidence": ""}
    if not isinstance(entry, dict):
        return "invalid_value", "", f"{f.name}: not an object"
    value = str(entry.get("value", "")).strip()
    evidence = str(entry.get("evidence", "")).strip()
    allowed = {v.lower(): v for v in f.allowed()}
    if value.lower() not in allowed:
        return "invalid_value", value, f"{f.name}: {value!r} not in {f.allowed()}"
    value = allowed[value.lower()]
    if value == NOT_STATED:
        return "not_stated", value, ""
    needles = f.terms if f.kind == "binary" else [value, *f.aliases.get(value, [])]
    positive = not (f.kind == "binary" and value == "no")
    verdict, pols = ground_value(evidence, report, needles, positive)
    if verdict == "quote_not_in_report":
        return verdict, value, f"{f.name}: quote {evidence[:80]!r} is not in the report"
    if verdict == "quote_does_not_support":
        return verdict, value, f"{f.name}: quote {evidence[:80]!r} does not mention {needles}"
    if verdict != "ok":
        return (
            verdict,
            value,
            f"{f.name}: quote {evidence[:80]!r} reads {needles} as {'/'.join(sorted(set(pols)))}"
            f", not as the value {value!r} needs",
        )
    return "ok", value, evidence


def extract_reports(
    settings: LLMSettings, schema: ReportSchema, reports: list[TextRecord]
) -> list[ReportExtraction]:
    """Extract and ground every report (see module docstring)."""
    outcomes = generate_structured(
        settings,
        "extract",
        extraction_tasks(schema, reports, settings.batch_size),
        _parse,
        schema.json_schema(),
    )
    out = []
    for rep, o in zip(reports, outcomes, strict=True):
        ex = ReportExtraction(
            rep, error=o.error, raw=o.raw, prompt_sha256=o.prompt_sha256, attempts=o.attempts
        )
        if o.value is not None:
            for f in schema.fields:
                status, value, detail = check_value(
                    f, o.value.get(f.name, {"value": NOT_STATED}), rep.text
                )
                if status == "ok":
                    ex.values[f.name] = Extracted(f.name, value, detail)
                elif status == "not_stated":
                    ex.not_stated.append(f.name)
                else:
                    ex.rejected.append((f.name, status, detail))
        out.append(ex)
    return out
