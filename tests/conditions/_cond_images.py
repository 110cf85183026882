"""Real images for the condition tests: colour H&E tiles (LC25000) and greyscale mammograms
(mini-MIAS, 1024²), as the runner hands them to conditions (:class:`ImageInput`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from medvqa.benchmark import ImageInput
from medvqa.schema import Item

DATA = Path(__file__).resolve().parents[2] / "data"
LUNG = sorted((DATA / "lc25000_lung_224" / "lung_image_sets").glob("*/*.jpeg"))
MIAS = sorted((DATA / "mini_mias" / "all-mias").glob("*.jpg"))


def image_input(path: Path) -> ImageInput:
    data = path.read_bytes()
    return ImageInput(data, "image/jpeg", hashlib.sha256(data).hexdigest())


def make_item(image: ImageInput, item_id: str, modality: str, **kw) -> Item:
    fields = dict(
        id=item_id,
        images=[f"images/{image.sha256[:2]}/{image.sha256}.jpeg"],
        question="What does this image show?",
        options={"A": "benign", "B": "malignant", "C": "normal"},
        answer="B",
        question_type="single",
        meta={"modality": modality},
    )
    fields.update(kw)
    return Item(**fields)
