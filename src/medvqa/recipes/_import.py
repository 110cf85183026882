"""``medvqa import FORMAT SOURCE``: build the recipe an importer made, moved into place whole.

A light module at import (the command line reads :class:`ImportConfig`'s defaults at
start-up); the builders are imported by the functions.
"""

from __future__ import annotations

import shutil
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from medvqa.errors import BadInputError

if TYPE_CHECKING:
    from medvqa.builders import Recipe
    from medvqa.recipes._pipeline import BuildResult


@dataclass(frozen=True)
class ImportConfig:
    """One ``medvqa import FORMAT SOURCE``.

    Attributes:
        format: a row of ``medvqa.interop.IMPORT_FORMATS``.
        source: the dataset's file or folder as published (or a Hugging Face dataset ID).
        out: the BENCH/ folder to write.
        images: the image folder, when not where the dataset puts it.
        options: the importer's options (``lang`` for SLAKE, ``split`` for VLMEvalKit, the
            FIELD=COLUMN mapping of a table).
        name: benchmark and dataset name ("" = the format's).
        license: licence ("" = the dataset's published one).
        url: where the dataset is published.
        seed: seed of the random steps (yes/no option order).
        strict: stop at the first bad row (exit 2).
        force: replace a benchmark already at ``out``; without it that is refused before the
            source is read, exit 2.
    """

    format: str
    source: Path
    out: Path
    _: KW_ONLY
    images: Path | None = None
    options: dict[str, str] = field(default_factory=dict)
    name: str = ""
    license: str = ""
    url: str = ""
    seed: int = 0
    strict: bool = False
    force: bool = False


def import_dataset(config: ImportConfig) -> tuple[Recipe, BuildResult]:
    """The recipe importing ``config.source``, built into ``config.out``.

    See :func:`import_benchmark` for when ``out`` is replaced.
    """
    from medvqa.builders import check_target
    from medvqa.interop import import_recipe

    check_target(Path(config.out), config.force)
    recipe, root = import_recipe(config.format, config.source, images=config.images,
                                 name=config.name, license=config.license, url=config.url,
                                 options=config.options)
    # import_recipe checked its paths: an absolute one is the --images folder the user named.
    named = tuple(Path(s.path) for s in recipe.sources if Path(s.path).is_absolute())
    return recipe, import_benchmark(recipe, root, config.out, config.seed, config.strict,
                                    config.force, named)


def import_benchmark(recipe: Recipe, root: Path, out: Path, seed: int = 0,
                     strict: bool = False, force: bool = False,
                     named: tuple[Path, ...] = ()) -> BuildResult:
    """Build ``recipe`` (from :func:`import_recipe`) and put it at ``out`` if it has items.

    A benchmark already at ``out`` is replaced only with ``force`` (else refused before any
    work, see :func:`medvqa.builders.check_target`). The benchmark is built beside ``out`` and
    moved into place only when at least one item was imported, so an import that matches
    nothing leaves an existing BENCH/ at ``out`` untouched. ``named``: folders the user named
    (``--images``) that the recipe's paths may name as they are (see ``BuildConfig.named``).

    Raises:
        BadInputError: no item could be imported (the message counts the rows skipped).

    """
    from medvqa.builders import check_target, replace_folder
    from medvqa.recipes._pipeline import BuildConfig, build_from_recipe

    out = Path(out)
    check_target(out, force)
    staging = out.with_name(f".{out.name}.importing")
    shutil.rmtree(staging, ignore_errors=True)
    result = build_from_recipe(recipe, BuildConfig(f"import {recipe.type}", staging, seed=seed,
                                                   data_root=root, strict=strict, named=named,
                                                   any_table_size=True))
    if not result.counts.get("items"):
        shutil.rmtree(staging, ignore_errors=True)
        spec = recipe.sources[0]
        tables = ", ".join(spec.labels) or spec.path
        raise BadInputError(f"{tables}: no item imported as {recipe.type} "
                            f"({len(result.problems)} row(s) skipped); nothing written")
    replace_folder(staging, out)
    result.out = out
    return result
