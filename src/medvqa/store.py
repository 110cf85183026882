"""Atomic file writes, the content-addressed image store of a BENCH/ folder, a full disk.

A file is never left half-written: writers go to a temporary file in the same folder, fsync it
and ``os.replace`` it over the target. Images are stored by the SHA-256 of their bytes
(``images/ab/abcd….png``) so a duplicate image is stored once and a path names its content.
A disk that fills up mid-write is bad input, not a bug: :func:`write_errors_are_bad_input` turns
the ``OSError`` (``ENOSPC``, ``EDQUOT``) or SQLite's "disk is full" into one line naming the
folder and saying what was left as it was (:class:`DiskFullError`, exit 2); so too a folder that
may not be written (read-only, no permission: :class:`NotWritableError`).
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from medvqa.errors import BadInputError

IMAGES_DIR = "images"


def current_umask() -> int:
    """The process's umask, read without changing it where Linux shows it (``/proc``)."""
    try:
        for line in Path("/proc/self/status").read_text("ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_mode(folder: bool = False) -> int:
    """The mode ``open()`` or ``mkdir()`` would give a new file (folder) under the umask.

    ``tempfile`` creates private (0600 / 0700) files and folders; medvqa renames those into
    place, so it sets this mode on them first: a report can be served and a benchmark shared as
    the user's umask allows. No file medvqa writes holds a secret in plain (API keys are never
    written; reviewer tokens and session cookies are stored hashed).
    """
    return (0o777 if folder else 0o666) & ~current_umask()


@contextmanager
def atomic_writer(
    path: str | Path, mode: str = "w", newline: str | None = "\n"
) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for streaming writes; rename it into place on success.

    Readers see the old file or the complete new one, never a mix; on any error (or a kill) the
    temporary file is removed (or left as a hidden ``.NAME.*.tmp``) and ``path`` is untouched.
    Text mode writes UTF-8 with ``newline`` line endings. The file keeps the mode of the one it
    replaces, or gets the umask's (:func:`new_mode`).

    Raises:
        BadInputError: ``path`` is a folder (a file is to be written there).
    """
    path = Path(path)
    if path.is_dir():  # os.replace would fail with a traceback, after the work was done
        raise BadInputError(f"{path}: is a folder, not a file; choose the file to write "
                            "(-o/--out FILE)")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    binary = "b" in mode
    try:
        try:
            os.fchmod(fd, stat.S_IMODE(path.stat().st_mode))
        except FileNotFoundError:
            os.fchmod(fd, new_mode())
        with os.fdopen(fd, mode, encoding=None if binary else "utf-8",
                       newline=None if binary else newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename is None:
            exc.filename = str(path)  # a failed write() names no file: the one line will
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


class DiskFullError(BadInputError):
    """The device ran out of space; the message names the folder and what was left as it was."""


#: ``errno`` values that mean "no space left": on the device, or in the user's quota.
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})
#: Free bytes under which SQLite's bare "disk I/O error" is taken to mean a full disk.
_NEARLY_FULL = 1 << 20


def is_disk_full(exc: BaseException, folder: str | Path | None = None) -> bool:
    """Whether ``exc`` says the device (of ``folder``) has no space left.

    ``ENOSPC``/``EDQUOT`` anywhere in the exception's chain count; so does SQLite's
    "database or disk is full", and its bare "disk I/O error" when ``folder``'s device has
    less than 1 MiB free (SQLite reports a failed journal write that way).
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in NO_SPACE:
            return True
        if isinstance(current, sqlite3.OperationalError):
            text = str(current).lower()
            if "disk is full" in text:
                return True
            if "disk i/o error" in text and folder is not None and _free(folder) < _NEARLY_FULL:
                return True
        current = current.__cause__ or current.__context__
    return False


def _free(folder: str | Path) -> int:
    """Free bytes on the device of ``folder`` (or of its nearest existing parent)."""
    path = Path(folder).absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return 0


#: ``errno`` values that mean a path may not be written (or read): a read-only file system, or
#: no permission.
NOT_WRITABLE = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
#: What SQLite says when its file or folder may not be written.
_SQLITE_NOT_WRITABLE = ("readonly database", "unable to open database file")


class NotWritableError(BadInputError):
    """A folder or file may not be written (read-only, no permission); the message names it."""


def not_writable_line(exc: BaseException, folder: str | Path | None = None) -> str | None:
    """The one line for ``exc`` when its chain says a path may not be written, else None.

    An ``OSError`` with ``EROFS``/``EACCES``/``EPERM`` counts, and SQLite's "readonly database"
    or "unable to open database file". The line names ``folder`` when given, else the file the
    error names when it exists, else that file's folder (where it could not be created).

    >>> import errno
    >>> not_writable_line(OSError(errno.EROFS, "Read-only file system", "/r/o/.x.tmp"))
    '/r/o: read-only file system'
    >>> not_writable_line(ValueError("x")) is None
    True
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in NOT_WRITABLE:
            reason = (current.strerror or "permission denied").lower()
            if folder is not None:
                return f"{folder}: {reason}"
            if not current.filename:
                return reason
            path = Path(os.fsdecode(current.filename))
            return f"{path if path.exists() else path.parent}: {reason}"
        if isinstance(current, sqlite3.OperationalError) and any(
            t in str(current).lower() for t in _SQLITE_NOT_WRITABLE
        ):
            return f"{folder}: {current}" if folder is not None else f"SQLite: {current}"
        current = current.__cause__ or current.__context__
    return None


#: What every "may not be written" line ends with.
NOT_WRITABLE_HINT = ("choose a folder you may write (-o/--out), or fix its permissions, and run "
                     "the command again")


@contextmanager
def write_errors_are_bad_input(folder: str | Path, left: str) -> Iterator[None]:
    """Turn a full disk, or a folder that may not be written, inside into one line; others pass.

    Args:
        folder: the folder being written (named in the line).
        left: what the caller leaves as it was, e.g. ``"the benchmark there is as it was"``.

    Raises:
        DiskFullError: ``"FOLDER: no space left on the device; LEFT; free some space …"``.
        NotWritableError: ``"FOLDER: read-only file system; LEFT; choose a folder you may …"``.

    """
    try:
        yield
    except BadInputError:
        raise
    except Exception as exc:
        if is_disk_full(exc, folder):
            raise DiskFullError(f"{folder}: no space left on the device; {left}; free some "
                                "space and run the command again") from None
        line = not_writable_line(exc, folder)
        if line is None:
            raise
        raise NotWritableError(f"{line}; {left}; {NOT_WRITABLE_HINT}") from None
