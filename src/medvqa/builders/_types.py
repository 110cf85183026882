"""The recipe types medvqa builds itself: ``type:`` in a recipe → the function that drafts items.

A recipe type is ``fn(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]``. Importers of
other benchmarks are recipe types too; they live with other tools' formats
(``medvqa.interop.IMPORTERS``), and ``medvqa.recipes.RECIPE_TYPES`` is the two tables as one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from medvqa._registry import Entry, Registry

if TYPE_CHECKING:
    from medvqa.builders._context import BuildContext, Draft
    from medvqa.builders._recipe import Recipe

# Forward references: the table is read by help texts at start-up, so it imports no pydantic.
RecipeType = Callable[["Recipe", "BuildContext"], Iterator["Draft"]]

_B = "medvqa.builders"

BUILDER_TYPES: Registry[RecipeType] = Registry(
    "recipe type",
    {
        "classify": Entry(f"{_B}._classify:build_classify", "labels → single, yes/no or "
                          "multi-label questions at image, finding or exam level"),
        "grade": Entry(f"{_B}._classify:build_grade", "ordered grades, balanced sampling, the "
                       "LMOD prompts"),
        "regions": Entry(f"{_B}._regions:build_regions", "boxes drawn with coloured IDs; the "
                         "answer is the set of region IDs (LMOD)"),
        "volumes": Entry(f"{_B}._volumes:build_volumes", "a representative slice of a CT/MRI "
                         "volume, CT windows (oncology)"),
    },
)
