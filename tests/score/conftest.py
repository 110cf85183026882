"""Scored runs on a real benchmark: ``lc25000_lung`` built from data/, run with the random and
frequent baselines through the real command line, shared by the score tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MEDVQA = [str(Path(sys.executable).parent / "medvqa")]


def medvqa(*args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run the real ``medvqa`` command line."""
    proc = subprocess.run([*MEDVQA, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"medvqa {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="session")
def lung_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """BENCH/ of lc25000_lung and two unscored RUN/s (random, frequent)."""
    root = tmp_path_factory.mktemp("lung")
    medvqa("build", "lc25000_lung", "-o", str(root / "bench"), "--data-root", str(REPO / "data"))
    out = {"bench": root / "bench"}
    for model in ("random", "frequent"):
        medvqa("run", str(root / "bench"), "-m", model, "-o", str(root / model))
        out[model] = root / model
    return out
