"""The runner behind ``medvqa run``: one model on one benchmark, crash-safe and resumable.

Items are streamed from items.jsonl (never all in memory); for each item and condition the
condition transforms the item, the prompt template renders it, its images are read once
(not at all for text-only backends), the condition transforms them, and the request goes
through :func:`~medvqa.run.complete_requests` (cache, concurrency, retries).

Exactly once, after SIGINT or SIGKILL at any moment and a rerun: every result is committed to
the journal table of RUN/cache.sqlite as it arrives, keyed by ``(item_id, condition)``
(primary key), and predictions.jsonl is written from the journal in benchmark order,
atomically, whenever the runner stops (normally or on SIGINT) and on every rerun. This was
chosen over appending to predictions.jsonl because the journal cannot hold a torn or duplicate
line, gives a deterministic file order whatever order answers arrived in, and commits in the
same small transactions as the cache; a SIGKILL only leaves predictions.jsonl stale until the
rerun, which sends nothing that was already committed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from medvqa import __version__
from medvqa.conditions import Condition, expand_conditions, get_condition
from medvqa.errors import BadInputError
from medvqa.models import ResponseCache
from medvqa.models._base import (
    EndpointUnreachableError,
    GenerateRequest,
    ImageInput,
    ModelBackend,
    ModelConfig,
)
from medvqa.models._complete import RetryPolicy, _load, complete_requests
from medvqa.models._images import ImageLoader, ImageLoadError
from medvqa.run._journal import JournalRow, PredictionJournal
from medvqa.run._perturb_ahead import perturb_ahead
from medvqa.run._prompts import PromptError, load_template, render_prompt
from medvqa.run._validate import iter_items
from medvqa.schema import (
    BENCHMARK_FILE,
    CACHE_FILE,
    CLEAN,
    ITEMS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    Benchmark,
    InputError,
    Item,
    RecordError,
    RunInfo,
    file_sha256,
    read_json,
    write_json,
)

log = logging.getLogger(__name__)


@dataclass
class RunConfig:
    """What ``medvqa run`` was asked to do.

    Attributes:
        bench_dir: the BENCH/ folder.
        out_dir: the RUN/ folder (created if missing).
        model: the model to run.
        prompt: prompt template name or YAML path; None uses benchmark.json's.
        conditions: condition specs (``clean``, ``blind``, ``corrupt:all@1-5``, …).
        concurrency: most requests in flight.
        limit: ask only the first N selected items.
        split: ask only items of this split.
        category: ask only items of this category.
        retry_errors: ask again the items whose prediction is an error.
        force_new: forget earlier predictions in RUN/ and start afresh (the cache is kept: its
            keys hold everything that changes an answer).
        seed: seed of random conditions.
        max_retries: retries of transient errors before an error is recorded.
        backoff_s: first backoff wait in seconds (doubles per retry).
        perturbed_dir: on-disk cache of perturbed images (None: RUN/perturbed); runs that
            share it perturb each image once.
        perturb_workers: processes that perturb images ahead (None: one per core; 0: none,
            the request builder perturbs in-process).

    """

    bench_dir: Path
    out_dir: Path
    model: ModelConfig
    prompt: str | None = None
    conditions: list[str] = field(default_factory=lambda: [CLEAN])
    concurrency: int = 16
    limit: int | None = None
    split: str | None = None
    category: str | None = None
    retry_errors: bool = False
    force_new: bool = False
    seed: int = 0
    max_retries: int = 4
    backoff_s: float = 0.5
    perturbed_dir: Path | None = None
    perturb_workers: int | None = None


@dataclass(frozen=True)
class RunProgress:
    """Progress of a run, passed to the progress callback after each batch of results.

    Attributes:
        completed: requests finished in this invocation (sent, cached or failed).
        total: requests expected (an upper bound: conditions may skip some items).
        cached: of ``completed``, answered from the cache.
        errors: of ``completed``, recorded as errors.
        already_done: requests skipped so far because an earlier invocation answered them
            (not part of ``completed``; ``total`` includes them).

    """

    completed: int
    total: int
    cached: int
    errors: int
    already_done: int = 0


@dataclass
class RunSummary:
    """How a run went.

    Attributes:
        run_dir: the RUN/ folder.
        selected: (item, condition) pairs selected by split, category, limit and conditions.
        already_done: of those, answered by an earlier invocation and skipped.
        sent: requests answered by the model in this invocation.
        cached: requests answered from the cache.
        errors: requests recorded as errors in this invocation.
        error_messages: first distinct error messages of this invocation.
        bad_lines: items.jsonl lines skipped as malformed.
        predictions: rows in predictions.jsonl after the run.
        prediction_errors: of those, errors.
        elapsed_s: wall time of this invocation in seconds.

    """

    run_dir: Path
    selected: int = 0
    already_done: int = 0
    sent: int = 0
    cached: int = 0
    errors: int = 0
    error_messages: list[str] = field(default_factory=list)
    bad_lines: int = 0
    predictions: int = 0
    prediction_errors: int = 0
    elapsed_s: float = 0.0

    @property
    def completed(self) -> int:
        """Requests finished in this invocation."""
        return self.sent + self.cached

    @property
    def items_per_s(self) -> float:
        """Finished requests per second of wall time."""
        return self.completed / self.elapsed_s if self.elapsed_s > 0 else 0.0


def _resolve_conditions(specs: list[str], seed: int) -> list[Condition]:
    """Expand condition specs and look each one up; unknown names are bad input."""
    try:
        names = expand_conditions(list(specs))
        conds = [get_condition(n, seed=seed) for n in names]
    except (KeyError, ValueError) as exc:
        raise BadInputError(f"--conditions: {exc}") from None
    seen: set[str] = set()
    unique = []
    for c in conds:
        if c.name not in seen:
            seen.add(c.name)
            unique.append(c)
    return unique


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class _Selection:
    """Streams the selected items of a benchmark as ``(line, item)``, re-readable."""

    def __init__(self, path: Path, config: RunConfig):
        self.path = path
        self.split = config.split
        self.category = config.category
        self.limit = config.limit
        self.errors: list[RecordError] = []

    def __iter__(self) -> Iterator[tuple[int, Item]]:
        errors: list[RecordError] = []
        n = 0
        for lineno, item in iter_items(self.path, errors):
            if self.limit is not None and n >= self.limit:
                break
            if self.split is not None and item.split != self.split:
                continue
            if self.category is not None and item.category != self.category:
                continue
            n += 1
            yield lineno, item
        self.errors = errors


def _count_selected(selection: _Selection) -> int:
    """Items the run will ask, for the progress bar.

    Without a split or category filter, counting non-blank lines is enough (milliseconds for
    100,000 items; a malformed line makes it one too high); with a filter, items are parsed.
    """
    if selection.split is None and selection.category is None:
        with selection.path.open("rb") as fh:
            n = sum(1 for line in fh if line.strip())
        return n if selection.limit is None else min(n, selection.limit)
    return sum(1 for _ in selection)


def _check_existing(run_file: Path, info: RunInfo) -> None:
    """Refuse to mix a RUN/ folder with a different benchmark, model, prompt or settings."""
    try:
        old = read_json(run_file, RunInfo)
    except InputError as exc:
        raise BadInputError(f"{exc}; use --force-new to start the run afresh") from None
    diffs = []
    if old.items_sha256 != info.items_sha256:
        diffs.append(
            f"it was made for another benchmark (items_sha256 {old.items_sha256[:12]}… "
            f"vs {info.items_sha256[:12]}…)"
        )
    if old.model != info.model:
        diffs.append(f"it was made with model {old.model!r}, not {info.model!r}")
    if old.prompt_template != info.prompt_template:
        diffs.append(f"it used prompt {old.prompt_template!r}, not {info.prompt_template!r}")
    if old.model_params != info.model_params:
        diffs.append(f"its model parameters were {old.model_params}, not {info.model_params}")
    if old.seed != info.seed:
        diffs.append(f"its seed was {old.seed}, not {info.seed}")
    if diffs:
        raise BadInputError(
            f"{run_file.parent}: " + "; ".join(diffs) + ". Use --force-new to start the run "
            "afresh, or choose another --out folder."
        )


async def arun_benchmark(
    config: RunConfig,
    progress: Callable[[RunProgress], None] | None = None,
    *,
    backend: ModelBackend | None = None,
) -> RunSummary:
    """Async :func:`run_benchmark` (for callers that already have an event loop)."""
    started = time.perf_counter()
    bench_dir, out_dir = Path(config.bench_dir), Path(config.out_dir)
    items_file, bench_file = bench_dir / ITEMS_FILE, bench_dir / BENCHMARK_FILE
    for f in (bench_file, items_file):
        if not f.is_file():
            raise BadInputError(f"{f}: file is missing (is {bench_dir} a benchmark folder?)")
    try:
        card = read_json(bench_file, Benchmark)
    except InputError as exc:
        raise BadInputError(str(exc)) from None
    template_name = config.prompt or card.prompt_template
    try:
        template = load_template(template_name)
    except PromptError as exc:
        raise BadInputError(f"prompt template: {exc}") from None
    conditions = _resolve_conditions(config.conditions or [CLEAN], config.seed)
    model = backend if backend is not None else _load(config.model, bench_dir)
    text_only = bool(model.info.get("text_only", False))
    info = RunInfo(
        model=model.name,
        model_params=dict(model.params),
        model_info=dict(model.info) | {"text_only": text_only},
        prompt_template=template_name,
        conditions=[c.name for c in conditions],
        benchmark_name=card.name,
        benchmark_version=card.version,
        items_sha256=file_sha256(items_file),
        tool_version=__version__,
        seed=config.seed,
        started_at=_now(),
    )
    run_file, pred_file = out_dir / RUN_FILE, out_dir / PREDICTIONS_FILE
    if run_file.exists() and not config.force_new:
        _check_existing(run_file, info)
        old = read_json(run_file, RunInfo)
        info.started_at = old.started_at or info.started_at
        info.conditions = list(dict.fromkeys(old.conditions + info.conditions))
        info.failure_judge = old.failure_judge  # written by `medvqa score --judge`; keep it

    try:
        await model.start()
    except EndpointUnreachableError as exc:
        await model.aclose()
        raise BadInputError(f"model endpoint unreachable: {exc}") from None

    out_dir.mkdir(parents=True, exist_ok=True)
    journal = PredictionJournal(out_dir / CACHE_FILE)
    cache = ResponseCache(out_dir / CACHE_FILE)
    summary = RunSummary(run_dir=out_dir)
    try:
        if config.force_new:
            journal.clear()
            pred_file.unlink(missing_ok=True)
        write_json(run_file, info)
        selection = _Selection(items_file, config)
        for cond in conditions:
            cond.prepare(item for _, item in selection)
        total = _count_selected(selection) * len(conditions)

        await _run_requests(
            config,
            model,
            conditions,
            template,
            text_only,
            selection,
            journal,
            cache,
            summary,
            total,
            progress,
        )
        summary.bad_lines = len(selection.errors)
        for err in selection.errors[:20]:
            log.warning("skipped %s", err)
        info.ended_at = _now()
    finally:
        try:
            summary.predictions = journal.export(pred_file)
            summary.predictions, summary.prediction_errors = journal.counts()
            # Facts a backend learns while running (placement, endpoints used, what was sent).
            info.model_info = {**info.model_info, **model.info, "text_only": text_only}
            info.counts = {
                "predictions": summary.predictions,
                "errors": summary.prediction_errors,
                "sent": summary.sent,
                "cached": summary.cached,
                "bad_lines": summary.bad_lines,
            }
            info.errors = journal.first_errors()
            write_json(run_file, info)
        finally:
            journal.close()
            cache.close()
            await model.aclose()
            summary.elapsed_s = time.perf_counter() - started
    return summary


async def _run_requests(
    config: RunConfig,
    model: ModelBackend,
    conditions: list[Condition],
    template: Any,
    text_only: bool,
    selection: _Selection,
    journal: PredictionJournal,
    cache: ResponseCache,
    summary: RunSummary,
    total: int,
    progress: Callable[[RunProgress], None] | None,
) -> None:
    """Build the requests still to do, send them, and journal the answers as they arrive."""
    loader = ImageLoader(config.bench_dir)
    ahead = None if text_only else perturb_ahead(config, conditions, loader)
    include_errors = not config.retry_errors
    order: dict[int, tuple[int, int]] = {}  # request index -> (item line, condition position)
    # Failures found before sending (bad prompt, bad image). Appended by the request builder in
    # a worker thread, drained here: a deque's append and popleft are thread-safe.
    immediate: deque[JournalRow] = deque()
    state = {"completed": 0, "cached": 0, "errors": 0}

    def requests() -> Iterator[GenerateRequest]:
        index = 0
        for lineno, item in ahead.items(selection) if ahead else selection:
            for ci, cond in enumerate(conditions):
                if not cond.applies_to(item):
                    continue
                summary.selected += 1
                if journal.is_done(item.id, cond.name, include_errors=include_errors):
                    summary.already_done += 1
                    continue
                try:
                    req = _build_request(item, cond, template, loader, text_only)
                except (PromptError, ImageLoadError) as exc:
                    immediate.append(
                        JournalRow(item.id, cond.name, lineno, ci, None, 0.0, str(exc))
                    )
                    continue
                order[index] = (lineno, ci)
                index += 1
                yield req

    def flush_immediate() -> None:
        rows = [immediate.popleft() for _ in range(len(immediate))]
        if rows:
            journal.add_many(rows)
            state["completed"] += len(rows)
            state["errors"] += len(rows)
            summary.errors += len(rows)
            _note_errors(summary, [r.error for r in rows])

    policy = RetryPolicy(
        max_retries=config.max_retries,
        backoff_s=config.backoff_s,
        timeout_s=config.model.timeout_s,
        seed=config.seed,
    )
    try:
        async for batch in complete_requests(
            model,
            requests(),
            cache,
            concurrency=config.concurrency,
            policy=policy,
            reuse_errors=include_errors,
        ):
            rows = []
            for c in batch:
                lineno, ci = order.pop(c.index)
                r = c.response
                rows.append(
                    JournalRow(
                        c.request.item_id,
                        c.request.condition,
                        lineno,
                        ci,
                        r.text,
                        r.latency_s,
                        r.error,
                    )
                )
                if c.cached:
                    summary.cached += 1
                else:
                    summary.sent += 1
                if r.error is not None:
                    summary.errors += 1
                    _note_errors(summary, [r.error])
            journal.add_many(rows)
            flush_immediate()
            state["completed"] += len(batch)
            state["cached"] = summary.cached
            state["errors"] = summary.errors
            if progress is not None:
                progress(
                    RunProgress(
                        state["completed"],
                        total,
                        state["cached"],
                        state["errors"],
                        summary.already_done,
                    )
                )
    except EndpointUnreachableError as exc:
        raise BadInputError(f"model endpoint unreachable: {exc}") from None
    finally:
        flush_immediate()
        if ahead is not None:
            ahead.close()
    if progress is not None:
        progress(
            RunProgress(
                state["completed"], total, summary.cached, summary.errors, summary.already_done
            )
        )


def _note_errors(summary: RunSummary, messages: list[str | None]) -> None:
    for m in messages:
        if m and len(summary.error_messages) < 5 and m not in summary.error_messages:
            summary.error_messages.append(m)


def _build_request(
    item: Item, cond: Condition, template: Any, loader: ImageLoader, text_only: bool
) -> GenerateRequest:
    """Build the request for one item under one condition (no copies beyond the condition's)."""
    shown = cond.transform_item(item)
    prompt = render_prompt(shown, template)
    images: tuple[ImageInput, ...] = ()
    if not text_only and item.images:
        images = cond.transform_images(item, loader.load_all(item.images)) or ()
    return GenerateRequest(
        item_id=item.id,
        condition=cond.name,
        prompt=prompt,
        images=images,
        options=shown.options,
        question_type=shown.question_type,
        system=None,
    )


def run_benchmark(
    config: RunConfig,
    progress: Callable[[RunProgress], None] | None = None,
    *,
    backend: ModelBackend | None = None,
) -> RunSummary:
    """Run a model on a benchmark; resumable, crash-safe, cached.

    Args:
        config: what to run.
        progress: called after each batch of results (keep it cheap; throttle rendering).
        backend: an unstarted backend to use instead of loading ``config.model``.

    Returns:
        Counts of this invocation and of the run as a whole.

    Raises:
        BadInputError: a missing or malformed benchmark, an unknown prompt template or
            condition, a RUN/ folder made for another benchmark, model, prompt or seed
            (suggests ``--force-new``), or an unreachable endpoint (names the URL).
            Nothing is sent before these checks pass.

    """
    return asyncio.run(arun_benchmark(config, progress, backend=backend))
