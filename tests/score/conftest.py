"""Scored runs on a real benchmark: ``lc25000_lung`` built from data/, run with the random and
frequent baselines through the real command line, shared by the score tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from scoring_cli import REPO, medvqa


@pytest.fixture(scope="session")
def lung_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """BENCH/ of lc25000_lung and two unscored RUN/s (random, frequent)."""
    root = tmp_path_factory.mktemp("lung")
    medvqa("build", "lc25000_lung", "-o", str(root / "bench"), "--data-root", str(REPO / "data"))
    out = {"bench": root / "bench"}
    for model in ("random", "frequent"):
        medvqa("run", str(root / "bench"), "-m", model, "-o", str(root / model), "--split", "all")
        out[model] = root / model
    return out
