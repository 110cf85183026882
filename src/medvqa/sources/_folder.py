"""Image folders: ``ROOT/<class>/<image>``; the class is the folder name (field ``label``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from medvqa._path_guard import UnsafePathError, inside
from medvqa.sources._record import ImageRef, Problems, Record
from medvqa.sources._spec import SourceSpec

IMAGE_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".pgm", ".ppm"}
)


def natural_key(text: str) -> list[object]:
    """Sort key that orders ``img2`` before ``img10``."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", text)]


def _tree_files(top: str) -> Iterator[str]:
    """Paths (relative to ``top``) of everything under ``top``, in ``Path.rglob("*")`` order.

    Directories depth first as listed, each one's entries as listed; symlinked folders are not
    entered. Text only: a Path per file would put every file name in the interpreter's
    interned-string table (pathlib interns path parts), which never shrinks.
    """
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            with os.scandir(os.path.join(top, rel) if rel else top) as it:
                entries = list(it)
        except OSError:
            continue
        subdirs = []
        for entry in entries:
            name = os.path.join(rel, entry.name) if rel else entry.name
            yield name
            try:
                if entry.is_dir() and not entry.is_symlink():
                    subdirs.append(name)
            except OSError:
                continue
        stack.extend(reversed(subdirs))


def _stem(name: str) -> str:
    """``Path(name).stem``."""
    base = os.path.basename(name)
    dot = base.rfind(".")
    return base[:dot] if 0 < dot < len(base) - 1 else base


def read_image_folder(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per image file under a class folder, in natural order of class then file.

    Files directly under the root (no class) and non-image files are ignored; hidden files too.
    """
    base = root / spec.path
    if not base.is_dir():
        problems.add(str(base), "image folder not found")
        return
    for cls_dir in sorted(
        (d for d in base.iterdir() if d.is_dir()), key=lambda d: natural_key(d.name)
    ):
        if cls_dir.is_symlink() and not _inside(base, cls_dir.name, spec.path, problems):
            continue
        top = str(cls_dir)
        names = [
            name
            for name in _tree_files(top)
            if _suffix(name) in IMAGE_SUFFIXES
            and not os.path.basename(name).startswith(".")
            and os.path.isfile(os.path.join(top, name))
            and (not os.path.islink(os.path.join(top, name))
                 or _inside(base, f"{cls_dir.name}/{name}", spec.path, problems))
        ]
        names.sort(key=natural_key)
        for name in names:
            rel = f"{cls_dir.name}/{name.replace(os.sep, '/')}"
            yield Record(
                key=rel,
                source=spec.dataset,
                image=ImageRef(path=os.path.join(top, name)),
                fields={"label": [cls_dir.name], "file": [os.path.basename(name)]},
                case_id=f"{spec.case_prefix}{_stem(name)}",
                meta={"source_file": f"{spec.path}/{rel}", "modality": spec.modality}
                if spec.modality
                else {"source_file": f"{spec.path}/{rel}"},
                split=spec.split,
            )


def _inside(base: Path, rel: str, shown: str, problems: Problems) -> bool:
    """Whether ``rel`` (a linked class folder or file) stays inside ``base``; reported if not.

    Only links are looked up: linked sub-folders are never entered (:func:`_tree_files`), so
    a class folder or a file that is a link is the only way out of the folder.
    """
    try:
        inside(base, rel, what="image", root_name=f"the image folder {shown}")
    except UnsafePathError as exc:
        problems.add(f"{shown}/{rel}", exc)
        return False
    return True


def _suffix(name: str) -> str:
    """``Path(name).suffix``, lower case."""
    base = os.path.basename(name)
    dot = base.rfind(".")
    return base[dot:].lower() if 0 < dot < len(base) - 1 else ""
