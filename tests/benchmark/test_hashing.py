"""Fingerprints of real images: bytes, pixels, perceptual hashes, mirrored hashes."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from _audit_helpers import jpeg_copy, lung_files, png_copy
from PIL import Image, ImageOps

from medvqa.benchmark import ImageLoadError
from medvqa.benchmark.audit import NEAR_THRESHOLD, fingerprint


def _bits(a: int, b: int) -> int:
    return bin(a ^ b).count("1")


def _near(a, b, mirrored: bool = False) -> bool:
    left = a.mirrored if mirrored else a.hashes
    limits = (NEAR_THRESHOLD.whole, NEAR_THRESHOLD.whole, NEAR_THRESHOLD.centre)
    fine = a.fine_mirrored if mirrored else a.fine
    return all(_bits(x, y) <= t for x, y, t in zip(left, b.hashes, limits, strict=True)) and (
        _bits(fine, b.fine) <= NEAR_THRESHOLD.fine)


def test_same_bytes_same_fingerprint() -> None:
    data = lung_files(1)[0].read_bytes()
    assert fingerprint(data) == fingerprint(bytes(data))


def test_png_resave_keeps_pixels_not_bytes() -> None:
    src = lung_files(1)[0]
    a, b = fingerprint(src.read_bytes()), fingerprint(png_copy(src))
    assert a.sha256 != b.sha256
    assert a.pixels == b.pixels
    assert a.hashes == b.hashes


def test_jpeg_reencode_is_near_not_same_pixels() -> None:
    src = lung_files(1)[0]
    a, b = fingerprint(src.read_bytes()), fingerprint(jpeg_copy(src, 60))
    assert a.pixels != b.pixels
    assert _near(a, b)


def test_flip_found_only_through_the_mirrored_hashes() -> None:
    src = lung_files(1)[0]
    buf = io.BytesIO()
    with Image.open(src) as im:
        ImageOps.mirror(im).save(buf, "PNG")
    a, b = fingerprint(buf.getvalue()), fingerprint(src.read_bytes())
    assert not _near(a, b)
    assert _near(a, b, mirrored=True)


def test_distinct_images_of_one_class_do_not_match() -> None:
    prints = [fingerprint(p.read_bytes()) for p in lung_files(12)]
    assert not any(_near(a, b) for i, a in enumerate(prints) for b in prints[i + 1:])


def test_grey_rgb_copy_has_the_same_pixel_digest() -> None:
    grey = Image.fromarray(np.arange(64, dtype=np.uint8).reshape(8, 8), "L")
    a, b = io.BytesIO(), io.BytesIO()
    grey.save(a, "PNG")
    grey.convert("RGB").save(b, "PNG")
    assert fingerprint(a.getvalue()).pixels == fingerprint(b.getvalue()).pixels


def test_sixteen_bit_image_is_hashed_at_full_depth() -> None:
    deep = (np.arange(256 * 256, dtype=np.uint16) // 2).reshape(256, 256)
    a, b = io.BytesIO(), io.BytesIO()
    Image.fromarray(deep).save(a, "PNG")
    Image.fromarray(deep + 1).save(b, "PNG")
    fa, fb = fingerprint(a.getvalue()), fingerprint(b.getvalue())
    assert fa.pixels != fb.pixels  # a one-count change is a change
    assert fa.hashes == fb.hashes  # but looks the same


@pytest.mark.parametrize("data", [b"", b"not an image", None])
def test_unreadable_bytes_raise_image_load_error(data: bytes | None, tmp_path: Path) -> None:
    if data is None:
        data = lung_files(1)[0].read_bytes()[:500]  # a truncated JPEG
    with pytest.raises(ImageLoadError):
        fingerprint(data)


def test_batched_hashes_are_imagehash_phash() -> None:
    import imagehash

    from medvqa.benchmark.audit._hashing import phash_batch

    rng = np.random.default_rng(0)
    views = rng.integers(0, 256, size=(5, 32, 32), dtype=np.uint8)
    for size in (8, 16):
        want = [imagehash.phash(Image.fromarray(v), size, 32 // size) for v in views]
        want_ints = [int.from_bytes(np.packbits(w.hash.ravel()).tobytes(), "big") for w in want]
        assert phash_batch(views, size) == want_ints


def test_corner_views_are_near_their_own_image_not_equal() -> None:
    f = fingerprint(lung_files(1)[0].read_bytes())
    assert len(f.corners) == len(f.fine_corners) == 4
    assert all(c != f.hashes for c in f.corners)
    assert len(set(f.corners)) == 4
