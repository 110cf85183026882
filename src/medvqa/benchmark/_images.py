"""Load a benchmark's images as :class:`ImageInput` once per run, without re-encoding.

Images in BENCH/ are stored under the SHA-256 of their bytes (``images/ab/<digest>.png``), so
the digest is read from the file name instead of hashing every file on the hot path;
``medvqa validate`` is what checks that names match contents. Files that are not named by a
digest (hand-made benchmarks) are hashed once. Loaded images are kept in a small LRU memo
bounded in bytes, so the conditions of one item (clean, blind, noise …, asked one after the
other) read each file once, while a 100,000-item run stays flat in memory.

A benchmark may come from anywhere, so nothing is sent on trust: an image path is resolved
(symbolic links followed, ``realpath``) and must stay inside BENCH/, and its bytes must check
out as one of :data:`ALLOWED_FORMATS` (:func:`decoded_mime`); the MIME type sent is the
decoded format's, whatever the suffix says. A file that fails either check is an
:class:`ImageLoadError`, which the runner records as that item's error.

A small file can hold a huge image (a 13,000 × 13,000 PNG of one colour is 160 KB, and 2 GB
once a condition adds noise to it), so the size in the header is checked against a pixel cap
(:data:`MAX_IMAGE_PIXELS`, ``--max-image-pixels``) before any pixel is decoded; above it the
image is that item's error. Pillow's own warnings about such files (its decompression-bomb
warning, truncated metadata) are never printed: the cap and the decode say what is wrong.
"""

from __future__ import annotations

import hashlib
import io
import mimetypes
import re
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._path_guard import MAX_IMAGE_FILE_BYTES, UnsafePathError, inside, read_regular
from medvqa.errors import BadInputError

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class ImageInput:
    """One encoded image sent with a request. Encoded once per run, never per request."""

    data: bytes
    mime: str
    sha256: str


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


#: Pillow format name → MIME type of the images that may be sent to a model.
ALLOWED_FORMATS: dict[str, str] = {
    "PNG": "image/png",
    "JPEG": "image/jpeg",
    "GIF": "image/gif",
    "WEBP": "image/webp",
    "BMP": "image/bmp",
    "TIFF": "image/tiff",
}


#: Default cap on one image's pixels (width × height), checked from the header before decoding:
#: 40 megapixels holds a full-field digital mammogram (about 30 MP) or a 6,000 × 6,000 scan,
#: and keeps a float copy for a condition (noise, blur …) under half a gigabyte. 0 = no cap
#: below Pillow's own ceiling.
MAX_IMAGE_PIXELS = 40_000_000


class ImageLoadError(BadInputError, OSError):
    """An item's image could not be read; the message names the path."""


@contextmanager
def quiet_pillow() -> Iterator[None]:
    """Pillow's warnings (decompression bomb, truncated metadata) are not printed inside.

    The checks around Pillow report what matters (the pixel cap, a file that does not decode)
    as one line each; Pillow's own warnings would add raw lines to the console. Only warnings
    raised from Pillow's modules are silenced.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module=r"PIL(\.|$)")
        yield


def pixel_problem(width: int, height: int, max_pixels: int = MAX_IMAGE_PIXELS) -> str | None:
    """Why an image of ``width`` × ``height`` is too large, or None (``max_pixels`` 0: no cap).

    >>> pixel_problem(13_000, 13_000)
    '13000 × 13000 pixels (169.0 MP) is above the cap of 40,000,000 (--max-image-pixels)'
    >>> pixel_problem(4096, 5355) is None
    True
    """
    if max_pixels and width * height > max_pixels:
        return (f"{width} × {height} pixels ({width * height / 1e6:.1f} MP) is above the cap of "
                f"{max_pixels:,} (--max-image-pixels)")
    return None


def image_size(data: bytes) -> tuple[str, int, int]:
    """Format, width and height from an image's header (no pixel is decoded).

    Raises:
        ImageLoadError: the bytes are not an image Pillow recognises.

    """
    from PIL import Image, UnidentifiedImageError

    try:
        with quiet_pillow(), Image.open(io.BytesIO(data)) as im:
            return im.format or "", int(im.width), int(im.height)
    except UnidentifiedImageError:
        raise ImageLoadError("not an image of an allowed format (unrecognised bytes)") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many types for bad headers
        raise ImageLoadError(f"corrupt image ({type(exc).__name__}: {exc})") from None


def resolve_inside(bench_dir: str | Path, rel: str) -> Path:
    """The real path of ``rel`` under ``bench_dir``, refusing anything that leaves it.

    Absolute paths, ``..`` and symbolic links (of the file or of any folder on the way) that
    resolve outside the benchmark folder are refused, so a downloaded benchmark cannot make
    the runner read, and send, a local file.

    Raises:
        ImageLoadError: the path leaves the benchmark folder (the message says where to).

    """
    try:
        return inside(bench_dir, rel, what="image path", root_name="the benchmark folder")
    except UnsafePathError as exc:
        raise ImageLoadError(str(exc)) from None


def read_image_file(bench_dir: str | Path, rel: str) -> bytes:
    """The bytes of image ``rel`` of a benchmark: inside it, and a regular file (never a FIFO).

    Raises:
        ImageLoadError: the path leaves the benchmark folder, is not a readable regular
            file (a FIFO, a device, missing), or is above
            :data:`~medvqa._path_guard.MAX_IMAGE_FILE_BYTES` (refused unread).

    """
    path = resolve_inside(bench_dir, rel)
    try:
        return read_regular(path, shown=f"image {rel}", max_bytes=MAX_IMAGE_FILE_BYTES,
                            cap_of="one image file")
    except UnsafePathError as exc:
        raise ImageLoadError(str(exc)) from None


def decoded_mime(data: bytes, thorough: bool = False,
                 max_pixels: int = MAX_IMAGE_PIXELS) -> str:
    """MIME type of ``data`` once it has been checked as an image of an allowed format.

    The check reads the whole file, so truncated and corrupt files fail here, before anything
    is sent: a PNG is walked chunk by chunk to ``IEND`` with every CRC checked (Pillow
    ``verify``); a JPEG is decoded at 1/8 scale (every entropy-coded byte is read); other
    formats (GIF, WebP, BMP, TIFF) are decoded in full. ``thorough`` decodes every format in
    full (``medvqa validate``); the runner's default costs about 1 ms for a 300 KB PNG, where a
    full decode costs about 13 ms (``medvqa bench``, runner section). The size in the header is
    checked against ``max_pixels`` first, so an oversized image is refused before any pixel is
    decoded.

    Raises:
        ImageLoadError: the bytes are not an image of an allowed format, are above the pixel
            cap, or do not decode.

    """
    from PIL import Image, UnidentifiedImageError

    try:
        with quiet_pillow():
            return _checked_mime(Image, data, thorough, max_pixels)
    except ImageLoadError:
        raise
    except Image.DecompressionBombError as exc:  # above Pillow's own ceiling (2 × 89 MP)
        raise ImageLoadError(f"{exc} (Pillow's ceiling, above any --max-image-pixels)") from None
    except UnidentifiedImageError:
        raise ImageLoadError("not an image of an allowed format (unrecognised bytes)") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many types for bad files
        raise ImageLoadError(f"corrupt image ({type(exc).__name__}: {exc})") from None


def _checked_mime(Image: Any, data: bytes, thorough: bool, max_pixels: int) -> str:  # noqa: N803
    """:func:`decoded_mime`'s checks, with Pillow's errors left to the caller."""
    with Image.open(io.BytesIO(data)) as im:
        fmt = im.format or ""
        if fmt not in ALLOWED_FORMATS:
            raise ImageLoadError(f"not an image of an allowed format ({fmt or 'unknown'})")
        too_large = pixel_problem(im.width, im.height, max_pixels)
        if too_large:
            raise ImageLoadError(too_large)
        im.verify()
    if thorough or fmt != "PNG":
        # verify() misses truncated data in most formats; decoding the pixels catches it.
        with Image.open(io.BytesIO(data)) as im:
            if fmt == "JPEG" and not thorough:
                im.draft(im.mode, (max(1, im.width // 8), max(1, im.height // 8)))
            im.load()
    return str(ALLOWED_FORMATS[fmt])


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
        max_pixels: pixel cap of one image, checked from its header before decoding (0 = none).

    """

    def __init__(self, bench_dir: str | Path, max_bytes: int = 256 << 20,
                 max_pixels: int = MAX_IMAGE_PIXELS):
        self.bench_dir = Path(bench_dir)
        self.max_bytes = max_bytes
        self.max_pixels = max_pixels
        self._memo: OrderedDict[str, ImageInput] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.reads = 0

    def load(self, rel: str) -> ImageInput:
        """Return the image at ``rel`` (relative to the benchmark folder), memoized.

        Raises:
            ImageLoadError: the file is missing, unreadable, outside the benchmark folder (a
                link that leaves it included), above the pixel cap, or not a decodable image
                of an allowed format.

        """
        with self._lock:
            hit = self._memo.get(rel)
            if hit is not None:
                self._memo.move_to_end(rel)
                return hit
        data = read_image_file(self.bench_dir, rel)
        try:
            mime = decoded_mime(data, max_pixels=self.max_pixels)
        except ImageLoadError as exc:
            raise ImageLoadError(f"image {rel}: {exc}") from None
        stem = Path(rel).stem.lower()
        digest = stem if _HEX64.match(stem) else hashlib.sha256(data).hexdigest()
        image = ImageInput(data=data, mime=mime, sha256=digest)
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
