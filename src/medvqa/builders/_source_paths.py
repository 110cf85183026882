"""A recipe's own paths (``sources[].path``, ``sources[].labels``) stay inside its data root.

A recipe may come with a download as much as the data does, so the paths written in it are
data, and the path guard (:mod:`medvqa._path_guard`) holds for them as for an item's image:
each is resolved against the data root (the recipe's folder when its paths are there, else
``--data-root`` …; for ``medvqa import``, the source folder the user named), links followed,
and refused when it leaves the root, holds ``..``, is absolute or holds a NUL byte; what it
names must be a folder or a regular file (a FIFO would hang the reader), a label table a
regular file. A build recipe's label table is also held to a size
(:data:`medvqa.sources.MAX_LABEL_TABLE_BYTES`): a few downloaded lines must not make medvqa
read a table of gigabytes. The check runs before anything is built, so a refusal leaves
nothing behind.

Folders the user named on the command line (an import's ``--images``) are roots of their own:
a source path that names one of them, as an absolute path, is taken as it is, and the images
named inside it are then held inside it by the readers.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from medvqa._path_guard import UnsafePathError, inside, regular_problem

if TYPE_CHECKING:
    from medvqa.builders._recipe import Recipe

#: How a refusal of a recipe file's path ends: what to do.
RECIPE_HINT = ("write the path relative to the recipe's folder (or to --data-root), inside "
               "it; point --data-root at the folder that holds your data")


def source_paths(recipe: Recipe) -> list[tuple[str, str, bool]]:
    """Every path of ``recipe``'s sources: ``(field, path, is_table)``.

    >>> from medvqa.builders._recipe import Recipe
    >>> r = Recipe.model_validate({"name": "r", "sources": [
    ...     {"dataset": "d", "reader": "table", "path": "img", "labels": ["t.csv"]}]})
    >>> source_paths(r)
    [('sources[0].path', 'img', False), ('sources[0].labels[0]', 't.csv', True)]
    """
    out = []
    for i, spec in enumerate(recipe.sources):
        out.append((f"sources[{i}].path", spec.path, False))
        out.extend((f"sources[{i}].labels[{j}]", t, True) for j, t in enumerate(spec.labels))
    return out


def refuse_outside_sources(recipe: Recipe, root: str | Path, origin: str, *,
                           hint: str = RECIPE_HINT, table_hint: str = "", root_name: str = "",
                           own: Collection[str | Path] = (), max_table_bytes: int = 0) -> None:
    """Raise on the first source path of ``recipe`` that leaves ``root`` or is not a file.

    Args:
        recipe: the recipe whose ``sources`` are checked.
        root: the data root its paths are relative to.
        origin: what the message names first (the recipe file, ``medvqa import FORMAT``).
        hint: what the message ends with (what to do instead).
        table_hint: the same for a label table (default: ``hint``).
        root_name: how the root is named (default: "the data root ROOT").
        own: folders named on the command line, taken as they are (absolute paths).
        max_table_bytes: the largest label table (bytes; 0: any, as for an import's files,
            which the user names).

    Raises:
        UnsafePathError: ``ORIGIN: FIELD: why; HINT`` (exit 2), before anything is read.

    """
    named = root_name or f"the data root {root}"
    mine = {os.path.abspath(p) for p in own}
    for field, rel, table in source_paths(recipe):
        if os.path.isabs(rel) and os.path.abspath(rel) in mine:
            continue
        what = "label table" if table else "source path"
        try:
            real = inside(root, rel, what=what, root_name=named)
        except UnsafePathError as exc:
            raise UnsafePathError(f"{origin}: {field}: {exc}; "
                                  f"{table_hint if table and table_hint else hint}") from None
        problem = _kind_problem(real, table)
        if problem:
            raise UnsafePathError(f"{origin}: {field}: {what} {rel!r} {problem}; name "
                                  f"{'a table file' if table else 'a folder or a file'}")
        size = os.path.getsize(real) if table and max_table_bytes and real.is_file() else 0
        if size > max_table_bytes:
            raise UnsafePathError(
                f"{origin}: {field}: label table {rel!r} is {size:,} bytes, above the cap of "
                f"{max_table_bytes:,} ({max_table_bytes / 2**20:g} MiB) for a label table; "
                "split it into several tables (labels: [part1.csv, part2.csv])")


def _kind_problem(path: Path, table: bool) -> str | None:
    """Why ``path`` cannot be read as a source (a FIFO, a device …), or None.

    None too when it is missing: the reader then says so, with where the data was looked for.
    """
    if not os.path.exists(path) or (not table and os.path.isdir(path)):
        return None
    return regular_problem(path)
