"""``medvqa import-predictions FORMAT FILE --bench BENCH/ -o RUN/`` (rendering only)."""

from __future__ import annotations

from pathlib import Path

import typer


def import_predictions_command(
    fmt: str = typer.Argument(..., help="vlmevalkit | lmms-eval | inspect"),
    source: Path = typer.Argument(..., help="The tool's result file (VLMEvalKit .xlsx/.tsv, "
                                  "lmms-eval samples_*.jsonl, Inspect .eval/.json log)."),
    bench: Path = typer.Option(..., "--bench", help="The BENCH/ the tool was run on."),
    out: Path = typer.Option(..., "-o", "--out", help="RUN/ folder to write."),
    condition: str = typer.Option("clean", "--condition", help="Condition the tool's run "
                                  "was under (e.g. blind: run on blank images); imports under "
                                  "other conditions into the same RUN/ are kept, for controls."),
    split: str = typer.Option("", "--split", help="Split the tool ran on, for logs that "
                              "number documents instead of naming items (lmms-eval; default "
                              "test, as medvqa's lmms-eval export)."),
) -> None:
    """Turn another tool's results into a RUN/ that medvqa score, compare and report read.

    Examples:
      medvqa import-predictions vlmevalkit Qwen2-VL_VQA_RAD.xlsx --bench bench/rad -o runs/qwen
      medvqa import-predictions lmms-eval samples_medvqa_rad.jsonl --bench bench/rad -o runs/l
      medvqa import-predictions inspect logs/2026-01-01_medvqa.eval --bench bench/rad -o runs/i
    """
    from rich.console import Console

    from medvqa.errors import BadInputError, UsageError
    from medvqa.integrations._predictions import write_run
    from medvqa.integrations._readers import READERS

    if fmt not in READERS:
        raise UsageError(f"unknown format {fmt!r}: use one of {', '.join(READERS)}")
    if not source.is_file():
        raise BadInputError(f"{source}: not found")
    found = READERS[fmt](source)
    if fmt == "lmms-eval" and not split:
        split = "test"
    if condition != "clean":
        from medvqa._registry import UnknownNameError
        from medvqa.conditions import get_condition

        try:
            get_condition(condition)
        except UnknownNameError as exc:
            raise UsageError(str(exc)) from None
    result = write_run(bench, out, found, fmt, source, split or None, condition)
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

    from medvqa.integrations import agreement

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
