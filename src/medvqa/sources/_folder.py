"""Image folders: ``ROOT/<class>/<image>``; the class is the folder name (field ``label``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from medvqa.sources._record import ImageRef, Problems, Record
from medvqa.sources._spec import SourceSpec

IMAGE_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".pgm", ".ppm"}
)


def natural_key(text: str) -> list[object]:
    """Sort key that orders ``img2`` before ``img10``."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", text)]


def read_image_folder(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per image file under a class folder, in natural order of class then file.

    Files directly under the root (no class) and non-image files are ignored; hidden files too.
    """
    base = root / spec.path
    if not base.is_dir():
        problems.add(str(base), "image folder not found")
        return
    for cls_dir in sorted((d for d in base.iterdir() if d.is_dir()), key=lambda d: natural_key(d.name)):
        files = [
            p
            for p in cls_dir.rglob("*")
            if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES and not p.name.startswith(".")
        ]
        for path in sorted(files, key=lambda p: natural_key(str(p.relative_to(cls_dir)))):
            rel = path.relative_to(base).as_posix()
            yield Record(
                key=rel,
                source=spec.dataset,
                image=ImageRef(path=path),
                fields={"label": [cls_dir.name], "file": [path.name]},
                case_id=f"{spec.case_prefix}{path.stem}",
                meta={"source_file": f"{spec.path}/{rel}", "modality": spec.modality}
                if spec.modality
                else {"source_file": f"{spec.path}/{rel}"},
                split=spec.split,
            )
