"""What every source reader yields, and the :class:`Problems` collector for bad input.

One :class:`Record` per image (or volume slice), with its labels, boxes, case id and provenance.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa._path_guard import (
    MAX_IMAGE_FILE_BYTES,
    UnsafePathError,
    file_inside,
    read_regular,
)
from medvqa.errors import BadInputError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in pixels, origin top-left, ``x1``/``y1`` exclusive.

    Attributes:
        x0: left edge.
        y0: top edge.
        x1: right edge.
        y1: bottom edge.
        fields: the label-table values of the row the box came from (class, severity, …).
        row: where the box came from, ``file:row``, for provenance and error lines.

    """

    x0: float
    y0: float
    x1: float
    y1: float
    fields: dict[str, str] = field(default_factory=dict)
    row: str = ""

    @property
    def width(self) -> float:
        """Width in pixels."""
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        """Height in pixels."""
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        """Area in square pixels."""
        return max(0.0, self.width) * max(0.0, self.height)


class ImageRef:
    """Where a record's pixels are: a file copied unchanged, or encoded bytes made by a reader.

    The file name is kept as text and :attr:`path` made on demand: pathlib interns every path
    part, so a Path per record (or per record read back from a :class:`RecordStore`) would fill
    the interpreter's interned-string table with file names.

    Args:
        path: an image file on disk (copied byte for byte into the benchmark).
        data: encoded image bytes (PNG made from an array, a DICOM or NIfTI slice).
        suffix: file suffix for ``data`` (".png").

    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, data: bytes | None = None,
        suffix: str = ".png",
    ):
        self.file: str | None = None if path is None else os.fspath(path)
        self.data = data
        self.suffix = suffix

    @property
    def path(self) -> Path | None:
        """The image file, or None for reader-made bytes."""
        return None if self.file is None else Path(self.file)

    def read_bytes(self) -> bytes:
        """The encoded bytes (reads the file when the record points at one).

        Raises:
            medvqa._path_guard.UnsafePathError: the file is not a regular file (a FIFO is
                refused, never waited on), cannot be read, or is above
                :data:`~medvqa._path_guard.MAX_IMAGE_FILE_BYTES` (refused unread).

        """
        if self.data is not None:
            return self.data
        assert self.file is not None
        return read_regular(self.file, max_bytes=MAX_IMAGE_FILE_BYTES, shown="the file",
                            cap_of="one image file")

    @property
    def ext(self) -> str:
        """Suffix of the stored file, lower case with a dot (as ``Path.suffix``)."""
        if self.file is None:
            return self.suffix.lower() or ".bin"
        name = os.path.basename(self.file)
        dot = name.rfind(".")
        return name[dot:].lower() if 0 < dot < len(name) - 1 else ".bin"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImageRef):
            return NotImplemented
        return (self.file, self.data, self.suffix) == (other.file, other.data, other.suffix)

    def __repr__(self) -> str:
        data = None if self.data is None else f"<{len(self.data)} bytes>"
        return f"ImageRef(path={self.file!r}, data={data}, suffix={self.suffix!r})"


@dataclass
class Record:
    """One image of a source with everything known about it.

    Attributes:
        key: unique within its source (relative path, table row, array index).
        source: dataset name (``SourceSpec.dataset``).
        image: where the pixels are.
        fields: label-table values, column → list of distinct values over the image's rows (a
            film with two abnormalities has two values in its class column).
        case_id: patient / study / exam id; images of one case never cross splits.
        boxes: boxes on this image, top-left pixel coordinates.
        meta: provenance (``source_file``, ``label_rows``), modality, age, sex, slice index, …
        split: a fixed split for the whole source (``external``) or None.
        row: ``file:row`` of the first label row, for error lines.

    """

    key: str
    source: str
    image: ImageRef
    fields: dict[str, list[str]] = field(default_factory=dict)
    case_id: str = ""
    boxes: list[Box] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    split: str | None = None
    row: str = ""

    def value(self, column: str) -> str | None:
        """The single value of ``column``, or None when missing or ambiguous."""
        vals = self.fields.get(column) or []
        return vals[0] if len(vals) == 1 else None

    @property
    def where(self) -> str:
        """Best location for an error line: the label row, else the image file."""
        if self.row:
            return self.row
        return self.image.file if self.image.file is not None else self.key


def one_line(exc: Exception) -> str:
    """An exception as one line: ``field: message`` for a validation error, else its first line.

    >>> from pydantic import BaseModel
    >>> class M(BaseModel):
    ...     n: int
    >>> try:
    ...     M(n="x")
    ... except ValueError as exc:
    ...     one_line(exc)
    'n: Input should be a valid integer, unable to parse string as an integer'
    """
    errors = getattr(exc, "errors", None)
    if callable(errors) and hasattr(exc, "error_count"):  # a pydantic ValidationError
        found = errors()
        first = found[0]
        field = ".".join(str(p) for p in first["loc"])
        text = str(first["msg"]).removeprefix("Value error, ")
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return f"{field}: {text}{more}" if field else f"{text}{more}"
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


@dataclass(frozen=True)
class Problem:
    """One bad input: where (``file:row``) and what."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class Problems:
    """Collects bad-input lines; the build skips the item and goes on, or stops when strict.

    Args:
        strict: raise :class:`~medvqa.errors.BadInputError` on the first problem instead.

    """

    def __init__(self, strict: bool = False):
        self.strict = strict
        self.items: list[Problem] = []

    def add(self, where: str, message: str | Exception) -> None:
        """Record a problem (logged as a warning), or raise when strict.

        An exception is recorded as :func:`one_line` renders it, so a validation error of a
        row is one line naming its field, not pydantic's multi-line report with the row's data.
        """
        problem = Problem(where, message if isinstance(message, str) else one_line(message))
        if self.strict:
            raise BadInputError(str(problem))
        log.info("%s", problem)
        self.items.append(problem)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):  # noqa: D105
        return iter(self.items)


def relative_to(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` in POSIX form when inside it, else as given.

    Provenance uses this so a benchmark's bytes do not depend on where the data root lives.
    """
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def files_under(base: Path, root: Path, problems: Problems) -> list[Path]:
    """The files found under folder ``base`` (``rglob`` order, sorted), each one inside it.

    A folder of a source is data: a file in it that is a link to a file elsewhere, or
    something that is not a regular file (a FIFO would hang the reader), is reported (named
    relative to ``root``) and skipped, never read (:mod:`medvqa._path_guard`). Linked folders
    are not entered (``rglob``).
    """
    found = []
    for path in sorted(p for p in base.rglob("*") if not p.is_dir()):
        try:
            real = file_inside(base, os.path.relpath(path, base), what="file",
                               root_name=f"the folder {relative_to(base, root)}")
        except UnsafePathError as exc:
            problems.add(relative_to(path, root), exc)
            continue
        if real is not None:
            found.append(path)
    return found
