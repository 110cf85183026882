"""``medvqa import FORMAT SOURCE``: from a published dataset's files to the equivalent recipe.

Each format (a row of :data:`~medvqa.interop._importers.IMPORTERS`) knows its published licence
and address; the layouts here say where its files lie inside a downloaded copy (SLAKE:
``train.json`` … beside ``imgs/``; OmniMedVQA: ``QA information/*/*.json`` beside
``Images/``; …). :func:`import_recipe` turns a format and a source path into a
:class:`~medvqa.builders.Recipe` whose paths are relative to the returned data root, so
``medvqa import`` and ``medvqa build RECIPE`` build the same benchmark.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from medvqa.builders import Recipe, refuse_outside_sources
from medvqa.errors import BadInputError
from medvqa.interop._importers import import_format
from medvqa.sources import SourceSpec


def _one(folder: Path, pattern: str, what: str) -> Path:
    found = sorted(folder.glob(pattern))
    if len(found) != 1:
        raise BadInputError(f"{folder}: expected one {what} ({pattern}), found {len(found)}")
    return found[0]


def _beside(source: Path, images: Path | None, name: str) -> Path:
    return images if images is not None else source.parent / name


def vqa_rad_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        table = _one(source, "*.json", "VQA-RAD JSON")
        folder = images or next((p for p in sorted(source.iterdir()) if p.is_dir()), source)
        return folder, [table]
    return _beside(source, images, "VQA_RAD Image Folder"), [source]


def parquet_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    return source, []


def slake_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = [source / f"{s}.json" for s in ("train", "validate", "test")]
        tables = [t for t in tables if t.is_file()] or sorted(source.glob("*.json"))
        if not tables:
            raise BadInputError(f"{source}: no SLAKE JSON (train.json, validate.json, test.json)")
        return images or source / "imgs", tables
    return _beside(source, images, "imgs"), [source]


def pmc_vqa_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = sorted(source.glob("*.csv"))
        if not tables:
            raise BadInputError(f"{source}: no PMC-VQA CSV files")
        return images or source / "images", tables
    return _beside(source, images, "images"), [source]


def omnimedvqa_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = sorted(source.glob("QA information/*/*.json")) or sorted(source.glob("*.json"))
        if not tables:
            raise BadInputError(f"{source}: no OmniMedVQA JSON (QA information/*/*.json)")
        return images or source, tables
    if images is not None:
        return images, [source]
    root = next((p for p in source.parents if (p / "Images").is_dir()), source.parent)
    return root, [source]


def vlmevalkit_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    return source.parent, [source]


def table_layout(source: Path, images: Path | None) -> tuple[Path, list[Path]]:
    if source.is_dir():
        tables = sorted(p for p in source.rglob("*") if p.suffix.lower() in
                        {".csv", ".tsv", ".json", ".jsonl", ".parquet"})
        if not tables:
            raise BadInputError(f"{source}: no CSV, TSV, JSON, JSON-lines or Parquet files")
        return images or source, tables
    return images or source.parent, [source]


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


def _rel(path: Path, base: Path) -> str:
    """``path`` relative to ``base``, as written (links are the guard's to follow)."""
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(base))).as_posix()


def import_recipe(fmt: str, source: Path, *, images: Path | None = None, name: str = "",
                  license: str = "", url: str = "", options: dict[str, str] | None = None,
                  ) -> tuple[Recipe, Path]:
    """The recipe importing ``source`` as ``fmt``, and the data root its paths are relative to.

    Raises:
        medvqa._registry.UnknownNameError: an unknown format, or one not
            imported from files (with "did you mean").
        BadInputError: the source (or a file it should contain) does not exist.

    """
    spec = import_format(fmt)
    if not source.exists():
        source = hub_dataset(str(source))
    folder, tables = spec.layout_function()(source, images)
    base = source if source.is_dir() else source.parent
    if images is None:  # the download's own image folder (OmniMedVQA's may lie above the JSON)
        base = Path(os.path.commonpath([os.path.abspath(base), os.path.abspath(folder)]))
    root = base.resolve()
    path, own = _image_folder(images, root) if images is not None else (_rel(folder, base), "")
    dataset = name or spec.dataset or source.stem
    src = SourceSpec(dataset=dataset, reader="table", path=path,
                     labels=[_rel(t, base) for t in tables], license=license or spec.license,
                     url=url or spec.url)
    recipe = Recipe(
        name=name or (fmt if spec.dataset else source.stem),
        type=fmt,
        description=f"{dataset} imported from {source.name} as published ({fmt}).",
        license=license or spec.license,
        sources=[src],
        import_options=dict(options or {}),
    )
    refuse_outside_sources(recipe, root, f"medvqa import {fmt} {source}", own=[own] if own else [],
                           root_name=f"the import source {root}", hint=IMPORT_HINT,
                           table_hint=IMPORT_TABLE_HINT)
    return recipe, root


#: How a refusal of an import's image folder ends.
IMPORT_HINT = "give the folder that holds the images with --images to read them from there"
#: How a refusal of an import's table ends.
IMPORT_TABLE_HINT = "name the table file itself as SOURCE to read it where it lies"


def _image_folder(images: Path, root: Path) -> tuple[str, str]:
    """``--images`` as the recipe names it, and as a root of its own ("" when inside ``root``).

    A folder the user names is not data: it is resolved once (a link to it is followed) and
    is then the root its images must stay inside. Where its real place is inside the import
    source it is written relative to it, as any path of the source, so the benchmark's bytes
    do not depend on where the download lies; elsewhere it is its real, absolute path.
    """
    real = images.resolve()
    if real.is_relative_to(root):
        return Path(os.path.relpath(real, root)).as_posix(), ""
    return str(real), str(real)
