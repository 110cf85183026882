"""Fingerprints of one image: its bytes, its decoded pixels and four perceptual hashes.

What the audit keeps of an image is this small record (about 350 bytes), never the pixels, so a
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

- ``corners`` / ``fine_corners`` (hash version 2): the same four hashes of four *corner
  views*, each the image with :data:`CORNER_CUT` (3.5 %) cut off two adjacent sides (top and
  left, top and right, bottom and left, bottom and right), stretched back to the thumbnail.
  pHash is not shift-invariant: a copy cropped off one side or corner has its content moved
  against the frame, which moves most of the fine hash's bits and many of the centre
  hash's (of the shipped images, 0.6–2 % of 5 % corner crops and 41–49 % of 5 % side crops
  were within the thresholds). Such a copy looks like one of its original's corner views
  (a side crop lies between two of them), so the search compares each image's corner views
  with the other images' plain hashes, under the same thresholds.

Every hash is computed from one 64 × 64 grey thumbnail (Lanczos, with Pillow's reducing gap
for speed), each view brought to the 32 × 32 DCT size of ``imagehash.phash`` once (mirrored
views are the mirrored 32 × 32 views; corner views are resampled from the thumbnail with
Pillow's fractional crop box). All views' DCTs are taken in one batch with the same SciPy
transform ``imagehash.phash`` uses, so the hashes are bit for bit those of
``imagehash.phash`` (a test checks it), and the same pixels give the same hashes on every
machine.
"""

from __future__ import annotations

import hashlib
import io
from typing import Any, NamedTuple

import numpy as np

from medvqa._path_guard import UnsafePathError, read_regular
from medvqa.benchmark._images import ImageLoadError

#: What each of the three perceptual hashes is of.
HASH_NAMES = ("grey", "equalised", "centre")

#: Index of the hash the exact index searches (the others are checked on the candidates; the
#: default bit-sampling search samples all three): the centre hash, whose bits spread best
#: over real images.
INDEXED = 2

#: Which threshold applies to each coarse hash column.
COLUMN_LIMIT = ("whole", "whole", "centre")

#: Version of the fingerprint recipe (bumped if any hash above changes). 2: corner views.
HASH_VERSION = 2

#: Share of the thumbnail's side cut off two adjacent sides in each corner view. Chosen on the
#: tuning half of the shipped images (grid 2.5–5 % by 0.5 %) as the cut with the best worst
#: recall over the eight 5 % off-centre crops (each side, each corner): 0.9 / 0.976 / 0.994 /
#: 0.988 / 0.953 / 0.841. A view cut by the full 5 % finds corner crops but only 84 % of side
#: crops (a side crop is then half a view away on the other axis).
CORNER_CUT = 0.035

#: The corner views, in order: which sides each cuts (x from the left, y from the top).
CORNER_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")

_THUMB = 64
#: The centre of the thumbnail whose hash is the third: 40 × 40 of 64 × 64 (62.5 %).
_CENTRE = (12, 12, 52, 52)
#: Zero hashes of an image whose perceptual hashes were not computed.
_NO_CORNERS = ((0, 0, 0),) * len(CORNER_NAMES)


class Fingerprint(NamedTuple):
    """What the audit keeps of one image (hashes as unsigned 64-bit integers).

    ``corners`` and ``fine_corners`` hold one entry per corner view (:data:`CORNER_NAMES`).
    """

    sha256: str
    pixels: str
    hashes: tuple[int, int, int]
    fine: int
    mirrored: tuple[int, int, int]
    fine_mirrored: int
    width: int
    height: int
    corners: tuple[tuple[int, int, int], ...] = _NO_CORNERS
    fine_corners: tuple[int, ...] = (0,) * len(CORNER_NAMES)


def _bits(image: Any, size: int = 8) -> int:
    """The pHash of a PIL image (``size``² bits), as an integer (first bit most significant).

    ``size`` 8 is ``imagehash``'s default (32 × 32 DCT); 16 keeps the same 32 × 32 DCT. The
    reference :func:`phash_batch` is checked against.
    """
    import imagehash

    bits = np.asarray(imagehash.phash(image, size, 32 // size).hash, dtype=bool).ravel()
    return int.from_bytes(np.packbits(bits).tobytes(), "big")


def _pack(bits: np.ndarray) -> list[int]:
    """Rows of booleans (a multiple of 64 wide) as integers, first bit most significant."""
    packed = np.packbits(bits.reshape(len(bits), -1), axis=1)
    return [int.from_bytes(row.tobytes(), "big") for row in packed]


def phash_batch(views: np.ndarray, size: int = 8) -> list[int]:
    """``imagehash.phash(view, size, 32 // size)`` of each 32 × 32 uint8 view, as integers.

    The same computation as :func:`imagehash.phash` (SciPy's DCT-II along each axis, the
    ``size`` × ``size`` lowest frequencies above their median), on a stack of views at once.

    >>> v = np.arange(32 * 32, dtype=np.uint8).reshape(1, 32, 32)
    >>> from PIL import Image
    >>> phash_batch(v) == [_bits(Image.fromarray(v[0]))]
    True
    """
    import scipy.fftpack

    dct = scipy.fftpack.dct(scipy.fftpack.dct(views.astype(np.float64), axis=1), axis=2)
    low = dct[:, :size, :size]
    med = np.median(low.reshape(len(low), -1), axis=1)
    return _pack(low > med[:, None, None])


def _corner_boxes() -> list[tuple[float, float, float, float]]:
    """The crop box of each corner view in thumbnail pixels (fractional: Pillow resamples)."""
    cut, s = CORNER_CUT * _THUMB, float(_THUMB)
    return [(cut, cut, s, s), (0.0, cut, s - cut, s), (cut, 0.0, s, s - cut),
            (0.0, 0.0, s - cut, s - cut)]


def _views(thumb: Any) -> list[np.ndarray]:
    """The three 32 × 32 views of a thumbnail: grey, equalised, equalised centre."""
    from PIL import Image, ImageOps

    return [np.asarray(v.resize((32, 32), Image.Resampling.LANCZOS)) for v in (
        thumb, ImageOps.equalize(thumb), ImageOps.equalize(thumb.crop(_CENTRE)))]


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
    from PIL import Image, UnidentifiedImageError

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
    # Each view at imagehash's 32 × 32 DCT size; mirroring the small view is mirroring the
    # image, without resizing it twice. Views: plain (0–2), mirrored (3–5), corners (6–17).
    views = _views(thumb)
    views += [v[:, ::-1] for v in views]
    for box in _corner_boxes():
        views += _views(thumb.resize((_THUMB, _THUMB), Image.Resampling.LANCZOS, box=box))
    stack = np.stack(views)
    coarse = phash_batch(stack)
    fine = phash_batch(stack[2::3], 16)  # every centre view: plain, mirrored, corners
    corners = tuple((coarse[k], coarse[k + 1], coarse[k + 2]) for k in range(6, 18, 3))
    return Fingerprint(
        sha256=sha,
        pixels=pixel_digest(arr),
        hashes=(coarse[0], coarse[1], coarse[2]),
        fine=fine[0],
        mirrored=(coarse[3], coarse[4], coarse[5]),
        fine_mirrored=fine[1],
        width=size[0],
        height=size[1],
        corners=corners,
        fine_corners=tuple(fine[2:]),
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
    try:  # a regular file only: a FIFO would hang the audit
        data = read_regular(path, shown="the file")
    except UnsafePathError as exc:
        raise ImageLoadError(str(exc).removeprefix("the file: ")) from None
    return fingerprint(data, perceptual)
