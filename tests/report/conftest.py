"""Fixtures of the report tests: real runs scored on a small real benchmark, and reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from _lung_bench import make_bench
from _medvqa_cli import cli


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict[str, Path]:
    """12 real lung tiles (9 test); random on the test split (clean, blind), frequent on 6."""
    root = tmp_path_factory.mktemp("items")
    bench = make_bench(root / "bench")
    for model, extra in (("random", ["--conditions", "clean,blind"]),
                         ("frequent", ["--limit", "6"])):
        assert cli("run", str(bench), "-m", model, "-o", str(root / model), *extra) == 0
        assert cli("score", str(bench), str(root / model), "--resamples", "199") == 0
    out = root / "out" / "report.html"
    assert cli("report", str(root / "random"), str(root / "frequent"), "--bench", str(bench),
               "-o", str(out)) == 0
    return {"root": root, "bench": bench, "out": out}
