"""CLI commands of the run stage: ``medvqa validate`` and ``medvqa run``.

Only typer is imported here; the runner, the backends and rich's progress bar are imported
inside the commands, so ``medvqa --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

if TYPE_CHECKING:
    from medvqa.models import ModelBackend
    from medvqa.run._runner import RunConfig, RunSummary


def validate_command(
    bench: Path = typer.Argument(..., help="Benchmark folder (benchmark.json, items.jsonl)."),
) -> None:
    """Check a benchmark folder and list every problem (exit 0 if clean, 2 if not).

    Checks malformed lines, duplicate ids, answers not among the options, prompts that cannot
    be rendered, missing, corrupt or misnamed images, an unknown prompt template and an
    items_sha256 that does not match items.jsonl.

    Example: medvqa validate bench/mammo-v1/
    """
    from rich.console import Console

    from medvqa.benchmark import validate_benchmark

    console = Console(highlight=False)
    report = validate_benchmark(bench)
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


def run_command(
    bench: Path = typer.Argument(..., help="Benchmark folder."),
    model: str | None = typer.Option(
        None,
        "--model",
        "-m",
        help="random | frequent | smollm2 | hf:PATH | openai:MODEL@URL | anthropic:MODEL",
    ),
    models: Path | None = typer.Option(
        None, "--models", help="models.yaml: run every model listed, each into --out/NAME/."
    ),
    out: Path = typer.Option(..., "--out", "-o", help="Run folder (resumed if it exists)."),
    prompt: str | None = typer.Option(
        None, "--prompt", help="Prompt template name or YAML path (default: the benchmark's)."
    ),
    conditions: str = typer.Option(
        "", "--conditions", help="Comma-separated conditions, e.g. clean,blind,noise "
        "(default: clean)."
    ),
    concurrency: int = typer.Option(16, "--concurrency", min=1, help="Requests in flight."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N items."),
    split: str | None = typer.Option(None, "--split", help="Only items of this split."),
    category: str | None = typer.Option(None, "--category", help="Only items of this category."),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Ask again only the items that ended in an error."
    ),
    force_new: bool = typer.Option(
        False, "--force-new", help="Discard the earlier predictions in --out and start afresh."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of random models and conditions."),
    api_key_env: str = typer.Option(
        "", "--api-key-env",
        help="Environment variable holding the API key (default: OPENAI_API_KEY for openai:, "
        "ANTHROPIC_API_KEY for anthropic:).",
    ),
    temperature: float = typer.Option(0.0, "--temperature", help="Sampling temperature."),
    top_p: float | None = typer.Option(None, "--top-p", help="Nucleus sampling mass."),
    max_tokens: int | None = typer.Option(
        None, "--max-tokens", min=1,
        help="Most tokens generated (default: 512, as LMOD, when the benchmark has open or "
             "region questions; 64 when all are closed).",
    ),
    reasoning: bool = typer.Option(
        False, "--reasoning", help="A thinking model: keep the raw text, parse after </think>."
    ),
    timeout: float = typer.Option(60.0, "--timeout", help="Per-request timeout in seconds."),
    batch_size: int = typer.Option(8, "--batch-size", min=1, help="Batch for local models."),
    max_retries: int = typer.Option(4, "--max-retries", min=0, help="Retries of 429/5xx."),
    max_retry_after: float = typer.Option(
        120.0, "--max-retry-after", min=0,
        help="Most seconds to wait when the endpoint sends Retry-After (seconds or a date).",
    ),
    stop_after_failures: int = typer.Option(
        50, "--stop-after-failures", min=0,
        help="Stop when the first N requests sent all failed (0: never stop early).",
    ),
    device: str = typer.Option("auto", "--device", help="Local models: auto|cpu|cuda|cuda:N|mps."),
    dtype: str = typer.Option(
        "auto", "--dtype", help="Local models: auto|bfloat16|float16|float32."
    ),
    device_map: str = typer.Option(
        "", "--device-map", help="Local models: 'auto' spreads a large model over every GPU."
    ),
    attn_implementation: str = typer.Option(
        "", "--attn-implementation", help="Local models: sdpa (default), eager, flash_attention_2."
    ),
    endpoint: list[str] = typer.Option(
        [], "--endpoint", help="More base URLs of the same openai: model (repeat the option)."
    ),
    rpm: float = typer.Option(0.0, "--requests-per-min", min=0, help="Client-side rate limit."),
    tpm: float = typer.Option(0.0, "--tokens-per-min", min=0, help="Client-side token limit."),
    executor: str = typer.Option("local", "--executor", help="local, or ray (scale-out)."),
    ray_address: str = typer.Option(
        "", "--ray-address", help="Ray cluster address (default: start a local instance)."
    ),
    ray_workers: int = typer.Option(2, "--ray-workers", min=1, help="Ray actors per model."),
    ray_gpus: float = typer.Option(0.0, "--ray-gpus", min=0, help="GPUs per Ray actor (hf:)."),
    perturb_workers: int | None = typer.Option(
        None, "--perturb-workers", min=0,
        help="Processes (Ray: actors) that perturb images ahead; 0: in the runner. Default: "
             "the cores beyond two (Ray: the actors, where the cluster has CPUs beyond two).",
    ),
    adapter: Path | None = typer.Option(
        None, "--adapter", help="peft LoRA adapter folder for hf:/smollm2 (medvqa train lora)."),
) -> None:
    """Run a model (or every model of --models) on a benchmark; resumes and never asks twice.

    Example: medvqa run bench/lung/ -m openai:qwen2.5-vl@http://127.0.0.1:8000/v1 -o runs/qwen/
    """
    import os

    from medvqa.errors import BadInputError, UsageError
    from medvqa.models import ModelConfig
    from medvqa.models._endpoint import missing_key_problem
    from medvqa.models._hf_device import check_placement_flags
    from medvqa.run._max_tokens import default_max_tokens
    from medvqa.run._runner import RunConfig

    if (model is None) == (models is None):
        raise BadInputError("give either --model SPEC or --models models.yaml (one of them)")
    if executor not in {"local", "ray"}:
        raise BadInputError(f"--executor {executor!r}: use local or ray")
    problem = missing_key_problem(model, api_key_env, os.environ) if model else None
    if problem is not None:
        raise UsageError(problem)
    check_placement_flags(device=device, dtype=dtype, device_map=device_map,
                          attn_implementation=attn_implementation)
    if adapter and not (model or "").startswith(("hf:", "smollm2")):
        raise BadInputError(f"--adapter: only hf:PATH and smollm2 models take an adapter, "
                            f"not {model!r}")
    config = RunConfig(
        bench_dir=bench,
        out_dir=out,
        model=ModelConfig(
            spec=model or "",
            api_key_env=api_key_env,
            temperature=temperature,
            max_tokens=max_tokens if max_tokens is not None else default_max_tokens(bench),
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
    )
    ray = {"address": ray_address, "workers": ray_workers, "gpus": ray_gpus}
    if models is None:
        _run_one(config, ray if executor == "ray" else None)
        return
    _run_many(models, config, ray if executor == "ray" else None)


def _backend(config: RunConfig, ray: dict[str, Any] | None) -> ModelBackend | None:
    """The Ray-distributed backend for ``config``, or None (the runner loads it)."""
    if ray is None:
        return None
    from medvqa.run._ray import RayBackend, RayOptions

    return RayBackend(config.model, RayOptions(**ray, concurrency=config.concurrency),
                      bench_dir=config.bench_dir)


def _run_many(models_path: Path, base: RunConfig, ray: dict[str, Any] | None) -> None:
    """Every model of ``models_path`` in turn, then one summary table."""
    import os

    from rich.console import Console
    from rich.table import Table

    from medvqa.errors import BadInputError
    from medvqa.run._many import plan_runs, summary_row
    from medvqa.run._models_file import load_models_file, missing_keys

    plans = plan_runs(load_models_file(models_path), base)
    missing_keys(models_path, [p.config.model for p in plans], os.environ)
    err = Console(stderr=True, highlight=False)
    rows = []
    for plan in plans:
        err.print(f"[bold]{plan.name}[/bold] ({plan.config.model.spec})")
        try:
            rows.append(summary_row(plan, _run_one(plan.config, ray)))
        except BadInputError as exc:  # one model refused: say so, go on with the others
            err.print(f"[red]error:[/red] {exc}")
            rows.append(summary_row(plan, None, str(exc)))
    table = Table(title=f"{len(rows)} models")
    for col in ("model", "spec", "answered", "errors", "items/s", "time (s)", "folder"):
        table.add_column(col, justify="right" if col in {"answered", "errors", "items/s",
                                                         "time (s)"} else "left")
    for r in rows:
        table.add_row(r.name, r.spec, str(r.answered), str(r.errors) if not r.failed else "refused",
                      f"{r.items_per_s:,.1f}", f"{r.elapsed_s:.1f}", str(r.run_dir))
    Console(highlight=False, width=160).print(table)
    if any(r.failed for r in rows):
        raise BadInputError(f"{sum(1 for r in rows if r.failed)} of {len(rows)} models refused "
                            "(see above)")


def _run_one(config: RunConfig, ray: dict[str, Any] | None) -> RunSummary:
    """One run with a progress bar on stderr and a summary on stdout; returns the summary."""
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

    from medvqa.run._runner import RunProgress, run_benchmark

    out = config.out_dir
    console = Console(stderr=True, highlight=False)
    bar = Progress(
        TextColumn("[bold]run[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} items/s"),
        TextColumn("cached {task.fields[cached]} · errors {task.fields[errors]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        refresh_per_second=4,  # rendering is throttled; updates only set numbers
        transient=False,
    )
    task = bar.add_task("run", total=None, rate="-", cached=0, errors=0)
    started = time.perf_counter()

    def on_progress(p: RunProgress) -> None:
        # Started on the first result, so a refused run prints its error without a bar.
        if not bar.live.is_started:
            bar.start()
        elapsed = time.perf_counter() - started
        rate = p.completed / elapsed if elapsed > 0 else 0.0
        shown = p.completed + p.already_done
        bar.update(
            task,
            completed=shown,
            total=max(p.total, shown),
            cached=p.cached,
            errors=p.errors,
            rate=f"{rate:,.0f}" if p.completed else "-",
        )

    try:
        summary = run_benchmark(config, on_progress, backend=_backend(config, ray))
    finally:
        if bar.live.is_started:
            bar.stop()

    out_console = Console(highlight=False)
    out_console.print(
        f"{out}: {summary.completed} answered in {summary.elapsed_s:.1f} s "
        f"({summary.items_per_s:,.0f} items/s): {summary.sent} sent, {summary.cached} cached, "
        f"{summary.already_done} already done, {summary.errors} errors"
    )
    if summary.bad_lines:
        out_console.print(f"[yellow]{summary.bad_lines} malformed item line(s) skipped:[/yellow]")
        for line in summary.bad_line_messages[:20]:
            out_console.print(f"  skipped {line}", soft_wrap=True, markup=False)
        if summary.bad_lines > 20:
            out_console.print(f"  … and {summary.bad_lines - 20} more (see `medvqa validate`)")
    for message in summary.error_messages:
        out_console.print(f"[red]error:[/red] {escape(str(message))}", soft_wrap=True)
    out_console.print(
        f"predictions.jsonl: {summary.predictions} predictions, "
        f"{summary.prediction_errors} errors"
        + (" (rerun with --retry-errors to ask them again)" if summary.prediction_errors else "")
    )
    if summary.completed and summary.errors == summary.completed:
        from medvqa.errors import BadInputError

        raise BadInputError(f"{out}: every request of this run failed ({summary.errors}); "
                            "see the errors above")
    return summary
