"""What every recipe type gets: the data root, the seed, the problem list and the image store."""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from medvqa._path_guard import UnsafePathError, file_inside
from medvqa.benchmark import MAX_IMAGE_PIXELS, pixel_problem, quiet_pillow
from medvqa.schema import Item
from medvqa.sources import ImageRef, Problems
from medvqa.store import image_relpath, sha256_bytes


@dataclass
class Draft:
    """An item on its way out; ``fixed`` items keep their split (imports, external sources)."""

    item: Item
    fixed: bool = False


def unique_id(base: str, seen: set[str]) -> str:
    """``base``, or ``base~``, ``base~~`` … when taken; the id returned is added to ``seen``.

    >>> seen = set(); [unique_id("q1", seen) for _ in range(3)]
    ['q1', 'q1~', 'q1~~']
    """
    item_id = base
    while item_id in seen:
        item_id += "~"
    seen.add(item_id)
    return item_id


@dataclass
class BuildContext:
    """State of one build.

    Attributes:
        root: data root that recipe paths are relative to.
        out: the folder the benchmark is being written to (images go straight there).
        seed: seed of every random step.
        problems: bad-input lines (the build skips and counts them, or stops when strict).
        max_pixels: most pixels of one source image (the recipe's ``max_image_pixels``;
            0: no cap), read from its header.
        downscale: an image above ``max_pixels`` is downscaled to fit and stored as PNG
            (the recipe's ``oversized_images: downscale``) instead of skipped as a problem.

    """

    root: Path
    out: Path
    seed: int = 0
    problems: Problems = field(default_factory=Problems)
    max_pixels: int = MAX_IMAGE_PIXELS
    downscale: bool = False
    _stored: dict[bytes, str | None] = field(default_factory=dict)

    def store_bytes(self, data: bytes, suffix: str) -> str:
        """Store encoded bytes under their SHA-256; return the path relative to BENCH/."""
        rel = image_relpath(sha256_bytes(data), suffix)
        # Text, not a Path: pathlib would intern every stored file name for the process's life.
        target = os.path.join(self.out, rel)
        if not os.path.exists(target):
            # ``out`` is a private building folder renamed into place only when the build
            # succeeds, so writing in place cannot leave a half-written benchmark behind.
            try:
                _write(target, data)
            except FileNotFoundError:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                _write(target, data)
        return rel

    def store_image(self, image: ImageRef, where: str) -> str | None:
        """Check an image's header and store its bytes unchanged; None when unusable.

        An image whose header does not parse is a problem; so is one above the pixel cap,
        unless the recipe asks to downscale it (then a PNG that fits is stored instead). The
        result is cached per file, so an image used by several items is read once.
        """
        # A 16-byte digest of the path is a smaller key than the path text.
        key = _path_key(image.file) if image.file is not None else b""
        if key and key in self._stored:
            return self._stored[key]
        rel: str | None = None
        ext = image.ext
        try:
            data = image.read_bytes()
            with quiet_pillow(), Image.open(io.BytesIO(data)) as im:
                too_large = pixel_problem(im.width, im.height, self.max_pixels)
                if too_large and self.downscale:
                    data, ext, too_large = downscaled_png(im, self.max_pixels), ".png", None
        except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
            self.problems.add(
                where, f"unreadable image {image.path or ''}: {exc}".replace("  ", " ")
            )
        else:
            if too_large:
                self.problems.add(where, f"image {image.path or ''}: {too_large} (or set "
                                  "oversized_images: downscale in the recipe)")
            else:
                rel = self.store_bytes(data, ext)
        if key:
            self._stored[key] = rel
        return rel

    def store_row_image(self, folder: Path, name: str, shown: str, where: str) -> str | None:
        """Store the image a label row names; None (and a problem) when missing or unreadable.

        The name comes from data (a table, a JSON file downloaded with the images), so it must
        stay inside ``folder``, links followed, and name a regular file
        (:mod:`medvqa._path_guard`): an absolute path, ``..`` or a link out of the folder is a
        problem of that row, never a copy of a local file into the benchmark. ``shown`` is how
        the problem line names the file (recipe-relative).
        """
        try:
            path = file_inside(folder, name, what="image",
                               root_name=f"the image folder {folder}")
        except UnsafePathError as exc:
            self.problems.add(where, exc)
            return None
        if path is None:
            self.problems.add(where, f"label row with no image: {shown} not found")
            return None
        return self.store_image(ImageRef(path=path), where)

    def open_image(self, image: ImageRef) -> Image.Image:
        """Decode a record's image (for crops and drawings)."""
        im = Image.open(io.BytesIO(image.read_bytes()))
        im.load()
        return im


def downscaled_png(im: Image.Image, max_pixels: int) -> bytes:
    """``im`` scaled down (aspect kept) to at most ``max_pixels`` pixels, as PNG bytes.

    Deterministic: the same image and cap give the same bytes (Lanczos, no PNG optimisation).
    """
    scale = (max_pixels / (im.width * im.height)) ** 0.5
    size = (max(1, int(im.width * scale)), max(1, int(im.height * scale)))
    if im.mode == "P":
        im = im.convert("RGBA")
    elif im.mode not in {"1", "L", "LA", "I", "I;16", "RGB", "RGBA"}:
        im = im.convert("RGB")
    im.thumbnail(size, Image.Resampling.LANCZOS)  # a JPEG is drafted (decoded small) first
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def _path_key(path: str) -> bytes:
    return hashlib.blake2b(path.encode("utf-8", "surrogateescape"), digest_size=16).digest()


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
