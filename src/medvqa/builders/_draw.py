"""Region overlays (LMOD): each box outlined in its own colour with its ID written beside it.

Digits are drawn from a built-in 5 × 7 bitmap font scaled to the image, not from a system or
FreeType font, so the same boxes on the same image give the same pixels on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

#: Distinct, saturated colours (RGB hex) given to regions in order; reused after twelve.
PALETTE: tuple[str, ...] = (
    "#e6194b",  # red
    "#3cb44b",  # green
    "#4363d8",  # blue
    "#ffe119",  # yellow
    "#f58231",  # orange
    "#911eb4",  # purple
    "#42d4f4",  # cyan
    "#f032e6",  # magenta
    "#bfef45",  # lime
    "#fabed4",  # pink
    "#469990",  # teal
    "#9a6324",  # brown
)

# 5 × 7 glyphs: one string per row, "#" = ink.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": (" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "),
    "1": ("  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "),
    "2": (" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"),
    "3": ("#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "),
    "4": ("   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "),
    "5": ("#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "),
    "6": ("  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "),
    "7": ("#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "),
    "8": (" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "),
    "9": (" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "),
}


@dataclass(frozen=True)
class Region:
    """A box to draw: its ID (digits), colour (``#rrggbb``) and corners in pixels."""

    id: str
    colour: str
    x0: float
    y0: float
    x1: float
    y1: float


def text_mask(text: str, scale: int) -> np.ndarray:
    """Boolean ink mask of ``text`` (digits only) at ``scale`` pixels per font dot.

    >>> text_mask("1", 1).shape
    (7, 5)
    """
    if not text or any(c not in _GLYPHS for c in text):
        raise ValueError(f"region IDs are digits; got {text!r}")
    rows = []
    for r in range(7):
        rows.append(" ".join(_GLYPHS[c][r] for c in text))
    small = np.array([[ch == "#" for ch in row] for row in rows], dtype=bool)
    return np.kron(small, np.ones((scale, scale), dtype=bool)).astype(bool)


def _hex(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def draw_regions(image: Image.Image, regions: list[Region]) -> Image.Image:
    """A copy of ``image`` in RGB with every region outlined and labelled with its ID.

    Line width and label size follow the shorter image side (about 1/250 and 1/40 of it), so
    labels stay legible on a 28-pixel thumbnail and on a 4,000-pixel film. The label sits on a
    filled tag in the region's colour at the box's top-left corner (inside the image).
    """
    out = image.convert("RGB")
    draw = ImageDraw.Draw(out)
    width, height = out.size
    side = min(width, height)
    line = max(1, round(side / 250))
    scale = max(1, round(side / 40 / 7))
    texts: list[tuple[np.ndarray, int, int, tuple[int, int, int]]] = []
    for reg in regions:
        rgb = _hex(reg.colour)
        box = [
            round(reg.x0),
            round(reg.y0),
            max(round(reg.x1) - 1, round(reg.x0)),
            max(round(reg.y1) - 1, round(reg.y0)),
        ]
        draw.rectangle(box, outline=rgb, width=line)
        ink = text_mask(reg.id, scale)
        pad = scale
        tag_h, tag_w = ink.shape[0] + 2 * pad, ink.shape[1] + 2 * pad
        left = min(max(0, box[0]), max(0, width - tag_w))
        top = box[1] - tag_h if box[1] - tag_h >= 0 else box[1]
        top = min(max(0, top), max(0, height - tag_h))
        draw.rectangle([left, top, left + tag_w - 1, top + tag_h - 1], fill=rgb)
        # Dark text on light colours, white on dark ones (luma threshold).
        luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
        texts.append((ink, top + pad, left + pad, (0, 0, 0) if luma > 150 else (255, 255, 255)))
    arr = np.asarray(out).copy()
    for ink, top, left, fg in texts:
        ys, xs = np.nonzero(ink)
        ys, xs = ys + top, xs + left
        keep = (ys < height) & (xs < width)
        arr[ys[keep], xs[keep]] = fg
    return Image.fromarray(arr)
