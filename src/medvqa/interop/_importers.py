"""The importers of other benchmarks: one table, also the ``type:`` of an importing recipe.

Each row names the function that drafts items from the published files (a recipe type, like
``classify``), the dataset's published licence and address, and — for the formats that
``medvqa import FORMAT SOURCE`` reads straight from a downloaded copy — the layout function that
finds its files. ``pathmmu`` and ``mammovqa`` are imported through shipped recipes instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from medvqa._registry import Entry, Registry

#: ``(source, images folder or None) -> (images folder, label tables)``.
Layout = Callable[[Path, Path | None], tuple[Path, list[Path]]]


@dataclass(frozen=True)
class ImportFormat(Entry):
    """One importer.

    Attributes:
        dataset: the published dataset's name ("" when the files name it: VLMEvalKit, tables).
        license: its published licence.
        url: where it is published.
        layout: ``"module:function"`` finding its files in a download, or "" when it is
            imported through a recipe only (not by ``medvqa import``).
        published_split: where the importer reads the dataset's published split (kept as
            published); written to benchmark.json's ``published_split`` when an item's split
            was so kept, so ``medvqa audit`` reports leaks across it as "published".
    """

    dataset: str = ""
    license: str = ""
    url: str = ""
    layout: str = ""
    published_split: str = ""

    def layout_function(self) -> Layout:
        """The layout function, imported now."""
        module, _, attr = self.layout.partition(":")
        fn: Any = getattr(importlib.import_module(module), attr)
        return fn


_I = "medvqa.interop"
_L = f"{_I}._import_formats"

IMPORTERS: Registry[Any] = Registry("import format", {
    "vqa_rad": ImportFormat(
        f"{_I}._import_vqarad:import_vqa_rad",
        "the official JSON (or its folder, with the image folder)",
        dataset="VQA-RAD", license="CC0 1.0", url="https://osf.io/89kps/",
        layout=f"{_L}:vqa_rad_layout",
        published_split="VQA-RAD phrase_type: test_freeform / test_para → test, else train"),
    "vqa_rad_hf": ImportFormat(
        f"{_I}._import_hfvqa:import_vqa_rad_hf",
        "the Hugging Face copy: a Parquet file or folder",
        dataset="VQA-RAD", license="CC0 1.0",
        url="https://huggingface.co/datasets/flaviagiammarino/vqa-rad",
        layout=f"{_L}:parquet_layout", published_split="the Parquet file names (train, test)"),
    "slake": ImportFormat(
        f"{_I}._import_slake:import_slake",
        "the Slake folder (train/validate/test.json, imgs/) or a JSON",
        dataset="SLAKE", license="CC BY 4.0", url="https://www.med-vqa.com/slake/",
        layout=f"{_L}:slake_layout",
        published_split="SLAKE's files: train, validate → val, test"),
    "pathvqa": ImportFormat(
        f"{_I}._import_hfvqa:import_pathvqa",
        "the Hugging Face Parquet file or folder",
        dataset="PathVQA", license="MIT",
        url="https://huggingface.co/datasets/flaviagiammarino/path-vqa",
        layout=f"{_L}:parquet_layout",
        published_split="the Parquet file names (train, validation → val, test)"),
    "pmc_vqa": ImportFormat(
        f"{_I}._import_pmcvqa:import_pmc_vqa",
        "a PMC-VQA CSV (images/ beside it) or its folder",
        dataset="PMC-VQA", license="CC BY-SA 4.0",
        url="https://huggingface.co/datasets/xmcmic/PMC-VQA",
        layout=f"{_L}:pmc_vqa_layout",
        published_split="the row's split column, else the CSV's name (test_2.csv → test)"),
    "omnimedvqa": ImportFormat(
        f"{_I}._import_omnimedvqa:import_omnimedvqa",
        "the OmniMedVQA folder or one of its JSON files",
        dataset="OmniMedVQA", license="per source dataset (see OmniMedVQA's list)",
        url="https://huggingface.co/datasets/foreverbeliever/OmniMedVQA",
        layout=f"{_L}:omnimedvqa_layout",
        published_split="none published: every item is test"),
    "vlmevalkit": ImportFormat(
        f"{_I}._import_vlmevalkit:import_vlmevalkit",
        "a VLMEvalKit TSV (e.g. GMAI-MMBench_VAL.tsv)", layout=f"{_L}:vlmevalkit_layout",
        published_split="the TSV's split column, else the split given at import"),
    "table": ImportFormat(
        f"{_I}._import_table:import_table",
        "CSV/TSV/JSON/JSONL/Parquet with --map question=COL,answer=COL,…",
        layout=f"{_L}:table_layout",
        published_split="the mapped split column, else the file's name"),
    "pathmmu": ImportFormat(
        f"{_I}._import_pathmmu:import_pathmmu",
        "PathMMU's JSON with its images (through a recipe: pathmmu_socialpath)",
        published_split="PathMMU's JSON keys (test, test_tiny, val)"),
    "mammovqa": ImportFormat(
        f"{_I}._import_mammovqa:import_mammovqa",
        "MammoVQA's JSON with its images (through a recipe)",
        published_split="MammoVQA's Split field (items without one are split by case)"),
})

#: The formats ``medvqa import FORMAT SOURCE`` reads from a downloaded copy.
IMPORT_FORMATS: Registry[Any] = IMPORTERS.where(
    "import format", lambda row: bool(getattr(row, "layout", "")))


def import_format(name: str) -> ImportFormat:
    """The row of an import format that ``medvqa import`` reads (checked, "did you mean")."""
    return cast(ImportFormat, IMPORT_FORMATS.row(name))
