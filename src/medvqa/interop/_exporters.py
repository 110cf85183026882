"""The exporters: a BENCH/ in another tool's format, one row each (``medvqa export --format``).

A light module (the table is read for help texts at start-up): heavy imports are inside the
functions.

Every exporter takes one :class:`ExportConfig` and returns an :class:`ExportSummary` in words
(what was written, what was left out and why, what to run next), so the command line only
prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from medvqa._registry import Entry, Registry
from medvqa.errors import BadInputError, UsageError

#: The split an lmms-eval task evaluates unless told otherwise (its ``test_split``).
LMMS_EVAL_SPLIT = "test"


@dataclass(frozen=True)
class ExportConfig:
    """One ``medvqa export``.

    Attributes:
        bench: the BENCH/ folder.
        out: the file (vlmevalkit) or folder to write.
        splits: only these splits; empty: the default split (``test`` where the benchmark has
            one, :func:`medvqa.benchmark.chosen_split`), ``all``: every split. The parquet
            export writes every split, each labelled.
        template: the prompt template (lmms-eval).
    """

    bench: Path
    out: Path
    _: KW_ONLY
    splits: tuple[str, ...] = ()
    template: str = "default"


@dataclass
class ExportSummary:
    """What an export did, in lines to print.

    Attributes:
        wrote: one line per file or folder written.
        warnings: what was left out or will not behave as expected in the other tool.
    """

    wrote: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _named(ids: list[str]) -> str:
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def vlmevalkit_export(config: ExportConfig) -> ExportSummary:
    """VLMEvalKit TSVs (base64 images), one per dataset type."""
    from medvqa.benchmark import ALL_SPLITS, chosen_split
    from medvqa.interop._export_vlmevalkit import export_vlmevalkit

    if ALL_SPLITS in config.splits:
        splits: list[str] = []
    elif config.splits:
        splits = list(config.splits)
    else:  # the one default of run and export: test, where the benchmark has it
        splits = [x for x in [chosen_split(config.bench, None)] if x]
    result = export_vlmevalkit(config.bench, config.out, splits or None)
    which = f"split {', '.join(splits)}" if splits else "every split"
    summary = ExportSummary([f"wrote {f.path}: {f.rows} rows (VLMEvalKit {f.kind} dataset, "
                             f"{which})" for f in result.files])
    if result.text_only:
        summary.warnings.append(
            f"{len(result.text_only)} choice item(s) without an image went to the text TSV, "
            f"which VLMEvalKit loads as a text multiple-choice dataset (copy it to "
            f"$LMUData/NAME.tsv and pass --data NAME): {_named(result.text_only)}")
    if result.no_image:
        summary.warnings.append(
            f"left out {len(result.no_image)} open-ended item(s) without an image (VLMEvalKit "
            f"has no text-only open-ended dataset): {_named(result.no_image)}")
    if result.na_options:
        summary.warnings.append(
            f"{len(result.na_options)} item(s) have an option text pandas reads as missing "
            f"(None, NA, null …), which VLMEvalKit drops from its prompt: "
            f"{_named(result.na_options)}")
    if result.multi:
        summary.warnings.append(
            f"{len(result.multi)} multi-answer item(s): VLMEvalKit's MCQ scorer expects one "
            f"letter; score them with medvqa (import-predictions): {_named(result.multi)}")
    return summary


def parquet_export(config: ExportConfig) -> ExportSummary:
    """A Hugging Face ``datasets`` folder (Parquet per split)."""
    from medvqa.interop._export_parquet import export_parquet

    if config.splits and config.splits != ("all",):
        raise UsageError("--split: the parquet export writes every split, each labelled")
    res = export_parquet(config.bench, config.out)
    rows = ", ".join(f"{k} {v}" for k, v in res.rows.items())
    return ExportSummary([f"wrote {res.out}: {sum(res.rows.values())} rows ({rows}); load "
                          f"with datasets.load_dataset({str(res.out)!r})"])


def lmms_eval_export(config: ExportConfig) -> ExportSummary:
    """An lmms-eval task folder (task YAML, utils.py, prompts, Parquet)."""
    from medvqa.interop._export_lmms_eval import export_lmms_eval

    if len(config.splits) > 1:
        raise UsageError("--split: lmms-eval evaluates one split")
    if config.splits == ("all",):
        raise UsageError("--split all: lmms-eval evaluates one split")
    split = config.splits[0] if config.splits else LMMS_EVAL_SPLIT
    lm = export_lmms_eval(config.bench, config.out, split, config.template)
    logs = lm.out / "logs"
    return ExportSummary([
        f"wrote {lm.yaml_path} (task {lm.task}, split {lm.split}, {lm.rows[lm.split]} docs)",
        f"run: lmms-eval --include_path {lm.out} --tasks {lm.task} --log_samples "
        f"--output_path {logs} --model …",
        f"then: medvqa import-predictions lmms-eval {logs}/MODEL/DATE_samples_{lm.task}.jsonl "
        f"--bench {config.bench} --split {lm.split} -o RUN/",
    ])


Exporter = Callable[[ExportConfig], ExportSummary]

_X = "medvqa.interop._exporters"

EXPORTERS: Registry[Exporter] = Registry("export format", {
    "vlmevalkit": Entry(f"{_X}:vlmevalkit_export", "VLMEvalKit TSVs with base64 images"),
    "parquet": Entry(f"{_X}:parquet_export", "Parquet per split for Hugging Face datasets"),
    "lmms-eval": Entry(f"{_X}:lmms_eval_export", "an lmms-eval task: YAML, utils.py, Parquet"),
})


def export_benchmark(fmt: str, config: ExportConfig) -> ExportSummary:
    """Export ``config.bench`` as ``fmt`` (a row of :data:`EXPORTERS`).

    Raises:
        medvqa._registry.UnknownNameError: an unknown format (with "did you mean").
        BadInputError: the folder is not a benchmark, or a line of it an export would get
            wrong (:func:`medvqa.benchmark.refuse_unexportable`).
    """
    from medvqa.schema import ITEMS_FILE

    exporter = EXPORTERS.get(fmt)
    if not (config.bench / ITEMS_FILE).is_file():
        raise BadInputError(f"{config.bench}: no items.jsonl (not a benchmark folder)")
    from medvqa.benchmark import refuse_unexportable

    refuse_unexportable(config.bench, "nothing was exported")
    return exporter(config)
