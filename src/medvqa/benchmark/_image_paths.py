"""Whether an image path of a benchmark may be read: inside BENCH/ and a regular file.

The runner records an unsafe image as its item's error and goes on (the other items are
asked); a command that copies images out of BENCH/ — an export
(:func:`~medvqa.benchmark.refuse_unexportable`), ``review export`` — refuses the whole benchmark
first instead, naming the first bad line, so nothing is half-written and no local file ends up
in the output. The checks are :mod:`medvqa._path_guard`'s: the path stays inside BENCH/ (links
followed) and names a regular file (never a FIFO, which would hang).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from medvqa._path_guard import UnsafePathError, inside, regular_problem

if TYPE_CHECKING:
    from medvqa.schema import Item


def image_path_problem(bench_dir: str | Path, rel: str) -> str | None:
    """Why image ``rel`` of ``bench_dir`` may not be read, or None (inside, a regular file).

    >>> image_path_problem("B", "/etc/passwd").split(":")[0]
    "image path '/etc/passwd' is an absolute path"
    """
    try:
        path = inside(bench_dir, rel, what="image path", root_name="the benchmark folder")
    except UnsafePathError as exc:
        return str(exc)
    problem = regular_problem(path)
    return f"image {rel!r} {problem}" if problem else None



def refuse_unsafe_images(bench_dir: str | Path, items: Iterable[Item], nothing_done: str) -> None:
    """Raise on the first image of ``items`` that leaves ``bench_dir`` or is not a regular file.

    For commands that copy a chosen part of a benchmark (``review export``, ``filter
    guessable``): checked before anything is written, so no local file is copied in and
    nothing is half-made.

    Raises:
        BadInputError: ``BENCH/items.jsonl: item ID: images[I]: why; NOTHING_DONE``.
    """
    from medvqa.errors import BadInputError
    from medvqa.schema import ITEMS_FILE

    for item in items:
        for i, rel in enumerate(item.images):
            why = image_path_problem(bench_dir, rel)
            if why:
                raise BadInputError(f"{Path(bench_dir) / ITEMS_FILE}: item {item.id}: "
                                    f"images[{i}]: {why}; {nothing_done}")
