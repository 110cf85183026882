"""``medvqa export``: write a BENCH/ in another tool's format.

Rendering only; the work is in ``medvqa.builders._export_vlmevalkit``,
``medvqa.builders._export_parquet`` and ``medvqa.integrations`` (lmms-eval).
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

_out = Console()
_err = Console(stderr=True)
FORMATS = ("vlmevalkit", "parquet", "lmms-eval")


def _named(ids: list[str]) -> str:
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def export_command(
    bench: Path = typer.Argument(..., help="Benchmark folder (BENCH/) to export."),
    fmt: str = typer.Option(
        ..., "--format", "-f", help="vlmevalkit (TSVs, base64 images) | parquet (HF datasets) | "
        "lmms-eval (task YAML + utils.py + Parquet)."
    ),
    out: Path = typer.Option(..., "-o", "--out", help="TSV file (vlmevalkit) or folder."),
    split: str = typer.Option("", "--split", help="Only these splits, comma-separated "
                              "(lmms-eval: the split evaluated, default test)."),
    template: str = typer.Option("default", "--template", help="lmms-eval: prompt template."),
) -> None:
    """Export a benchmark for VLMEvalKit, Hugging Face datasets or lmms-eval.

    Examples:
      medvqa export bench/idrid --format vlmevalkit -o IDRiD_DR.tsv --split test
      medvqa export bench/idrid --format parquet -o hf/idrid
      medvqa export bench/vqa_rad --format lmms-eval -o tasks/vqa_rad
    """
    from medvqa.errors import BadInputError, UsageError

    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
    if not (bench / "items.jsonl").is_file():
        raise BadInputError(f"{bench}: no items.jsonl (not a benchmark folder)")
    splits = [s.strip() for s in split.split(",") if s.strip()]
    if fmt == "vlmevalkit":
        from medvqa.builders._export_vlmevalkit import export_vlmevalkit

        result = export_vlmevalkit(bench, out, splits or None)
        for f in result.files:
            _out.print(f"wrote {f.path}: {f.rows} rows (VLMEvalKit {f.kind} dataset)",
                       highlight=False, soft_wrap=True)
        if result.no_image:
            _err.print(f"[yellow]left out[/yellow] {len(result.no_image)} item(s) without an "
                       f"image (VLMEvalKit's image datasets need one): {_named(result.no_image)}",
                       highlight=False, soft_wrap=True)
        if result.na_options:
            _err.print(f"[yellow]warning[/yellow] {len(result.na_options)} item(s) have an option "
                       "text pandas reads as missing (None, NA, null …), which VLMEvalKit drops "
                       f"from its prompt: {_named(result.na_options)}",
                       highlight=False, soft_wrap=True)
        if result.multi:
            _err.print(f"[yellow]warning[/yellow] {len(result.multi)} multi-answer item(s): "
                       "VLMEvalKit's MCQ scorer expects one letter; score them with medvqa "
                       f"(import-predictions): {_named(result.multi)}",
                       highlight=False, soft_wrap=True)
    elif fmt == "parquet":
        from medvqa.builders._export_parquet import export_parquet

        res = export_parquet(bench, out)
        rows = ", ".join(f"{k} {v}" for k, v in res.rows.items())
        _out.print(
            f"wrote {res.out}: {sum(res.rows.values())} rows ({rows}); load with "
            f"datasets.load_dataset({str(res.out)!r})",
            highlight=False,
            soft_wrap=True,
        )
    else:
        from medvqa.integrations import export_lmms_eval

        if len(splits) > 1:
            raise UsageError("--split: lmms-eval evaluates one split")
        lm = export_lmms_eval(bench, out, splits[0] if splits else "test", template)
        _out.print(f"wrote {lm.yaml_path} (task {lm.task}, split {lm.split}, "
                   f"{lm.rows[lm.split]} docs); run: lmms-eval --include_path {lm.out} "
                   f"--tasks {lm.task} --log_samples", highlight=False, soft_wrap=True)
