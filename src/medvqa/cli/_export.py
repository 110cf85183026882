"""``medvqa export``: write a BENCH/ in another tool's format.

Rendering only; the work is in ``medvqa.builders`` (VLMEvalKit TSV, Parquet).
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

_out = Console()
FORMATS = ("vlmevalkit", "parquet")


def export_command(
    bench: Path = typer.Argument(..., help="Benchmark folder (BENCH/) to export."),
    fmt: str = typer.Option(
        ..., "--format", "-f", help="vlmevalkit (one TSV, base64 images) | parquet (HF datasets)."
    ),
    out: Path = typer.Option(..., "-o", "--out", help="TSV file (vlmevalkit) or folder (parquet)."),
) -> None:
    """Export a benchmark for VLMEvalKit (TSV) or Hugging Face datasets (Parquet folder).

    Examples:
      medvqa export bench/idrid --format vlmevalkit -o IDRiD_DR.tsv
      medvqa export bench/idrid --format parquet -o hf/idrid
    """
    from medvqa.errors import BadInputError, UsageError

    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
    if not (bench / "items.jsonl").is_file():
        raise BadInputError(f"{bench}: no items.jsonl (not a benchmark folder)")
    if fmt == "vlmevalkit":
        from medvqa.builders._vlmevalkit import export_vlmevalkit

        result = export_vlmevalkit(bench, out)
        _out.print(
            f"wrote {result.path}: {result.items} rows, {result.images} images",
            highlight=False,
            soft_wrap=True,
        )
    else:
        from medvqa.builders._export_parquet import export_parquet

        res = export_parquet(bench, out)
        rows = ", ".join(f"{k} {v}" for k, v in res.rows.items())
        _out.print(
            f"wrote {res.out}: {sum(res.rows.values())} rows ({rows})",
            highlight=False,
            soft_wrap=True,
        )
