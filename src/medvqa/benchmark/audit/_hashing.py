"""Fingerprints of one image: its bytes, its decoded pixels and four perceptual hashes.

What the audit keeps of an image is this small record (about 100 bytes), never the pixels, so a
100,000-image audit stays flat in memory.

- ``sha256``: of the file's bytes (a copy of the same file).
- ``pixels``: BLAKE2b-128 of the decoded pixels with their shape and type (the same picture
  saved again: PNG ↔ TIFF, another PNG compression level, other metadata). Pixels are compared
  as RGB (palette, CMYK and alpha images converted, alpha dropped), or as one channel when all
  three are equal, or at full depth for 16-bit and float images; only the first frame counts.
- ``hashes``: three 64-bit DCT perceptual hashes (``imagehash.phash``: 32 × 32 grey, 2-D DCT,
  the 8 × 8 lowest frequencies above their median) of (0) the grey image, (1) the
  histogram-equalised grey image and (2) the equalised central 62.5 % of the image
  (:data:`HASH_NAMES`). Equalising takes brightness and contrast away; the centre leaves out
  the frame and outline that whole classes of images share (the dark disc of a fundus
  photograph, the breast outline of a mammogram), which dominate the lowest frequencies of
  the whole image. Two images are near-duplicates when *all three* hashes are within their
  thresholds (:data:`NEAR_THRESHOLD`; the fine hash below too): on the shipped
  sample images that cuts the false matches between distinct images of one folder about
  tenfold against the grey hash alone, at the same recall (``medvqa bench --only audit``).
- ``fine``: a 256-bit pHash of the same equalised centre (16 × 16 lowest frequencies of a
  32 × 32 DCT). Eight by eight frequencies cannot tell two fundus photographs of one camera
  apart (the disc, the optic nerve head on one side, a dark fovea); sixteen by sixteen can.
  It must be within its threshold too. With it, no two distinct IDRiD
  photographs match, where the three coarse hashes alone matched about 1 % of their pairs.
- ``mirrored`` / ``fine_mirrored``: the same hashes of the horizontally mirrored image, so a
  flipped copy is found too (a flip moves about half of a pHash's bits, far beyond any
  threshold).

Every hash is computed from one 64 × 64 grey thumbnail (Lanczos, with Pillow's reducing gap
for speed), each view brought to imagehash's 32 × 32 DCT size once (mirrored views are the
mirrored 32 × 32 views), so the same pixels give the same hashes on every machine.
"""

from __future__ import annotations

import hashlib
import io
from typing import Any, NamedTuple

import numpy as np

from medvqa.benchmark._images import ImageLoadError


class Thresholds(NamedTuple):
    """Largest Hamming distances at which two images are near-duplicates (all must hold).

    Attributes:
        centre: bits of 64 of the centre hash, the one the index searches (its radius).
        whole: bits of 64 of each of the two whole-image hashes (grey, equalised).
        fine: bits of 256 of the fine centre hash.
    """

    centre: int = 12
    whole: int = 14
    fine: int = 80


#: The documented thresholds. Chosen on one half of the shipped sample images: the smallest
#: that find at least 97 % of each kind of altered copy (re-encoded at JPEG quality 60,
#: halved, 5 %-cropped, brightness-shifted), then reported on the other half with the rate of
#: false matches between distinct images of one folder (``medvqa bench --only audit``). The
#: whole-image hashes move most under a crop, so they get two bits more than the centre.
NEAR_THRESHOLD = Thresholds()

#: What each of the three perceptual hashes is of.
HASH_NAMES = ("grey", "equalised", "centre")

#: Index of the hash the exact index searches (the others are checked on the candidates; the
#: default bit-sampling search samples all three): the centre hash, whose bits spread best
#: over real images.
INDEXED = 2

#: Which threshold applies to each coarse hash column.
COLUMN_LIMIT = ("whole", "whole", "centre")

#: Version of the fingerprint recipe (bumped if any hash above changes).
HASH_VERSION = 1

_THUMB = 64
#: The centre of the thumbnail whose hash is the third: 40 × 40 of 64 × 64 (62.5 %).
_CENTRE = (12, 12, 52, 52)


class Fingerprint(NamedTuple):
    """What the audit keeps of one image (hashes as unsigned 64-bit integers)."""

    sha256: str
    pixels: str
    hashes: tuple[int, int, int]
    fine: int
    mirrored: tuple[int, int, int]
    fine_mirrored: int
    width: int
    height: int


def _bits(image: Any, size: int = 8) -> int:
    """The pHash of a PIL image (``size``² bits), as an integer (first bit most significant).

    ``size`` 8 is ``imagehash``'s default (32 × 32 DCT); 16 keeps the same 32 × 32 DCT.
    """
    import imagehash

    bits = np.asarray(imagehash.phash(image, size, 32 // size).hash, dtype=bool).ravel()
    return int.from_bytes(np.packbits(bits).tobytes(), "big")


def _pixel_array(im: Any) -> np.ndarray:
    """The decoded pixels in a canonical form (see the module docstring)."""
    if im.mode in {"I;16", "I;16B", "I;16L", "I;16N", "I", "F"}:
        return np.asarray(im)
    if im.mode not in {"L", "RGB"}:
        im = im.convert("RGB")
    arr = np.asarray(im)
    if arr.ndim == 3 and (arr[..., 0] == arr[..., 1]).all() and (arr[..., 1] == arr[..., 2]).all():
        arr = arr[..., 0]
    return arr


def pixel_digest(arr: np.ndarray) -> str:
    """BLAKE2b-128 of an array's dtype, shape and bytes (hex).

    >>> a = np.zeros((2, 3), dtype=np.uint8)
    >>> pixel_digest(a) == pixel_digest(a.copy()), pixel_digest(a) == pixel_digest(a.T)
    (True, False)
    """
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{arr.dtype.str}{arr.shape}".encode())
    h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


def _grey(im: Any, arr: np.ndarray) -> Any:
    """An 8-bit grey PIL image of ``im`` (deep images scaled from their own min–max)."""
    from PIL import Image

    if arr.dtype != np.uint8:
        grey = arr.astype(np.float64)
        if grey.ndim == 3:
            grey = grey.mean(axis=2)
        lo, hi = float(np.nanmin(grey)), float(np.nanmax(grey))
        scaled = np.zeros_like(grey) if hi <= lo else (grey - lo) * (255.0 / (hi - lo))
        return Image.fromarray(np.nan_to_num(scaled).round().astype(np.uint8), "L")
    return im if im.mode == "L" else im.convert("L")


def fingerprint(data: bytes, perceptual: bool = True) -> Fingerprint:
    """The :class:`Fingerprint` of encoded image bytes.

    Args:
        data: the file's bytes.
        perceptual: compute the perceptual hashes (False: only the two digests, zero hashes;
            the cheap checks of ``medvqa validate``).

    Raises:
        ImageLoadError: the bytes do not decode as an image.

    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    sha = hashlib.sha256(data).hexdigest()
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            arr = _pixel_array(im)
            grey = _grey(im, arr)
            size = im.size
            if not perceptual:
                return Fingerprint(sha, pixel_digest(arr), (0, 0, 0), 0, (0, 0, 0), 0, *size)
    except UnidentifiedImageError:
        raise ImageLoadError("not an image (unrecognised bytes)") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many types for bad files
        raise ImageLoadError(f"corrupt image ({type(exc).__name__}: {exc})") from None
    thumb = grey.resize((_THUMB, _THUMB), Image.Resampling.LANCZOS, reducing_gap=3.0)
    # Each view at imagehash's 32 × 32 DCT size (its own resize is then a copy); mirroring
    # the small view is mirroring the image, without resizing it twice.
    views = tuple(v.resize((32, 32), Image.Resampling.LANCZOS) for v in (
        thumb, ImageOps.equalize(thumb), ImageOps.equalize(thumb.crop(_CENTRE))))
    flipped = tuple(ImageOps.mirror(v) for v in views)
    return Fingerprint(
        sha256=sha,
        pixels=pixel_digest(arr),
        hashes=(_bits(views[0]), _bits(views[1]), _bits(views[2])),
        fine=_bits(views[2], 16),
        mirrored=(_bits(flipped[0]), _bits(flipped[1]), _bits(flipped[2])),
        fine_mirrored=_bits(flipped[2], 16),
        width=size[0],
        height=size[1],
    )


def words64(value: int, n: int = 4) -> tuple[int, ...]:
    """A ``64 n``-bit integer as ``n`` 64-bit words, most significant first.

    >>> words64(2**64 + 5, 2)
    (1, 5)
    """
    mask = (1 << 64) - 1
    return tuple((value >> (64 * (n - 1 - k))) & mask for k in range(n))


def fingerprint_file(path: str, perceptual: bool = True) -> Fingerprint:
    """:func:`fingerprint` of a file's bytes.

    Raises:
        ImageLoadError: the file cannot be read or does not decode.

    """
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ImageLoadError(f"cannot read: {exc.strerror or exc}") from None
    return fingerprint(data, perceptual)
