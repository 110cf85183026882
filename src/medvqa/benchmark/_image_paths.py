"""Every image path of a benchmark checked before a command copies or embeds any image.

The runner records an unsafe image as its item's error and goes on (the other items are
asked); a command that copies images out of BENCH/ — an export, ``review export`` — refuses
the whole benchmark first instead, naming the first bad line, so nothing is half-written and no
local file ends up in the output. The checks are :mod:`medvqa._path_guard`'s: the path stays
inside BENCH/ (links followed) and names a regular file (never a FIFO, which would hang).
"""

from __future__ import annotations

from pathlib import Path

from medvqa._path_guard import UnsafePathError, inside, regular_problem
from medvqa.benchmark._items import iter_items
from medvqa.errors import BadInputError
from medvqa.schema import ITEMS_FILE, RecordError


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


def refuse_unsafe_images(bench_dir: str | Path, nothing_done: str = "nothing was written") -> None:
    """Raise on the first item image of ``bench_dir`` that leaves it or is not a regular file.

    Raises:
        BadInputError: ``items.jsonl:LINE: images[I]: why; NOTHING_DONE`` (one line), or the
            first item line that does not validate.

    """
    items_file = Path(bench_dir) / ITEMS_FILE
    errors: list[RecordError] = []
    for lineno, item in iter_items(items_file, errors):
        for i, rel in enumerate(item.images):
            why = image_path_problem(bench_dir, rel)
            if why:
                raise BadInputError(f"{items_file}:{lineno}: images[{i}]: {why}; {nothing_done}")
    if errors:
        raise BadInputError(f"{errors[0]}; {nothing_done}")
