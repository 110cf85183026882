"""The real ``medvqa`` command line as the score tests call it (a uniquely named module, so
test files import it by name without clashing with other folders' conftest modules)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MEDVQA = [str(Path(sys.executable).parent / "medvqa")]


def medvqa(*args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run the real ``medvqa`` command line."""
    proc = subprocess.run([*MEDVQA, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"medvqa {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc
