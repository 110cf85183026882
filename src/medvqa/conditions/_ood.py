"""``ood``: a natural photograph instead of the medical image, and an instruction to say so.

LMOD's failure mode E2, "failure to abstain" (seed 002 §5, Fig. 8): shown a photo of a cat
and asked about glaucoma, models diagnosed it. This condition shows each item a natural
photograph shipped inside scikit-image (nothing is downloaded), chosen per item by the seed and
resized to the original image's size (converted to greyscale for greyscale images), and appends
an instruction asking the model to say when the image is not of the expected kind. The score
that matters is the abstention rate (:mod:`medvqa.score._failure_modes`), not accuracy.
"""

from __future__ import annotations

from functools import cache, lru_cache

import cv2
import numpy as np

from medvqa.benchmark import ImageInput
from medvqa.conditions._base import ImageCondition
from medvqa.conditions._codec import decode_shared, encode
from medvqa.rng import rng_for
from medvqa.schema import Item

#: Natural (non-medical) photographs bundled with scikit-image, by loader name.
NATURAL_IMAGES = ("chelsea", "coffee", "rocket", "astronaut", "camera")

#: Appended to the question; the abstention detector looks for the reply it invites.
OOD_INSTRUCTION = (
    "If the image is not the kind of medical image this question is about, do not choose an "
    "option: reply that the image is not a relevant medical image."
)


@cache
def natural_image(name: str) -> np.ndarray:
    """A bundled scikit-image photo as BGR (or greyscale) ``uint8`` pixels."""
    import skimage.data

    if name not in NATURAL_IMAGES:
        raise ValueError(f"unknown natural image {name!r}; known: {', '.join(NATURAL_IMAGES)}")
    rgb = np.asarray(getattr(skimage.data, name)())
    if rgb.ndim == 2:
        return rgb.astype(np.uint8)
    return cv2.cvtColor(rgb[..., :3].astype(np.uint8), cv2.COLOR_RGB2BGR)


class OutOfDomain(ImageCondition):
    """``ood``: a seeded natural photo in place of each image, plus :data:`OOD_INSTRUCTION`."""

    name = "ood"
    removes = frozenset({"image", "domain"})
    random = True

    def transform_item(self, item: Item) -> Item:
        """The question with the abstention instruction appended."""
        return item.model_copy(update={"question": f"{item.question}\n{OOD_INSTRUCTION}"})

    def applies_to(self, item: Item) -> bool:
        """Every item (text-only models see the instruction only, which is still informative)."""
        return True

    def perturb(self, pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A natural photo at the image's size; greyscale for a greyscale image."""
        name = NATURAL_IMAGES[int(rng.integers(len(NATURAL_IMAGES)))]
        return fitted_photo(name, pixels.shape[0], pixels.shape[1], pixels.ndim == 2)

    def _one(self, item: Item, index: int, image: ImageInput) -> ImageInput:
        """As :meth:`perturb` + encode, but each (photo, size) is encoded once per process.

        Same bytes as the generic path: the encoded photo depends only on the photo drawn and
        the image's size and greyness.
        """
        key = self.cache_key(item, index, image)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        pixels = decode_shared(image)
        rng = rng_for(self.seed, item.id, self.name, index)
        name = NATURAL_IMAGES[int(rng.integers(len(NATURAL_IMAGES)))]
        out = encoded_photo(name, pixels.shape[0], pixels.shape[1], pixels.ndim == 2)
        self.cache.put(key, out)
        return out


@lru_cache(maxsize=64)
def encoded_photo(name: str, height: int, width: int, grey: bool) -> ImageInput:
    """:func:`fitted_photo`, PNG-encoded (memoized)."""
    return encode(fitted_photo(name, height, width, grey))


@lru_cache(maxsize=64)
def fitted_photo(name: str, height: int, width: int, grey: bool) -> np.ndarray:
    """:func:`natural_image` resized to ``height × width`` (memoized: benchmarks repeat sizes)."""
    photo = cv2.resize(natural_image(name), (width, height), interpolation=cv2.INTER_AREA)
    if grey and photo.ndim == 3:
        photo = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    elif not grey and photo.ndim == 2:
        photo = cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)
    photo.setflags(write=False)
    return photo
