"""mypy passes on src/ (strict on schema, errors, score and models; see pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "src/medvqa", "--no-error-summary"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_every_type_ignore_names_its_code() -> None:
    """A bare ``# type: ignore`` hides every error on its line; each must name what it silences."""
    bare = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "src").rglob("*.py"))
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if "type: ignore" in line and "type: ignore[" not in line
    ]
    assert not bare, bare
