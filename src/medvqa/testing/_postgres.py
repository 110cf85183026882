"""A throwaway PostgreSQL server on loopback, from Debian's binaries, for tests and benches.

``with PostgresServer() as url:`` runs ``initdb`` in a temporary folder, starts ``postgres`` on a
free port of 127.0.0.1 (TCP only on loopback; its socket in the same folder), and removes it all
on exit. PostgreSQL refuses to run as root, so as root the cluster is run by the ``postgres``
user that Debian's package creates.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def postgres_bin() -> Path | None:
    """The folder of Debian's PostgreSQL server binaries (newest version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """A throwaway cluster; the context value is a ``postgresql://`` URL to database ``medvqa``.

    Attributes:
        port: the TCP port on 127.0.0.1.
        folder: the temporary folder holding data, socket and log.
    """

    def __init__(self) -> None:
        found = postgres_bin()
        if found is None:
            raise FileNotFoundError("PostgreSQL server binaries not found "
                                    "(apt-get install postgresql)")
        self.bin: Path = found
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="medvqa-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        """The database URL (trust authentication on loopback; no password)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/medvqa"

    def __enter__(self) -> str:
        data = self.folder / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--no-sync")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                f"-c unix_socket_directories={self.folder} -c max_connections=200 "
                "-c fsync=off")
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "log"),
                  "-o", opts, "-w", "-t", "60", "start")
        deadline = time.monotonic() + 30
        while True:
            try:
                self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                          "-U", "postgres", "medvqa")
                break
            except subprocess.CalledProcessError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        return self.url

    def __exit__(self, *exc: object) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast",
                      "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
