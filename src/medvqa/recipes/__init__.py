"""A recipe → BENCH/: every recipe type in one table, the build pipeline, and the shipped recipes.

:data:`RECIPE_TYPES` joins medvqa's own recipe types (``medvqa.builders``) and the importers of
other benchmarks (``medvqa.interop``); :func:`build_benchmark` runs any recipe (a YAML path or
the name of one shipped in this folder, ``medvqa build --list``); :func:`import_benchmark`
builds what ``medvqa import`` made of a download.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.recipes._config import BuildConfig
    from medvqa.recipes._import import ImportConfig, import_benchmark, import_dataset
    from medvqa.recipes._pipeline import (
        BuildResult,
        build_benchmark,
        build_from_recipe,
        data_root_for,
        reread_result,
    )
    from medvqa.recipes._types import RECIPE_TYPES

_WHERE: dict[str, str] = {
    "ImportConfig": "_import",
    "import_benchmark": "_import",
    "import_dataset": "_import",
    "BuildConfig": "_config",
    "BuildResult": "_pipeline",
    "build_benchmark": "_pipeline",
    "build_from_recipe": "_pipeline",
    "data_root_for": "_pipeline",
    "reread_result": "_pipeline",
    "RECIPE_TYPES": "_types",
}


__all__ = [
    "RECIPE_TYPES",
    "BuildConfig",
    "ImportConfig",
    "BuildResult",
    "build_benchmark",
    "build_from_recipe",
    "data_root_for",
    "import_benchmark",
    "import_dataset",
    "reread_result",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
