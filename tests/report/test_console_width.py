"""The console at 80 columns and in a pipe: no identifying name cut, the breakdown asked for
printed, two runs of compare told apart, help paragraphs joined."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _lung_bench import make_bench

MEDVQA = str(Path(sys.executable).parent / "medvqa")


def _pipe(*args: str) -> str:
    """``medvqa ARGS`` with its output piped, as a terminal of 80 columns would set it."""
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    proc = subprocess.run([MEDVQA, *args], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("console")
    bench = make_bench(root / "bench")
    a, b = root / "lung-random-with-corruptions", root / "lung-random-with-another-seed"
    _pipe("run", str(bench), "-m", "random", "-o", str(a),
          "--conditions", "clean,corrupt:defocus@3,corrupt:defocus@5")
    _pipe("run", str(bench), "-m", "random", "-o", str(b), "--seed", "1")
    return {"bench": bench, "a": a, "b": b}


def test_score_at_80_columns_keeps_every_condition_whole_and_prints_by(runs):
    out = _pipe("score", str(runs["bench"]), str(runs["a"]), "--resamples", "99",
                "--by", "category")
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    for name in ("corrupt:defocus@3", "corrupt:defocus@5"):
        assert name in out
    assert "clean by category" in out and "lung_aca" in out


def test_compare_tells_two_runs_of_one_model_apart(runs):
    _pipe("score", str(runs["bench"]), str(runs["b"]), "--resamples", "99")
    out = _pipe("compare", str(runs["a"]), str(runs["b"]), "--resamples", "99", "--bench",
                str(runs["bench"]))
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80
    joined = out.replace("\n", " ")
    assert "lung-random-with-corruptions" in joined.replace(" ", "")
    assert "lung-random-with-another-seed" in joined.replace(" ", "")
    assert "A − B" in out


def test_help_paragraphs_are_joined_not_broken_where_the_source_was():
    out = _pipe("compare", "--help")
    flat = " ".join(out.split())
    assert "when --bench shows that cases repeat" in flat
    lines = [line.strip() for line in out.splitlines()]
    # The paragraph wraps at the terminal's width, not after "shows that".
    assert not any(line.endswith("shows that") for line in lines)
