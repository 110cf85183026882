"""The optional LLM judge: sort the failures the rules left open into LMOD and MIRA categories.

``medvqa score BENCH RUN --judge MODEL`` asks any model backend (``smollm2``, ``hf:…``,
``openai:…@URL``, ``anthropic:…``) about each wrong or unreadable answer that the rule-based tags
(:mod:`medvqa.score._failure_modes`) could not place — a readable wrong answer (is it a plain
misclassification, inconsistent reasoning, a lack of domain knowledge …?) or an unreadable one
that is neither a refusal nor a hallucination. Requests go through :func:`medvqa.run.complete`
into the run's ``cache.sqlite``: a rerun sends nothing already answered, a killed one resumes,
429/5xx are retried. ``max_items`` bounds the requests; candidates are taken round-robin over
conditions (each in prediction order), so a bound still samples every condition. Judge labels
are counted apart from the rule tags; a reply outside the allowed labels is ``unclassified`` and
a failed request an ``error``, both counted.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.models import GenerateRequest, ModelConfig
from medvqa.schema import Item
from medvqa.score._judge_config import JudgeConfig
from medvqa.score._judge_prompt import (
    UNCLASSIFIED,
    JudgePrompt,
    judge_json_schema,
    load_judge_prompt,
    parse_verdict,
    render_user,
)
from medvqa.store import atomic_write_text

log = logging.getLogger(__name__)

#: Cache condition of judge requests (kept apart from the run's own answers).
JUDGE_CONDITION = "failure-judge"


@dataclass(frozen=True)
class Candidate:
    """One failure the rules left open: the item as shown, the condition and the reply."""

    item: Item
    condition: str
    response: str


@dataclass(frozen=True)
class FailureLabels:
    """The judge's labels for one candidate (``unclassified`` when not in the allowed set)."""

    item_id: str
    condition: str
    lmod: str
    mira: str
    reply: str | None
    error: str | None


@dataclass
class JudgeCounts:
    """Judge results of one condition.

    Attributes:
        candidates: failures the rules left open.
        asked: candidates sent to (or answered from the cache of) the judge.
        errors: asked candidates whose request failed (no label counted).
        lmod: LMOD code (or ``unclassified``) → candidates.
        mira: MIRA name (or ``unclassified``) → candidates.

    """

    candidates: int = 0
    asked: int = 0
    errors: int = 0
    lmod: Counter[str] = field(default_factory=Counter)
    mira: Counter[str] = field(default_factory=Counter)

    def as_dict(self, prompt: JudgePrompt, model: str) -> dict[str, Any]:
        """JSON-ready block with every label present (zeros included)."""
        return {
            "model": model,
            "prompt_sha256": prompt.sha256,
            "candidates": self.candidates,
            "asked": self.asked,
            "not_asked": self.candidates - self.asked,
            "errors": self.errors,
            "lmod": {t: self.lmod.get(t, 0) for t in (*prompt.lmod, UNCLASSIFIED)},
            "mira": {t: self.mira.get(t, 0) for t in (*prompt.mira, UNCLASSIFIED)},
        }


@dataclass
class JudgeResult:
    """Per-condition counts, per-candidate verdicts and what to record in run.json.

    Attributes:
        counts: condition → :meth:`JudgeCounts.as_dict` (conditions with candidates).
        empty: the block of a condition without candidates (all zeros).
        verdicts: one per asked candidate, in the order asked.
        provenance: judge model, parameters and prompt (text, version, SHA-256).

    """

    counts: dict[str, dict[str, Any]]
    empty: dict[str, Any]
    verdicts: list[FailureLabels]
    provenance: dict[str, Any]


def round_robin(by_condition: dict[str, list[Candidate]], limit: int | None) -> list[Candidate]:
    """Up to ``limit`` candidates, one condition after the other in turn.

    >>> from medvqa.schema import Item
    >>> it = Item(id="x", question="q", options={}, answer="a", question_type="open")
    >>> picks = round_robin({"clean": [Candidate(it, "clean", str(i)) for i in range(3)],
    ...                      "blind": [Candidate(it, "blind", "b")]}, 3)
    >>> [(c.condition, c.response) for c in picks]
    [('clean', '0'), ('blind', 'b'), ('clean', '1')]
    """
    iters: list[Iterator[Candidate]] = [iter(v) for v in by_condition.values()]
    out: list[Candidate] = []
    cap = sum(len(v) for v in by_condition.values()) if limit is None else limit
    while iters and len(out) < cap:
        alive = []
        for it in iters:
            nxt = next(it, None)
            if nxt is None:
                continue
            alive.append(it)
            out.append(nxt)
            if len(out) >= cap:
                break
        iters = alive
    return out


def judge_model_config(config: JudgeConfig, prompt: JudgePrompt) -> ModelConfig:
    """The judge's :class:`ModelConfig`, with the schema constraint its backend understands."""
    try:
        return config.llm.model_config("failure_mode", judge_json_schema(prompt))
    except ValueError as exc:
        raise BadInputError(f"--judge {config.model!r}: {exc}") from None


def run_judge(
    config: JudgeConfig,
    by_condition: dict[str, list[Candidate]],
    cache_path: Path,
    bench_dir: Path,
) -> JudgeResult:
    """Ask the judge about the selected candidates and count its labels per condition.

    Raises:
        BadInputError: bad judge spec or prompt file, or the judge endpoint is unreachable.
    """
    from medvqa.benchmark import ImageLoader
    from medvqa.models import complete, load_model

    prompt = load_judge_prompt(config.prompt_path)
    model_config = judge_model_config(config, prompt)
    try:
        backend = load_model(model_config, bench_dir=bench_dir)
    except (ValueError, KeyError) as exc:
        raise BadInputError(f"--judge {config.model!r}: {exc}") from None
    sees_images = config.images and not backend.info.get("text_only", False)
    loader = ImageLoader(bench_dir) if sees_images else None
    chosen = round_robin(by_condition, config.max_items)
    requests = [
        GenerateRequest(
            item_id=c.item.id,
            condition=f"{JUDGE_CONDITION}:{c.condition}",
            prompt=render_user(prompt, c.item, c.condition, c.response),
            images=loader.load_all(list(c.item.images)) if loader else (),
            question_type="open",
            system=prompt.system,
        )
        for c in chosen
    ]
    log.info("failure judge %s: %d of %d candidates", config.model, len(requests),
             sum(len(v) for v in by_condition.values()))
    responses = complete(model_config, requests, cache_path, config.llm.concurrency,
                         config.llm.max_retries, backend=backend) if requests else []
    counts = {cond: JudgeCounts(candidates=len(v)) for cond, v in by_condition.items()}
    verdicts = []
    for cand, resp in zip(chosen, responses, strict=True):
        jc = counts[cand.condition]
        jc.asked += 1
        if resp.error is not None or resp.text is None:
            jc.errors += 1
            verdicts.append(FailureLabels(cand.item.id, cand.condition, "", "", None, resp.error))
            continue
        lmod, mira = parse_verdict(resp.text, prompt)
        jc.lmod[lmod] += 1
        jc.mira[mira] += 1
        verdicts.append(FailureLabels(cand.item.id, cand.condition, lmod, mira, resp.text, None))
    provenance = {
        "model": backend.name,
        "model_params": {k: v for k, v in backend.params.items()
                         if k not in {"json_schema", "response_format"}},
        "constrained": bool(model_config.extra),
        "images": sees_images,
        "max_items": config.max_items,
        **prompt.provenance(),
    }
    return JudgeResult(
        counts={c: jc.as_dict(prompt, backend.name) for c, jc in counts.items()},
        empty=JudgeCounts().as_dict(prompt, backend.name),
        verdicts=verdicts,
        provenance=provenance,
    )


#: Per-candidate judge verdicts, next to predictions.jsonl (an audit trail of the counts).
VERDICTS_FILE = "failure_judge.jsonl"


def write_verdicts(run_dir: Path, verdicts: list[FailureLabels]) -> Path:
    """Write RUN/failure_judge.jsonl atomically: item, condition, labels, raw reply, error."""
    lines = [json.dumps({"item_id": v.item_id, "condition": v.condition, "lmod": v.lmod or None,
                         "mira": v.mira or None, "reply": v.reply, "error": v.error},
                        ensure_ascii=False) for v in verdicts]
    path = Path(run_dir) / VERDICTS_FILE
    atomic_write_text(path, "".join(line + "\n" for line in lines))
    return path
