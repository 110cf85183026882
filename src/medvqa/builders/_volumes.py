"""Recipe type ``volumes`` (oncology, seed 003): 3D CT / MRI studies as representative slices.

The slice is chosen by the source reader (``slice:`` in the source): the slice with the largest
mask area when the label table names a mask volume, else the central slice or a given index; CT
values go through a window preset (``window: lung``) or ``"C,W"``. Every item records the slice
index, the rule and the slice count in ``meta``. Topics then work as in ``classify``.
"""

from __future__ import annotations

from collections.abc import Iterator

from medvqa.builders._classify import build_classify
from medvqa.builders._context import BuildContext, Draft
from medvqa.builders._recipe import Recipe
from medvqa.errors import BadInputError

#: Readers that yield one representative slice per volume.
VOLUME_READERS = frozenset({"nifti", "dicom_series"})


def check_volume_sources(recipe: Recipe) -> None:
    """Refuse sources that do not read volumes (a slice index would be meaningless).

    Raises:
        BadInputError: naming the first such source.

    """
    for spec in recipe.sources:
        ok = spec.reader in VOLUME_READERS or (spec.reader == "dicom" and spec.frames == "volume")
        if not ok:
            raise BadInputError(
                f"recipe {recipe.name}: source {spec.dataset!r} uses reader {spec.reader!r}; "
                "type volumes needs nifti, dicom_series, or dicom with frames: volume"
            )


def build_volumes(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Classification items over representative slices (see module docstring)."""
    check_volume_sources(recipe)
    for draft in build_classify(recipe, ctx):
        meta = draft.item.meta
        if "slice_index" not in meta:  # a reader bug, not bad input: fail loudly
            raise AssertionError(f"{draft.item.id}: volume reader gave no slice_index")
        yield draft
