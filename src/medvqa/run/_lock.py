"""One ``medvqa run`` per RUN/ folder: an advisory lock that names its holder.

Two runs writing one folder would both send every request (each resumes from the same journal
before either has written an answer). The lock is ``filelock``'s OS-level lock on
``RUN/.lock`` (released by the kernel when the holder dies, so a SIGKILL leaves no stale lock);
beside it, ``RUN/.lock.holder.json`` says who holds it (pid, host, start time; never the
command line, which may hold secrets), so
the process that is refused can say who to wait for.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType

from filelock import FileLock, Timeout

from medvqa.errors import BadInputError

LOCK_FILE = ".lock"
HOLDER_FILE = ".lock.holder.json"


class RunFolderBusyError(BadInputError):
    """Another process holds the RUN/ folder; the message names it."""


def _holder_text(folder: Path) -> str:
    try:
        h = json.loads((folder / HOLDER_FILE).read_text(encoding="utf-8"))
        return f"pid {h['pid']} on {h['host']}, started {h['started_at']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that has not said who it is"


class RunFolderLock:
    """Exclusive lock on a RUN/ folder for the length of a run (a context manager).

    Args:
        folder: the RUN/ folder (must exist).

    Raises:
        RunFolderBusyError: on entry, when another process holds the folder.

    """

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._lock = FileLock(self.folder / LOCK_FILE, timeout=0, thread_local=False)

    def __enter__(self) -> RunFolderLock:
        try:
            self._lock.acquire()
        except Timeout:
            raise RunFolderBusyError(
                f"{self.folder}: another `medvqa run` is using this folder "
                f"({_holder_text(self.folder)}); wait for it to finish or choose another --out"
            ) from None
        holder = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        (self.folder / HOLDER_FILE).write_text(json.dumps(holder) + "\n", encoding="utf-8")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        (self.folder / HOLDER_FILE).unlink(missing_ok=True)
        self._lock.release()
