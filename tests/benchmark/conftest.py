"""Benchmarks the audit tests share: shipped recipes built from the real sample data, and small
benchmarks of real lung tiles whose items a test arranges (splits, cases, images)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from medvqa.recipes import BuildConfig, build_benchmark
from medvqa.schema import Item
from medvqa.store import ImageStore

LUNG = Path(__file__).resolve().parents[2] / "data" / "lc25000_lung_224" / "lung_image_sets"
OPTIONS = {"A": "adenocarcinoma", "B": "benign", "C": "squamous cell carcinoma"}


@pytest.fixture(scope="session")
def vqa_rad(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    """The shipped VQA-RAD import (published splits, the same images in train and test)."""
    out = tmp_path_factory.mktemp("audit") / "vqa_rad"
    build_benchmark(BuildConfig("vqa_rad", out, seed=0, data_root=data_dir))
    return out


def lung_files(n: int) -> list[Path]:
    """``n`` distinct real lung tiles (one class after another)."""
    files = sorted(LUNG.rglob("*.jpeg"))
    return files[:: max(1, len(files) // n)][:n]


def jpeg_copy(path: Path, quality: int = 60) -> bytes:
    """The image at ``path`` re-encoded as JPEG (a near-duplicate: other bytes and pixels)."""
    buf = io.BytesIO()
    with Image.open(path) as im:
        im.convert("RGB").save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def png_copy(path: Path) -> bytes:
    """The image at ``path`` saved as PNG (other bytes, the same pixels)."""
    buf = io.BytesIO()
    with Image.open(path) as im:
        im.save(buf, "PNG")
    return buf.getvalue()


Row = tuple[str, str | None, bytes | Path]  # split, case, image (bytes or a file)


def item(n: int, rel: str, split: str, case: str | None, question: str = "",
         answer: str = "B", options: dict[str, str] | None = None) -> Item:
    """One lung item (single choice over the three tissues unless told otherwise)."""
    return Item(id=f"it-{n:03d}", images=[rel], question=question or f"[{n}] Which tissue?",
                options=dict(options or OPTIONS), answer=answer, question_type="single",
                category="lung", case_id=case, source="LC25000", split=split)


@pytest.fixture
def arranged(tmp_path: Path, bench_factory: Callable[..., Path]) -> Callable[..., Path]:
    """``arranged(rows, name=…, items=…)``: a BENCH/ whose items are ``rows`` (split, case,
    image bytes or file), or the given ``items`` builder applied to the stored paths."""

    def make(rows: list[Row], name: str = "bench",
             build: Callable[[int, str, str, str | None], Item] | None = None) -> Path:
        root = tmp_path / name
        store = ImageStore(root)
        items = []
        for n, (split, case, image) in enumerate(rows):
            if isinstance(image, Path):
                rel = store.add_file(image)
            else:
                rel = store.add_bytes(image, ".png" if image[:4] == b"\x89PNG" else ".jpg")
            items.append((build or item)(n, rel, split, case))
        return bench_factory(root, items=items)

    return make
