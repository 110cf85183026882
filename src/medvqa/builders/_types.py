"""The recipe-type registry: ``type:`` in a recipe → the function that makes its items.

A recipe type is ``fn(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from medvqa._registry import Registry
from medvqa.builders._context import BuildContext, Draft
from medvqa.builders._recipe import Recipe

RecipeType = Callable[[Recipe, BuildContext], Iterator[Draft]]

RECIPE_TYPES: Registry[RecipeType] = Registry(
    "recipe type",
    {
        "classify": "medvqa.builders._classify:build_classify",
        "grade": "medvqa.builders._classify:build_grade",
        "vqa_rad": "medvqa.builders._import_vqarad:import_vqa_rad",
        "pathmmu": "medvqa.builders._import_pathmmu:import_pathmmu",
        "regions": "medvqa.builders._regions:build_regions",
        "volumes": "medvqa.builders._volumes:build_volumes",
        "mammovqa": "medvqa.builders._import_mammovqa:import_mammovqa",
        "vlmevalkit": "medvqa.builders._vlmevalkit:import_vlmevalkit",
        "vqa_rad_hf": "medvqa.builders._import_hfvqa:import_vqa_rad_hf",
        "pathvqa": "medvqa.builders._import_hfvqa:import_pathvqa",
        "slake": "medvqa.builders._import_slake:import_slake",
        "pmc_vqa": "medvqa.builders._import_pmcvqa:import_pmc_vqa",
        "omnimedvqa": "medvqa.builders._import_omnimedvqa:import_omnimedvqa",
        "table": "medvqa.builders._import_table:import_table",
    },
)
