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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from medvqa import __version__
from medvqa._environment import environment
from medvqa.benchmark import ImageLoader, PromptError, load_bench_template, load_template
from medvqa.conditions import Condition, expand_conditions, get_condition
from medvqa.errors import BadInputError, UsageError
from medvqa.models import (
    EndpointUnreachableError,
    ModelBackend,
    ResponseCache,
    RetryPolicy,
    StartOnFirstUse,
    display_name,
    load_backend,
)
from medvqa.run._adaptive import AdaptivePlan
from medvqa.run._config import RunConfig
from medvqa.run._journal import PredictionJournal
from medvqa.run._lock import RunFolderLock
from medvqa.run._perturb_ahead import perturb_ahead
from medvqa.run._selection import ItemSelection, SelectionScan, resume_info, scan_selection
from medvqa.run._sending import RequestSender, SendCounts, SendSettings
from medvqa.run._shifts import shift_tally
from medvqa.schema import (
    BENCHMARK_FILE,
    CACHE_FILE,
    CLEAN,
    ITEMS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    AdaptiveRecord,
    Benchmark,
    InputError,
    RunInfo,
    file_sha256,
    read_json,
    write_json,
)
from medvqa.store import write_errors_are_bad_input

log = logging.getLogger(__name__)

#: What a full disk leaves of a RUN/ folder (the journal commits each answer as it arrives).
_LEFT_WHOLE = ("every file there is whole and the answers already received stay in "
               "cache.sqlite, so a rerun resumes from them")




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
        errors: (item, condition) pairs recorded as errors in this invocation, whether the
            request was sent or failed before it could be (``unsent_errors``).
        unsent_errors: of ``errors``, pairs whose request was never sent (a prompt that does
            not render, an image that does not load).
        error_messages: first distinct error messages of this invocation.
        predictions: rows in predictions.jsonl after the run.
        prediction_errors: of those, errors.
        elapsed_s: wall time of this invocation in seconds.
        adaptive: an adaptive run's record (items asked, why it stopped, the estimate).
        notes: what the run was asked for and did not ask, counted (``permute@k`` beyond
            some items' options; see :mod:`medvqa.run._shifts`).

    """

    run_dir: Path
    selected: int = 0
    already_done: int = 0
    sent: int = 0
    cached: int = 0
    errors: int = 0
    unsent_errors: int = 0
    error_messages: list[str] = field(default_factory=list)
    predictions: int = 0
    prediction_errors: int = 0
    elapsed_s: float = 0.0
    adaptive: AdaptiveRecord | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def completed(self) -> int:
        """Requests finished in this invocation."""
        return self.sent + self.cached

    @property
    def items_per_s(self) -> float:
        """Finished requests per second of wall time."""
        return self.completed / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def request_errors(self) -> int:
        """Requests sent (or answered from the cache) in this invocation that failed."""
        return self.errors - self.unsent_errors

    @property
    def every_request_failed(self) -> bool:
        """Whether this invocation finished requests and every one of them was an error.

        Only requests that were sent (or answered from the cache) count: an item whose image
        did not load was never sent, so it is neither a failed request nor an answered one.
        """
        return bool(self.completed) and self.request_errors == self.completed


def _resolve_conditions(specs: list[str], seed: int) -> list[Condition]:
    """Expand condition specs and look each one up; unknown names are bad input."""
    try:
        names = expand_conditions(list(specs))
        conds = [get_condition(n, seed=seed) for n in names]
    except (KeyError, ValueError) as exc:
        raise BadInputError(f"--conditions: {exc}") from None
    return list({c.name: c for c in conds}.values())


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class _Prepared:
    """Everything checked and read before the model is started or RUN/ is touched."""

    card: Benchmark
    template_name: str
    template: Any
    conditions: list[Condition]
    selection: ItemSelection
    scan: SelectionScan
    adaptive: AdaptivePlan | None = None


def _prepare(config: RunConfig) -> _Prepared:
    """Check the benchmark and the options; read the selection once (nothing written)."""
    bench_dir, out_dir = Path(config.bench_dir), Path(config.out_dir)
    items_file, bench_file = bench_dir / ITEMS_FILE, bench_dir / BENCHMARK_FILE
    for f in (bench_file, items_file):
        if not f.is_file():
            raise BadInputError(f"{f}: file is missing (is {bench_dir} a benchmark folder?)")
    if out_dir.resolve() == bench_dir.resolve():
        raise UsageError(f"--out {out_dir} is the benchmark folder; choose a RUN/ folder")
    if out_dir.exists() and not out_dir.is_dir():
        raise BadInputError(f"--out {out_dir}: is a file, not a folder; choose a RUN/ folder")
    try:
        card = read_json(bench_file, Benchmark)
    except InputError as exc:
        raise BadInputError(str(exc)) from None
    template_name = config.prompt or card.prompt_template
    try:
        template = (load_template(template_name) if config.prompt
                    else load_bench_template(bench_dir, template_name))
    except PromptError as exc:
        raise BadInputError(f"prompt template: {exc}" if config.prompt else str(exc)) from None
    specs = config.conditions or [CLEAN]
    conditions = _resolve_conditions(specs, config.seed)
    selection = ItemSelection(items_file, config.split, config.category, config.limit)
    scan = scan_selection(selection, shift_tally(specs, conditions))
    adaptive = None
    if config.adaptive is not None:
        from medvqa.run._adaptive import plan_adaptive

        adaptive = plan_adaptive(config.adaptive, selection, file_sha256(items_file),
                                 conditions)
    return _Prepared(card, template_name, template, conditions, selection, scan, adaptive)


async def arun_benchmark(
    config: RunConfig,
    progress: Callable[[RunProgress], None] | None = None,
    *,
    backend: ModelBackend | None = None,
) -> RunSummary:
    """Async :func:`run_benchmark` (for callers that already have an event loop)."""
    started = time.perf_counter()
    bench_dir, out_dir = Path(config.bench_dir), Path(config.out_dir)
    prep = _prepare(config)
    model = backend if backend is not None else load_backend(config.model, bench_dir)
    text_only = bool(model.info.get("text_only", False))
    info = RunInfo(
        model=model.name,
        display_name=config.name or "",
        model_params=dict(model.params),
        model_info=dict(model.info) | {"text_only": text_only},
        prompt_template=prep.template_name,
        conditions=[c.name for c in prep.conditions],
        benchmark_name=prep.card.name,
        benchmark_version=prep.card.version,
        items_sha256=file_sha256(bench_dir / ITEMS_FILE),
        tool_version=__version__,
        environment=environment(),
        seed=config.seed,
        started_at=_now(),
        selection=prep.selection.as_dict(),
    )
    run_file = out_dir / RUN_FILE
    resuming = run_file.exists() and not config.force_new
    if resuming:
        info = resume_info(run_file, info)
        # A resumed run may have nothing left to ask: load the weights only when it does.
        model = StartOnFirstUse(model)
    info.display_name = info.display_name or display_name(model.name, model.info)
    try:
        await model.start()
    except EndpointUnreachableError as exc:
        await model.aclose()
        raise BadInputError(f"model endpoint unreachable: {exc}") from None
    try:
        with write_errors_are_bad_input(out_dir, _LEFT_WHOLE):
            out_dir.mkdir(parents=True, exist_ok=True)
            with RunFolderLock(out_dir):
                return await _run_locked(config, prep, model, info, progress, started)
    finally:
        await model.aclose()


async def _run_locked(
    config: RunConfig,
    prep: _Prepared,
    model: ModelBackend,
    info: RunInfo,
    progress: Callable[[RunProgress], None] | None,
    started: float,
) -> RunSummary:
    """The run proper, holding the RUN/ folder's lock: send, then write what was answered."""
    out_dir = Path(config.out_dir)
    text_only = bool(model.info.get("text_only", False))
    run_file, pred_file = out_dir / RUN_FILE, out_dir / PREDICTIONS_FILE
    journal = PredictionJournal(out_dir / CACHE_FILE)
    cache = ResponseCache(out_dir / CACHE_FILE)
    summary = RunSummary(run_dir=out_dir, notes=list(prep.scan.notes))
    policy = RetryPolicy(
        max_retries=config.max_retries,
        backoff_s=config.backoff_s,
        timeout_s=config.model.timeout_s,
        seed=config.seed,
        max_retry_after_s=config.max_retry_after_s,
    )
    settings = SendSettings(config.concurrency, policy, config.retry_errors,
                            config.stop_after_failures)
    loader = ImageLoader(config.bench_dir, max_pixels=config.max_image_pixels)
    sender = RequestSender(model, prep.conditions, prep.template, loader, journal, cache,
                           settings)
    total = prep.scan.items * len(prep.conditions)
    if prep.adaptive is not None:
        budget = prep.adaptive.spec.budget
        total = min(total, budget) if budget is not None else total

    def report(c: SendCounts) -> None:
        if progress is not None:
            progress(RunProgress(c.completed, total, c.cached, c.errors, c.already_done))

    try:
        if config.force_new:  # a new run: nothing of the old one is reused, answers included
            journal.clear()
            cache.clear()
            pred_file.unlink(missing_ok=True)
        write_json(run_file, info)
        for cond in prep.conditions:
            cond.prepare(item for _, item in prep.selection)
        try:
            if prep.adaptive is not None:
                from medvqa.run._adaptive import send_adaptive

                def checkpoint(record: AdaptiveRecord) -> None:
                    info.adaptive = record
                    write_json(run_file, info)

                info.adaptive = await send_adaptive(prep.adaptive, sender, journal,
                                                    config.seed, report, checkpoint)
                summary.adaptive = info.adaptive
            else:
                ahead = None if text_only else perturb_ahead(config, prep.conditions, loader,
                                                             model)
                await sender.send(prep.selection, report, ahead)
        finally:
            _copy_counts(sender.counts, summary)
        info.ended_at = _now()
    finally:
        try:
            journal.export(pred_file)
            summary.predictions, summary.prediction_errors = journal.counts()
            # Facts a backend learns while running (placement, endpoints used, what was sent).
            info.model_info = {**info.model_info, **model.info, "text_only": text_only}
            info.counts = {
                "predictions": summary.predictions,
                "errors": summary.prediction_errors,
                "sent": summary.sent,
                "cached": summary.cached,
            }
            info.errors = journal.first_errors()
            write_json(run_file, info)
        finally:
            journal.close()
            cache.close()
            summary.elapsed_s = time.perf_counter() - started
    return summary


def _copy_counts(counts: SendCounts, summary: RunSummary) -> None:
    summary.selected = counts.selected
    summary.already_done = counts.already_done
    summary.sent = counts.sent
    summary.cached = counts.cached
    summary.errors = counts.errors
    summary.unsent_errors = counts.unsent_errors
    summary.error_messages = list(counts.messages)


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
