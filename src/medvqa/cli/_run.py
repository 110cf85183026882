"""CLI commands of the run stage: ``medvqa validate`` and ``medvqa run``.

Only typer is imported here; the runner, the backends and rich's progress bar are imported
inside the commands, so ``medvqa --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape


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

    from medvqa.run._validate import validate_benchmark

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
    model: str = typer.Option(
        ...,
        "--model",
        "-m",
        help="random | frequent | smollm2 | hf:PATH | openai:MODEL@URL | anthropic:MODEL",
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
    max_tokens: int = typer.Option(64, "--max-tokens", help="Most tokens generated."),
    timeout: float = typer.Option(60.0, "--timeout", help="Per-request timeout in seconds."),
    batch_size: int = typer.Option(8, "--batch-size", min=1, help="Batch for local models."),
    max_retries: int = typer.Option(4, "--max-retries", min=0, help="Retries of 429/5xx."),
    adapter: Path | None = typer.Option(
        None, "--adapter", help="peft LoRA adapter folder for hf:/smollm2 (medvqa train lora)."),
) -> None:
    """Run a model on a benchmark; resumes where it stopped and never asks twice.

    Example: medvqa run bench/lung/ -m openai:qwen2.5-vl@http://127.0.0.1:8000/v1 -o runs/qwen/
    """
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

    from medvqa.errors import BadInputError
    from medvqa.models import ModelConfig
    from medvqa.run._runner import RunConfig, RunProgress, run_benchmark

    if adapter and not model.startswith(("hf:", "smollm2")):
        raise BadInputError(f"--adapter: only hf:PATH and smollm2 models take an adapter, "
                            f"not {model!r}")

    config = RunConfig(
        bench_dir=bench,
        out_dir=out,
        model=ModelConfig(
            spec=model,
            api_key_env=api_key_env,
            temperature=temperature,
            max_tokens=max_tokens,
            timeout_s=timeout,
            seed=seed,
            batch_size=batch_size,
            extra={"adapter": str(adapter)} if adapter else {},  # issue 15
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
    )
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
        summary = run_benchmark(config, on_progress)
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
        out_console.print(f"[yellow]{summary.bad_lines} malformed item line(s) skipped[/yellow]")
    for message in summary.error_messages:
        out_console.print(f"[red]error:[/red] {escape(str(message))}", soft_wrap=True)
    out_console.print(
        f"predictions.jsonl: {summary.predictions} predictions, "
        f"{summary.prediction_errors} errors"
        + (" (rerun with --retry-errors to ask them again)" if summary.prediction_errors else "")
    )
