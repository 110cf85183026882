"""``medvqa build captions``: captions → keyword filter → LLM questions → two LLM judges → BENCH/.

The MIRA pipeline (seed 001) with every LLM call through :func:`medvqa.run.complete`. Each
item keeps its provenance in ``meta.provenance``: the source caption id and text, the generator
model, the prompt's SHA-256, attempts, keyword hits and every judge's scores.

A reply that validates is not yet an item: before the judges see it, it must pass the
structural checks of :mod:`medvqa.benchmark._item_checks` — option texts distinct, non-empty
and not option letters, a question that asks something, its answer found in the caption, and,
across the build, answers not all at one position — each failure a counted drop reason
(stage ``check``). Judge scores below the threshold drop the item, or, with
``judge_action="review"``, keep it marked for the experts (``meta.provenance.judge_flag``).
"""

from __future__ import annotations

import csv
import logging
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from medvqa._path_guard import MAX_IMAGE_FILE_BYTES, UnsafePathError, read_inside
from medvqa.benchmark import answer_position_flaw, grounding_flaw, item_flaws
from medvqa.builders import BenchWriter
from medvqa.curate.llm._generate import Outcome, generate_structured
from medvqa.curate.llm._judges import JudgeInput, judge_decision, run_judges
from medvqa.curate.llm._keywords import KeywordMatcher, SweepRow, load_keywords, sweep
from medvqa.curate.llm._output import (
    BuildOutput,
    Dropped,
    LLMBuildResult,
    write_output,
)
from medvqa.curate.llm._qa import (
    QA_TYPES,
    TYPE_NAMES,
    GeneratedQA,
    item_fields,
    load_fewshot,
    parse_qa,
    qa_json_schema,
    qa_tasks,
)
from medvqa.curate.llm._texts import TextRecord, read_texts
from medvqa.errors import BadInputError
from medvqa.models import LLMSettings
from medvqa.schema import Item, ReviewRecord, SourceInfo
from medvqa.sources import Problems

log = logging.getLogger(__name__)


@dataclass
class CaptionsConfig:
    """One ``medvqa build captions`` invocation.

    Attributes:
        captions: CSV or JSONL of captions (``id``, ``caption``, optional ``image``, ``case_id``).
        out: BENCH/ folder to write (a benchmark there is replaced only with ``force``).
        generator: the question-writing model.
        judges: judge models (MIRA: two); empty = no judging, every valid item goes to review.
        types: question types to generate per caption (open, closed, single, multi).
        keywords: keyword list name or YAML path; None = no keyword filter.
        min_keywords: keep captions with at least this many distinct terms (MIRA: 2).
        fewshot: gold examples file; None = the shipped FICTIONAL examples.
        shots: gold examples of the same type shown per prompt.
        min_judge_score: every judge must rate every criterion at least this (1-5).
        judge_action: what a score below ``min_judge_score`` does: ``drop`` the item, or keep
            it for ``review``, marked (``meta.provenance.judge_flag``) and counted.
        limit: use only the first N captions that pass the filter (0 = all).
        seed: recorded in benchmark.json (generation is greedy unless temperature > 0).
        name: benchmark name.
        strict: stop at the first bad input row instead of skipping it.
        force: replace a benchmark already at ``out`` (else refused, exit 2).
    """

    captions: Path
    out: Path
    _: KW_ONLY
    generator: LLMSettings = field(default_factory=LLMSettings)
    judges: list[LLMSettings] = field(default_factory=list)
    types: list[str] = field(default_factory=lambda: list(QA_TYPES))
    keywords: str | None = None
    min_keywords: int = 2
    fewshot: Path | None = None
    shots: int = 1
    min_judge_score: int = 3
    judge_action: str = "drop"
    limit: int = 0
    seed: int = 0
    name: str = "captions"
    strict: bool = False
    force: bool = False


def read_labelled(path: str | Path) -> list[tuple[str, bool]]:
    """(text, in-domain) pairs from a CSV with ``caption`` (or ``text``) and ``label`` columns.

    Labels ``1/0``, ``yes/no``, ``true/false`` (any case).

    Raises:
        BadInputError: missing file, missing column, or a label that is none of those (the
            message names the row).
    """
    path = Path(path)
    if not path.is_file():
        raise BadInputError(f"{path}: no such labelled sample file")
    out = []
    with path.open(newline="", encoding="utf-8-sig") as fh:
        for n, row in enumerate(csv.DictReader(fh), start=2):
            text = row.get("caption") or row.get("text")
            label = str(row.get("label", "")).strip().lower()
            if text is None:
                raise BadInputError(
                    f"{path}:{n}: caption: missing (need caption and label columns)"
                )
            if label not in {"1", "0", "yes", "no", "true", "false"}:
                raise BadInputError(
                    f"{path}:{n}: label: {label!r} is not 1/0, yes/no or true/false"
                )
            out.append((text, label in {"1", "yes", "true"}))
    return out


def keyword_sweep(keywords: str, labelled: str | Path) -> list[SweepRow]:
    """Precision / recall / F1 of the keyword filter for k = 1..5 on a labelled sample."""
    return sweep(KeywordMatcher(load_keywords(keywords)), read_labelled(labelled))


def _reason(error: str | None) -> str:
    err = error or ""
    if err.startswith("model error"):
        return "model_error"
    if err.startswith("no complete JSON"):
        return "no_json"
    return "schema"


def build_captions(config: CaptionsConfig) -> LLMBuildResult:
    """Run the whole captions pipeline (see module docstring)."""
    problems = Problems(config.strict)
    for qt in config.types:
        if qt not in QA_TYPES:
            raise BadInputError(f"--types: unknown type {qt!r}; use {', '.join(QA_TYPES)}")
    records = read_texts(config.captions, "caption", problems)
    hits: dict[str, list[str]] = {}
    filtered = 0
    if config.keywords:
        matcher = KeywordMatcher(load_keywords(config.keywords))
        kept_records = []
        for rec in records:
            found = matcher.hits(rec.text)
            if len(found) >= config.min_keywords:
                hits[rec.id] = [f"{h.category}:{h.term}" for h in found]
                kept_records.append(rec)
            else:
                filtered += 1
        records = kept_records
    if config.limit:
        records = records[: config.limit]
    with BenchWriter(config.out, config.force) as writer:
        return _build(config, records, hits, filtered, problems, writer)


def _build(
    config: CaptionsConfig,
    records: list[TextRecord],
    hits: dict[str, list[str]],
    filtered: int,
    problems: Problems,
    writer: BenchWriter,
) -> LLMBuildResult:
    images = _images(records, config.captions, writer, problems)
    records = [r for r in records if r.id in images]
    fewshot = load_fewshot(config.fewshot)
    result = BuildOutput(
        name=config.name,
        description=f"Questions generated from {config.captions.name} by {config.generator.model} "
        f"(MIRA-style caption pipeline; types {', '.join(config.types)})",
        recipe=f"medvqa build captions {config.captions.name}",
        seed=config.seed,
        sources=[SourceInfo(dataset=config.captions.stem)],
        problems=problems,
    )
    outcomes: list[Outcome[GeneratedQA]] = []
    for qt in config.types:  # one schema per type, so constrained decoding gets the right one
        tasks = qa_tasks(records, [qt], fewshot, config.shots)
        outcomes += generate_structured(config.generator, "qa", tasks, parse_qa, qa_json_schema(qt))
    order = {f"{r.id}:{qt}": (n, t) for n, r in enumerate(records) for t, qt in enumerate(QA_TYPES)}
    outcomes.sort(key=lambda o: order[o.key])
    by_id = {r.id: r for r in records}
    result.generated = len(outcomes)
    valid: list[tuple[Outcome[GeneratedQA], TextRecord]] = []
    gold = {str(ex["output"].get("question", "")).strip().lower() for ex in fewshot}
    for o in outcomes:
        rec = by_id[o.key.rsplit(":", 1)[0]]
        if o.value is None:
            result.dropped.append(
                Dropped(o.key, rec.id, "generate", _reason(o.error), o.error or "", o.raw)
            )
        elif o.value.question.strip().lower() in gold:  # small models copy the demonstration
            result.dropped.append(
                Dropped(
                    o.key,
                    rec.id,
                    "generate",
                    "copied_example",
                    "the question is a few-shot example's",
                    o.raw,
                )
            )
        else:
            valid.append((o, rec))
    valid = _checked(valid, result)
    entries = [
        JudgeInput(
            o.key, rec.text, o.value.question, o.value.options, o.value.answer, o.value.explanation
        )
        for o, rec in valid
        if o.value is not None
    ]
    verdicts = run_judges(config.judges, entries) if config.judges else {}
    flagged = 0
    for o, rec in valid:
        assert o.value is not None
        judged = verdicts.get(o.key, [])
        why = judge_decision(judged, config.min_judge_score) if config.judges else None
        if why is not None and config.judge_action != "review":
            reason = "no_valid_scores" if "no valid scores" in why else "low_score"
            result.dropped.append(Dropped(o.key, rec.id, "judge", reason, why, o.raw))
            continue
        flagged += why is not None
        result.items.append(_item(config, o, rec, images[rec.id], hits.get(rec.id, []), judged,
                                  why))
        result.review.append(_review(result.items[-1], rec, judged))
    result.extra_counts["captions_filtered"] = filtered
    if config.judge_action == "review":
        result.extra_counts["flagged_by_judges"] = flagged
    counts = write_output(writer, result)
    return LLMBuildResult(writer.out, counts, problems)


def _checked(
    valid: list[tuple[Outcome[GeneratedQA], TextRecord]], result: BuildOutput
) -> list[tuple[Outcome[GeneratedQA], TextRecord]]:
    """The replies that are items: structural checks, then the build's answer positions.

    Each failure is a :class:`Dropped` of stage ``check`` whose reason is the flaw's code.
    """
    kept: list[tuple[Outcome[GeneratedQA], TextRecord, Item]] = []
    for o, rec in valid:
        assert o.value is not None
        draft = Item(id=o.key, **item_fields(o.value))
        flaws = item_flaws(draft)
        grounding = grounding_flaw(draft, rec.text)
        flaws += [grounding] if grounding else []
        if flaws:
            result.dropped.append(Dropped(o.key, rec.id, "check", flaws[0].reason,
                                          "; ".join(map(str, flaws)), o.raw))
        else:
            kept.append((o, rec, draft))
    position = answer_position_flaw(d for _, _, d in kept)
    if position is not None:  # a generator that always answers one letter: none is kept
        single = {d.id for _, _, d in kept if d.question_type in {"single", "grade"}}
        for o, rec, d in kept:
            if d.id in single:
                result.dropped.append(Dropped(o.key, rec.id, "check", position.reason,
                                              str(position), o.raw))
        kept = [k for k in kept if k[2].id not in single]
    return [(o, rec) for o, rec, _ in kept]


def _images(
    records: list[TextRecord], captions: Path, writer: BenchWriter, problems: Problems
) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for rec in records:
        if not rec.image:
            out[rec.id] = []
            continue
        # The image name comes from data: it stays beside the captions file (no absolute
        # path, no "..", no link out) and names a regular file (never a FIFO), or the row is
        # skipped; a local file is never copied into the benchmark.
        try:
            data = read_inside(captions.parent, rec.image, what="image",
                               root_name=f"the captions' folder {captions.parent}",
                               max_bytes=MAX_IMAGE_FILE_BYTES, cap_of="one image file")
        except UnsafePathError as exc:
            problems.add(rec.where, f"image: {exc}")
            continue
        out[rec.id] = [writer.images.add_bytes(data, Path(rec.image).suffix.lower() or ".bin")]
    return out


def _item(
    config: CaptionsConfig,
    o: Outcome[GeneratedQA],
    rec: TextRecord,
    images: list[str],
    keywords: list[str],
    judged: list[Any],
    judge_flag: str | None = None,
) -> Item:
    qa = o.value
    assert qa is not None
    qt = qa.question_type
    flag = {"judge_flag": judge_flag} if judge_flag else {}
    return Item(
        id=f"{rec.id}-{qt}",
        images=images,
        category=TYPE_NAMES[qt],
        case_id=rec.case_id or rec.id,
        source=config.captions.stem,
        split="test",
        meta={
            "explanation": qa.explanation,
            "generated_type": qt,
            "provenance": {
                "source_id": rec.id,
                "source_text": rec.text,
                "generator": config.generator.model,
                "prompt_sha256": o.prompt_sha256,
                "attempts": o.attempts,
                "keywords": keywords,
                "judges": {v.judge: v.as_meta() for v in judged},
                "grounding_span": rec.text,
                **flag,
            },
        },
        **item_fields(qa),
    )


def _review(item: Item, rec: TextRecord, judged: list[Any]) -> dict[str, Any]:
    return ReviewRecord.model_validate({
        "item_id": item.id,
        "source_id": rec.id,
        "source_text": rec.text,
        "images": item.images,
        "question": item.question,
        "options": item.options,
        "answer": item.answer,
        "question_type": item.question_type,
        "explanation": item.meta.get("explanation", ""),
        "judges": {v.judge: v.as_meta() for v in judged},
    }).model_dump(mode="json")
