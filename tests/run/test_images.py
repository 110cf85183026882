from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from medvqa.benchmark import ImageLoader, ImageLoadError, mime_for


def test_images_read_once_with_hash_and_mime(bench: Path) -> None:
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    loader = ImageLoader(bench)
    a = loader.load(rel)
    b = loader.load(rel)
    assert a is b and loader.reads == 1
    assert a.mime == "image/jpeg"
    assert a.data == (bench / rel).read_bytes()  # the stored bytes, not re-encoded
    assert a.sha256 == hashlib.sha256(a.data).hexdigest() == Path(rel).stem


def test_memo_is_bounded_in_bytes(bench: Path) -> None:
    rels = [json.loads(x)["images"][0] for x in (bench / "items.jsonl").read_text().splitlines()]
    one = (bench / rels[0]).stat().st_size
    loader = ImageLoader(bench, max_bytes=int(one * 2.5))
    for rel in rels:
        loader.load(rel)
    loader.load(rels[0])  # evicted long ago: read again
    assert loader.reads == len(rels) + 1


def _png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("L", (4, 4), 7).save(buf, format="PNG")
    return buf.getvalue()


def test_unnamed_file_is_hashed_and_bad_paths_named(tmp_path: Path) -> None:
    (tmp_path / "scan.png").write_bytes(_png())
    img = ImageLoader(tmp_path).load("scan.png")
    assert img.sha256 == hashlib.sha256(_png()).hexdigest() and img.mime == "image/png"
    (tmp_path / "fake.png").write_bytes(b"\x89PNG fake")
    with pytest.raises(ImageLoadError, match="fake.png: not an image of an allowed format"):
        ImageLoader(tmp_path).load("fake.png")
    with pytest.raises(ImageLoadError, match="images/none.png"):
        ImageLoader(tmp_path).load("images/none.png")
    with pytest.raises(ImageLoadError, match="outside"):
        ImageLoader(tmp_path).load("../etc/passwd")


def test_mime_for() -> None:
    assert mime_for("a.JPG") == "image/jpeg" and mime_for("a.tiff") == "image/tiff"
    assert mime_for("a.dcm") == "application/dicom"
    assert mime_for("a.unknownext") == "application/octet-stream"
