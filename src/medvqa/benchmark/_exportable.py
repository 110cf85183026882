"""A benchmark checked whole before an export writes any of it in another tool's format.

An export copies every item into a file another tool reads as it is: a line that is not an
item would be left out unseen, a second item with the same id would become a second row that
the other tool's results cannot be matched back to (``medvqa import-predictions`` keys answers
by id), and an image path that leaves BENCH/ would embed a local file. So the exporters refuse
the benchmark first, naming the first such line, and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.benchmark._image_paths import image_path_problem
from medvqa.benchmark._items import iter_items
from medvqa.errors import BadInputError
from medvqa.schema import ITEMS_FILE, RecordError


def refuse_unexportable(bench_dir: str | Path, nothing_done: str = "nothing was written") -> None:
    """Raise on the first item line of ``bench_dir`` an export would get wrong.

    Raises:
        BadInputError: ``items.jsonl:LINE: FIELD: why; NOTHING_DONE`` (one line) for the first
            image that leaves BENCH/ or is not a regular file, the first id seen before, or
            else the first line that does not validate.

    """
    items_file = Path(bench_dir) / ITEMS_FILE
    errors: list[RecordError] = []
    first_line: dict[str, int] = {}
    for lineno, item in iter_items(items_file, errors):
        for i, rel in enumerate(item.images):
            why = image_path_problem(bench_dir, rel)
            if why:
                raise BadInputError(f"{items_file}:{lineno}: images[{i}]: {why}; {nothing_done}")
        first = first_line.setdefault(item.id, lineno)
        if first != lineno:
            raise BadInputError(
                f"{items_file}:{lineno}: id: duplicate id {item.id!r} (first on line {first}): "
                f"the other tool's results could not be told apart; {nothing_done} (each id "
                "must be unique, see `medvqa validate`)")
    if errors:
        raise BadInputError(f"{errors[0]}; {nothing_done}")
