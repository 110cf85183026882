"""Build benchmarks: recipes, importers, exporters and the guessability filter.

Recipes: classification, grading, findings, exams, regions, volumes. Importers: VQA-RAD, PathMMU,
MammoVQA, VLMEvalKit TSV, SLAKE, PathVQA and VQA-RAD (Hugging Face
Parquet), PMC-VQA, OmniMedVQA and any table with a column mapping (``medvqa import``).

Recipe types are looked up in :data:`RECIPE_TYPES` (one table, "did you mean" errors).
"""

from __future__ import annotations

from medvqa.builders._context import BuildContext, Draft
from medvqa.builders._export_parquet import ParquetExport, export_parquet
from medvqa.builders._export_vlmevalkit import VlmExport, export_vlmevalkit
from medvqa.builders._pipeline import (
    BuildConfig,
    BuildResult,
    build_benchmark,
    build_from_recipe,
    data_root_for,
    reread_result,
)
from medvqa.builders._recipe import Recipe, TopicSpec, load_recipe, parse_recipe, shipped_recipes
from medvqa.builders._splits import assign_splits
from medvqa.builders._types import RECIPE_TYPES
from medvqa.builders._writer import BenchWriter, CountTally, WrittenItems, bench_counts

__all__ = [
    "BenchWriter",
    "CountTally",
    "WrittenItems",
    "bench_counts",
    "RECIPE_TYPES",
    "BuildConfig",
    "BuildContext",
    "BuildResult",
    "Draft",
    "ParquetExport",
    "Recipe",
    "TopicSpec",
    "VlmExport",
    "assign_splits",
    "build_benchmark",
    "build_from_recipe",
    "data_root_for",
    "export_parquet",
    "export_vlmevalkit",
    "load_recipe",
    "parse_recipe",
    "reread_result",
    "shipped_recipes",
]
