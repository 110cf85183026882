"""The one guard for paths that come from data: they stay inside their root and open only files.

A downloaded benchmark (or a folder to import, a recipe, a models.yaml) is untrusted input. A
path written in it — an item's image, ``prompt_template`` in benchmark.json, an image column
of a table to import, ``items.jsonl`` itself — must not make medvqa read, copy, export or send
a file from elsewhere on the machine, nor hang on something that is not a file. Every reader of
such a path goes through :func:`inside` (where it points) and :func:`read_regular` (what it
opens):

- refused: an absolute path, a ``..`` component, a NUL byte or another control character, and
  any path whose real location (symbolic links followed, of the file and of every folder on the
  way) leaves the root;
- opened only when it is a regular file: a FIFO, a device or a socket is refused before a byte
  is read (the file is opened non-blocking, then ``fstat`` checked, so a FIFO cannot hang the
  open either), and a size cap refuses a file too large to hold (an image file above
  :data:`MAX_IMAGE_FILE_BYTES`, wherever it is read).

The refusal is an :class:`UnsafePathError` (a :class:`~medvqa.errors.BadInputError`, exit 2)
whose message is one line; the caller prefixes the file, line and field it read the path from
(:func:`where`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from medvqa.errors import BadInputError

#: The most bytes of one image file read (512 MiB), in a source folder (building, importing) or
#: a benchmark: an uncompressed 16-bit RGBA image at the 40-megapixel pixel cap is 320 MB, and a
#: compressed one far less. A larger file named as an image (a volume, a disk image, gigabytes a
#: download put there) is refused before a byte of it is read, so memory stays bounded
#: whatever a folder holds.
MAX_IMAGE_FILE_BYTES = 512 << 20


class UnsafePathError(BadInputError, OSError):
    """A path from data leaves its root, or names something that is not a regular file."""


def where(file: str | Path, line: int | None, field: str) -> str:
    """The ``file:line: field`` prefix of a refusal (``line`` None: no line number).

    >>> where("B/items.jsonl", 3, "images[0]")
    'B/items.jsonl:3: images[0]'
    >>> where("B/benchmark.json", None, "prompt_template")
    'B/benchmark.json: prompt_template'
    """
    return f"{file}:{line}: {field}" if line is not None else f"{file}: {field}"


def form_problem(rel: str) -> str | None:
    r"""Why ``rel`` cannot be a relative path inside a folder (its text alone), or None.

    >>> form_problem("images/ab/abcd.png") is None
    True
    >>> form_problem("/etc/passwd")
    'is an absolute path'
    >>> form_problem("images/../../x.png")
    "holds a '..' component"
    >>> form_problem("a\x00b.png")
    'holds a NUL byte or another control character'
    """
    if not rel:
        return "is empty"
    if any(ord(c) < 32 or c == "\x7f" for c in rel):
        return "holds a NUL byte or another control character"
    if os.path.isabs(rel) or rel.startswith("~") or (len(rel) > 1 and rel[1] == ":"):
        return "is an absolute path"
    if ".." in rel.replace("\\", "/").split("/"):
        return "holds a '..' component"
    return None


def inside(root: str | Path, rel: str, *, what: str = "path", root_name: str = "") -> Path:
    """The real path of ``rel`` under ``root``; refused when it leaves ``root`` in any way.

    Args:
        root: the folder the path is relative to (a benchmark, an import's source folder).
        rel: the path as written in the data.
        what: what the path is, for the message ("image path", "prompt template").
        root_name: how the root is named in the message (default: "the folder ROOT").

    Raises:
        UnsafePathError: an absolute path, ``..``, a control character, or a link (of the
            file or of any folder on the way) whose target is outside ``root``.

    """
    named = root_name or f"the folder {root}"
    problem = form_problem(str(rel))
    if problem:
        raise UnsafePathError(f"{what} {rel!r} {problem}: refused as outside {named} (only "
                              "paths inside it are read)")
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(real_root, rel))
    if not within(real_root, real):
        raise UnsafePathError(f"{what} {rel!r} is outside {named} (a link to {real}); only "
                              "files inside it are read")
    return Path(real)


def within(root: str | Path, path: str | Path) -> bool:
    """Whether the real location of ``path`` (links followed) lies inside that of ``root``.

    For a path the user named (a folder given on the command line) rather than one written
    in data: its form is not checked, only where it really is.

    >>> within("/usr", "/usr/lib"), within("/usr/lib", "/usr/lib/../bin")
    (True, False)
    """
    real_root = os.path.realpath(root)
    return os.path.commonpath([real_root, os.path.realpath(path)]) == real_root


def regular_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a regular file to open (missing, a FIFO, a device …), or None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        return f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    return None if stat.S_ISREG(mode) else f"is {_kind(mode)}, not a regular file"


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def open_regular(path: str | Path, *, shown: str = "") -> BinaryIO:
    """``path`` opened for reading when it is a regular file (never blocks on a FIFO).

    The file is opened non-blocking and checked with ``fstat`` on the open descriptor, so a
    FIFO neither hangs the open nor the read, and a file swapped for a FIFO between a check and
    the open is still refused.

    Raises:
        UnsafePathError: missing, unreadable, or not a regular file.

    """
    name = shown or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise UnsafePathError(f"cannot read {name}: "
                              f"{getattr(exc, 'strerror', None) or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UnsafePathError(f"{name} is {_kind(mode)}, not a regular file; only regular "
                              "files are read")
    return os.fdopen(fd, "rb")


def read_regular(path: str | Path, *, max_bytes: int = 0, shown: str = "",
                 cap_of: str = "") -> bytes:
    """The bytes of ``path`` when it is a regular file (at most ``max_bytes``, 0 = any).

    With a cap, no more than ``max_bytes`` + 1 bytes are ever read, so a file that grows
    while it is read (or reports no size) is refused too, never held whole.

    Args:
        path: the file.
        max_bytes: the most bytes read (0: any).
        shown: how the refusal names the file (default: its path).
        cap_of: what the cap is for, in the refusal ("one image file").

    Raises:
        UnsafePathError: missing, unreadable, not a regular file (:func:`open_regular`), or
            above ``max_bytes``.

    """
    with open_regular(path, shown=shown) as fh:
        if not max_bytes:
            return fh.read()
        size = os.fstat(fh.fileno()).st_size
        data = fh.read(max_bytes + 1) if size <= max_bytes else b""
        if max(size, len(data)) > max_bytes:
            what = f" for {cap_of}" if cap_of else ""
            raise UnsafePathError(f"{shown or path} is {max(size, len(data)):,} bytes, above "
                                  f"the cap of {max_bytes:,}{what} ({max_bytes / 2**20:g} MiB)")
        return data


def read_utf8(path: str | Path, *, max_bytes: int = 0) -> str:
    """The text of a data file: a regular file, UTF-8 (a leading byte-order mark dropped).

    Args:
        path: the file.
        max_bytes: the most bytes read (0: any); a larger file is refused unread.

    Raises:
        UnsafePathError: missing, unreadable, not a regular file, or above ``max_bytes``.
        BadInputError: bytes that are not UTF-8 (the message names the line and byte).

    """
    data = read_regular(path, max_bytes=max_bytes)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BadInputError(f"{path}:{line}: not UTF-8 (byte {exc.start}); save the file as "
                            "UTF-8 and try again") from None


def own_file(folder: str | Path, name: str) -> Path:
    """``folder/name``, a file a format keeps in its folder (items.jsonl, benchmark.json).

    Such a file is read only when its real path stays inside the folder: a downloaded
    benchmark whose ``items.jsonl`` is a link to a file elsewhere is refused.

    Raises:
        UnsafePathError: the file is a link out of ``folder`` (the message names it).

    """
    path = Path(folder) / name
    try:
        inside(folder, name, what="file", root_name="its folder")
    except UnsafePathError as exc:
        raise UnsafePathError(f"{path}: {exc}") from None
    return path


def file_inside(root: str | Path, rel: str, *, what: str = "path",
                root_name: str = "") -> Path | None:
    """The real path of file ``rel`` under ``root`` (:func:`inside`), or None when it is missing.

    For a name read from data that a reader then opens (an image column, a volume of a table
    row): missing is the caller's to report; anything else that is not a regular file is
    refused here.

    Raises:
        UnsafePathError: ``rel`` leaves ``root`` (:func:`inside`), or names a FIFO, a device,
            a socket or a folder.

    """
    path = inside(root, rel, what=what, root_name=root_name)
    if not os.path.lexists(path):
        return None
    problem = regular_problem(path)
    if problem:
        raise UnsafePathError(f"{what} {rel!r} {problem}")
    return path


def read_inside(root: str | Path, rel: str, *, what: str = "path", root_name: str = "",
                max_bytes: int = 0, cap_of: str = "") -> bytes:
    """The bytes of ``rel`` under ``root``: :func:`inside`, then :func:`read_regular`."""
    path = inside(root, rel, what=what, root_name=root_name)
    return read_regular(path, max_bytes=max_bytes, shown=f"{what} {rel!r}", cap_of=cap_of)


def copy_inside(root: str | Path, rel: str, dest: str | Path, *, what: str = "path",
                root_name: str = "") -> None:
    """Copy ``rel`` under ``root`` to ``dest`` (the guard's checks first; ``dest`` atomic)."""
    data = read_inside(root, rel, what=what, root_name=root_name)
    dest = Path(dest)
    tmp = dest.with_name(f".{dest.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dest)


__all__ = ["MAX_IMAGE_FILE_BYTES", "UnsafePathError", "copy_inside", "file_inside",
           "form_problem", "inside", "open_regular", "own_file", "read_inside", "read_regular",
           "read_utf8", "regular_problem", "where", "within"]
