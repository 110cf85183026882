"""The :class:`Condition` interface, and the shared machinery of image-replacing conditions.

A condition changes what a model is shown for one item: the item (question swap, option shift,
an added instruction) and/or its images (blank, noise, corruption, a natural photo, none). The
runner asks ``applies_to`` first, then ``transform_item`` (pure and cheap; the scorer calls it
again to re-derive what was asked) and ``transform_images``. Image conditions follow MONAI's
split of a deterministic transform and a thin random wrapper: :meth:`ImageCondition.perturb` is
a pure function of the pixels and a ``numpy.random.Generator`` derived from
``(seed, item id, condition, image index)`` (:func:`medvqa.rng.rng_for`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import numpy as np

from medvqa.benchmark import ImageInput
from medvqa.conditions._codec import PerturbedCache, decode_shared, encode
from medvqa.rng import rng_for
from medvqa.schema import CLEAN, Item

log = logging.getLogger(__name__)

#: Words in ``meta["modality"]`` that mark greyscale imaging (no hue or saturation to change).
GREY_MODALITIES = (
    "mammogra", "radiolog", "x-ray", "xray", "radiograph", "ct", "mri", "ultrasound", "oct",
    "angiogra", "fluoroscop", "pet",
)

#: What a condition can take away: the medical image (blank, noise, none, or a photo in its
#: place), the image's quality (a corruption), the question (another item's), the options'
#: order, the image's domain (an out-of-domain photo: abstaining is the right answer).
REMOVABLE = frozenset({"image", "image quality", "question", "options order", "domain"})

#: One process-wide in-memory cache shared by every image condition (bounded in bytes).
SHARED_CACHE = PerturbedCache()


def modality_is_grey(item: Item) -> bool:
    """Whether the item's ``meta.modality`` names a greyscale modality (mammography, CT, …)."""
    modality = str(item.meta.get("modality", "")).lower()
    words = modality.replace("(", " ").replace(")", " ").replace(",", " ").split()
    return any(w.startswith(g) for w in words for g in GREY_MODALITIES)


class Condition:
    """The identity condition (``clean``); subclasses override what they change.

    Attributes:
        name: the condition's full name as written in predictions.jsonl.
        seed: seed of its random steps.
        removes: what the condition takes away from what the model is shown, from
            :data:`REMOVABLE` (scoring and reports read this, never the name).
        curve: see the class attribute.
        combined_as: see the class attribute.

    """

    name: str = CLEAN
    removes: frozenset[str] = frozenset()
    #: The severity curve this condition is a point of, as (curve name, level 1–5); None when
    #: it is not on one (scoring draws degradation curves from this, never from the name).
    curve: tuple[str, int] | None = None
    #: The condition that scoring combines this one into with its siblings (``permute@k`` →
    #: ``permute``, circular evaluation); "" when it stands alone.
    combined_as: str = ""

    def __init__(self, seed: int = 0):
        self.seed = seed

    def prepare(self, items: Iterable[Item]) -> None:
        """One streaming pass over the selected items before the run (only ``swap`` needs it)."""
        return None

    def applies_to(self, item: Item) -> bool:
        """Whether this condition asks ``item`` at all."""
        return True

    def transform_item(self, item: Item) -> Item:
        """The item as shown to the model (pure; the scorer re-derives it)."""
        return item

    def transform_images(
        self, item: Item, images: tuple[ImageInput, ...]
    ) -> tuple[ImageInput, ...] | None:
        """The images sent; None sends none."""
        return images

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, seed={self.seed})"


class ImageCondition(Condition):
    """A condition that replaces each image by a perturbed one, cached by hash.

    Subclasses set ``random`` (whether :meth:`perturb` draws from its generator; if not, the
    result depends only on the source image, so items sharing an image share the cache entry)
    and implement :meth:`perturb`.
    """

    random: bool = False

    def __init__(self, seed: int = 0, cache: PerturbedCache | None = None):
        super().__init__(seed)
        self.cache = cache if cache is not None else SHARED_CACHE

    def perturb(self, pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The perturbed pixels (same height and width; greyscale stays greyscale)."""
        raise NotImplementedError

    def applies_to(self, item: Item) -> bool:
        """Only items with images (without one, the request would equal the clean one)."""
        return bool(item.images)

    def transform_images(
        self, item: Item, images: tuple[ImageInput, ...]
    ) -> tuple[ImageInput, ...] | None:
        """Each image perturbed; deterministic given (item id, condition, seed, image)."""
        return tuple(self._one(item, i, image) for i, image in enumerate(images))

    def cache_key(self, item: Item, index: int, image: ImageInput) -> str:
        """The perturbed-image cache key of image ``index`` of ``item`` under this condition."""
        if self.random:
            return PerturbedCache.key(self.name, self.seed, item.id, index, image.sha256)
        return PerturbedCache.key(self.name, image.sha256)

    def _one(self, item: Item, index: int, image: ImageInput) -> ImageInput:
        key = self.cache_key(item, index, image)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        rng = rng_for(self.seed, item.id, self.name, index)
        out = encode(self.perturb(decode_shared(image), rng))
        self.cache.put(key, out)
        return out
