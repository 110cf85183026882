"""LLM judges (MIRA, seed 001): rate each generated item 1–5 on three criteria.

Each generated item is rated 1–5 by two configurable models on relevance to the image / caption,
reasoning complexity and clarity; items every judge rates at
or above the threshold on every criterion go on to expert review, the rest are dropped and
counted. A judge whose reply never validates counts as a failed judgement (the item is dropped
with that reason), never as a pass.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from medvqa.curate.llm._generate import Task, generate_structured
from medvqa.curate.llm._texts import load_prompts
from medvqa.models import LLMSettings

CRITERIA: tuple[str, ...] = ("relevance", "complexity", "clarity")


class JudgeScores(BaseModel):
    """One judge's ratings of one item, each an integer 1 (poor) … 5 (excellent)."""

    model_config = ConfigDict(extra="ignore")

    relevance: int = Field(ge=1, le=5, description="Relevance to the image and caption.")
    complexity: int = Field(ge=1, le=5, description="Reasoning complexity.")
    clarity: int = Field(ge=1, le=5, description="Clarity of the wording.")


JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {c: {"type": "integer", "enum": [1, 2, 3, 4, 5]} for c in CRITERIA},
    "required": list(CRITERIA),
    "additionalProperties": False,
}


@dataclass(frozen=True)
class JudgeInput:
    """What a judge sees of one item."""

    key: str
    caption: str
    question: str
    options: dict[str, str]
    answer: str | list[str]
    explanation: str


@dataclass(frozen=True)
class JudgeOutcome:
    """One judge on one item: scores, or the error that left it without scores."""

    judge: str
    model: str
    scores: dict[str, int] | None
    error: str | None
    prompt_sha256: str

    def as_meta(self) -> dict[str, Any]:
        """The provenance record kept in the item's meta and in review.jsonl."""
        return {
            "model": self.model,
            "scores": self.scores,
            "error": self.error,
            "prompt_sha256": self.prompt_sha256,
        }


def judge_tasks(entries: list[JudgeInput]) -> list[Task]:
    """One judging prompt per item."""
    prompts = load_prompts()
    return [
        Task(
            e.key,
            prompts["judge_user"].format(
                caption=e.caption,
                question=e.question,
                options=json.dumps(e.options, ensure_ascii=False) if e.options else "(none)",
                answer=e.answer if isinstance(e.answer, str) else ", ".join(e.answer),
                explanation=e.explanation,
            ),
            prompts["judge_system"],
        )
        for e in entries
    ]


def run_judges(
    judges: list[LLMSettings], entries: list[JudgeInput],
) -> dict[str, list[JudgeOutcome]]:
    """Item key → one verdict per judge (judges named ``judge1``, ``judge2``… in order)."""
    tasks = judge_tasks(entries)
    out: dict[str, list[JudgeOutcome]] = {e.key: [] for e in entries}
    for n, settings in enumerate(judges, start=1):
        outcomes = generate_structured(
            settings, "judge", tasks, lambda _t, v: JudgeScores.model_validate(v), JUDGE_SCHEMA
        )
        for o in outcomes:
            scores = o.value.model_dump() if o.value is not None else None
            out[o.key].append(
                JudgeOutcome(f"judge{n}", settings.model, scores, o.error, o.prompt_sha256)
            )
    return out


def judge_decision(verdicts: list[JudgeOutcome], min_score: int) -> str | None:
    """None when every judge scored every criterion ≥ ``min_score``; else the drop reason.

    >>> v = JudgeOutcome("judge1", "m", {"relevance": 4, "complexity": 2, "clarity": 5}, None, "")
    >>> judge_decision([v], 3)
    'judge1 complexity 2 < 3'
    """
    for v in verdicts:
        if v.scores is None:
            return f"{v.judge} gave no valid scores ({v.error})"
        for c in CRITERIA:
            if v.scores[c] < min_score:
                return f"{v.judge} {c} {v.scores[c]} < {min_score}"
    return None
