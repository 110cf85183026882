"""``medvqa build reports``: reports → schema → grounded extraction → questions → BENCH/.

The oncology pipeline of seed 003 with every LLM call through :func:`medvqa.run.complete`.
When a report row names a NIfTI ``volume`` (and optionally a ``mask``), the representative
slice (largest mask area, else the central axial slice — the volume builder's rule) is stored
and attached to every question of that report. Every item keeps provenance: source report id,
generator model, prompt SHA-256 and the grounding span.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any, cast

from medvqa._path_guard import UnsafePathError, inside, regular_problem
from medvqa.builders import BenchWriter
from medvqa.curate.llm._extract import extract_reports
from medvqa.curate.llm._local import check_local
from medvqa.curate.llm._output import (
    BuildOutput,
    Dropped,
    LLMBuildResult,
    write_output,
)
from medvqa.curate.llm._report_questions import QuestionDraft, field_questions, mcq_questions
from medvqa.curate.llm._report_schema import load_schema
from medvqa.curate.llm._texts import TextRecord, read_texts
from medvqa.models import LLMSettings
from medvqa.schema import Item, QuestionType, ReviewRecord, SourceInfo
from medvqa.sources import Problems
from medvqa.store import ImageStore


@dataclass
class ReportsConfig:
    """One ``medvqa build reports`` invocation.

    Attributes:
        reports: JSONL/CSV of reports (``id``, ``text`` …) or a folder of ``.txt`` files.
        out: BENCH/ folder to write.
        schema: preset (``lirads``, ``lungrads``, ``rano``) or a schema YAML (e.g. an edited
            ``--induce-schema`` output).
        generator: the extraction / MCQ model.
        mcq: also generate one report-derived MCQ per report.
        seed: seed of distractor choice and option order.
        limit: use only the first N reports (0 = all).
        name: benchmark name.
        strict: stop at the first bad input row.
        force: replace a benchmark already at ``out`` (else refused, exit 2).
    """

    reports: Path
    out: Path
    schema: str
    _: KW_ONLY
    generator: LLMSettings = field(default_factory=LLMSettings)
    mcq: bool = True
    seed: int = 0
    limit: int = 0
    name: str = "reports"
    strict: bool = False
    force: bool = False


def _data_file(base: Path, rel: str) -> str:
    """``rel`` (a volume or mask path written in a report row) under ``base``, a regular file.

    Raises:
        UnsafePathError: absolute, ``..``, a link out of ``base``, a NUL byte, or not a regular
            file (a FIFO would hang the reader): the row is skipped, never a local file read.
    """
    path = inside(base, rel, what="volume path", root_name=f"the reports' folder {base}")
    problem = regular_problem(path)
    if problem:
        raise UnsafePathError(f"{rel!r} {problem}")
    return str(path)


def representative_slice(
    rec: TextRecord, base: Path, store: ImageStore
) -> tuple[str, dict[str, Any]]:
    """Store the representative slice of ``rec.volume``; returns (image path, slice meta)."""
    import nibabel as nib
    import numpy as np

    from medvqa.sources import choose_slice, encode_png, slice_2d, to_uint8

    volume = np.asanyarray(nib.load(_data_file(base, rec.volume)).dataobj)  # type: ignore[attr-defined]  # nibabel's stub types load() as FileBasedImage
    mask = (np.asanyarray(nib.load(_data_file(base, rec.mask)).dataobj)  # type: ignore[attr-defined]
            if rec.mask else None)
    how = "largest_mask" if mask is not None else "central"
    index = choose_slice(volume, how, mask)
    rel = store.add_bytes(encode_png(to_uint8(slice_2d(volume, index), None)), ".png")
    return rel, {"volume": rec.volume, "slice_index": index, "slice_rule": how}


def build_reports(config: ReportsConfig) -> LLMBuildResult:
    """Run the whole reports pipeline (see module docstring)."""
    if config.generator.local_only:
        check_local(config.generator.model)  # before reading or sending anything
    schema = load_schema(config.schema)
    problems = Problems(config.strict)
    reports = read_texts(config.reports, "report", problems)
    if config.limit:
        reports = reports[: config.limit]
    with BenchWriter(config.out, config.force) as writer:
        base = config.reports if config.reports.is_dir() else config.reports.parent
        store, slices = writer.images, {}
        for rec in list(reports):
            if rec.volume:
                try:
                    slices[rec.id] = representative_slice(rec, base, store)
                except Exception as exc:  # noqa: BLE001 - any reader error: skip this report
                    problems.add(rec.where, f"volume: unreadable {rec.volume}: {exc}")
                    reports.remove(rec)
        result = BuildOutput(
            name=config.name,
            description=f"Questions from {config.reports.name} with the {schema.name} schema "
            f"({schema.framework}), extracted by {config.generator.model}",
            recipe=f"medvqa build reports {config.reports.name} --schema {config.schema}",
            seed=config.seed,
            sources=[SourceInfo(dataset=config.reports.stem)],
            problems=problems,
        )
        extractions = extract_reports(config.generator, schema, reports)
        for ex in extractions:
            if ex.error is not None:
                result.dropped.append(
                    Dropped(
                        f"{ex.report.id}-extract",
                        ex.report.id,
                        "extract",
                        "invalid_reply",
                        ex.error,
                        ex.raw,
                    )
                )
            for name, reason, detail in ex.rejected:
                result.dropped.append(
                    Dropped(f"{ex.report.id}-{name}", ex.report.id, "extract", reason, detail, None)
                )
        drafts, skipped = field_questions(schema, extractions, config.seed, config.generator.model)
        # One candidate per field of each parsed reply, one per unparsable reply, so that
        # items + dropped + not_stated == generated.
        result.generated = sum(len(schema.fields) if ex.error is None else 1 for ex in extractions)
        if config.mcq:
            mcqs, more = mcq_questions(config.generator, reports)
            drafts, skipped = drafts + mcqs, skipped + more
            result.generated += len(reports)
        for s in skipped:
            result.dropped.append(
                Dropped(s.key, s.source_id, "question", s.reason, s.detail, s.raw)
            )
        order = {r.id: n for n, r in enumerate(reports)}
        drafts.sort(key=lambda d: (order[d.report.id], d.category == "report-derived"))
        for d in drafts:
            item = _item(config, d, slices.get(d.report.id))
            result.items.append(item)
            result.review.append(_review(item, d))
        result.extra_counts["not_stated"] = sum(len(ex.not_stated) for ex in extractions)
        counts = write_output(writer, result)
    return LLMBuildResult(writer.out, counts, problems)


def _item(
    config: ReportsConfig, d: QuestionDraft, slice_: tuple[str, dict[str, Any]] | None
) -> Item:
    meta: dict[str, Any] = {"provenance": d.provenance}
    if slice_ is not None:
        meta.update(slice_[1])
    return Item(
        id=d.id,
        images=[slice_[0]] if slice_ is not None else [],
        question=d.question,
        options=d.options,
        answer=d.answer,
        question_type=cast(QuestionType, d.question_type),
        category=d.category,
        case_id=d.report.case_id or d.report.id,
        source=config.reports.stem,
        split="test",
        meta=meta,
    )


def _review(item: Item, d: QuestionDraft) -> dict[str, Any]:
    return ReviewRecord.model_validate({
        "item_id": item.id,
        "source_id": d.report.id,
        "source_text": d.report.text,
        "images": item.images,
        "question": item.question,
        "options": item.options,
        "answer": item.answer,
        "question_type": item.question_type,
        "grounding_span": d.provenance.get("grounding_span", ""),
    }).model_dump(mode="json")
