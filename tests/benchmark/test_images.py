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


def _huge_png(side: int = 13_000) -> bytes:
    """A one-colour PNG of ``side``² pixels: a few hundred KB on disk, ``side``² bytes decoded."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("L", (side, side), 0).save(buf, format="PNG")
    return buf.getvalue()


def test_pixel_cap_is_read_from_the_header_and_configurable(tmp_path: Path,
                                                           bench_factory) -> None:
    from medvqa.benchmark import MAX_IMAGE_PIXELS, validate_benchmark
    from medvqa.schema import Item

    (tmp_path / "scan.png").write_bytes(_png())  # 4 × 4 = 16 pixels
    with pytest.raises(ImageLoadError, match=r"scan.png: 4 × 4 pixels .* above the cap"):
        ImageLoader(tmp_path, max_pixels=15).load("scan.png")
    assert ImageLoader(tmp_path, max_pixels=16).load("scan.png").mime == "image/png"
    assert ImageLoader(tmp_path, max_pixels=0).load("scan.png").mime == "image/png"
    assert ImageLoader(tmp_path).max_pixels == MAX_IMAGE_PIXELS >= 30_000_000  # a mammogram
    item = Item(id="s", images=["scan.png"], question="Which?", options={"A": "a", "B": "b"},
                answer="A", question_type="single")
    bench = bench_factory(tmp_path, items=[item])
    assert validate_benchmark(bench).ok
    problems = validate_benchmark(bench, max_image_pixels=15).problems
    assert [p.field for p in problems] == ["images.0"] and "above the cap" in problems[0].message


def test_a_13000_square_png_is_one_items_error_in_little_memory(
    tmp_path: Path, bench_factory
) -> None:
    """The issue's probe: with ``noise`` it took 2.2 GB; refused from the header, it takes none.

    Pillow's own decompression-bomb warning is not printed either: the error line says it all.
    """
    import os
    import subprocess
    import sys

    from medvqa.schema import Prediction, file_sha256, read_jsonl
    from medvqa.store import ImageStore
    from medvqa.testing import ChatServer

    bench = bench_factory(tmp_path / "bench", 2)
    lines = (bench / "items.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["images"] = [ImageStore(bench).add_bytes(_huge_png(), ".png")]
    (bench / "items.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    card = json.loads((bench / "benchmark.json").read_text())
    card["items_sha256"] = file_sha256(bench / "items.jsonl")
    (bench / "benchmark.json").write_text(json.dumps(card))
    run = tmp_path / "run"
    if not Path("/proc/self/status").is_file():
        pytest.skip("reads the peak memory from /proc (Linux)")
    # VmHWM is this process image's peak; ru_maxrss would also count the forking parent's.
    code = ("import sys\nfrom medvqa.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "finally:\n    hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')]"
            "\n    print('maxrss', hwm[0].split()[1], file=sys.stderr)\n")
    with ChatServer() as server:
        proc = subprocess.run(
            [sys.executable, "-c", code, "run", str(bench), "-m", f"openai:t@{server.url}",
             "--conditions", "clean,noise", "-o", str(run), "--split", "all"],
            capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "300"})
    assert proc.returncode == 0, proc.stderr
    assert "DecompressionBomb" not in proc.stderr and "warnings.warn" not in proc.stderr
    maxrss_mb = int(proc.stderr.rsplit("maxrss", 1)[1].split()[0]) / 1024
    assert maxrss_mb < 600, maxrss_mb  # 2,240 MB before the cap (MB, Linux counts in KiB)
    preds = {(p.item_id, p.condition): p for p in read_jsonl(run / "predictions.jsonl",
                                                              Prediction)}
    for cond in ("clean", "noise"):
        assert "13000 × 13000 pixels (169.0 MP) is above the cap" in preds[first["id"], cond].error
        assert preds["lung-001", cond].error is None


def test_pillow_warnings_are_not_printed_by_image_checks(tmp_path: Path) -> None:
    """A 90-megapixel PNG under no cap: Pillow warns "decompression bomb" on open; the checks
    (run's loader, validate's thorough decode) say what matters themselves, and print nothing."""
    import warnings

    from medvqa.benchmark import decoded_mime

    data = _huge_png(9_500)  # just above Pillow's 89.5 MP warning threshold
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert decoded_mime(data, thorough=True, max_pixels=0) == "image/png"
        with pytest.raises(ImageLoadError, match="above the cap"):
            decoded_mime(data)
    assert not [w for w in caught if "PIL" in w.filename or "Decompression" in str(w.message)]
