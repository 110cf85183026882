"""CLI commands of the run stage: ``medvqa validate`` and ``medvqa run``.

``medvqa run`` parses its options into a :class:`~medvqa.run.RunRequest` and calls
:func:`medvqa.run.run_models`; this module only renders what it reports (a progress bar, a
summary, a table). Defaults are the config types' (read at start-up from light modules); the
runner, the backends and rich's progress bar are imported inside the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from medvqa.cli._help import default_of, names_help
from medvqa.conditions import CONDITIONS
from medvqa.models import ATTENTION, BACKENDS, DEVICES, DTYPES, ModelConfig, RetryPolicy
from medvqa.run import EXECUTORS, AdaptiveRun, RayOptions, RunConfig, RunRequest

if TYPE_CHECKING:
    from medvqa.run import RunOutcome, RunProgress, RunSummary


def validate_command(
    bench: Path = typer.Argument(..., help="Benchmark folder (benchmark.json, items.jsonl)."),
    max_image_pixels: int = typer.Option(
        default_of(RunConfig, "max_image_pixels"), "--max-image-pixels", min=0,
        help="Flag images above this many pixels, as `medvqa run` refuses them (0: no cap)."),
) -> None:
    """Check a benchmark folder and list every problem (exit 0 if clean, 2 if not).

    Checks malformed lines, duplicate ids, answers not among the options, prompts that cannot
    be rendered, missing, corrupt, oversized or misnamed images, an unknown prompt template and
    an items_sha256 that does not match items.jsonl.

    Example: medvqa validate bench/mammo-v1/
    """
    from rich.console import Console

    from medvqa.benchmark import validate_benchmark

    console = Console(highlight=False)
    report = validate_benchmark(bench, max_image_pixels=max_image_pixels)
    for problem in report.problems:
        console.print(f"[red]✗[/red] {escape(str(problem))}", markup=True, soft_wrap=True)
    for warning in report.warnings:
        console.print(f"[yellow]![/yellow] {escape(str(warning))}", soft_wrap=True)
    summary = f"{bench}: {report.n_items} items, {report.n_images} images"
    if report.ok:
        console.print(f"[green]✓[/green] {summary}: no problems")
        return
    console.print(f"{summary}: [red]{len(report.problems)} problem(s)[/red]")
    raise typer.Exit(2)


def _d(name: str) -> Any:
    """The default of a RunConfig field."""
    return default_of(RunConfig, name)


def _m(name: str) -> Any:
    """The default of a ModelConfig field."""
    return default_of(ModelConfig, name)


#: The attention implementations a local model may be asked for (the placement table's).
_ATTENTION = ", ".join(name for name in ATTENTION if name)


def run_command(
    ctx: typer.Context,
    bench: Path = typer.Argument(..., help="Benchmark folder."),
    model: str = typer.Option(
        "", "--model", "-m", help=names_help(BACKENDS)),
    models: Path | None = typer.Option(
        None, "--models", help="models.yaml: run every model listed, each into --out/NAME/."
    ),
    name: str | None = typer.Option(
        _d("name"), "--name", help="Display name of the model in reports, plots and the "
        "console (default: derived from the spec, e.g. 'small-cnn (supervised)')."),
    out: Path = typer.Option(..., "--out", "-o", help="Run folder (resumed if it exists)."),
    prompt: str | None = typer.Option(
        None, "--prompt", help="Prompt template name or YAML path (default: the benchmark's)."
    ),
    conditions: str = typer.Option(
        ",".join(_d("conditions")), "--conditions",
        help="Comma-separated conditions: " + names_help(CONDITIONS)),
    concurrency: int = typer.Option(_d("concurrency"), "--concurrency", min=1,
                                    help="Requests in flight."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N items."),
    split: str | None = typer.Option(
        None, "--split", help="Only items of this split; default test where the benchmark has "
        "one; all: every split."),
    category: str | None = typer.Option(None, "--category", help="Only items of this category."),
    retry_errors: bool = typer.Option(
        _d("retry_errors"), "--retry-errors",
        help="Ask again only the items that ended in an error."),
    force_new: bool = typer.Option(
        _d("force_new"), "--force-new", help="Discard the earlier predictions and cached answers "
        "in --out and start afresh (every request is asked again)."
    ),
    seed: int = typer.Option(_d("seed"), "--seed", help="Seed of random models and conditions."),
    api_key_env: str = typer.Option(
        _m("api_key_env"), "--api-key-env",
        help="Environment variable holding the API key (default: OPENAI_API_KEY for openai:, "
        "ANTHROPIC_API_KEY for anthropic:).",
    ),
    temperature: float = typer.Option(_m("temperature"), "--temperature",
                                      help="Sampling temperature."),
    top_p: float | None = typer.Option(_m("top_p"), "--top-p", help="Nucleus sampling mass."),
    max_tokens: int | None = typer.Option(
        None, "--max-tokens", min=1,
        help="Most tokens generated (default: 512, as LMOD, when the benchmark has open or "
             "region questions; 64 when all are closed).",
    ),
    reasoning: bool = typer.Option(
        _m("reasoning"), "--reasoning",
        help="A thinking model: keep the raw text, parse after </think>."),
    timeout: float = typer.Option(_m("timeout_s"), "--timeout",
                                  help="Per-request timeout in seconds."),
    batch_size: int = typer.Option(_m("batch_size"), "--batch-size", min=1,
                                   help="Batch for local models."),
    max_retries: int = typer.Option(RetryPolicy.max_retries, "--max-retries", min=0,
                                    help="Retries of 429/5xx."),
    max_retry_after: float = typer.Option(
        RetryPolicy.max_retry_after_s, "--max-retry-after", min=0,
        help="Most seconds to wait when the endpoint sends Retry-After (seconds or a date).",
    ),
    stop_after_failures: int = typer.Option(
        _d("stop_after_failures"), "--stop-after-failures", min=0,
        help="Stop when the first N requests sent all failed (0: never stop early).",
    ),
    device: str = typer.Option(_m("device"), "--device",
                               help="Local models: " + " | ".join(DEVICES) + "."),
    dtype: str = typer.Option(
        _m("dtype"), "--dtype", help="Local models: " + " | ".join(DTYPES) + "."
    ),
    device_map: str = typer.Option(
        _m("device_map"), "--device-map",
        help="Local models: 'auto' spreads a large model over every GPU."
    ),
    attn_implementation: str = typer.Option(
        _m("attn_implementation"), "--attn-implementation",
        help=f"Local models: {_ATTENTION} (default: sdpa)."
    ),
    endpoint: list[str] = typer.Option(
        [], "--endpoint", help="More base URLs of the same openai: model (repeat the option)."
    ),
    rpm: float = typer.Option(_m("requests_per_min"), "--requests-per-min", min=0,
                              help="Client-side rate limit."),
    tpm: float = typer.Option(_m("tokens_per_min"), "--tokens-per-min", min=0,
                              help="Client-side token limit."),
    executor: str = typer.Option(default_of(RunRequest, "executor"), "--executor",
                                 help=" | ".join(EXECUTORS) + " (ray: scale-out)."),
    ray_address: str = typer.Option(
        default_of(RayOptions, "address"), "--ray-address",
        help="Ray cluster address (default: start a local instance)."
    ),
    ray_workers: int = typer.Option(default_of(RayOptions, "workers"), "--ray-workers", min=1,
                                    help="Ray actors per model."),
    ray_gpus: float = typer.Option(default_of(RayOptions, "gpus"), "--ray-gpus", min=0,
                                   help="GPUs per Ray actor (hf:)."),
    perturb_workers: int | None = typer.Option(
        None, "--perturb-workers", min=0,
        help="Processes (Ray: actors) that perturb images ahead; 0: in the runner. Default: "
             "the cores beyond two (Ray: the actors, where the cluster has CPUs beyond two).",
    ),
    adapter: Path | None = typer.Option(
        None, "--adapter", help="peft LoRA adapter folder for hf:/smollm2 (medvqa train lora)."),
    weights_root: list[Path] = typer.Option(
        [], "--weights-root", help="With --models: a folder of local weights the file may name "
        "(relative to it, or absolute inside it); without it, only weights inside the models "
        "file's folder are read."),
    max_image_pixels: int = typer.Option(
        _d("max_image_pixels"), "--max-image-pixels", min=0,
        help="Most pixels of one image, read from its header before decoding; a larger image "
             "is that item's error (0: no cap below Pillow's own)."),
    adaptive: Path | None = typer.Option(
        None, "--adaptive", help="irt.json (`medvqa irt fit`): ask only the most informative "
        "items, and estimate the accuracy on all of them."),
    target_se: float = typer.Option(
        default_of(AdaptiveRun, "target_se"), "--target-se",
        help="--adaptive: stop when the estimated accuracy's standard error is at most this."),
    budget: int | None = typer.Option(
        default_of(AdaptiveRun, "budget"), "--budget", min=1,
        help="--adaptive: most items asked (default: no limit but the benchmark)."),
    exposure: str = typer.Option(
        default_of(AdaptiveRun, "exposure"), "--exposure",
        help="--adaptive: exposure control: sympson-hetter (the calibration's exposure "
             "parameters), randomesque, or none (always the most informative item)."),
    randomesque: int = typer.Option(
        default_of(AdaptiveRun, "randomesque"), "--randomesque", min=1,
        help="--adaptive --exposure randomesque: draw the next item among this many most "
             "informative."),
    adaptive_batch: int = typer.Option(
        default_of(AdaptiveRun, "batch"), "--adaptive-batch", min=1,
        help="--adaptive: items chosen and sent at once."),
) -> None:
    """Run a model (or every model of --models) on a benchmark; resumes and never asks twice.

    Example: medvqa run bench/lung/ -m openai:qwen2.5-vl@http://127.0.0.1:8000/v1 -o runs/qwen/
    """
    import os

    from rich.console import Console

    from medvqa.benchmark import ALL_SPLITS, chosen_split
    from medvqa.errors import BadInputError, Interrupted
    from medvqa.run import run_models

    if adaptive is None:
        _refuse_adaptive_only_options(ctx)
    if split is None and (chosen := chosen_split(bench, None)) is not None:
        Console(stderr=True, highlight=False).print(
            f"split: {chosen} (the default where a benchmark has one; --split {ALL_SPLITS} for "
            "every split)", markup=False)
    split = chosen_split(bench, split)
    config = RunConfig(
        bench_dir=bench,
        out_dir=out,
        model=ModelConfig(
            spec=model,
            api_key_env=api_key_env,
            temperature=temperature,
            timeout_s=timeout,
            seed=seed,
            batch_size=batch_size,
            top_p=top_p,
            reasoning=reasoning,
            device=device,
            dtype=dtype,
            device_map=device_map,
            attn_implementation=attn_implementation,
            endpoints=tuple(endpoint),
            requests_per_min=rpm,
            tokens_per_min=tpm,
            extra={"adapter": str(adapter)} if adapter else {},
        ),
        prompt=prompt,
        conditions=[c.strip() for c in conditions.split(",") if c.strip()],
        concurrency=concurrency,
        limit=limit,
        split=split,
        category=category,
        retry_errors=retry_errors,
        force_new=force_new,
        seed=seed,
        max_retries=max_retries,
        max_retry_after_s=max_retry_after,
        stop_after_failures=stop_after_failures,
        perturb_workers=perturb_workers,
        max_image_pixels=max_image_pixels,
        name=name,
        adaptive=AdaptiveRun(adaptive, target_se=target_se, budget=budget,
                             randomesque=randomesque, exposure=exposure, batch=adaptive_batch)
        if adaptive is not None else None,
    )
    request = RunRequest(config, models_file=models, weights_roots=tuple(weights_root),
                         executor=executor,
                         ray=RayOptions(address=ray_address, workers=ray_workers, gpus=ray_gpus),
                         max_tokens=max_tokens)
    events = _ConsoleEvents()
    try:
        outcome = run_models(request, events, os.environ)
    except KeyboardInterrupt:
        raise Interrupted(interrupted_line(out, events.last if models is None else None)) \
            from None
    finally:
        events.stop()
    if models is not None:
        _print_table(outcome)
        if outcome.refused:
            raise BadInputError(f"{len(outcome.refused)} of {len(outcome.rows)} models refused "
                                "(see above)")
    elif outcome.summary is not None and outcome.summary.every_request_failed:
        raise BadInputError(f"{out}: every request of this run failed "
                            f"({outcome.summary.request_errors}); see the errors above")


#: ``medvqa run``'s options that only an adaptive run reads (parameter name, option).
ADAPTIVE_ONLY = (("target_se", "--target-se"), ("budget", "--budget"),
                 ("exposure", "--exposure"), ("randomesque", "--randomesque"),
                 ("adaptive_batch", "--adaptive-batch"))


def _refuse_adaptive_only_options(ctx: typer.Context) -> None:
    """Refuse an option of adaptive runs given without ``--adaptive`` (it would be ignored).

    Raises:
        BadInputError: naming the first such option given on the command line.
    """
    from medvqa.errors import BadInputError

    for name, option in ADAPTIVE_ONLY:
        # By name: typer may ship its own copy of click, with its own ParameterSource.
        source = ctx.get_parameter_source(name)
        if source is not None and source.name != "DEFAULT":
            raise BadInputError(f"{option} is read by adaptive runs only: add --adaptive "
                                f"irt.json (medvqa irt fit), or leave {option} out")


def interrupted_line(out: Path, last: RunProgress | None) -> str:
    """What Ctrl-C during a run kept, and how to go on.

    The runner writes predictions.jsonl whole before it stops, so its lines are the predictions
    kept; ``last`` (the last progress report) gives the number expected.
    """
    from medvqa.schema import PREDICTIONS_FILE

    path = out / PREDICTIONS_FILE
    try:
        with path.open("rb") as fh:
            kept = sum(1 for line in fh if line.strip())
    except OSError:
        kept = 0
    of = f" of {last.total}" if last is not None and last.total >= kept else ""
    return (f"{out}: interrupted after {kept}{of} predictions; the answers received are kept "
            "(predictions.jsonl, cache.sqlite); run the same command to resume")


class _ConsoleEvents:
    """Renders run_models' events: a progress bar on stderr, a summary per model on stdout."""

    def __init__(self) -> None:
        import time

        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._clock = time.perf_counter
        self.last: RunProgress | None = None
        self.err = Console(stderr=True, highlight=False)
        self.out = Console(highlight=False)
        self.bar = Progress(
            TextColumn("[bold]run[/bold]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} items/s"),
            TextColumn("cached {task.fields[cached]} · errors {task.fields[errors]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=self.err,
            refresh_per_second=4,  # rendering is throttled; updates only set numbers
            transient=False,
        )
        self._new_task()

    def _new_task(self) -> None:
        self.task = self.bar.add_task("run", total=None, rate="-", cached=0, errors=0)
        self.started = self._clock()

    def stop(self) -> None:
        """Stop the bar (after the last run, or on an error)."""
        if self.bar.live.is_started:
            self.bar.stop()

    def model_started(self, name: str, spec: str) -> None:
        """A models.yaml entry starts: its name, then a fresh bar."""
        self.stop()
        from medvqa.models import redact_url_query

        self.err.print(f"[bold]{escape(name)}[/bold] ({escape(redact_url_query(spec))})")
        self._new_task()

    def progress(self, p: RunProgress) -> None:
        """Update the bar (started on the first result, so a refused run prints no bar)."""
        self.last = p
        if not self.bar.live.is_started:
            self.bar.start()
        elapsed = self._clock() - self.started
        rate = p.completed / elapsed if elapsed > 0 else 0.0
        shown = p.completed + p.already_done
        self.bar.update(self.task, completed=shown, total=max(p.total, shown), cached=p.cached,
                        errors=p.errors, rate=f"{rate:,.0f}" if p.completed else "-")

    def model_refused(self, name: str, error: str) -> None:
        """One model of a models.yaml refused; the others go on."""
        self.stop()
        self.err.print(f"[red]error:[/red] {escape(error)}")

    def model_finished(self, summary: RunSummary) -> None:
        """The run's summary: counts, errors, predictions."""
        self.stop()
        out = self.out
        out.print(
            f"{summary.run_dir}: {summary.completed} answered in {summary.elapsed_s:.1f} s "
            f"({summary.items_per_s:,.0f} items/s): {summary.sent} sent, {summary.cached} "
            f"cached, {summary.already_done} already done, {summary.errors} errors",
            markup=False)
        for message in summary.error_messages:
            out.print(f"[red]error:[/red] {escape(str(message))}", soft_wrap=True)
        for note in summary.notes:
            out.print(f"note: {note}", markup=False, soft_wrap=True)
        out.print(
            f"predictions.jsonl: {summary.predictions} predictions, "
            f"{summary.prediction_errors} errors"
            + (" (rerun with --retry-errors to ask them again)"
               if summary.prediction_errors else ""), markup=False)
        ad = summary.adaptive
        if ad is not None and ad.estimate is not None:
            est = ad.estimate
            out.print(
                f"adaptive estimate of the accuracy on all {ad.items_total} items: "
                f"{est.accuracy:.3f} (95 % CI {est.ci[0]:.3f}–{est.ci[1]:.3f}, SE {est.se:.4f}) "
                f"from {est.asked} items asked; stopped: {ad.stop or 'unfinished'}",
                markup=False)
            if ad.note:
                out.print(f"note: {ad.note}", markup=False, soft_wrap=True)


def _print_table(outcome: RunOutcome) -> None:
    """One row per model of a models.yaml run."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(outcome.rows)} models")
    numeric = {"answered", "errors", "items/s", "time (s)"}
    for col in ("model", "spec", "answered", "errors", "items/s", "time (s)", "folder"):
        table.add_column(col, justify="right" if col in numeric else "left")
    for r in outcome.rows:
        table.add_row(escape(r.name), escape(r.spec), str(r.answered),
                      str(r.errors) if not r.failed else "refused", f"{r.items_per_s:,.1f}",
                      f"{r.elapsed_s:.1f}", escape(str(r.run_dir)))
    Console(highlight=False, width=160).print(table)
