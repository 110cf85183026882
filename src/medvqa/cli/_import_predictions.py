"""``medvqa import-predictions FORMAT FILE --bench BENCH/ -o RUN/`` (rendering only)."""

from __future__ import annotations

from pathlib import Path

import typer

from medvqa.cli._help import default_of, names_help
from medvqa.interop import READERS, PredictionsImport


def import_predictions_command(
    fmt: str = typer.Argument(..., help=names_help(READERS)),
    source: Path = typer.Argument(..., help="The tool's result file (VLMEvalKit .xlsx/.tsv, "
                                  "lmms-eval samples_*.jsonl, Inspect .eval/.json log)."),
    bench: Path = typer.Option(..., "--bench", help="The BENCH/ the tool was run on."),
    out: Path = typer.Option(..., "-o", "--out", help="RUN/ folder to write."),
    condition: str = typer.Option(default_of(PredictionsImport, "condition"), "--condition",
                                  help="Condition the tool's run was under (e.g. blind: run on "
                                  "blank images); imports under other conditions into the same "
                                  "RUN/ are kept, for controls."),
    split: str = typer.Option(
        default_of(PredictionsImport, "split"), "--split",
        help="Split the tool ran on, for logs that "
                              "number documents instead of naming items (lmms-eval; default: "
                              "the split the samples name or fit, else test). Checked against "
                              "the samples' targets and prompts."),
) -> None:
    """Turn another tool's results into a RUN/ that medvqa score, compare and report read.

    Examples:
      medvqa import-predictions vlmevalkit Qwen2-VL_VQA_RAD.xlsx --bench bench/rad -o runs/qwen
      medvqa import-predictions lmms-eval samples_medvqa_rad.jsonl --bench bench/rad -o runs/l
      medvqa import-predictions inspect logs/2026-01-01_medvqa.eval --bench bench/rad -o runs/i
    """
    from rich.console import Console

    from medvqa.conditions import describe, get_condition
    from medvqa.interop import import_predictions

    if not describe(condition).known:
        get_condition(condition)  # an unknown name: "did you mean …?", exit 1
    result = import_predictions(PredictionsImport(fmt, source, bench, out, condition=condition,
                                                  split=split))
    err = Console(stderr=True)
    if result.unmatched:
        shown = ", ".join(result.unmatched[:10])
        more = f" and {len(result.unmatched) - 10} more" if len(result.unmatched) > 10 else ""
        err.print(f"[yellow]unmatched[/yellow] {len(result.unmatched)} answer(s) name no item "
                  f"of {bench}: {shown}{more}", highlight=False, soft_wrap=True)
    if result.duplicates:
        err.print(f"[yellow]duplicates[/yellow] kept the first answer for "
                  f"{len(result.duplicates)} item(s): {', '.join(result.duplicates[:10])}",
                  highlight=False, soft_wrap=True)
    for note in result.notes:
        err.print(note, highlight=False, soft_wrap=True, markup=False)
    choice = result.split
    if choice.split is not None and choice.how != "given":
        why = {"named": "named by the samples", "matched": "the one split the samples' "
               "targets and prompts fit", "default": "the format's default"}[choice.how]
        checked = f"; {choice.checked} targets and prompts checked" if choice.checked else ""
        err.print(f"positions counted in split {choice.split!r} ({why}{checked})",
                  highlight=False, soft_wrap=True, markup=False)
    Console().print(f"wrote {out}: {result.written} predictions from {source.name} "
                    f"({len(result.unmatched)} unmatched, {result.missing} items without an "
                    f"answer); next: medvqa score {bench} {out}", highlight=False, soft_wrap=True)


def agreement_command(
    run: Path = typer.Argument(..., help="A RUN/ made by import-predictions and scored."),
    show: int = typer.Option(20, "--show", help="Disagreements to list (0: all)."),
) -> None:
    """Compare medvqa's verdicts with the other tool's on the same responses.

    Example: medvqa agreement runs/qwen-inspect
    """
    from rich.console import Console
    from rich.table import Table

    from medvqa.interop import agreement

    res = agreement(run)
    out = Console()
    out.print(f"{res.n} responses: the tool's accuracy {res.tool_accuracy:.4f}, medvqa's "
              f"{res.medvqa_accuracy:.4f}; parsers agree on {res.agreed}, disagree on "
              f"{len(res.disagreements)}", highlight=False, soft_wrap=True)
    if res.disagreements:
        table = Table(title="disagreements")
        for col in ("item", "response", "tool", "medvqa"):
            table.add_column(col)
        for d in res.disagreements[: show or None]:
            mark = "invalid" if d.medvqa_invalid else ("right" if d.medvqa_correct else "wrong")
            table.add_row(d.item_id, d.response[:80], "right" if d.tool_correct else "wrong",
                          mark)
        out.print(table)
