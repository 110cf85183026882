"""Caption → question (MIRA, seed 001): the generated-item schema, its prompt and its validation.

One request per (caption, question type) asks for one JSON object with the question, options,
answer and explanation; few-shot gold examples of the same type are shown first. MIRA's types:
open-ended, closed (yes/no), single choice and multiple choice. A reply becomes an item only if
it validates against :class:`GeneratedQA` (right keys, answer consistent with the type and
options, the requested type) — anything else is asked again, then dropped and counted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from medvqa._yaml_loader import YamlError, load_yaml_file
from medvqa.curate.llm._generate import Task
from medvqa.curate.llm._texts import TextRecord, load_prompts, resource_path
from medvqa.errors import BadInputError

QAType = Literal["open", "closed", "single", "multi"]
QA_TYPES: tuple[str, ...] = ("open", "closed", "single", "multi")
TYPE_NAMES = {
    "open": "open-ended",
    "closed": "closed",
    "single": "single choice",
    "multi": "multiple choice",
}
#: medvqa question_type of each generated type.
ITEM_TYPES = {"open": "open", "closed": "yesno", "single": "single", "multi": "multi"}
YES_NO = {"A": "Yes", "B": "No"}


class GeneratedQA(BaseModel):
    """One generated question, as the model must return it."""

    model_config = ConfigDict(extra="ignore")

    question_type: QAType = Field(description="open | closed | single | multi")
    question: str = Field(min_length=8, max_length=400, description="The question.")
    options: dict[str, str] = Field(default_factory=dict, description="Letter → text.")
    answer: str | list[str] = Field(description="Text, yes/no, a letter, or letters.")
    explanation: str = Field(min_length=8, max_length=800, description="Why the answer holds.")

    @field_validator("question", "explanation")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @model_validator(mode="after")
    def _consistent(self) -> GeneratedQA:
        qt, opts = self.question_type, self.options
        if qt in {"open", "closed"}:
            if not isinstance(self.answer, str) or not self.answer.strip():
                raise ValueError("answer: needs text")
            if qt == "closed" and self.answer.strip().lower().rstrip(".") not in {"yes", "no"}:
                raise ValueError("answer: a closed question is answered yes or no")
            return self
        letters = list(opts)
        if not 3 <= len(letters) <= 6 or letters != [chr(65 + i) for i in range(len(letters))]:
            raise ValueError("options: need 3-6 options lettered A, B, C…")
        texts = [t.strip().lower() for t in opts.values()]
        if any(not t for t in texts) or len(set(texts)) != len(texts):
            raise ValueError("options: empty or repeated option text")
        answer = self.answer
        if isinstance(answer, str):
            answer = [a.strip() for a in answer.replace(";", ",").split(",") if a.strip()]
        answer = [a.upper().rstrip(").") for a in answer]
        if not answer or any(a not in opts for a in answer) or len(set(answer)) != len(answer):
            raise ValueError(f"answer: {self.answer!r} is not among the option letters")
        if qt == "single" and len(answer) != 1:
            raise ValueError("answer: a single-choice question has exactly one letter")
        self.answer = answer[0] if qt == "single" else sorted(answer)
        return self


def qa_json_schema(question_type: str) -> dict[str, Any]:
    """JSON schema for constrained decoding of one generated item of ``question_type``."""
    text = {"type": "string", "minLength": 1, "maxLength": 300}
    props: dict[str, Any] = {
        "question_type": {"type": "string", "enum": [question_type]},
        "question": text,
    }
    if question_type in {"single", "multi"}:
        opt = {"type": "string", "minLength": 1, "maxLength": 120}
        props["options"] = {
            "type": "object",
            "properties": {k: opt for k in "ABCD"},
            "required": list("ABCD"),
            "additionalProperties": False,
        }
        letter = {"type": "string", "enum": list("ABCD")}
        props["answer"] = (
            letter
            if question_type == "single"
            else {"type": "array", "items": letter, "minItems": 1, "maxItems": 4}
        )
    else:
        props["options"] = {"type": "object", "properties": {}, "additionalProperties": False}
        props["answer"] = (
            {"type": "string", "enum": ["yes", "no"]} if question_type == "closed" else text
        )
    props["explanation"] = text
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def load_fewshot(path: str | Path | None = None) -> list[dict[str, Any]]:
    """Gold examples (``caption`` + ``output``); the shipped FICTIONAL set when ``path`` is None.

    Raises:
        BadInputError: unreadable file, or an example whose output does not validate.
    """
    path = Path(path) if path else resource_path("captions", "fewshot_ir.yaml")
    try:
        examples = list(load_yaml_file(path)["examples"])
    except YamlError:
        raise
    except (OSError, KeyError, TypeError) as exc:
        raise BadInputError(f"{path}: not a few-shot file with 'examples': {exc}") from None
    for n, ex in enumerate(examples, start=1):
        try:
            GeneratedQA.model_validate(ex["output"])
            str(ex["caption"])
        except Exception as exc:  # noqa: BLE001 - any defect in a gold example is a bad file
            raise BadInputError(f"{path}: example {n}: {str(exc).splitlines()[0]}") from None
    return examples


def qa_tasks(
    captions: list[TextRecord], types: list[str], fewshot: list[dict[str, Any]], shots: int = 1
) -> list[Task]:
    """One task per caption and requested type, keyed ``<caption id>:<type>``."""
    prompts = load_prompts()
    tasks = []
    for rec in captions:
        for qt in types:
            gold = [ex for ex in fewshot if ex["output"].get("question_type") == qt][:shots]
            examples = "".join(
                f"Example caption: {ex['caption']}\nExample JSON: "
                f"{json.dumps(ex['output'], ensure_ascii=False)}\n"
                for ex in gold
            )
            user = prompts["qa_user"].format(
                type_name=TYPE_NAMES[qt],
                type_rule=prompts["type_rules"][qt],
                question_type=qt,
                examples=examples.rstrip("\n"),
                caption=rec.text,
            )
            tasks.append(Task(f"{rec.id}:{qt}", user, prompts["qa_system"]))
    return tasks


def parse_qa(task: Task, value: Any) -> GeneratedQA:
    """Validate a reply; the type must be the one asked for."""
    qa = GeneratedQA.model_validate(value)
    wanted = task.key.rsplit(":", 1)[1]
    if qa.question_type != wanted:
        raise ValueError(f"question_type: asked for {wanted}, got {qa.question_type}")
    return qa


def item_fields(qa: GeneratedQA) -> dict[str, Any]:
    """``question``, ``options``, ``answer`` and ``question_type`` of the benchmark item."""
    if qa.question_type == "closed":
        yes = str(qa.answer).strip().lower().startswith("yes")
        return {
            "question": qa.question,
            "options": dict(YES_NO),
            "answer": "A" if yes else "B",
            "question_type": "yesno",
        }
    return {
        "question": qa.question,
        "options": dict(qa.options),
        "answer": qa.answer,
        "question_type": ITEM_TYPES[qa.question_type],
    }
