"""Read what the audit needs of a BENCH/ or a plain image folder: compact items and fingerprints.

Items are streamed once (each callback sees the full item, e.g. the shortcut tallies) and kept
as small rows: id, split, case, image numbers, question and answer key. Images are hashed on a
few threads (Pillow and hashlib release the GIL while decoding and hashing) in bounded batches;
only their fingerprints are kept, so memory grows by about 350 bytes per image. An image that
cannot be read, decoded, or that lies outside its benchmark folder is reported and skipped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, TypeVar

import numpy as np

from medvqa.benchmark._images import ImageLoadError, resolve_inside
from medvqa.benchmark._items import iter_items
from medvqa.benchmark.audit._hashing import (
    CORNER_NAMES,
    Fingerprint,
    fingerprint_file,
    words64,
)
from medvqa.benchmark.audit._model import CollectionInfo, Finding
from medvqa.benchmark.audit._text import answer_key, normalise
from medvqa.errors import BadInputError
from medvqa.schema import (
    BENCHMARK_FILE,
    ITEMS_FILE,
    Benchmark,
    InputError,
    Item,
    RecordError,
    file_sha256,
    read_json,
)

#: File suffixes read from a plain image folder (``--against`` a folder that is not a BENCH/).
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff"})

T = TypeVar("T")

#: Images handed to the hashing threads at a time (bounds memory: bytes are read in the threads).
_BATCH = 512


class ItemRow(NamedTuple):
    """What the audit keeps of one item."""

    id: str
    split: str
    case_id: str | None
    source: str
    images: tuple[int, ...]
    question: str
    answer: str
    question_type: str
    options: frozenset[str] = frozenset()


@dataclass
class ImageTable:
    """Fingerprints of a collection's distinct images, by image number.

    ``ok[k]`` is False for an image that could not be read; its hashes are zero and its
    digests empty, and no check uses it.
    """

    paths: list[str] = field(default_factory=list)
    sha256: list[str] = field(default_factory=list)
    pixels: list[str] = field(default_factory=list)
    #: (n, 3) uint64: the three perceptual hashes of each image (see ``HASH_NAMES``).
    hashes: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.uint64))
    #: (n, 4) uint64: the fine 256-bit centre hash of each image, as four words.
    fine: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), dtype=np.uint64))
    #: (n, 3) and (n, 4) uint64: the same of each mirrored image.
    mirrored: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.uint64))
    fine_mirrored: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), dtype=np.uint64))
    #: (n, 4, 3) and (n, 4, 4) uint64: the same of each corner view (``CORNER_NAMES``).
    corners: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 3), dtype=np.uint64))
    fine_corners: np.ndarray = field(
        default_factory=lambda: np.zeros((0, 4, 4), dtype=np.uint64))
    ok: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __len__(self) -> int:
        return len(self.paths)


@dataclass
class Collection:
    """A benchmark or an image folder, read for the audit.

    Attributes:
        info: what audit.json says of it.
        root: its folder.
        images: fingerprints by image number.
        items: compact items (empty for an image folder).
        image_items: image number → numbers of the items that use it.
        problems: unreadable images and skipped item lines, as findings.
    """

    info: CollectionInfo
    root: Path
    images: ImageTable
    items: list[ItemRow] = field(default_factory=list)
    image_items: list[list[int]] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)

    def image_splits(self, k: int) -> list[str]:
        """Sorted splits of the items that use image ``k``."""
        return sorted({self.items[i].split for i in self.image_items[k]}) if self.items else []


def hash_files(files: list[str], workers: int,
              perceptual: bool = True) -> Iterator[Fingerprint | str]:
    """Fingerprint of each file, in order, or why it could not be read."""

    def one(path: str) -> Fingerprint | str:
        try:
            return fingerprint_file(path, perceptual)
        except ImageLoadError as exc:
            return str(exc)

    if workers <= 1:
        yield from map(one, files)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for start in range(0, len(files), _BATCH):
            yield from pool.map(one, files[start:start + _BATCH])


def hash_images(table: ImageTable, files: list[str | None], label: str, workers: int,
                why_not: dict[int, str], perceptual: bool = True) -> list[Finding]:
    """Fill ``table``'s fingerprints from ``files`` (None: refused before reading).

    Returns one ``unreadable-image`` finding per image that could not be used.
    """
    n = len(files)
    table.hashes, table.mirrored = (np.zeros((n, 3), dtype=np.uint64) for _ in range(2))
    table.fine, table.fine_mirrored = (np.zeros((n, 4), dtype=np.uint64) for _ in range(2))
    table.corners = np.zeros((n, len(CORNER_NAMES), 3), dtype=np.uint64)
    table.fine_corners = np.zeros((n, len(CORNER_NAMES), 4), dtype=np.uint64)
    table.ok = np.zeros(n, dtype=bool)
    table.sha256, table.pixels = [""] * n, [""] * n
    readable = [k for k, f in enumerate(files) if f is not None]
    results = hash_files([files[k] or "" for k in readable], workers, perceptual)
    for k, result in zip(readable, results, strict=True):
        if isinstance(result, str):
            why_not[k] = result
            continue
        table.ok[k] = True
        table.sha256[k], table.pixels[k] = result.sha256, result.pixels
        table.hashes[k], table.mirrored[k] = result.hashes, result.mirrored
        table.fine[k] = words64(result.fine)
        table.fine_mirrored[k] = words64(result.fine_mirrored)
        table.corners[k] = result.corners
        table.fine_corners[k] = [words64(f) for f in result.fine_corners]
    return [
        Finding(check="unreadable-image", severity="warning",
                message=f"{label}: {table.paths[k]}: {why}; skipped by every image check",
                images=[], data={"collection": label, "path": table.paths[k], "why": why})
        for k, why in sorted(why_not.items())
    ]


def read_benchmark(bench: Path, label: str, workers: int = 1,
                   on_item: Callable[[Item], None] | None = None,
                   perceptual: bool = True) -> Collection:
    """Read a BENCH/ folder: its items (each also given to ``on_item``) and its images.

    ``perceptual`` False computes only the byte and pixel digests (``medvqa validate``).

    Raises:
        BadInputError: no items.jsonl, or not one good item in it (one line).

    """
    items_file = bench / ITEMS_FILE
    if not items_file.is_file():
        raise BadInputError(f"{bench}: no {ITEMS_FILE} (not a benchmark folder)")
    card: Benchmark | None = None
    if (bench / BENCHMARK_FILE).is_file():
        try:
            card = read_json(bench / BENCHMARK_FILE, Benchmark)
        except InputError:
            card = None
    errors: list[RecordError] = []
    numbers: dict[str, int] = {}
    # Templated benchmarks repeat their splits, questions, answers and option sets: keep one
    # object of each (memory per item stays about that of its id and image numbers).
    seen: dict[object, object] = {}

    def shared(value: T) -> T:
        return seen.setdefault(value, value)  # type: ignore[return-value]

    table = ImageTable()
    coll = Collection(
        CollectionInfo(label=label, kind="benchmark", path=str(bench),
                       name=card.name if card else bench.name,
                       items_sha256=file_sha256(items_file),
                       published_split=card.published_split if card else None),
        bench, table)
    for _, item in iter_items(items_file, errors):
        if on_item is not None:
            on_item(item)
        refs = []
        for rel in item.images:
            k = numbers.setdefault(rel, len(numbers))
            if k == len(coll.image_items):
                table.paths.append(rel)
                coll.image_items.append([])
            coll.image_items[k].append(len(coll.items))
            refs.append(k)
        options = frozenset(shared(normalise(t)) for t in item.options.values())
        coll.items.append(ItemRow(item.id, shared(item.split), item.case_id,
                                  shared(item.source), tuple(refs), shared(item.question),
                                  shared(answer_key(item)), shared(item.question_type),
                                  shared(options)))
    if not coll.items:
        first = f" ({errors[0]})" if errors else ""
        raise BadInputError(f"{items_file}: no items to audit{first}")
    coll.problems += [
        Finding(check="skipped-line", severity="warning", message=f"{label}: {err}; skipped",
                data={"collection": label, "line": err.line})
        for err in errors
    ]
    files: list[str | None] = []
    why_not: dict[int, str] = {}
    for k, rel in enumerate(table.paths):
        try:
            files.append(str(resolve_inside(bench, rel)))
        except ImageLoadError as exc:
            files.append(None)
            why_not[k] = str(exc)
    coll.problems += hash_images(table, files, label, workers, why_not, perceptual)
    coll.info.items, coll.info.images = len(coll.items), len(table)
    coll.info.unreadable = int((~table.ok).sum())
    return coll


def read_image_folder(folder: Path, label: str, workers: int = 1) -> Collection:
    """Read every image file under ``folder`` (sorted, hidden entries skipped).

    Raises:
        BadInputError: the folder does not exist or holds no image file (one line).

    """
    if not folder.is_dir():
        raise BadInputError(f"{folder}: not a folder (--against takes a BENCH/ or an image "
                            "folder)")
    rels: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith(".") and Path(name).suffix.lower() in IMAGE_SUFFIXES:
                rels.append(Path(dirpath, name).relative_to(folder).as_posix())
    if not rels:
        raise BadInputError(f"{folder}: no image files ({', '.join(sorted(IMAGE_SUFFIXES))}) "
                            "and no items.jsonl")
    rels.sort()
    table = ImageTable(paths=rels)
    coll = Collection(CollectionInfo(label=label, kind="images", path=str(folder),
                                     name=folder.name), folder, table)
    coll.image_items = [[] for _ in rels]
    coll.problems += hash_images(table, [str(folder / r) for r in rels], label, workers, {})
    coll.info.images, coll.info.unreadable = len(table), int((~table.ok).sum())
    return coll


def read_collection(path: Path, label: str, workers: int = 1) -> Collection:
    """A BENCH/ when ``path`` holds items.jsonl, else a plain image folder."""
    if (path / ITEMS_FILE).is_file():
        return read_benchmark(path, label, workers)
    return read_image_folder(path, label, workers)
