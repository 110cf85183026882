"""The recipe-type registry: ``type:`` in a recipe → the function that makes its items.

A recipe type is ``fn(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from medvqa._registry import Registry
from medvqa.build._context import BuildContext, Draft
from medvqa.build._recipe import Recipe

RecipeType = Callable[[Recipe, BuildContext], Iterator[Draft]]

RECIPE_TYPES: Registry[RecipeType] = Registry(
    "recipe type",
    {
        "classify": "medvqa.build._classify:build_classify",
        "grade": "medvqa.build._classify:build_grade",
        "vqa_rad": "medvqa.build._import_vqarad:import_vqa_rad",
        "pathmmu": "medvqa.build._import_pathmmu:import_pathmmu",
        "regions": "medvqa.build._regions:build_regions",
        "volumes": "medvqa.build._volumes:build_volumes",
        "mammovqa": "medvqa.build._import_mammovqa:import_mammovqa",
        "vlmevalkit": "medvqa.build._vlmevalkit:import_vlmevalkit",
        "vqa_rad_hf": "medvqa.build._import_hfvqa:import_vqa_rad_hf",
        "pathvqa": "medvqa.build._import_hfvqa:import_pathvqa",
        "slake": "medvqa.build._import_slake:import_slake",
        "pmc_vqa": "medvqa.build._import_pmcvqa:import_pmc_vqa",
        "omnimedvqa": "medvqa.build._import_omnimedvqa:import_omnimedvqa",
        "table": "medvqa.build._import_table:import_table",
    },
)
