"""Box columns → :class:`Box` in top-left pixel coordinates, checked against the image size."""

from __future__ import annotations

from medvqa.errors import BadInputError
from medvqa.sources._record import Box


class BoxError(BadInputError, ValueError):
    """A box that cannot be read or lies outside its image."""


def parse_box(
    values: dict[str, str],
    columns: list[str],
    box_format: str,
    origin: str,
    size: tuple[int, int],
    where: str = "",
) -> Box | None:
    """Read one box from a table row.

    Args:
        values: the row.
        columns: the box columns, in the order the format expects (see ``SourceSpec``).
        box_format: ``xywh`` (top-left corner + size), ``xyxy`` or ``center_radius``.
        origin: ``top_left`` or ``bottom_left`` (y counted up from the bottom, as mini-MIAS).
        size: image (width, height) in pixels.
        where: ``file:row`` kept on the box.

    Returns:
        The box, or None when every box column is empty (a row without a finding location).

    Raises:
        BoxError: a non-numeric value, a degenerate box, or a box reaching outside the image.

    """
    raw = [values.get(c, "") for c in columns]
    if all(not v for v in raw):
        return None
    try:
        nums = [float(v) for v in raw]
    except ValueError:
        raise BoxError(f"box columns {columns}: not numbers: {raw}") from None
    width, height = size
    if box_format == "center_radius":
        if len(nums) != 3:
            raise BoxError("center_radius needs 3 columns (x, y, radius)")
        cx, cy, r = nums
        if origin == "bottom_left":
            cy = height - cy
        x0, y0, x1, y1 = cx - r, cy - r, cx + r, cy + r
        # A circle's bounding square may poke past the border; only its centre must be inside.
        if not (0 <= cx <= width and 0 <= cy <= height) or r <= 0:
            raise BoxError(
                f"box centre ({nums[0]:g}, {nums[1]:g}) r={r:g} outside {width}x{height}"
            )
        x0, y0, x1, y1 = max(0.0, x0), max(0.0, y0), min(width, x1), min(height, y1)
    else:
        if len(nums) != 4:
            raise BoxError(f"{box_format} needs 4 columns")
        if box_format == "xywh":
            x0, y0, x1, y1 = nums[0], nums[1], nums[0] + nums[2], nums[1] + nums[3]
        else:
            x0, y0, x1, y1 = nums
        if origin == "bottom_left":
            y0, y1 = height - y1, height - y0
        if x1 <= x0 or y1 <= y0:
            raise BoxError(f"empty box {nums}")
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            raise BoxError(f"box {nums} outside the image ({width}x{height})")
    return Box(x0, y0, x1, y1, fields=dict(values), row=where)
