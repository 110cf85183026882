"""Other tools' result files → a medvqa RUN/ (``predictions.jsonl`` + ``run.json``).

A reader turns a result file into :class:`Imported` answers keyed by whatever the tool kept of
the item (medvqa's item id when the export carried it, else the row index or document position);
:func:`write_run` maps them onto the benchmark's items by id and writes a RUN/ that ``medvqa
score``, ``compare``, ``report`` and the controls read like any other. Answers whose id matches no
item are reported, never guessed; items the file has no answer for are counted as missing.
``run.json`` records where the answers came from (format, file, its SHA-256, the tool's model
name) in ``model_info.imported_from``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel, Field

from medvqa import __version__
from medvqa.errors import BadInputError
from medvqa.interop._imported import ImportedFile
from medvqa.interop._positions import SplitChoice, choose_split
from medvqa.schema import (
    BENCHMARK_FILE,
    ITEMS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    Benchmark,
    Item,
    Prediction,
    RunInfo,
    file_sha256,
    read_json,
    read_jsonl,
    write_json,
    write_jsonl,
)

#: The other tool's own per-item verdicts, beside predictions.jsonl (see ``_agreement``).
TOOL_SCORES_FILE = "tool_scores.jsonl"


class ToolVerdict(BaseModel):
    """One line of ``tool_scores.jsonl``: whether the other tool scored the answer right."""

    item_id: str = Field(description="Item id.")
    condition: str = Field(default="clean", description="Condition (clean for imports).")
    tool_correct: bool = Field(description="The other tool's verdict on the same response.")


@dataclass
class ImportResult:
    """What ``medvqa import-predictions`` wrote and what it could not place."""

    out: Path
    written: int
    unmatched: list[str] = field(default_factory=list)
    missing: int = 0
    duplicates: list[str] = field(default_factory=list)
    split: SplitChoice = field(default_factory=lambda: SplitChoice(None))
    notes: list[str] = field(default_factory=list)


def _resolve(key: str, ids: dict[str, Item], order: list[str], prefixes: list[str]) -> str | None:
    """The item id a key names: an id, ``#N`` (position in ``order``), or ``PREFIX/key``."""
    if key in ids:
        return key
    if key.startswith("#") and key[1:].isdigit():
        n = int(key[1:])
        return order[n] if 0 <= n < len(order) else None
    for prefix in prefixes:
        if f"{prefix}/{key}" in ids:
            return f"{prefix}/{key}"
    return None


def _earlier_import(out: Path, items_sha256: str) -> RunInfo | None:
    """The run.json of an earlier import into ``out`` of the same benchmark, if any.

    Refuses to write into a run medvqa made itself, or into a folder that is not a run; removes
    the earlier import's metrics.json, which the new answers make stale.
    """
    old = None
    if (out / RUN_FILE).is_file():
        old = read_json(out / RUN_FILE, RunInfo)
        if "imported_from" not in old.model_info:
            raise BadInputError(f"{out}: holds a run of {old.model} made by `medvqa run`; "
                                "import into another folder")
    elif out.is_dir() and any(out.iterdir()):
        raise BadInputError(f"{out}: exists and is not a run folder; not writing into it")
    if (out / METRICS_FILE).exists():
        (out / METRICS_FILE).unlink()
    return old if old is not None and old.items_sha256 == items_sha256 else None


def _kept(out: Path, old: RunInfo | None, condition: str) -> tuple[list[Prediction],
                                                                   list[ToolVerdict]]:
    """An earlier import's answers and verdicts under other conditions (kept beside the new)."""
    if old is None:
        return [], []
    preds = [p.model_copy(update={"choice": None, "correct": None, "invalid": None})
             for p in read_jsonl(out / PREDICTIONS_FILE, Prediction) if p.condition != condition]
    verdicts = ([v for v in read_jsonl(out / TOOL_SCORES_FILE, ToolVerdict)
                 if v.condition != condition] if (out / TOOL_SCORES_FILE).is_file() else [])
    return preds, verdicts


def write_run(bench: Path, out: Path, found: ImportedFile, fmt: str, source: Path,
              split: str | None = None, condition: str = "clean",
              default_split: str | None = None) -> ImportResult:
    """Map ``found`` onto ``bench``'s items and write them to RUN/ ``out`` as ``condition``.

    Positional keys (``#N``) count in one split's items, in benchmark order (the order medvqa's
    exports write them in): ``split`` when given, else the split the log names, else the one
    split its targets and prompts fit, else ``default_split`` — each checked against what the
    log kept (:func:`~medvqa.interop._positions.choose_split`), so a log of another split is
    refused instead of scored against the wrong items. An earlier import into ``out`` of the
    same benchmark
    keeps its answers under other conditions, so a tool's run on blank images imported as
    ``blind`` beside its clean run gives ``medvqa score`` its controls.

    Raises:
        BadInputError: ``bench`` is not a benchmark, no answer matches an item, or the
            positions of the log do not fit the split given or named.

    """
    bench, out = Path(bench), Path(out)
    if not (bench / ITEMS_FILE).is_file():
        raise BadInputError(f"{bench}: not a benchmark folder (no {ITEMS_FILE})")
    items_sha = file_sha256(bench / ITEMS_FILE)
    old = _earlier_import(out, items_sha)
    items = {i.id: i for i in read_jsonl(bench / ITEMS_FILE, Item)}
    chosen = choose_split(found.answers, items, split, default_split, source)
    order = [i for i, it in items.items() if chosen.split is None or it.split == chosen.split]
    prefixes = sorted({i.rsplit("/", 1)[0] for i in items if "/" in i})
    result = ImportResult(out, 0, split=chosen, notes=list(found.notes))
    preds: list[Prediction] = []
    verdicts: list[ToolVerdict] = []
    seen: set[tuple[str, str]] = set()
    for ans in (replace(a, condition=condition) for a in found.answers):
        item_id = _resolve(ans.key, items, order, prefixes)
        if item_id is None:
            result.unmatched.append(ans.key)
            continue
        if (item_id, ans.condition) in seen:
            result.duplicates.append(item_id)
            continue
        seen.add((item_id, ans.condition))
        if ans.tool_correct is not None:
            verdicts.append(ToolVerdict(item_id=item_id, condition=ans.condition,
                                        tool_correct=ans.tool_correct))
        preds.append(Prediction(item_id=item_id, condition=ans.condition,
                                response=None if ans.error else ans.response, error=ans.error))
    if not preds:
        raise BadInputError(f"{source}: no answer matches an item of {bench} "
                            f"({len(result.unmatched)} unmatched, e.g. "
                            f"{', '.join(result.unmatched[:3]) or 'none'})")
    card = read_json(bench / BENCHMARK_FILE, Benchmark) if (bench / BENCHMARK_FILE).is_file() \
        else None
    result.written = len(preds)
    # Items of the splits the answers cover (the split the tool ran on) that got no answer.
    covered = {items[p.item_id].split for p in preds}
    answered = {p.item_id for p in preds}
    result.missing = sum(1 for i, it in items.items() if it.split in covered and i not in answered)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    origin = {"format": fmt, "file": str(source.resolve()), "sha256": file_sha256(source)}
    by_condition = dict(old.model_info.get("imported_conditions", {})) if old else {}
    by_condition[condition] = origin
    kept_preds, kept_verdicts = _kept(out, old, condition)
    preds, verdicts = kept_preds + preds, kept_verdicts + verdicts
    info = RunInfo(
        model=old.model if old else (found.model or f"{fmt}:{source.stem}"),
        model_params=dict(found.params),
        model_info={"imported_from": origin, "imported_conditions": by_condition,
                    "text_only": False},
        prompt_template=f"{fmt} (as run there)",
        conditions=list(dict.fromkeys(p.condition for p in preds)),
        benchmark_name=card.name if card else bench.name,
        benchmark_version=card.version if card else "",
        items_sha256=items_sha,
        tool_version=__version__,
        started_at=now,
        ended_at=now,
        counts={"requests": len(preds), "errors": sum(p.error is not None for p in preds),
                "unmatched": len(result.unmatched), "missing": result.missing},
        errors=sorted({p.error for p in preds if p.error})[:5],
    )
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / PREDICTIONS_FILE, preds)
    if verdicts:
        write_jsonl(out / TOOL_SCORES_FILE, verdicts)
    elif (out / TOOL_SCORES_FILE).exists():
        (out / TOOL_SCORES_FILE).unlink()
    write_json(out / RUN_FILE, info)
    return result
