"""Load a benchmark's images as :class:`ImageInput` once per run, without re-encoding.

Images in BENCH/ are stored under the SHA-256 of their bytes (``images/ab/<digest>.png``), so
the digest is read from the file name instead of hashing every file on the hot path;
``medvqa validate`` is what checks that names match contents. Files that are not named by a
digest (hand-made benchmarks) are hashed once. Loaded images are kept in a small LRU memo
bounded in bytes, so the conditions of one item (clean, blind, noise …, asked one after the
other) read each file once, while a 100,000-item run stays flat in memory.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
import threading
from collections import OrderedDict
from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.models._base import ImageInput

_HEX64 = re.compile(r"^[0-9a-f]{64}$")

#: Suffix → MIME type for the formats benchmarks ship; anything else asks ``mimetypes``.
MIME_BY_SUFFIX: dict[str, str] = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".bmp": "image/bmp",
    ".webp": "image/webp",
    ".tif": "image/tiff",
    ".tiff": "image/tiff",
    ".dcm": "application/dicom",
}


class ImageLoadError(BadInputError, OSError):
    """An item's image could not be read; the message names the path."""


def mime_for(path: str | Path) -> str:
    """MIME type from a file's suffix (``application/octet-stream`` when unknown).

    >>> mime_for("images/ab/abcd.PNG")
    'image/png'
    """
    suffix = Path(path).suffix.lower()
    if suffix in MIME_BY_SUFFIX:
        return MIME_BY_SUFFIX[suffix]
    guessed, _ = mimetypes.guess_type(f"x{suffix}")
    return guessed or "application/octet-stream"


class ImageLoader:
    """Memoized reader of BENCH/ images.

    Args:
        bench_dir: the benchmark folder that image paths are relative to.
        max_bytes: memo budget in bytes (least recently used images are dropped first).

    """

    def __init__(self, bench_dir: str | Path, max_bytes: int = 256 << 20):
        self.bench_dir = Path(bench_dir)
        self.max_bytes = max_bytes
        self._memo: OrderedDict[str, ImageInput] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.reads = 0

    def load(self, rel: str) -> ImageInput:
        """Return the image at ``rel`` (relative to the benchmark folder), memoized.

        Raises:
            ImageLoadError: the file is missing, unreadable or outside the benchmark folder.

        """
        with self._lock:
            hit = self._memo.get(rel)
            if hit is not None:
                self._memo.move_to_end(rel)
                return hit
        path = self.bench_dir / rel
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            raise ImageLoadError(f"image path {rel!r} is outside the benchmark folder")
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ImageLoadError(f"cannot read image {rel}: {exc.strerror or exc}") from None
        stem = path.stem.lower()
        digest = stem if _HEX64.match(stem) else hashlib.sha256(data).hexdigest()
        image = ImageInput(data=data, mime=mime_for(path), sha256=digest)
        with self._lock:
            self.reads += 1
            if len(data) <= self.max_bytes:
                self._memo[rel] = image
                self._bytes += len(data)
                while self._bytes > self.max_bytes:
                    _, old = self._memo.popitem(last=False)
                    self._bytes -= len(old.data)
        return image

    def load_all(self, rels: list[str]) -> tuple[ImageInput, ...]:
        """Every image of an item, in item order."""
        return tuple(self.load(r) for r in rels)
