"""The one BENCH/ writer: every builder, the LLM builders and the filters write through it.

A benchmark is assembled in a private folder beside the target (``.NAME.building-*``) and renamed
into place only when complete, so a failed or killed build never leaves a half-written BENCH/
and an old benchmark at the target stays intact until the new one is whole. A disk that fills up
during the build is one line (:class:`~medvqa.store.DiskFullError`) saying so. Items are streamed
(never held in memory), hashed as they are written and fsynced before the rename.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from medvqa.errors import BadInputError
from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, Benchmark, Item, dump_line, write_json
from medvqa.store import DiskFullError, ImageStore, is_disk_full, new_mode

log = logging.getLogger(__name__)

#: A private folder from before builds held a lock is stale once untouched this long (seconds).
UNLOCKED_STALE_S = 3600.0


class CountTally:
    """Running tallies behind the ``counts`` block of benchmark.json (no item is kept)."""

    def __init__(self) -> None:
        self.items = 0
        self.by: dict[str, Counter[str]] = {
            k: Counter() for k in ("by_split", "by_question_type", "by_category", "by_source")
        }

    def add(self, item: Item) -> None:
        """Count one item."""
        self.items += 1
        self.by["by_split"][item.split] += 1
        self.by["by_question_type"][item.question_type] += 1
        self.by["by_category"][item.category] += 1
        self.by["by_source"][item.source] += 1

    def counts(self, skipped: int, n_images: int) -> dict[str, object]:
        """The ``counts`` block (sorted keys, so bytes are stable)."""
        out: dict[str, object] = {"items": self.items, "images": n_images, "skipped": skipped}
        out.update({k: dict(sorted(c.items())) for k, c in self.by.items()})
        return out


def bench_counts(items: list[Item], skipped: int, n_images: int) -> dict[str, object]:
    """The ``counts`` block of benchmark.json for items in memory (see :class:`CountTally`)."""
    tally = CountTally()
    for item in items:
        tally.add(item)
    return tally.counts(skipped, n_images)


class WrittenItems(NamedTuple):
    """What :meth:`BenchWriter.write_items` wrote: count tallies and the SHA-256 of items.jsonl."""

    tally: CountTally
    sha256: str


class BenchWriter:
    """Assemble a BENCH/ folder privately, then put it in place at once.

    Use as a context manager: leaving it by an exception removes the private folder; call
    :meth:`commit` to rename it to ``out``.

    Args:
        out: the BENCH/ folder to write.
        force: replace a benchmark already at ``out``; without it that is refused at once
            (:func:`check_target`), before any work.
    """

    def __init__(self, out: str | Path, force: bool = False):
        from filelock import FileLock

        self.out = Path(out)
        check_target(self.out, force)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.removed_stale = remove_stale_builds(self.out)
        prefix = f".{self.out.name}.building-"
        self.folder = Path(tempfile.mkdtemp(dir=self.out.parent, prefix=prefix))
        try:  # a Ctrl-C before the context is entered still leaves nothing behind
            self.folder.chmod(new_mode(folder=True))  # mkdtemp's is 0700: a benchmark is shared
            self._lock = FileLock(_lock_path(self.folder), timeout=0, thread_local=False)
            self._lock.acquire()
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            _lock_path(self.folder).unlink(missing_ok=True)
            raise
        self.images = ImageStore(self.folder)

    def write_items(self, items: Iterable[Item]) -> WrittenItems:
        """Stream ``items`` to items.jsonl in order; tally and hash them as they go."""
        tally = CountTally()
        digest = hashlib.sha256()
        # The folder is private until commit(), so a plain write is crash-safe here.
        with (self.folder / ITEMS_FILE).open("wb") as fh:
            for item in items:
                data = dump_line(item).encode("utf-8")
                digest.update(data)
                fh.write(data)
                tally.add(item)
            fh.flush()
            os.fsync(fh.fileno())
        return WrittenItems(tally, digest.hexdigest())

    def write_benchmark(self, bench: Benchmark) -> None:
        """Write benchmark.json."""
        write_json(self.folder / BENCHMARK_FILE, bench)

    def write_records(self, name: str, records: Iterable[dict[str, Any]]) -> None:
        """Write a side file of JSON lines (``dropped.jsonl``, ``review.jsonl``), keys sorted."""
        with (self.folder / name).open("w", encoding="utf-8", newline="\n") as fh:
            for record in records:
                fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")

    def commit(self) -> Path:
        """Rename the assembled folder to ``out``; return ``out``."""
        replace_folder(self.folder, self.out)
        self._unlock()
        return self.out

    def discard(self) -> None:
        """Remove the private folder (nothing at ``out`` changes)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self._unlock()

    def _unlock(self) -> None:
        if self._lock.is_locked:
            self._lock.release()
            Path(self._lock.lock_file).unlink(missing_ok=True)

    def __enter__(self) -> BenchWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is not None or self.folder.exists():
            self.discard()
        if exc is not None and not isinstance(exc, DiskFullError) and is_disk_full(
            exc, self.out.parent
        ):
            left = ("the benchmark there is as it was" if (self.out / ITEMS_FILE).exists()
                    else "nothing was written there")
            raise DiskFullError(
                f"{self.out}: no space left on the device while building; the partial build "
                f"was removed and {left}; free some space and build again"
            ) from None


def _lock_path(folder: Path) -> Path:
    return folder.with_name(folder.name + ".lock")


def remove_stale_builds(out: Path, now: float | None = None) -> list[Path]:
    """Remove the private folders that killed builds of ``out`` left beside it.

    Only folders named as :class:`BenchWriter` names them for this output
    (``.NAME.building-XXXXXXXX``) are considered, and only stale ones are removed: their lock
    file can be taken (its holder is dead), or, for a folder without a lock file (left by a
    medvqa that took none), nothing in it changed for :data:`UNLOCKED_STALE_S` seconds. A
    build in progress, of this output or any other, is never touched.

    Returns:
        The folders removed.

    """
    from filelock import FileLock, Timeout

    pattern = re.compile(rf"\.{re.escape(out.name)}\.building-[a-z0-9_]{{8}}")
    now = time.time() if now is None else now
    removed = []
    for entry in sorted(out.parent.glob(f".{out.name}.building-*")):
        if entry.suffix == ".lock" and pattern.fullmatch(entry.stem) and not (
            entry.with_suffix("").exists()
        ):
            _remove_free_lock(entry)  # its folder was committed or removed
            continue
        if not pattern.fullmatch(entry.name) or not entry.is_dir() or entry.is_symlink():
            continue
        lock_path = _lock_path(entry)
        if not lock_path.exists():
            if now - _last_change(entry) < UNLOCKED_STALE_S:
                continue
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
            continue
        lock = FileLock(lock_path, timeout=0, thread_local=False)
        try:
            lock.acquire()
        except Timeout:
            continue  # a live build holds it
        try:
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
        finally:
            lock.release()
            lock_path.unlink(missing_ok=True)
    for entry in removed:
        log.info("removed %s, left by a build that was killed", entry)
    return removed


def _remove_free_lock(path: Path) -> None:
    """Remove a lock file nobody holds."""
    from filelock import FileLock, Timeout

    lock = FileLock(path, timeout=0, thread_local=False)
    try:
        lock.acquire()
    except Timeout:
        return
    lock.release()
    path.unlink(missing_ok=True)


def _last_change(folder: Path) -> float:
    """Latest modification time of ``folder`` and the entries directly in it."""
    latest = folder.stat().st_mtime
    for child in folder.iterdir():
        try:
            latest = max(latest, child.stat().st_mtime)
        except OSError:
            continue
    return latest


def check_target(out: Path, force: bool = False) -> None:
    """Refuse ``out`` as a BENCH/ to write unless absent, empty, or (``force``) a benchmark.

    Building over a benchmark replaces it whole: its audit.json and card go, and every run made
    on it no longer matches its items, so that needs ``--force``. A file, or a folder that is not
    a benchmark, is never replaced.

    Raises:
        BadInputError: one line naming ``out`` and what to do.

    """
    if not out.exists():
        return
    if not out.is_dir():
        raise BadInputError(f"{out}: is a file, not a folder; choose a BENCH/ folder to write")
    if not any(out.iterdir()):
        return
    if not is_benchmark(out):
        raise BadInputError(f"{out}: exists and is not a benchmark folder; not replacing it")
    if not force:
        raise BadInputError(
            f"{out}: a benchmark is already there; choose another -o folder, or pass --force "
            "to replace it (its audit, card and the runs made on it then no longer match)"
        )


def is_benchmark(folder: Path) -> bool:
    """Whether ``folder`` holds a benchmark (its benchmark.json or items.jsonl)."""
    return (folder / BENCHMARK_FILE).exists() or (folder / ITEMS_FILE).exists()


def replace_folder(tmp: Path, out: Path) -> None:
    """Rename ``tmp`` to ``out``, replacing a benchmark there (never another kind of folder)."""
    if out.exists():
        if out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        elif is_benchmark(out):
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        else:
            raise BadInputError(f"{out}: exists and is not a benchmark folder; not replacing it")
    tmp.rename(out)


