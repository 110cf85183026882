"""Streaming JSON-lines and JSON read/write: bad lines named by file, line and field."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, TypeVar

from pydantic import (
    BaseModel,
    ValidationError,
)

from medvqa._path_guard import open_regular, own_file
from medvqa.errors import BadInputError
from medvqa.schema._names import BENCHMARK_FILE, ITEMS_FILE
from medvqa.store import atomic_write_text, atomic_writer

ModelT = TypeVar("ModelT", bound=BaseModel)

#: Why a line of thousands of nested brackets is refused (Python's parser would overflow).
NESTED_TOO_DEEPLY = "nested too deeply to read"

#: The UTF-8 byte-order mark: some editors start a file with it; readers here skip it.
UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class RecordError:
    """A line that could not be read, with where and why, for a one-line report."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


#: The ``field`` of a line that is not UTF-8 (callers that must stop on it look for this).
ENCODING_FIELD = "(encoding)"


def encoding_error(path: str | Path, lineno: int, raw: bytes,
                   exc: UnicodeDecodeError) -> RecordError:
    """The one report of a line that is not UTF-8: file, line, the offending byte, its column."""
    return RecordError(str(path), lineno, ENCODING_FIELD,
                       f"not UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})")


class InputError(BadInputError, ValueError):
    """Raised when a caller asked for strict reading and a line is bad (exit code 2)."""

    def __init__(self, error: RecordError):
        super().__init__(str(error))
        self.error = error


def record_error(path: Path, lineno: int, exc: Exception, every: bool = False) -> RecordError:
    """One error per bad record, naming the field; with ``every``, all of its problems in one line.

    A line that is not JSON is field ``(json)``. Model-level checks (an answer against the
    options) carry no location in pydantic; their message starts with ``"field: "``, which is
    used as the field instead.
    """
    if isinstance(exc, ValidationError) and every and exc.error_count() > 1:
        parts = []
        for e in exc.errors():
            loc = ".".join(str(p) for p in e["loc"]) or "(file)"
            parts.append(f"{loc}: {e['msg'].removeprefix('Value error, ')}")
        fields = ", ".join(".".join(str(p) for p in e["loc"]) or "(file)" for e in exc.errors())
        return RecordError(str(path), lineno, fields, "; ".join(parts))
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        msg = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "json_invalid":
            field = "(json)"
        elif not field:
            head, sep, rest = msg.partition(": ")
            field, msg = (head, rest) if sep and " " not in head else ("(line)", msg)
        return RecordError(str(path), lineno, field, msg)
    return RecordError(str(path), lineno, "(json)", str(exc))


class RawLine(NamedTuple):
    """One non-blank line of a JSON-lines file, as bytes.

    Attributes:
        line: 1-based line number.
        offset: byte offset of the line's start (to read it again with ``seek``).
        raw: the line's bytes, newline included.
    """

    line: int
    offset: int
    raw: bytes


_new_tuple = tuple.__new__


def open_input(path: str | Path) -> BinaryIO:
    """``path`` opened to read a record file: a regular file, inside its folder.

    A benchmark's own files (items.jsonl, benchmark.json) are read only from inside their
    folder (:mod:`medvqa._path_guard`), and a FIFO never blocks the open.

    Raises:
        UnsafePathError: a FIFO, device or folder, or a benchmark file linked out of its
            folder.
        OSError: the file is missing or unreadable (as ``open`` raises it).

    """
    path = Path(path)
    if path.name in (ITEMS_FILE, BENCHMARK_FILE):
        own_file(path.parent, path.name)
    if os.path.exists(path):
        return open_regular(path)
    return path.open("rb")


def raw_lines(path: str | Path) -> Iterator[RawLine]:
    """Every non-blank line of a JSON-lines file, undecoded: what every reader here reads.

    Streaming readers that keep offsets or write each line back (``medvqa score``) read this
    and validate lines themselves; the others use :func:`read_numbered` or
    :func:`iter_json_lines`. A UTF-8 byte-order mark at the start of the file (some Windows
    editors write one) is not part of the first line, and its offset is past the mark.
    """
    offset = 0
    with open_input(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            if lineno == 1 and raw.startswith(UTF8_BOM):  # an editor's byte-order mark
                raw, offset = raw[len(UTF8_BOM):], len(UTF8_BOM)
            if raw.strip():
                # tuple.__new__: the NamedTuple's own constructor is a Python call per line.
                yield _new_tuple(RawLine, (lineno, offset, raw))
            offset += len(raw)


_T = TypeVar("_T")


def validate_raw(validate: Callable[[Any], _T], path: str | Path, lineno: int, raw: bytes) -> _T:
    """``validate`` of a raw line: its bytes as they are, and only when they fail, its text.

    Why: validating the bytes skips a decoded copy of every line, while the errors a caller
    reports come from the text, word for word as a reader of text reports them. Raises
    :class:`InputError` for a line that is not UTF-8, and what ``validate`` raises for a bad
    line (catch :class:`InputError` first: it is a ``ValueError`` too).
    """
    try:
        return validate(raw)
    except ValueError:  # pydantic's ValidationError is one
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(encoding_error(path, lineno, raw, exc)) from None
        return validate(text)


def read_numbered(
    path: str | Path,
    model: type[ModelT],
    errors: list[RecordError] | None = None,
    *,
    skip_bad_encoding: bool = False,
) -> Iterator[tuple[int, ModelT]]:
    """Stream ``(line number, record)`` from a JSONL file: the one typed JSON-lines reader.

    Args:
        path: the file.
        model: pydantic model of one line.
        errors: when given, bad lines are appended here and skipped; when None the first bad
            line raises :class:`InputError`. Blank lines are ignored.
        skip_bad_encoding: a line that is not UTF-8 is recorded in ``errors`` like any bad
            line (``validate`` lists them all); by default it raises :class:`InputError`
            whatever ``errors`` says, since such a file is not a JSONL file of ours at all.

    Yields:
        ``(1-based line number, validated record)`` per good line, in file order.
    """
    path = Path(path)
    for lineno, _, raw in raw_lines(path):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = encoding_error(path, lineno, raw, exc)
            if errors is None or not skip_bad_encoding:
                raise InputError(bad) from None
            errors.append(bad)
            continue
        try:
            yield lineno, model.model_validate_json(line)
        except (ValidationError, ValueError) as exc:
            err = record_error(path, lineno, exc)
            if errors is None:
                raise InputError(err) from None
            errors.append(err)


def read_jsonl(
    path: str | Path,
    model: type[ModelT],
    errors: list[RecordError] | None = None,
) -> Iterator[ModelT]:
    """Stream ``model`` records from a JSONL file (:func:`read_numbered` without the numbers)."""
    for _, record in read_numbered(path, model, errors):
        yield record


class JsonLine(NamedTuple):
    """One non-blank line of a JSON-lines file, parsed.

    Attributes:
        line: 1-based line number.
        value: the parsed JSON value (None when ``error`` is set).
        error: ``""``, or why the line could not be read (``(json): …``, ``(encoding): …``).
    """

    line: int
    value: Any
    error: str


def iter_json_lines(path: str | Path) -> Iterator[JsonLine]:
    """Every non-blank line of a JSON-lines file, parsed; a bad line carries its error.

    The one reader of untyped JSON lines (typed records: :func:`read_jsonl`). Lines are decoded
    one at a time, so a stray non-UTF-8 byte spoils its own line only.
    """
    for lineno, _, raw in raw_lines(path):
        try:
            yield JsonLine(lineno, json.loads(raw.decode("utf-8")), "")
        except UnicodeDecodeError as exc:
            err = encoding_error(path, lineno, raw, exc)
            yield JsonLine(lineno, None, f"{err.field}: {err.message}")
        except json.JSONDecodeError as exc:
            yield JsonLine(lineno, None, f"(json): {exc.msg}")
        except RecursionError:  # a line of thousands of nested brackets
            yield JsonLine(lineno, None, f"(json): {NESTED_TOO_DEEPLY}")


def dump_line(record: BaseModel) -> str:
    """One record as a compact JSON line (deterministic: field order is the model's)."""
    return record.model_dump_json() + "\n"


def write_jsonl(path: str | Path, records: Iterable[BaseModel]) -> str:
    """Write records atomically, streaming; return the SHA-256 of the bytes written."""
    digest = hashlib.sha256()
    with atomic_writer(path, "wb") as fh:
        for record in records:
            line = dump_line(record).encode("utf-8")
            digest.update(line)
            fh.write(line)
    return digest.hexdigest()


def write_json(path: str | Path, record: BaseModel) -> None:
    """Write one model as indented JSON, atomically."""
    atomic_write_text(path, record.model_dump_json(indent=2) + "\n")


def read_json(path: str | Path, model: type[ModelT]) -> ModelT:
    """Read one model from a JSON file.

    Raises:
        InputError: the file is not UTF-8, not JSON, or misses or mistypes fields (every
            field with a problem is named, in one line).

    """
    path = Path(path)
    try:
        with open_input(path) as fh:
            text = fh.read().decode("utf-8-sig")  # a leading byte-order mark is dropped
    except UnicodeDecodeError as exc:
        raise InputError(RecordError(str(path), 1, "(encoding)",
                                     f"not UTF-8 (byte at offset {exc.start})")) from None
    except OSError as exc:
        raise InputError(RecordError(str(path), 0, "(file)", exc.strerror or str(exc))) from None
    try:
        return model.model_validate_json(text)
    except (ValidationError, ValueError) as exc:
        raise InputError(record_error(path, 1, exc, every=True)) from None


def file_sha256(path: str | Path, chunk: int = 1 << 20) -> str:
    """SHA-256 hex digest of a file, read in chunks."""
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()
