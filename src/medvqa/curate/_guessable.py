"""Guessability filter (PathMMU): drop choice items that text-only models answer correctly.

Text-only models are asked every choice item without its image, and the items that at least
``min_correct`` models answer correctly are dropped.

Requests go through ``medvqa.run.complete`` (same backends, cache and retries as runs) and are
scored with the strict parser (``medvqa.reading.make_parser("strict")``). The kept items
are written to a new BENCH/ (images copied, items_sha256 recomputed); the dropped ones go to
``dropped.jsonl`` with each model's answer and the reason.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from medvqa.benchmark import read_image_file, refuse_unsafe_images
from medvqa.builders import BenchWriter
from medvqa.curate._guessable_config import GuessableConfig
from medvqa.errors import BadInputError
from medvqa.schema import (
    BENCHMARK_FILE,
    ITEMS_FILE,
    Benchmark,
    Item,
    read_jsonl,
)
from medvqa.store import atomic_write_bytes


@dataclass
class GuessableResult:
    """Counts of a filter pass."""

    kept: int
    dropped: int
    min_correct: int
    per_model_correct: dict[str, int] = field(default_factory=dict)


def parse_filter_spec(spec: str) -> tuple[list[str], int]:
    """``guessable:m1,m2,m3[:min]`` → (models, min_correct); min defaults to all models.

    >>> parse_filter_spec("guessable:random,frequent:1")
    (['random', 'frequent'], 1)
    """
    kind, _, rest = spec.partition(":")
    if kind != "guessable" or not rest:
        raise BadInputError(f"filter {spec!r}: use guessable:M1,M2,...[:MIN]")
    head, _, tail = rest.rpartition(":")
    if head and tail.isdigit():
        models, n = head, int(tail)
    else:
        models, n = rest, 0
    names = [m.strip() for m in models.split(",") if m.strip()]
    return names, n or len(names)


def apply_filter_spec(bench: Path, spec: str, seed: int = 0) -> GuessableResult:
    """Filter ``bench`` in place according to a recipe / ``--filter`` spec."""
    models, n = parse_filter_spec(spec)
    tmp = bench.with_name(f".{bench.name}.filtered")
    shutil.rmtree(tmp, ignore_errors=True)
    result = filter_guessable(GuessableConfig(bench, tmp, models, n, seed=seed))
    old = bench.with_name(f".{bench.name}.unfiltered")
    shutil.rmtree(old, ignore_errors=True)
    bench.rename(old)
    tmp.rename(bench)
    shutil.rmtree(old, ignore_errors=True)
    return result


def _answers(config: GuessableConfig, items: list[Item]) -> dict[str, list[str | None]]:
    from medvqa.benchmark import load_template, render_prompt
    from medvqa.models import GenerateRequest, ModelConfig, complete, load_model

    template = load_template(config.prompt_template)
    requests = [
        GenerateRequest(
            item_id=it.id,
            condition="text_only",
            prompt=render_prompt(it.model_copy(update={"images": []}), template),
            images=(),
            options=dict(it.options),
            question_type=it.question_type,
        )
        for it in items
    ]
    out: dict[str, list[str | None]] = {}
    for spec in config.models:
        model_config = ModelConfig(spec=spec, seed=config.seed)
        try:
            # The benchmark goes to the loader: ``frequent`` learns its answers from its train
            # split.
            backend = load_model(model_config, bench_dir=config.bench)
        except (ValueError, KeyError) as exc:
            raise BadInputError(f"guessable filter: model {spec!r}: {exc}") from None
        responses = complete(model_config, requests, config.cache_path, backend=backend)
        out[spec] = [r.text for r in responses]
    return out


def filter_guessable(config: GuessableConfig) -> GuessableResult:
    """Run the filter (see module docstring); returns the counts."""
    from medvqa.reading import is_correct, make_parser

    if Path(config.out).resolve() == Path(config.bench).resolve():
        raise BadInputError(f"{config.out}: write the filtered benchmark to a new folder")
    items = list(read_jsonl(config.bench / ITEMS_FILE, Item))
    choice = [it for it in items if it.options]
    answers = _answers(config, choice)
    correct: dict[str, list[str]] = {it.id: [] for it in choice}
    per_model: dict[str, int] = {}
    replies: dict[str, dict[str, object]] = {it.id: {} for it in choice}
    for spec, texts in answers.items():
        parser = make_parser("strict", seed=config.seed)
        n = 0
        for it, text in zip(choice, texts, strict=True):
            parsed = parser.parse(text or "", it.options, it.question_type)
            ok = not parsed.invalid and is_correct(parsed.choice, it.answer, it.question_type)
            replies[it.id][spec] = {"response": text, "choice": parsed.choice, "correct": ok}
            if ok:
                correct[it.id].append(spec)
                n += 1
        per_model[spec] = n
    drop = {i for i, models in correct.items() if len(models) >= config.min_correct}
    kept = [it for it in items if it.id not in drop]
    _write(config, kept, [it for it in items if it.id in drop], correct, replies)
    return GuessableResult(len(kept), len(drop), config.min_correct, per_model)


def _write(
    config: GuessableConfig,
    kept: list[Item],
    dropped: list[Item],
    correct: dict[str, list[str]],
    replies: dict[str, dict[str, object]],
) -> None:
    bench = Benchmark.model_validate_json((config.bench / BENCHMARK_FILE).read_text("utf-8"))
    # Every image the new benchmark keeps is inside the old one and a regular file, checked
    # before anything is written: an absolute path, '..' or a link out would otherwise copy a
    # local file in (or write outside -o), a FIFO hang the copy.
    refuse_unsafe_images(config.bench, kept, "nothing was written")
    with BenchWriter(config.out, config.force) as writer:
        for it in kept:
            for rel in it.images:
                target = writer.folder / rel
                if not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    atomic_write_bytes(target, read_image_file(config.bench, rel))
        written = writer.write_items(kept)
        writer.write_records("dropped.jsonl", (
            {
                "item_id": it.id,
                "reason": f"answered correctly without the image by {len(correct[it.id])} "
                f"of {len(config.models)} models (min {config.min_correct})",
                "correct_models": correct[it.id],
                "answers": replies[it.id],
            }
            for it in dropped
        ))
        counts = written.tally.counts(
            int(bench.counts.get("skipped", 0)), len({p for i in kept for p in i.images})
        )
        counts["filtered_guessable"] = len(dropped)
        writer.write_benchmark(
            bench.model_copy(update={"counts": counts, "items_sha256": written.sha256})
        )
        writer.commit()
