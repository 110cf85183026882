"""Decode an :class:`ImageInput` to pixels, encode pixels back, and cache perturbed images.

Perturbed images are made on the fly and never written into BENCH/. They are PNG (lossless, so
a JPEG corruption's artefacts reach the model unchanged) at OpenCV's fastest compression level,
which is deterministic: the same pixels give the same bytes, hence the same SHA-256 and the
same response-cache key on a rerun. :class:`PerturbedCache` keeps recent results in memory
(bounded in bytes) and, when given a folder, on disk under the hash of their key, so a second
run over the same benchmark decodes and perturbs nothing.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path

import cv2
import numpy as np

from medvqa.benchmark import ImageInput, ImageLoadError
from medvqa.store import atomic_write_bytes

# Fastest zlib level with run-length matching: ~1.5x faster than the default strategy on this
# kind of image, smaller output, and still deterministic bytes.
_PNG_PARAMS = [cv2.IMWRITE_PNG_COMPRESSION, 1, cv2.IMWRITE_PNG_STRATEGY,
               cv2.IMWRITE_PNG_STRATEGY_RLE]
_DECODED_MAX = 16  # the images of the item being asked (an exam has at most 15)
_GREY_TOLERANCE = 6  # max channel spread (grey levels) for an RGB file to count as greyscale


class ImageDecodeError(ImageLoadError):
    """An image could not be decoded for perturbation; the message names its hash."""


def decode(image: ImageInput) -> np.ndarray:
    """``uint8`` pixels: ``H×W`` for greyscale (also RGB files whose channels agree), else BGR.

    16-bit images are reduced to their high byte; alpha is dropped.

    Raises:
        ImageDecodeError: the bytes are not an image OpenCV reads (e.g. DICOM).
    """
    buf = np.frombuffer(image.data, np.uint8)
    pixels: np.ndarray | None = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED) if buf.size else None
    if pixels is None:
        raise ImageDecodeError(
            f"image {image.sha256[:12]}… ({image.mime}) cannot be decoded for perturbation"
        )
    if pixels.dtype == np.uint16:
        pixels = (pixels >> 8).astype(np.uint8)
    elif pixels.dtype != np.uint8:
        pixels = cv2.normalize(pixels, None, 0, 255, cv2.NORM_MINMAX).astype(  # type: ignore[call-overload, unused-ignore]  # some OpenCV stubs omit dst=None
            np.uint8)
    if pixels.ndim == 3 and pixels.shape[2] == 4:
        pixels = cv2.cvtColor(pixels, cv2.COLOR_BGRA2BGR)
    if pixels.ndim == 3 and pixels.shape[2] == 1:
        pixels = pixels[..., 0]
    if pixels.ndim == 3 and is_grey(pixels):
        pixels = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    return pixels


_decoded: OrderedDict[str, np.ndarray] = OrderedDict()
_decoded_lock = threading.Lock()


def decode_shared(image: ImageInput) -> np.ndarray:
    """:func:`decode`, memoised for the last few images, returned read-only.

    The runner asks each item under every condition in turn, so the conditions of one item
    share one decode; read-only pixels make a perturbation that would write into its input
    fail loudly instead of corrupting the next condition's image.
    """
    with _decoded_lock:
        pixels = _decoded.get(image.sha256)
        if pixels is not None:
            _decoded.move_to_end(image.sha256)
            return pixels
    pixels = decode(image)
    pixels.flags.writeable = False
    with _decoded_lock:
        _decoded[image.sha256] = pixels
        while len(_decoded) > _DECODED_MAX:
            _decoded.popitem(last=False)
    return pixels


def is_grey(pixels: np.ndarray) -> bool:
    """Whether pixels are greyscale: one channel, or three that agree within a JPEG's noise.

    Checked on a strided sample (every 4th row and column) so a 1024² image costs ~0.1 ms.
    """
    if pixels.ndim == 2:
        return True
    sample = pixels[::4, ::4].astype(np.int16)
    spread = sample.max(axis=2) - sample.min(axis=2)
    return bool(spread.max(initial=0) <= _GREY_TOLERANCE)


def encode(pixels: np.ndarray) -> ImageInput:
    """PNG-encode pixels (deterministic bytes) as an :class:`ImageInput`."""
    ok, buf = cv2.imencode(".png", np.ascontiguousarray(pixels), _PNG_PARAMS)
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 image as PNG
        raise ImageDecodeError("PNG encoding of a perturbed image failed")
    data = buf.tobytes()
    return ImageInput(data=data, mime="image/png", sha256=hashlib.sha256(data).hexdigest())


class PerturbedCache:
    """Perturbed images by key: an in-memory LRU bounded in bytes, and an optional folder.

    Args:
        max_bytes: memory budget; least recently used images are dropped first.
        folder: where to keep images across processes (``<folder>/ab/<key>.png``); None keeps
            them in memory only.

    Attributes:
        hits: lookups answered from memory or disk.
        misses: lookups that had to be computed.

    """

    def __init__(self, max_bytes: int = 128 << 20, folder: Path | None = None):
        self.max_bytes = max_bytes
        self.folder = Path(folder) if folder is not None else None
        self._memo: OrderedDict[str, ImageInput] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(*parts: object) -> str:
        """SHA-256 of the parts that determine a perturbed image."""
        return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path | None:
        return None if self.folder is None else self.folder / key[:2] / f"{key}.png"

    def get(self, key: str) -> ImageInput | None:
        """The cached image for ``key``, or None."""
        with self._lock:
            hit = self._memo.get(key)
            if hit is not None:
                self._memo.move_to_end(key)
                self.hits += 1
                return hit
        path = self._path(key)
        if path is not None and path.is_file():
            data = path.read_bytes()
            image = ImageInput(data, "image/png", hashlib.sha256(data).hexdigest())
            self._remember(key, image)
            with self._lock:
                self.hits += 1
            return image
        with self._lock:
            self.misses += 1
        return None

    def contains(self, key: str) -> bool:
        """Whether ``key`` is cached in memory or on disk (without reading it)."""
        with self._lock:
            if key in self._memo:
                return True
        path = self._path(key)
        return path is not None and path.is_file()

    def remember(self, key: str, image: ImageInput) -> None:
        """Keep ``image`` in memory only (it is already on disk)."""
        self._remember(key, image)

    def put(self, key: str, image: ImageInput) -> None:
        """Store ``image`` under ``key`` (memory, and disk when a folder was given)."""
        path = self._path(key)
        if path is not None and not path.exists():
            atomic_write_bytes(path, image.data)
        self._remember(key, image)

    def _remember(self, key: str, image: ImageInput) -> None:
        size = len(image.data)
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._memo:
                return
            self._memo[key] = image
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, old = self._memo.popitem(last=False)
                self._bytes -= len(old.data)
