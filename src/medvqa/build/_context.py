"""What every recipe type gets: the data root, the seed, the problem list and the image store."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from medvqa.schema import Item
from medvqa.sources import ImageRef, Problems
from medvqa.store import image_relpath, sha256_bytes


@dataclass
class Draft:
    """An item on its way out; ``fixed`` items keep their split (imports, external sources)."""

    item: Item
    fixed: bool = False


@dataclass
class BuildContext:
    """State of one build.

    Attributes:
        root: data root that recipe paths are relative to.
        out: the folder the benchmark is being written to (images go straight there).
        seed: seed of every random step.
        problems: bad-input lines (the build skips and counts them, or stops when strict).

    """

    root: Path
    out: Path
    seed: int = 0
    problems: Problems = field(default_factory=Problems)
    _stored: dict[str, str | None] = field(default_factory=dict)

    def store_bytes(self, data: bytes, suffix: str) -> str:
        """Store encoded bytes under their SHA-256; return the path relative to BENCH/."""
        rel = image_relpath(sha256_bytes(data), suffix)
        target = self.out / rel
        if not target.exists():
            # ``out`` is a private building folder renamed into place only when the build
            # succeeds, so writing in place cannot leave a half-written benchmark behind.
            try:
                target.write_bytes(data)
            except FileNotFoundError:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        return rel

    def store_image(self, image: ImageRef, where: str) -> str | None:
        """Check an image decodes (header) and store its bytes unchanged; None when unreadable.

        The result is cached per file, so an image used by several items is read once.
        """
        key = str(image.path) if image.path is not None else ""
        if key and key in self._stored:
            return self._stored[key]
        try:
            data = image.read_bytes()
            with Image.open(io.BytesIO(data)) as im:
                im.size  # noqa: B018 - parsing the header is the readability check
        except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
            self.problems.add(where, f"unreadable image {image.path or ''}: {exc}".replace("  ", " "))
            rel = None
        else:
            rel = self.store_bytes(data, image.ext)
        if key:
            self._stored[key] = rel
        return rel

    def open_image(self, image: ImageRef) -> Image.Image:
        """Decode a record's image (for crops and drawings)."""
        im = Image.open(io.BytesIO(image.read_bytes()))
        im.load()
        return im
