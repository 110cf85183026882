"""Finding crops: the box plus a margin, and same-size random crops from normal images."""

from __future__ import annotations

import math
from typing import NamedTuple

from medvqa.rng import rng_for
from medvqa.sources import Box


class Rect(NamedTuple):
    """A crop rectangle in integer pixels (right / bottom exclusive)."""

    left: int
    top: int
    right: int
    bottom: int


def finding_rect(box: Box, margin: float, size: tuple[int, int]) -> Rect:
    """The box grown by ``margin`` × its size on each side, clamped to the image."""
    width, height = size
    mx, my = box.width * margin, box.height * margin
    left = max(0, math.floor(box.x0 - mx))
    top = max(0, math.floor(box.y0 - my))
    right = min(width, math.ceil(box.x1 + mx))
    bottom = min(height, math.ceil(box.y1 + my))
    return Rect(left, top, max(right, left + 1), max(bottom, top + 1))


def random_rect(crop_w: int, crop_h: int, size: tuple[int, int], seed: int, key: str) -> Rect:
    """A ``crop_w`` × ``crop_h`` rectangle at a seeded random place inside the image.

    The rectangle is shrunk to the image when larger.
    """
    width, height = size
    crop_w, crop_h = min(crop_w, width), min(crop_h, height)
    rng = rng_for(seed, key, "crop")
    left = int(rng.integers(0, width - crop_w + 1))
    top = int(rng.integers(0, height - crop_h + 1))
    return Rect(left, top, left + crop_w, top + crop_h)
