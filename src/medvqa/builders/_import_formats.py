"""``medvqa import FORMAT SOURCE``: from a published dataset's files to the equivalent recipe.

Each format knows its recipe type, its published licence and address, and where its files lie
inside a downloaded copy (SLAKE: ``train.json`` … beside ``imgs/``; OmniMedVQA: ``QA
information/*/*.json`` beside ``Images/``; …). :func:`import_recipe` turns a format and a
source path into a :class:`~medvqa.builders._recipe.Recipe` whose paths are relative to the
returned data root, so ``medvqa import`` and ``medvqa build RECIPE`` build the same benchmark.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from medvqa.builders._pipeline import BuildConfig, BuildResult, build_from_recipe
from medvqa.builders._recipe import Recipe
from medvqa.builders._writer import replace_folder
from medvqa.errors import BadInputError, UsageError
from medvqa.sources import SourceSpec


@dataclass(frozen=True)
class ImportFormat:
    """One importable format: recipe type, dataset name, licence, address, file layout."""

    type: str
    dataset: str
    license: str
    url: str
    layout: Callable[[Path, Path | None], tuple[Path, list[Path]]]
    help: str


def _one(folder: Path, pattern: str, what: str) -> Path:
    found = sorted(folder.glob(pattern))
    if len(found) != 1:
        raise BadInputError(f"{folder}: expected one {what} ({pattern}), found {len(found)}")
    return found[0]


def _beside(source: Path, images: Path | None, name: str) -> Path:
    return images if images is not None else source.parent / name


def _vqa_rad(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        table = _one(source, "*.json", "VQA-RAD JSON")
        folder = images or next((p for p in sorted(source.iterdir()) if p.is_dir()), source)
        return folder, [table]
    return _beside(source, images, "VQA_RAD Image Folder"), [source]


def _parquet(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    return source, []


def _slake(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = [source / f"{s}.json" for s in ("train", "validate", "test")]
        tables = [t for t in tables if t.is_file()] or sorted(source.glob("*.json"))
        if not tables:
            raise BadInputError(f"{source}: no SLAKE JSON (train.json, validate.json, test.json)")
        return images or source / "imgs", tables
    return _beside(source, images, "imgs"), [source]


def _pmc_vqa(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = sorted(source.glob("*.csv"))
        if not tables:
            raise BadInputError(f"{source}: no PMC-VQA CSV files")
        return images or source / "images", tables
    return _beside(source, images, "images"), [source]


def _omnimedvqa(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = sorted(source.glob("QA information/*/*.json")) or sorted(source.glob("*.json"))
        if not tables:
            raise BadInputError(f"{source}: no OmniMedVQA JSON (QA information/*/*.json)")
        return images or source, tables
    if images is not None:
        return images, [source]
    root = next((p for p in source.parents if (p / "Images").is_dir()), source.parent)
    return root, [source]


def _vlmevalkit(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    return source.parent, [source]


def _table(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = sorted(p for p in source.rglob("*") if p.suffix.lower() in
                        {".csv", ".tsv", ".json", ".jsonl", ".parquet"})
        if not tables:
            raise BadInputError(f"{source}: no CSV, TSV, JSON, JSON-lines or Parquet files")
        return images or source, tables
    return images or source.parent, [source]


FORMATS: dict[str, ImportFormat] = {
    "vqa_rad": ImportFormat("vqa_rad", "VQA-RAD", "CC0 1.0", "https://osf.io/89kps/", _vqa_rad,
                            "the official JSON (or its folder, with the image folder)"),
    "vqa_rad_hf": ImportFormat("vqa_rad_hf", "VQA-RAD", "CC0 1.0",
                               "https://huggingface.co/datasets/flaviagiammarino/vqa-rad",
                               _parquet, "the Hugging Face copy: a Parquet file or folder"),
    "slake": ImportFormat("slake", "SLAKE", "CC BY 4.0", "https://www.med-vqa.com/slake/",
                          _slake, "the Slake folder (train/validate/test.json, imgs/) or a JSON"),
    "pathvqa": ImportFormat("pathvqa", "PathVQA", "MIT",
                            "https://huggingface.co/datasets/flaviagiammarino/path-vqa",
                            _parquet, "the Hugging Face Parquet file or folder"),
    "pmc_vqa": ImportFormat("pmc_vqa", "PMC-VQA", "CC BY-SA 4.0",
                            "https://huggingface.co/datasets/xmcmic/PMC-VQA", _pmc_vqa,
                            "a PMC-VQA CSV (images/ beside it) or its folder"),
    "omnimedvqa": ImportFormat("omnimedvqa", "OmniMedVQA",
                               "per source dataset (see OmniMedVQA's list)",
                               "https://huggingface.co/datasets/foreverbeliever/OmniMedVQA",
                               _omnimedvqa, "the OmniMedVQA folder or one of its JSON files"),
    "vlmevalkit": ImportFormat("vlmevalkit", "", "", "", _vlmevalkit,
                               "a VLMEvalKit TSV (e.g. GMAI-MMBench_VAL.tsv)"),
    "table": ImportFormat("table", "", "", "", _table,
                          "CSV/TSV/JSON/JSONL/Parquet with --map question=COL,answer=COL,…"),
}


_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")


def hub_dataset(repo_id: str) -> Path:
    """The local copy of a Hugging Face dataset repository (``owner/name``), fetched on demand.

    Only when the user names a hub ID that is not a local path; ``HF_HUB_OFFLINE=1`` keeps it
    to the local cache.

    Raises:
        BadInputError: not a hub ID, or the dataset cannot be had (offline, unknown, gated).

    """
    if not _HUB_ID.fullmatch(repo_id):
        raise BadInputError(f"{repo_id}: not found")
    from medvqa._optional import optional_import

    hub = optional_import("huggingface_hub")
    try:
        return Path(hub.snapshot_download(repo_id=repo_id, repo_type="dataset"))
    except Exception as exc:  # noqa: BLE001 - hub errors are many; all mean "cannot have it"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BadInputError(f"{repo_id}: not a local path, and the Hugging Face dataset could "
                            f"not be fetched: {first}") from None


def _rel(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path.resolve(), root)).as_posix()


def import_recipe(fmt: str, source: Path, *, images: Path | None = None, name: str = "",
                  license: str = "", url: str = "", options: dict[str, str] | None = None,
                  ) -> tuple[Recipe, Path]:
    """The recipe importing ``source`` as ``fmt``, and the data root its paths are relative to.

    Raises:
        UsageError: unknown format.
        BadInputError: the source (or a file it should contain) does not exist.

    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown import format {fmt!r}: use one of {', '.join(FORMATS)}")
    if not source.exists():
        source = hub_dataset(str(source))
    spec = FORMATS[fmt]
    folder, tables = spec.layout(source, images)
    root = (source if source.is_dir() else source.parent).resolve()
    dataset = name or spec.dataset or source.stem
    src = SourceSpec(dataset=dataset, reader="table", path=_rel(folder, root),
                     labels=[_rel(t, root) for t in tables], license=license or spec.license,
                     url=url or spec.url)
    recipe = Recipe(
        name=name or (fmt if spec.dataset else source.stem),
        type=spec.type,
        description=f"{dataset} imported from {source.name} as published ({fmt}).",
        license=license or spec.license,
        sources=[src],
        import_options=dict(options or {}),
    )
    return recipe, root


def import_benchmark(recipe: Recipe, root: Path, out: Path, seed: int = 0,
                     strict: bool = False) -> BuildResult:
    """Build ``recipe`` (from :func:`import_recipe`) and put it at ``out`` if it has items.

    The benchmark is built beside ``out`` and moved into place only when at least one item was
    imported, so an import that matches nothing leaves an existing BENCH/ at ``out`` untouched.

    Raises:
        BadInputError: no item could be imported (the message counts the rows skipped).

    """
    out = Path(out)
    staging = out.with_name(f".{out.name}.importing")
    shutil.rmtree(staging, ignore_errors=True)
    result = build_from_recipe(recipe, BuildConfig(f"import {recipe.type}", staging, seed=seed,
                                                   data_root=root, strict=strict))
    if not result.counts.get("items"):
        shutil.rmtree(staging, ignore_errors=True)
        spec = recipe.sources[0]
        named = ", ".join(spec.labels) or spec.path
        raise BadInputError(f"{named}: no item imported as {recipe.type} "
                            f"({len(result.problems)} row(s) skipped); nothing written")
    replace_folder(staging, out)
    result.out = out
    return result
