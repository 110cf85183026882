"""Export a BENCH/ as VLMEvalKit TSVs: choice items in one file, open and region items in another.

VLMEvalKit scores a TSV by its dataset type: an MCQ file (option columns ``A``, ``B``, …, a
letter answer) or a VQA file (free-text answer, no options). So choice items (``single``,
``multi``, ``yesno``, ``grade``) go to ``OUT.tsv`` and open and region items to
``OUT_open.tsv`` (written only when there are such items); a perfect model then scores 100 %
on both instead of 0 on the open items. Columns VLMEvalKit reads are written only when some row
fills them (an all-empty ``hint`` or ``l2-category`` column would become a category of its
own); medvqa's own columns (``id``, ``question_type``, ``case_id``, ``source``, ``meta``) follow
and are ignored by VLMEvalKit, read back by the ``vlmevalkit`` importer.

Items without an image cannot go into an image dataset (VLMEvalKit cannot dump the image of
such a row). VLMEvalKit loads a custom TSV with option columns and no ``image`` column as a text
multiple-choice dataset (``CustomTextMCQDataset``, in ``vlmeval.dataset.build_dataset``), so
image-less choice items go to ``OUT_text.tsv``, written without the ``image`` column. It has no
text-only open-ended dataset: image-less open and region items are left out and named. A
benchmark with nothing VLMEvalKit can load is refused.

Things VLMEvalKit would do silently are reported instead (:class:`VlmExport`): option texts that
pandas' ``read_csv`` turns into NaN (``None``, ``NA``, ``null`` …; VLMEvalKit then leaves the
option out of the prompt) and the image-less items left out.
"""

from __future__ import annotations

import base64
import csv
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from medvqa.benchmark import read_image_file
from medvqa.errors import BadInputError
from medvqa.interop._import_vlmevalkit import LETTERS
from medvqa.schema import CHOICE_TYPES, ITEMS_FILE, Item, read_jsonl
from medvqa.store import atomic_writer

#: Strings pandas.read_csv reads as missing by default (pandas' ``STR_NA_VALUES``).
PANDAS_NA = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})
OWN_COLUMNS = ("id", "question_type", "case_id", "source", "meta")


@dataclass
class VlmFile:
    """One TSV written: its path, its VLMEvalKit dataset type and its row count."""

    path: Path
    kind: str
    rows: int


@dataclass
class VlmExport:
    """What an export wrote and what it reports."""

    files: list[VlmFile] = field(default_factory=list)
    images: int = 0
    no_image: list[str] = field(default_factory=list)
    text_only: list[str] = field(default_factory=list)
    na_options: list[str] = field(default_factory=list)
    multi: list[str] = field(default_factory=list)

    @property
    def items(self) -> int:
        """Rows written over all files."""
        return sum(f.rows for f in self.files)


def open_path(out: Path) -> Path:
    """Where the open/region items of an export to ``out`` go (``X.tsv`` → ``X_open.tsv``)."""
    return out.with_name(f"{out.stem}_open{out.suffix or '.tsv'}")


def text_path(out: Path) -> Path:
    """Where image-less choice items of an export to ``out`` go (``X.tsv`` → ``X_text.tsv``)."""
    return out.with_name(f"{out.stem}_text{out.suffix or '.tsv'}")


def _answer_cell(item: Item) -> str:
    return ",".join(item.answer) if isinstance(item.answer, list) else item.answer


def _selected(bench: Path, splits: set[str] | None) -> Iterator[Item]:
    for item in read_jsonl(bench / ITEMS_FILE, Item):
        if splits is None or item.split in splits:
            yield item


def _header(items: Iterable[Item], choice: bool, image: bool = True) -> list[str]:
    width, hint, l2 = 0, False, False
    for item in items:  # up to the last letter used: options may skip one (A, B, D)
        width = max([width, *(LETTERS.index(k) + 1 for k in item.options)])
        hint = hint or bool(str(item.meta.get("hint", "")).strip())
        l2 = l2 or bool(str(item.meta.get("l2_category", "")).strip())
    cols = ["index"] + (["image"] if image else []) + ["question"] + (["hint"] if hint else [])
    if choice:
        cols += [LETTERS[k] for k in range(width)]
    cols += ["answer", "category"] + (["l2-category"] if l2 else []) + ["split"]
    return cols + list(OWN_COLUMNS)


def _row(item: Item, index: int, cols: list[str], bench: Path) -> list[str]:
    b64 = [base64.b64encode(read_image_file(bench, rel)).decode("ascii") for rel in item.images]
    cell = b64[0] if len(b64) == 1 else json.dumps(b64)
    values = {
        "index": str(index), "image": cell, "question": item.question,
        "hint": str(item.meta.get("hint", "")), "answer": _answer_cell(item),
        "category": item.category, "l2-category": str(item.meta.get("l2_category", "")),
        "split": item.split, "id": item.id, "question_type": item.question_type,
        "case_id": item.case_id or "", "source": item.source,
        "meta": json.dumps(item.meta, ensure_ascii=False),
    }
    return [values[c] if c in values else item.options.get(c, "") for c in cols]


def export_vlmevalkit(bench: Path, out: Path, splits: Iterable[str] | None = None) -> VlmExport:
    """Write ``bench`` (only ``splits`` when given) as VLMEvalKit TSVs at ``out`` (see module).

    Each file streams into a temporary file renamed into place at the end, so a killed export
    leaves no half-written TSV. Images are base64 of the stored bytes (never re-encoded).

    Raises:
        BadInputError: no item of the benchmark is in ``splits``, or none VLMEvalKit can
            load (every one is open-ended and has no image).

    """
    bench, out = Path(bench), Path(out)
    wanted = set(splits) if splits else None
    result = VlmExport()
    kept: list[Item] = []
    for item in _selected(bench, wanted):
        if not item.images:
            if item.question_type not in CHOICE_TYPES:
                result.no_image.append(item.id)
                continue
            result.text_only.append(item.id)
        kept.append(item.model_copy(update={"meta": {
            k: item.meta[k] for k in ("hint", "l2_category") if k in item.meta}}))
        if any(t.strip() in PANDAS_NA for t in item.options.values()):
            result.na_options.append(item.id)
        if item.question_type == "multi":
            result.multi.append(item.id)
    if not kept and not result.no_image:
        raise BadInputError(f"{bench}: no items in split(s) {', '.join(sorted(wanted or []))}")
    if not kept:
        raise BadInputError(
            f"{bench}: nothing VLMEvalKit can load: the {len(result.no_image)} item(s) have no "
            "image and are open-ended (VLMEvalKit loads image-less items only as multiple "
            "choice)")
    images: set[str] = set()
    for choice, has_image, path, kind in ((True, True, out, "MCQ"),
                                          (False, True, open_path(out), "VQA"),
                                          (True, False, text_path(out), "text MCQ")):
        group = [i for i in kept if (i.question_type in CHOICE_TYPES) == choice
                 and bool(i.images) == has_image]
        if not group:
            continue
        cols = _header(group, choice, has_image)
        ids = {i.id for i in group}
        n = 0
        with atomic_writer(path, newline="") as fh:
            writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
            writer.writerow(cols)
            for item in _selected(bench, wanted):
                if item.id in ids:
                    n += 1
                    images.update(item.images)
                    writer.writerow(_row(item, n, cols, bench))
        result.files.append(VlmFile(path, kind, n))
    result.images = len(images)
    return result
