"""``medvqa export``: write a BENCH/ in another tool's format (a row of ``EXPORTERS``)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from medvqa.cli._help import default_of, names_help, print_listing
from medvqa.errors import BadInputError
from medvqa.interop import EXPORTERS, ExportConfig

_out = Console()
_err = Console(stderr=True)


def export_command(
    bench: Path = typer.Argument(None, help="Benchmark folder (BENCH/) to export."),
    fmt: str = typer.Option("", "--format", "-f",
                            help=names_help(EXPORTERS)),
    out: Path | None = typer.Option(None, "-o", "--out",
                                    help="TSV file (vlmevalkit) or folder."),
    split: str = typer.Option("", "--split", help="Only these splits, comma-separated; default "
                              "test where the benchmark has one (as `medvqa run`), all: every "
                              "split (parquet: always every split, labelled; lmms-eval: the "
                              "one split evaluated)."),
    template: str = typer.Option(default_of(ExportConfig, "template"), "--template",
                                 help="lmms-eval: prompt template."),
    list_formats: bool = typer.Option(False, "--list", help="List the formats and exit."),
) -> None:
    """Export a benchmark for VLMEvalKit, Hugging Face datasets or lmms-eval.

    Examples:
      medvqa export bench/idrid --format vlmevalkit -o IDRiD_DR.tsv --split test
      medvqa export bench/idrid --format parquet -o hf/idrid
      medvqa export bench/vqa_rad --format lmms-eval -o tasks/vqa_rad
    """
    from medvqa.errors import UsageError
    from medvqa.interop import export_benchmark
    from medvqa.store import write_errors_are_bad_input

    if list_formats:
        print_listing(EXPORTERS)
        return
    if bench is None or not fmt or out is None:
        raise UsageError("give BENCH/, --format and -o (formats: `medvqa export --list`)")
    splits = tuple(s.strip() for s in split.split(",") if s.strip())
    if fmt == "vlmevalkit" and out.is_dir():
        raise BadInputError(f"-o {out}: is a folder; the vlmevalkit export writes a file "
                            "(e.g. -o out/NAME.tsv)")
    if fmt != "vlmevalkit" and (out.is_file() or out.is_symlink() and not out.is_dir()):
        raise BadInputError(f"-o {out}: is a file; the {fmt} export writes a folder (e.g. -o "
                            f"out/NAME); choose another -o")
    with write_errors_are_bad_input(out, "every file written there is whole; the benchmark is "
                                    "unchanged"):
        summary = export_benchmark(fmt, ExportConfig(bench, out, splits=splits, template=template))
    for line in summary.wrote:
        _out.print(line, highlight=False, soft_wrap=True, markup=False)
    for line in summary.warnings:
        _err.print(f"[yellow]warning[/yellow] {escape(line)}", highlight=False, soft_wrap=True)

