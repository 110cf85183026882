"""``medvqa demo``: build, run, score and report on shipped real data with a real local model."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import typer
from rich.console import Console

from medvqa.demo._plan import DEMO_PLAN, DemoRun


def _model_slug(run: DemoRun) -> str:
    return run.model.replace(":", "_").replace("/", "_")


def demo_command(
    out: Path = typer.Option(Path("demo-out"), "--out", "-o", help="Folder for everything."),
    data_root: Path = typer.Option(
        Path("data"), "--data-root", help="The repository's data folder."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed for builds, models and bootstrap."),
    no_llm: bool = typer.Option(False, "--no-llm", help="Skip SmolLM2 (baselines only)."),
    fresh: bool = typer.Option(False, "--fresh", help="Delete OUT first instead of resuming."),
) -> None:
    """Build three benchmarks from shipped real data, run baselines and SmolLM2, score, report.

    Example: medvqa demo --out demo-out
    """
    from medvqa.cli import app  # the demo drives the real commands

    console = Console()
    if fresh and out.exists():
        shutil.rmtree(out)
    start = time.perf_counter()
    run_dirs: list[str] = []

    def step(title: str, args: list[str]) -> None:
        console.rule(f"[bold]{title}")
        code = app(args=args, prog_name="medvqa", standalone_mode=False)
        if isinstance(code, int) and code != 0:
            raise typer.Exit(code)

    for bench in DEMO_PLAN:
        bench_dir = out / "bench" / bench.recipe
        step(
            f"build {bench.recipe}",
            ["build", bench.recipe, "-o", str(bench_dir), "--seed", str(seed),
             "--data-root", str(data_root)],
        )
        step(f"validate {bench.recipe}", ["validate", str(bench_dir)])
        for run in bench.runs:
            if no_llm and run.model == "smollm2":
                continue
            run_dir = out / "runs" / f"{bench.recipe}--{_model_slug(run)}"
            args = ["run", str(bench_dir), "--model", run.model, "--out", str(run_dir),
                    "--split", "test", "--seed", str(seed),
                    "--conditions", ",".join(run.conditions)]
            if run.limit:
                args += ["--limit", str(run.limit)]
            step(f"run {run.model} on {bench.recipe}", args)
            step(f"score {run.model} on {bench.recipe}",
                 ["score", str(bench_dir), str(run_dir), "--seed", str(seed)])
            run_dirs.append(str(run_dir))

    step("report", ["report", *run_dirs, "-o", str(out / "report.html")])
    console.print(
        f"[green]demo finished in {time.perf_counter() - start:.0f} s[/green]: "
        f"open {out / 'report.html'} (Markdown: {out / 'report.md'})"
    )
