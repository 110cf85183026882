"""``medvqa run --models models.yaml``: many models, one command, one table; bad files refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run._models_file import load_models_file, model_config_for
from medvqa.schema import RunInfo, read_json


def medvqa_cli(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "medvqa.cli", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "400"})
    return proc


GOOD = """\
defaults:
  max_tokens: 8
models:
  - spec: random
    name: chance
  - spec: random
    name: chance-4
    parameters:
      seed: 4
  - spec: frequent
"""


def test_unknown_field_is_one_line_with_file_line_and_field(tmp_path: Path) -> None:
    f = tmp_path / "models.yaml"
    f.write_text("models:\n  - spec: random\n    parameters:\n      temprature: 0\n")
    with pytest.raises(BadInputError) as exc:
        load_models_file(f)
    message = str(exc.value)
    assert message.startswith(f"{f}:4: models[0].parameters.temprature: unknown field")
    assert "temperature" in message and "\n" not in message


def test_cli_refuses_a_bad_file_before_running_anything(tmp_path: Path, bench: Path) -> None:
    f = tmp_path / "models.yaml"
    f.write_text("models:\n  - spec: random\n  - spec: opena:x@http://127.0.0.1:9/v1\n")
    proc = medvqa_cli("run", str(bench), "--models", str(f), "-o", str(tmp_path / "runs"))
    assert proc.returncode == 2
    assert f"{f}:3: models[1].spec" in proc.stderr and "Did you mean 'openai'" in proc.stderr
    assert not (tmp_path / "runs").exists()
    f.write_text("models:\n  - spec: random\n    colour: red\n")
    proc = medvqa_cli("run", str(bench), "--models", str(f), "-o", str(tmp_path / "runs"))
    assert proc.returncode == 2 and "models[0].colour: unknown field" in proc.stderr


def test_entry_overrides_defaults_overrides_command_line(tmp_path: Path) -> None:
    f = tmp_path / "models.yaml"
    f.write_text(GOOD)
    models = load_models_file(f)
    base = ModelConfig(spec="", max_tokens=64, seed=1, endpoints=("http://127.0.0.1:1/v1",))
    first = model_config_for(models.models[0], models.defaults, base)
    second = model_config_for(models.models[1], models.defaults, base)
    assert (first.spec, first.max_tokens, first.seed) == ("random", 8, 1)
    assert (second.spec, second.max_tokens, second.seed) == ("random", 8, 4)
    assert second.endpoints == base.endpoints
    assert models.models[2].display_name == "frequent"


def test_every_model_runs_into_its_own_folder_and_is_reported(tmp_path: Path, bench: Path):
    f = tmp_path / "models.yaml"
    f.write_text(GOOD)
    runs = tmp_path / "runs"
    proc = medvqa_cli("run", str(bench), "--models", str(f), "-o", str(runs), "--split", "all")
    assert proc.returncode == 0, proc.stderr
    assert read_json(runs / "chance" / "run.json", RunInfo).model == "random"
    assert read_json(runs / "chance-4" / "run.json", RunInfo).model_params["seed"] == 4
    assert read_json(runs / "frequent" / "run.json", RunInfo).model == "frequent"
    table = proc.stdout[proc.stdout.index("3 models"):]
    assert all(n in table for n in ("chance", "chance-4", "frequent")) and table.count("12") >= 3
    for name in ("chance", "chance-4", "frequent"):
        scored = medvqa_cli("score", str(bench), str(runs / name), "--resamples", "99")
        assert scored.returncode == 0, scored.stderr
    report = medvqa_cli("report", "--models", str(f), "--runs-dir", str(runs),
                        "-o", str(tmp_path / "r.html"))
    assert report.returncode == 0, report.stderr
    md = (tmp_path / "r.md").read_text()
    # Issue 23.18: models.yaml's name is the display name (run.json, leaderboard), the spec is
    # in the methods; a model without a name is named from its spec.
    names = [read_json(runs / n / "run.json", RunInfo).display_name
             for n in ("chance", "chance-4", "frequent")]
    assert names == ["chance", "chance-4", "frequent"]
    assert all(f"| {n} |" in md for n in names)
    assert "full spec): chance: random; chance-4: random; frequent." in md
