"""``medvqa report``: scored runs → self-contained HTML and Markdown."""

from __future__ import annotations

from pathlib import Path

import typer


def report_command(
    runs: list[Path] = typer.Argument(None, help="Scored RUN/ folders."),
    out: Path = typer.Option(Path("report.html"), "--out", "-o", help="HTML file; .md beside it."),
    models: Path | None = typer.Option(
        None, "--models", help="models.yaml of `medvqa run --models`: report each of its runs."
    ),
    runs_dir: Path = typer.Option(
        Path("runs"), "--runs-dir", help="With --models: the --out folder of that run."
    ),
    by: str = typer.Option("category", "--by", help="Breakdown table: a --by of `medvqa score` "
                           "(category, source, split, meta.KEY …)."),
    bench: list[Path] = typer.Option(
        [], "--bench", help="BENCH/ of the runs: its items (question, options, images) are shown "
        "beside each response in the item view, its build yield (generated, kept, dropped) in "
        "the report."),
) -> None:
    """Write a leaderboard, per-category tables, plots, controls and methods as HTML + Markdown.

    Beside OUT: OUT.items.html (every response with its item, reading and why; filterable,
    works from file://), OUT.items.csv and OUT.items.jsonl.

    Example: medvqa report runs/idrid-random runs/idrid-smollm2 --bench bench/idrid -o report.html
    """
    from rich.console import Console

    from medvqa.report import write_report

    runs = list(runs or [])
    if models is not None:
        from medvqa.run import load_models_file, run_dirs

        runs += run_dirs(load_models_file(models), runs_dir)
    if not runs:
        from medvqa.errors import BadInputError

        raise BadInputError("name the RUN/ folders to report, or give --models models.yaml")
    if out.is_dir():
        from medvqa.errors import BadInputError

        raise BadInputError(f"-o {out}: is a folder; give the HTML file to write "
                            "(e.g. -o report.html; report.md is written beside it)")
    html, md = write_report(runs, out, bench, by)
    from medvqa.report import item_files

    files = item_files(html)
    Console().print(f"wrote {html} and {md}; every response: {files.html} ({files.csv.name}, "
                    f"{files.jsonl.name})", highlight=False, soft_wrap=True)
