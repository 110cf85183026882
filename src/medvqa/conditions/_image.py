"""Conditions that withhold or replace the image: ``blind``, ``noise``, ``text-only``, ``corrupt``.

* ``blind`` — a blank image of the same size: black, or ``blind:grey`` at the image's mean
  intensity (the oncology paper's blind ablation, seed 003 §4.3).
* ``noise`` — Gaussian noise of the same size, mean 128 and SD 64 grey levels, clipped
  (PathMMU's noise-image control, seed 004 Table 3).
* ``text-only`` — no image at all (MIRA's text-only ablation, seed 001); for APIs that accept a
  message without an image.
* ``corrupt:NAME@SEVERITY`` — one of the eight PathMMU corruptions at severity 1–5
  (:mod:`._corruptions`). Hue and saturation skip items whose modality is greyscale.
"""

from __future__ import annotations

import logging

import numpy as np

from medvqa.benchmark import ImageInput
from medvqa.conditions._base import Condition, ImageCondition, modality_is_grey
from medvqa.conditions._codec import PerturbedCache
from medvqa.conditions._corruptions import CORRUPTIONS, SEVERITIES
from medvqa.schema import Item

log = logging.getLogger(__name__)

NOISE_MEAN = 128.0
NOISE_SD = 64.0


class Blind(ImageCondition):
    """Same-size blank image: black (``blind``) or mean grey (``blind:grey``)."""

    removes = frozenset({"image"})

    def __init__(self, seed: int = 0, variant: str = "black", cache: PerturbedCache | None = None):
        super().__init__(seed, cache)
        if variant not in {"black", "grey"}:
            raise ValueError(f"blind: unknown variant {variant!r} (black or grey)")
        self.variant = variant
        self.name = "blind" if variant == "black" else "blind:grey"

    def perturb(self, pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Zeros, or the per-channel mean everywhere."""
        if self.variant == "black":
            return np.zeros_like(pixels)
        mean = pixels.reshape(-1, 1 if pixels.ndim == 2 else pixels.shape[2]).mean(axis=0)
        return np.broadcast_to(np.round(mean).astype(np.uint8), pixels.shape).copy()


class Noise(ImageCondition):
    """Same-size Gaussian noise (mean 128, SD 64, clipped to 0–255), seeded per item."""

    name = "noise"
    removes = frozenset({"image"})
    random = True

    def perturb(self, pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Fresh noise of the image's shape (greyscale stays one channel)."""
        noise = rng.standard_normal(size=pixels.shape, dtype=np.float32)
        noise = noise * np.float32(NOISE_SD) + np.float32(NOISE_MEAN)
        return np.clip(np.rint(noise), 0, 255).astype(np.uint8)


class TextOnly(Condition):
    """No image is sent; the question and options are unchanged."""

    name = "text-only"
    removes = frozenset({"image"})

    def applies_to(self, item: Item) -> bool:
        """Only items with images (without one, the request would equal the clean one)."""
        return bool(item.images)

    def transform_images(
        self, item: Item, images: tuple[ImageInput, ...]
    ) -> tuple[ImageInput, ...] | None:
        """None: send no image."""
        return None


class Corrupt(ImageCondition):
    """``corrupt:NAME@SEVERITY``: one PathMMU corruption at one severity (1–5)."""

    removes = frozenset({"image quality"})

    def __init__(self, seed: int = 0, corruption: str = "jpeg", severity: int = 3,
                 cache: PerturbedCache | None = None):
        super().__init__(seed, cache)
        from medvqa.conditions._registry import check_corruption

        check_corruption(corruption)
        if severity not in SEVERITIES:
            raise ValueError(f"corrupt:{corruption}@{severity}: severity must be 1–5")
        self.corruption, self.severity = corruption, severity
        self.info = CORRUPTIONS[corruption]
        self.random = self.info.random
        self.name = f"corrupt:{corruption}@{severity}"
        self.curve = (corruption, severity)
        self._noted = False

    def applies_to(self, item: Item) -> bool:
        """Colour-only corruptions (hue, saturation) skip greyscale modalities, with a note."""
        if self.info.colour_only and item.images and modality_is_grey(item):
            if not self._noted:
                log.info("%s: skipping greyscale items (%s has no %s)", self.name,
                         item.meta.get("modality"), self.corruption)
                self._noted = True
            return False
        return bool(item.images)

    def perturb(self, pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The corruption applied (a greyscale image under hue/saturation is left as is)."""
        return self.info.fn(pixels, self.severity, rng)
