"""Where a run was made: medvqa's source commit and the machine, for the report's methods.

A figure is reproducible only with the code and the machine that made it: run.json records
both (``environment``), and the report's methods table shows them beside the model spec.
Nothing here runs a process or reads an environment variable: the commit is read from the
checkout's ``.git`` files, so an installed wheel (no checkout) records none.
"""

from __future__ import annotations

import functools
import os
import platform
from pathlib import Path

__all__ = ["environment", "hardware", "tool_commit"]


def _git_dir(start: Path) -> Path | None:
    """The git directory of the checkout holding ``start``; None outside a checkout.

    A worktree's ``.git`` file (``gitdir: …``) is followed.
    """
    for folder in [start, *start.parents]:
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():
            text = dot.read_text("utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                target = Path(text.split(":", 1)[1].strip())
                return target if target.is_absolute() else (folder / target).resolve()
    return None


def _read_ref(git: Path, ref: str) -> str:
    """A ref's commit from its loose file, the common dir of a worktree, or packed-refs."""
    dirs = [git]
    common = git / "commondir"
    if common.is_file():
        dirs.append((git / common.read_text("utf-8").strip()).resolve())
    for d in dirs:
        if (d / ref).is_file():
            return (d / ref).read_text("utf-8").strip()
        packed = d / "packed-refs"
        if packed.is_file():
            for line in packed.read_text("utf-8").splitlines():
                if line.endswith(" " + ref):
                    return line.split(" ", 1)[0]
    return ""


@functools.lru_cache(maxsize=1)
def tool_commit() -> str:
    """The commit of the medvqa checkout this code runs from ('' when not a checkout)."""
    try:
        git = _git_dir(Path(__file__).resolve().parent)
        if git is None:
            return ""
        head = (git / "HEAD").read_text("utf-8").strip()
        return _read_ref(git, head[5:].strip()) if head.startswith("ref:") else head
    except OSError:
        return ""


def hardware() -> str:
    """'Linux x86_64, 16 CPUs' — the machine, in words (accelerators are the backend's)."""
    return f"{platform.system()} {platform.machine()}, {os.cpu_count() or '?'} CPUs"


def environment() -> dict[str, str]:
    """run.json's ``environment``: medvqa's commit, the machine and Python's version."""
    return {"commit": tool_commit(), "hardware": hardware(),
            "python": platform.python_version()}
