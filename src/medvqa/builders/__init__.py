"""Build benchmarks from labelled data: recipe schema, drafting kit, own types, BENCH/ writer.

The kit is what every recipe type drafts with (context, options, splits); the writer is the one
way a BENCH/ is written.

Recipe types here: classification, grading, findings, exams, regions, volumes
(:data:`BUILDER_TYPES`). Importers of other benchmarks are recipe types too and live with other
tools' formats (``medvqa.interop``); the build pipeline that runs any recipe is
``medvqa.recipes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.builders._context import BuildContext, Draft, unique_id
    from medvqa.builders._options import LETTERS, balanced_positions, multi_options, single_options
    from medvqa.builders._recipe import (
        Recipe,
        TopicSpec,
        load_recipe,
        parse_recipe,
        shipped_recipes,
    )
    from medvqa.builders._source_paths import RECIPE_HINT, refuse_outside_sources
    from medvqa.builders._splits import SplitKeys, assign_split_keys, assign_splits
    from medvqa.builders._types import BUILDER_TYPES, RecipeType
    from medvqa.builders._writer import (
        BenchWriter,
        CountTally,
        WrittenItems,
        bench_counts,
        check_target,
        replace_folder,
    )

_WHERE: dict[str, str] = {
    "BuildContext": "_context",
    "Draft": "_context",
    "unique_id": "_context",
    "LETTERS": "_options",
    "balanced_positions": "_options",
    "multi_options": "_options",
    "single_options": "_options",
    "Recipe": "_recipe",
    "TopicSpec": "_recipe",
    "load_recipe": "_recipe",
    "parse_recipe": "_recipe",
    "shipped_recipes": "_recipe",
    "RECIPE_HINT": "_source_paths",
    "refuse_outside_sources": "_source_paths",
    "SplitKeys": "_splits",
    "assign_split_keys": "_splits",
    "assign_splits": "_splits",
    "BUILDER_TYPES": "_types",
    "RecipeType": "_types",
    "BenchWriter": "_writer",
    "CountTally": "_writer",
    "WrittenItems": "_writer",
    "bench_counts": "_writer",
    "check_target": "_writer",
    "replace_folder": "_writer",
}


__all__ = [
    "BUILDER_TYPES",
    "LETTERS",
    "RECIPE_HINT",
    "BenchWriter",
    "BuildContext",
    "CountTally",
    "Draft",
    "Recipe",
    "RecipeType",
    "SplitKeys",
    "TopicSpec",
    "WrittenItems",
    "assign_split_keys",
    "assign_splits",
    "balanced_positions",
    "bench_counts",
    "check_target",
    "load_recipe",
    "multi_options",
    "parse_recipe",
    "refuse_outside_sources",
    "replace_folder",
    "shipped_recipes",
    "single_options",
    "unique_id",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
