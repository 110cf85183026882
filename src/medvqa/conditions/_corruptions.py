"""The eight image corruptions of PathMMU's robustness study, five severities each.

PathMMU (seed 004, §4.2 and Fig. 4) degrades test-tiny images with colour corruptions
(brightness, hue, saturation) and quality corruptions (pixelation, JPEG compression, bubble blur,
motion blur, defocus blur) at levels 1–5, level 0 being the clean image. The severity tables
follow the spirit of Hendrycks & Dietterich's ImageNet-C (the reference PathMMU cites through
Zhang et al. 2022), re-parametrised so that every table is monotone (PSNR against the clean
image falls as severity rises) and written with OpenCV/NumPy: the ``imagecorruptions`` package
has no hue corruption and its glass blur takes ~46 s per 1024² image (measured).

Each corruption is a pure function ``fn(image, severity, rng) -> image`` on a ``uint8`` array,
``H×W`` (greyscale) or ``H×W×3`` (BGR, OpenCV's order). Greyscale stays greyscale. Spatial
corruptions scale their radii with the shorter side relative to 224 px, so a severity means
the same visible damage on a 224² tile and a 1024² mammogram. Only ``bubble`` and ``motion``
draw from ``rng`` (pixel displacements, blur direction); the others ignore it.

>>> import numpy as np
>>> img = np.full((8, 8), 100, np.uint8)
>>> int(brightness(img, 1, np.random.default_rng(0))[0, 0])
126
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

Corruption = Callable[[np.ndarray, int, np.random.Generator], np.ndarray]

SEVERITIES = (1, 2, 3, 4, 5)

_BRIGHTNESS = (0.1, 0.2, 0.3, 0.4, 0.5)  # added to V (fraction of full scale)
_HUE_DEG = (10, 20, 30, 45, 60)  # hue rotation in degrees
_SATURATION = (0.7, 0.5, 0.3, 0.15, 0.0)  # multiplier of S (towards grey)
_JPEG_QUALITY = (25, 18, 15, 10, 7)
_PIXELATE = ((2, 2), (4, 2), (4, 4), (8, 4), (8, 8))  # block w×h, px per 224 px of side
_BUBBLE = ((0.7, 1, 2), (0.9, 2, 1), (1.0, 2, 3), (1.1, 3, 2), (1.5, 4, 2))  # sigma, delta, iter
_DEFOCUS = ((3, 0.1), (4, 0.5), (6, 0.5), (8, 0.5), (10, 0.5))  # disk radius, alias sigma
_MOTION = ((10, 3), (15, 5), (15, 8), (15, 12), (20, 15))  # kernel radius, sigma along line


def _check(severity: int) -> int:
    if severity not in SEVERITIES:
        raise ValueError(f"severity must be 1–5, got {severity}")
    return severity - 1


def _scale(image: np.ndarray) -> float:
    """How much larger than a 224 px tile the image is (never below 1)."""
    return max(1.0, min(image.shape[:2]) / 224.0)


def _is_colour(image: np.ndarray) -> bool:
    return image.ndim == 3 and image.shape[2] == 3


def brightness(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Raise the HSV value channel by 10–50 % of full scale (saturating at 255)."""
    add = round(_BRIGHTNESS[_check(severity)] * 255)
    if not _is_colour(image):
        return cv2.add(image, np.full_like(image, add))
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hsv[..., 2] = cv2.add(hsv[..., 2], np.full_like(hsv[..., 2], add))
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def hue(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Rotate hue by 10–60°; a greyscale image has no hue and is returned unchanged."""
    shift = _HUE_DEG[_check(severity)] // 2  # OpenCV stores hue in 2° steps, 0–179
    if not _is_colour(image):
        return image
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    lut = ((np.arange(256) + shift) % 180).astype(np.uint8)
    hsv[..., 0] = cv2.LUT(hsv[..., 0], lut)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def saturation(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Scale HSV saturation by 0.7 down to 0 (fully washed out); greyscale is unchanged."""
    factor = _SATURATION[_check(severity)]
    if not _is_colour(image):
        return image
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    lut = np.clip(np.round(np.arange(256) * factor), 0, 255).astype(np.uint8)
    hsv[..., 1] = cv2.LUT(hsv[..., 1], lut)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def jpeg(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Round-trip through JPEG at quality 25 down to 7."""
    quality = _JPEG_QUALITY[_check(severity)]
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 image
        raise ValueError("JPEG encoding failed")
    flag = cv2.IMREAD_COLOR if _is_colour(image) else cv2.IMREAD_GRAYSCALE
    decoded: np.ndarray | None = cv2.imdecode(buf, flag)
    if decoded is None:  # pragma: no cover - OpenCV decodes what it just encoded
        raise ValueError("JPEG decoding failed")
    return decoded


def pixelate(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Average over blocks growing from 2×2 to 8×8 px (per 224 px of side), shown flat.

    Each severity doubles one side of the previous block (2×2, 4×2, 4×4, 8×4, 8×8), so the
    block grids are nested and PSNR provably falls with severity (coarser block means are a
    projection of the finer ones). ImageNet-C's fractional resize factors are not nested: on
    mini-MIAS mammograms, whose scans carry a fine periodic texture, they make PSNR rise again
    at high severities.
    """
    bw, bh = _PIXELATE[_check(severity)]
    unit = max(1, round(_scale(image)))
    bw, bh = bw * unit, bh * unit
    top = _PIXELATE[-1][0] * unit  # pad once to the largest block so every grid nests
    h, w = image.shape[:2]
    ph, pw = -(-h // top) * top, -(-w // top) * top
    padded = cv2.copyMakeBorder(image, 0, ph - h, 0, pw - w, cv2.BORDER_REFLECT)
    small = cv2.resize(padded, (pw // bw, ph // bh), interpolation=cv2.INTER_AREA)
    big = cv2.resize(small, (pw, ph), interpolation=cv2.INTER_NEAREST)
    return np.ascontiguousarray(big[:h, :w])


def bubble(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Glass-like blur: Gaussian blur, random local pixel displacements, Gaussian blur again.

    ImageNet-C's glass blur swaps neighbouring pixels one by one in Python; here each pass moves
    every pixel by an independent random offset of at most ``delta`` px (one ``cv2.remap``),
    which looks alike and takes milliseconds.
    """
    sigma, delta, iterations = _BUBBLE[_check(severity)]
    s = _scale(image)
    sigma, delta = sigma * s, max(1, round(delta * s))
    h, w = image.shape[:2]
    out = cv2.GaussianBlur(image, (0, 0), sigma)
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(iterations):
        dx = rng.integers(-delta, delta + 1, size=(h, w)).astype(np.float32)
        dy = rng.integers(-delta, delta + 1, size=(h, w)).astype(np.float32)
        out = cv2.remap(out, gx + dx, gy + dy, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REFLECT)
    return cv2.GaussianBlur(out, (0, 0), sigma)


def _disk(radius: float, alias_sigma: float) -> np.ndarray:
    r = max(1, round(radius))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    kernel = ((xx**2 + yy**2) <= r**2).astype(np.float32)
    kernel /= kernel.sum()
    return cv2.GaussianBlur(kernel, (3, 3), alias_sigma)


def defocus(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Convolve with an anti-aliased disk of radius 3–10 px (per 224 px of image side)."""
    radius, alias = _DEFOCUS[_check(severity)]
    kernel = _disk(radius * _scale(image), alias)
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT)


def _line_weights(radius: float, sigma: float) -> np.ndarray:
    """One-sided Gaussian weights over ``radius`` px, as a centred 1-D kernel (camera shake)."""
    r = max(1, round(radius))
    t = np.arange(r + 1, dtype=np.float32)
    w = np.exp(-(t**2) / (2 * sigma**2))
    kernel = np.concatenate([np.zeros(r, np.float32), w / w.sum()])
    return kernel[::-1].copy()  # filters correlate; reversed, pixel x gathers x … x + r


def motion(image: np.ndarray, severity: int, rng: np.random.Generator) -> np.ndarray:
    """Blur along a random direction (uniform in ±45°), radius 10–20 px per 224 px of side.

    Rather than a 2-D line kernel (a 183² convolution at 1024², ~150 ms), each column is shifted
    by ``round(x·tan a)`` so the blur direction becomes horizontal, a 1-D kernel is applied, and
    the shift is undone: whole-pixel shifts, so nothing but the blur is interpolated.
    """
    radius, sigma = _MOTION[_check(severity)]
    s = _scale(image)
    angle = float(rng.uniform(-45.0, 45.0))
    h, w = image.shape[:2]
    shift = np.round(np.arange(w) * -np.tan(np.deg2rad(angle))).astype(np.float32)[None, :]
    lo, hi = float(shift.min()), float(shift.max())
    tall = h + int(hi - lo)  # the sheared canvas holds every column whole
    gx = np.broadcast_to(np.arange(w, dtype=np.float32), (tall, w))
    gj = np.broadcast_to(np.arange(tall, dtype=np.float32)[:, None], (tall, w))
    sheared = cv2.remap(image, gx, gj + shift - hi, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REFLECT)
    kernel = _line_weights(radius * s, sigma * s)
    blurred = cv2.sepFilter2D(sheared, -1, kernel, np.ones(1, np.float32),
                              borderType=cv2.BORDER_REFLECT)
    gy = gj[:h]
    return cv2.remap(blurred, gx[:h], gy - shift + hi, cv2.INTER_NEAREST)


class CorruptionInfo(NamedTuple):
    """A registered corruption: its function and whether it needs colour to do anything."""

    fn: Corruption
    colour_only: bool
    random: bool


#: Every corruption, in PathMMU's order (colour corruptions, then quality corruptions).
CORRUPTIONS: dict[str, CorruptionInfo] = {
    "brightness": CorruptionInfo(brightness, False, False),
    "hue": CorruptionInfo(hue, True, False),
    "saturation": CorruptionInfo(saturation, True, False),
    "jpeg": CorruptionInfo(jpeg, False, False),
    "pixelate": CorruptionInfo(pixelate, False, False),
    "bubble": CorruptionInfo(bubble, False, True),
    "defocus": CorruptionInfo(defocus, False, False),
    "motion": CorruptionInfo(motion, False, True),
}
