"""Every recipe type: the ones medvqa builds itself and the importers of other benchmarks.

``type:`` in a recipe names a row of :data:`RECIPE_TYPES`; the two tables it joins are the
truth (``medvqa.builders.BUILDER_TYPES``, ``medvqa.interop.IMPORTERS``), so a new type is one
row in one of them.
"""

from __future__ import annotations

from medvqa._registry import Registry
from medvqa.builders import BUILDER_TYPES, RecipeType
from medvqa.interop import IMPORTERS

RECIPE_TYPES: Registry[RecipeType] = BUILDER_TYPES | IMPORTERS
