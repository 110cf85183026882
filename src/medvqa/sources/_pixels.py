"""Pixel arrays → 8-bit images → PNG bytes, deterministically (no timestamps, fixed zlib level).

Windowing follows the usual radiology convention: values in ``[C - W/2, C + W/2]`` map
linearly onto 0–255 and values outside are clipped.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

#: CT window presets, (centre, width) in Hounsfield units.
CT_WINDOWS: dict[str, tuple[float, float]] = {
    "lung": (-600.0, 1500.0),
    "mediastinum": (50.0, 350.0),
    "soft_tissue": (40.0, 400.0),
    "abdomen": (40.0, 400.0),
    "liver": (60.0, 160.0),
    "bone": (400.0, 1800.0),
    "brain": (40.0, 80.0),
}


def parse_window(spec: str) -> tuple[float, float] | None:
    """A window from a preset name or ``"C,W"``; None for an empty spec.

    Raises:
        ValueError: for an unknown preset or a malformed pair.

    >>> parse_window("lung")
    (-600.0, 1500.0)
    >>> parse_window("40,400")
    (40.0, 400.0)

    """
    spec = spec.strip()
    if not spec:
        return None
    if spec in CT_WINDOWS:
        return CT_WINDOWS[spec]
    parts = spec.split(",")
    if len(parts) != 2:
        raise ValueError(f"window {spec!r}: use a preset ({', '.join(CT_WINDOWS)}) or 'C,W'")
    centre, width = float(parts[0]), float(parts[1])
    if width <= 0:
        raise ValueError(f"window {spec!r}: width must be positive")
    return centre, width


def apply_window(values: np.ndarray, window: tuple[float, float]) -> np.ndarray:
    """Map ``values`` through a (centre, width) window to uint8."""
    centre, width = window
    low = centre - width / 2.0
    scaled = (values.astype(np.float64) - low) / width * 255.0
    return np.clip(np.rint(scaled), 0, 255).astype(np.uint8)


def to_uint8(values: np.ndarray, window: tuple[float, float] | None = None) -> np.ndarray:
    """Scale any array to uint8: through ``window`` when given, else min–max (uint8 unchanged).

    A constant array becomes all zeros rather than dividing by zero.
    """
    if window is not None:
        return apply_window(values, window)
    if values.dtype == np.uint8:
        return values
    arr = values.astype(np.float64)
    lo, hi = float(np.min(arr)), float(np.max(arr))
    if hi <= lo:
        return np.zeros(arr.shape, dtype=np.uint8)
    return np.clip(np.rint((arr - lo) / (hi - lo) * 255.0), 0, 255).astype(np.uint8)


def encode_png(pixels: np.ndarray) -> bytes:
    """Encode a uint8 array (H×W, H×W×1, H×W×3 or H×W×4) as PNG bytes, deterministically."""
    arr = np.ascontiguousarray(pixels)
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    if arr.dtype != np.uint8:
        arr = to_uint8(arr)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def encode_image_png(image: Image.Image) -> bytes:
    """Encode a PIL image as PNG bytes, deterministically (no text chunks, fixed level)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()
