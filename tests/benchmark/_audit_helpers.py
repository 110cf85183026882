"""Real-image helpers of the audit tests: distinct lung tiles, re-encoded and re-saved copies,
and the item every small benchmark is made of (imported as ``_audit_helpers``; the fixtures
are in conftest.py)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from medvqa.schema import Item

LUNG = Path(__file__).resolve().parents[2] / "data" / "lc25000_lung_224" / "lung_image_sets"
OPTIONS = {"A": "adenocarcinoma", "B": "benign", "C": "squamous cell carcinoma"}


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
