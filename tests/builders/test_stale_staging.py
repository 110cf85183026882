"""A killed build's private folder is removed by the next build of the same output, and only
that: a build still running, another output's folders and fresh unlocked folders stay."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from medvqa.builders import BenchWriter

HOLD = """
import sys, time
from medvqa.builders import BenchWriter
w = BenchWriter(sys.argv[1])
(w.folder / "items.jsonl").write_text("{}\\n" * 1000)
print(w.folder, flush=True)
time.sleep(120)
"""


def _start_build(out: Path) -> tuple[subprocess.Popen[str], Path]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    return proc, Path(proc.stdout.readline().strip())


def test_next_build_removes_only_stale_staging_folders(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    live, live_dir = _start_build(out)
    try:
        killed, killed_dir = _start_build(out)  # its start leaves the live build alone
        os.kill(killed.pid, signal.SIGKILL)  # as a lost machine or the OOM killer would
        killed.wait()
        old_unlocked = tmp_path / ".bench.building-old12345"  # from a medvqa without locks
        fresh_unlocked = tmp_path / ".bench.building-new12345"
        other_output = tmp_path / ".other.building-old12345"
        lookalike = tmp_path / ".bench.building-notours-at-all"
        for folder in (old_unlocked, fresh_unlocked, other_output, lookalike):
            folder.mkdir()
            (folder / "items.jsonl").write_text("{}\n")
        day_ago = time.time() - 86_400
        for path in (old_unlocked / "items.jsonl", old_unlocked, other_output,
                     other_output / "items.jsonl", lookalike, lookalike / "items.jsonl"):
            os.utime(path, (day_ago, day_ago))
        assert killed_dir.is_dir() and live_dir.is_dir()

        with BenchWriter(out) as writer:
            assert sorted(writer.removed_stale) == sorted([killed_dir, old_unlocked])
            writer.commit()

        assert not killed_dir.exists() and not Path(f"{killed_dir}.lock").exists()
        assert not old_unlocked.exists()
        for kept in (live_dir, fresh_unlocked, other_output, lookalike):
            assert kept.is_dir(), kept
        assert live.poll() is None  # the running build was not disturbed
        assert not list(tmp_path.glob(".bench.building-*.lock"))[1:]  # only the live one's
    finally:
        live.kill()
        live.wait()
    # Once its holder is gone, the next build removes the last one too.
    with BenchWriter(out, force=True) as writer:
        assert writer.removed_stale == [live_dir]
        writer.commit()
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".bench."))
    assert leftovers == [fresh_unlocked.name, lookalike.name]
