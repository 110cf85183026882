"""Atomic file writes and the content-addressed image store of a BENCH/ folder.

A file is never left half-written: writers go to a temporary file in the same folder, fsync it
and ``os.replace`` it over the target. Images are stored by the SHA-256 of their bytes
(``images/ab/abcd….png``) so a duplicate image is stored once and a path names its content.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

IMAGES_DIR = "images"


@contextmanager
def atomic_writer(
    path: str | Path, mode: str = "w", newline: str | None = "\n"
) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for streaming writes; rename it into place on success.

    Readers see the old file or the complete new one, never a mix; on any error (or a kill) the
    temporary file is removed (or left as a hidden ``.NAME.*.tmp``) and ``path`` is untouched.
    Text mode writes UTF-8 with ``newline`` line endings.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    binary = "b" in mode
    try:
        with os.fdopen(fd, mode, encoding=None if binary else "utf-8",
                       newline=None if binary else newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never a mix."""
    with atomic_writer(path, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def sha256_bytes(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def image_relpath(digest: str, suffix: str) -> str:
    """Relative path of an image in the store: ``images/ab/<digest><suffix>``."""
    suffix = suffix.lower() if suffix.startswith(".") else f".{suffix.lower()}"
    return f"{IMAGES_DIR}/{digest[:2]}/{digest}{suffix}"


class ImageStore:
    """Content-addressed images under ``<root>/images``.

    Args:
        root: the BENCH/ folder; paths returned are relative to it.
    """

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def add_bytes(self, data: bytes, suffix: str) -> str:
        """Store encoded image bytes once; return the path relative to the root."""
        rel = image_relpath(sha256_bytes(data), suffix)
        target = self.root / rel
        if not target.exists():
            atomic_write_bytes(target, data)
        return rel

    def add_file(self, path: str | Path) -> str:
        """Store a file's bytes unchanged (no re-encoding); return its relative path."""
        path = Path(path)
        h = hashlib.sha256()
        with path.open("rb") as fh:
            while block := fh.read(1 << 20):
                h.update(block)
        rel = image_relpath(h.hexdigest(), path.suffix or ".bin")
        target = self.root / rel
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.tmp")
            shutil.copyfile(path, tmp)
            os.replace(tmp, target)
        return rel

    def path(self, rel: str) -> Path:
        """Absolute path of a stored image."""
        return self.root / rel

    def verify(self, rel: str) -> bool:
        """True when the file exists and its bytes hash to the digest in its name."""
        target = self.root / rel
        if not target.is_file():
            return False
        digest = Path(rel).stem
        return sha256_bytes(target.read_bytes()) == digest
