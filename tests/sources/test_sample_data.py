"""Shipped recipes find the shipped sample data from any folder; no data is a clear error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from medvqa.sources._sample_data import checkout_data_dir, install_sample_data

SRC = Path(__file__).resolve().parents[2] / "src"


def medvqa(*args: str, cwd: Path, env: dict[str, str] | None = None):
    full = {**os.environ, "PYTHONPATH": str(SRC), **(env or {})}
    return subprocess.run([sys.executable, "-m", "medvqa.cli", *args], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=300)


def test_shipped_recipe_builds_in_an_empty_folder(tmp_path: Path) -> None:
    proc = medvqa("build", "idrid_dr_grade", "-o", "b", cwd=tmp_path,
                  env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert proc.returncode == 0, proc.stderr
    assert "wrote b: 60 items" in proc.stdout and "0 skipped" in proc.stdout


def test_no_data_is_exit_2_naming_data_root_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    proc = medvqa("build", "idrid_dr_grade", "-o", "b", "--data-root", "empty", cwd=tmp_path)
    assert proc.returncode == 2
    assert "no items were built" in proc.stderr and "--data-root" in proc.stderr
    assert "medvqa data install" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "b").exists()
    allowed = medvqa("build", "idrid_dr_grade", "-o", "b", "--data-root", "empty",
                     "--allow-empty", cwd=tmp_path)
    assert allowed.returncode == 0 and "0 items" in allowed.stdout


def test_data_install_fills_the_user_data_folder(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    where = tmp_path / "xdg" / "medvqa" / "data"
    before = medvqa("data", "path", cwd=tmp_path, env=env)
    assert f"{where}  [not installed]" in before.stdout
    proc = medvqa("data", "install", cwd=tmp_path, env=env)
    assert proc.returncode == 0 and str(where) in proc.stdout
    assert (where / "idrid_disease_grading").is_dir()
    after = medvqa("data", "path", cwd=tmp_path, env=env)
    assert f"{where}  [installed]" in after.stdout


def test_install_refuses_a_folder_that_is_not_sample_data(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a medvqa sample-data folder"):
        install_sample_data(tmp_path, tmp_path / "dest")
    assert checkout_data_dir() is not None  # tests run from a checkout
