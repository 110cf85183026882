"""Structured report schemas (seed 003): presets, loading, and LLM schema induction.

A schema lists fields a radiologist can check on the image, with their allowed values. Presets
ship for LI-RADS, Lung-RADS and RANO; ``induce_schema`` asks an LLM to
propose one from a seeded sample of reports and writes it as YAML for the clinician to edit —
the paper's "schema confirmation" checkpoint — before extraction runs on it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field, ValidationError, model_validator

from medvqa._yaml_loader import load_yaml_file
from medvqa.curate.llm._generate import Task, generate_structured
from medvqa.curate.llm._texts import TextRecord, load_prompts, resource_path
from medvqa.errors import BadInputError
from medvqa.models import LLMSettings
from medvqa.rng import rng_for
from medvqa.store import atomic_write_text

PRESETS: tuple[str, ...] = ("lirads", "lungrads", "rano")
NOT_STATED = "not stated"


class SchemaField(BaseModel):
    """One field of a report schema.

    ``binary`` fields take ``yes`` / ``no``; ``multi`` fields take one of ``values``. A quote
    supporting a binary value must contain one of ``terms`` (default: the field name's words);
    a quote supporting a multi value must contain the value or one of its ``aliases``.
    """

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="snake_case field name.")
    question: str = Field(min_length=5, description="How the question about it is asked.")
    kind: Literal["binary", "multi"] = Field(description="binary (yes/no) or multi (one value).")
    values: list[str] = Field(default_factory=list, description="Allowed values (multi).")
    terms: list[str] = Field(default_factory=list, description="Words a binary quote must use.")
    aliases: dict[str, list[str]] = Field(default_factory=dict, description="Value → synonyms.")

    @model_validator(mode="after")
    def _check(self) -> SchemaField:
        if self.kind == "binary":
            self.values = ["yes", "no"]
            if not self.terms:
                self.terms = [self.name.replace("_", " ")]
        elif len(self.values) < 3 or len(set(self.values)) != len(self.values):
            raise ValueError(f"{self.name}: a multi field needs at least 3 distinct values")
        return self

    def allowed(self) -> list[str]:
        """The values extraction may return, ``not stated`` included."""
        return [*self.values, NOT_STATED]


class ReportSchema(BaseModel):
    """A report schema (the YAML file's shape)."""

    name: str = Field(description="Schema name.")
    framework: str = Field(default="", description="Reporting framework it follows.")
    description: str = Field(default="", description="What it covers.")
    fields: list[SchemaField] = Field(min_length=1, description="The fields.")

    @model_validator(mode="after")
    def _unique(self) -> ReportSchema:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError("fields: repeated field name")
        return self

    def json_schema(self, quotes: list[str] | None = None) -> dict[str, Any]:
        """JSON schema of an extraction reply, for constrained decoding.

        With ``quotes`` (the report's clauses) the evidence must be one of them or ``""``.
        """
        evidence: dict[str, Any] = (
            {"type": "string", "enum": ["", *quotes]}
            if quotes
            else {"type": "string", "maxLength": 200}
        )
        props = {
            f.name: {
                "type": "object",
                "properties": {
                    "value": {"type": "string", "enum": f.allowed()},
                    "evidence": evidence,
                },
                "required": ["value", "evidence"],
                "additionalProperties": False,
            }
            for f in self.fields
        }
        return {
            "type": "object",
            "properties": props,
            "required": list(props),
            "additionalProperties": False,
        }


def load_schema(name_or_path: str | Path) -> ReportSchema:
    """A preset (``lirads``, ``lungrads``, ``rano``) or a schema YAML file.

    Raises:
        BadInputError: unknown preset, missing file or invalid schema (naming the field).
    """
    text_path = Path(name_or_path)
    if str(name_or_path) in PRESETS:
        text_path = resource_path("schemas", f"{name_or_path}.yaml")
    elif not text_path.is_file():
        raise BadInputError(
            f"--schema {name_or_path}: not a preset ({', '.join(PRESETS)}) or a file"
        )
    try:
        return ReportSchema.model_validate(load_yaml_file(text_path))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInputError(f"{text_path}: {where}: {first['msg']}") from None
    except yaml.YAMLError as exc:
        raise BadInputError(f"{text_path}: not YAML: {exc}") from None


def _snake(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def _parse_induced(_task: Task, value: Any) -> ReportSchema:
    if not isinstance(value, dict) or not isinstance(value.get("fields"), list):
        raise ValueError("fields: missing list")
    fields = []
    for raw in value["fields"]:
        if not isinstance(raw, dict):
            continue
        raw = {**raw, "name": _snake(str(raw.get("name", "")))}
        try:
            fields.append(SchemaField.model_validate(raw))
        except ValidationError:
            continue  # one bad proposed field is dropped, the rest may still be useful
    if not fields:
        raise ValueError("fields: no valid field proposed")
    seen: set[str] = set()
    unique = [f for f in fields if not (f.name in seen or seen.add(f.name))]  # type: ignore[func-returns-value]
    return ReportSchema(
        name="induced",
        framework="LLM-induced",
        fields=unique,
        description="Proposed by an LLM; edit before extraction.",
    )


INDUCE_JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "fields": {
            "type": "array",
            "minItems": 1,
            "maxItems": 8,
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 40},
                    "question": {"type": "string", "maxLength": 120},
                    "kind": {"type": "string", "enum": ["binary", "multi"]},
                    "values": {
                        "type": "array",
                        "items": {"type": "string", "maxLength": 40},
                        "maxItems": 6,
                    },
                },
                "required": ["name", "question", "kind", "values"],
            },
        }
    },
    "required": ["fields"],
}


def induce_schema(
    settings: LLMSettings, reports: list[TextRecord], sample: int, seed: int
) -> ReportSchema:
    """Ask the LLM for a schema from a seeded sample of ``sample`` reports.

    Raises:
        BadInputError: no report to sample, or no valid schema after ``settings.tries``.
    """
    if not reports:
        raise BadInputError("--induce-schema: no reports to sample")
    rng = rng_for(seed, "induce-schema")
    picks = sorted(rng.choice(len(reports), size=min(sample, len(reports)), replace=False))
    shown = "\n".join(f"Report {n}: {reports[i].text}" for n, i in enumerate(picks, start=1))
    prompts = load_prompts()
    task = Task("induce", prompts["induce_user"].format(reports=shown), prompts["induce_system"])
    (outcome,) = generate_structured(settings, "induce", [task], _parse_induced, INDUCE_JSON_SCHEMA)
    if outcome.value is None:
        raise BadInputError(
            f"--induce-schema: the model proposed no valid schema ({outcome.error})"
        )
    return outcome.value.model_copy(
        update={
            "description": f"Proposed by {settings.model} from reports "
            f"{', '.join(reports[i].id for i in picks)}; edit before extraction."
        }
    )


def write_schema(schema: ReportSchema, path: Path) -> None:
    """Write a schema as YAML with a header that tells the clinician what to do next."""
    header = (
        "# Report schema proposed by an LLM. CHECKPOINT: a clinician must review this file —\n"
        "# keep only fields visible on the image, fix names, questions and allowed values —\n"
        "# then run: medvqa build reports REPORTS --schema THIS_FILE -o BENCH/\n"
    )
    body = yaml.safe_dump(schema.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
    atomic_write_text(path, header + body)
